"""The process layer: real processes, timeouts that kill whole groups, capped output,
spawn failures as results, bounded parallelism, and no leaks after 10,000 runs.

Most behaviour tests run through both APIs (sync poll loop, asyncio) and through the
fallbacks (no pidfd, no epoll, Popen instead of posix_spawn), because each fallback
is a different code path that some machine will take.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.host import process
from hookwise.host.process import (
    ProcessResult,
    ProcessSpec,
    arun_process,
    arun_processes,
    run_process,
    run_processes,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="checks /proc; Linux only")

MODES = ["default", "no-pidfd", "popen", "poll"]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Switch the module onto one of its code paths."""
    name: str = request.param
    if name == "no-pidfd":
        monkeypatch.setattr(process._Features, "pidfd", False)
    elif name == "popen":
        monkeypatch.setattr(process, "_FAST_SPAWN", False)
    elif name == "poll":  # sync: poll(); async: the asyncio loop itself
        monkeypatch.setattr(process._Features, "epoll", False)
    return name


@pytest.fixture(params=["sync", "async"])
def api(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def run_all(api: str, specs: Sequence[ProcessSpec], max_parallel: int = 8) -> list[ProcessResult]:
    if api == "sync":
        return run_processes(specs, max_parallel)
    return asyncio.run(arun_processes(specs, max_parallel))


def run_one(api: str, spec: ProcessSpec) -> ProcessResult:
    return run_all(api, [spec], 1)[0]


def sh(command: str, **kwargs: object) -> ProcessSpec:
    return ProcessSpec(argv=("bash", "-c", command), **kwargs)  # type: ignore[arg-type]


# --- /proc helpers -------------------------------------------------------------------


def proc_state(pid: int) -> str | None:
    """The state letter of a process, None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except FileNotFoundError:
        return None
    return stat[stat.rfind(b")") + 2 :].split()[0].decode()


def is_dead(pid: int, wait_s: float = 3.0) -> bool:
    """Gone, or a zombie (this machine's PID 1 may never reap orphans)."""
    deadline = time.monotonic() + wait_s
    while True:
        if proc_state(pid) in (None, "Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


def my_children() -> set[int]:
    """Children of this process, running or zombie, without reaping any."""
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        text = (task / "children").read_text().split()
        pids.update(int(p) for p in text)
    return pids


def open_fds() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


def kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture(autouse=True)
def no_leaks() -> Iterator[None]:
    """Every test leaves no child of ours behind and no fd open."""
    children = my_children()
    fds = open_fds()
    yield
    assert my_children() <= children, "a child process was left behind"
    leaked = open_fds() - fds
    assert not leaked, f"leaked fds: {sorted(leaked)}"


# --- the basics ----------------------------------------------------------------------


def test_stdin_stdout_stderr_and_exit_code(mode: str, api: str) -> None:
    result = run_one(api, sh("cat; echo oops >&2; exit 3", stdin=b'{"a":1}'))
    assert result.stdout == '{"a":1}'  # stdin exactly, no newline added
    assert result.stderr == "oops\n"
    assert result.exit_code == 3
    assert result.signal is None
    assert not result.timed_out
    assert result.spawn_error is None
    assert result.pid is not None and result.duration_ms > 0


@pytest.mark.parametrize("code", [0, 1, 2, 127, 255])
def test_exit_codes(code: int) -> None:
    assert run_process(sh(f"exit {code}")).exit_code == code


def test_missing_script_is_an_exit_code_not_a_spawn_error() -> None:
    result = run_process(sh("/nonexistent/hook.sh"))
    assert result.spawn_error is None
    assert result.exit_code == 127
    assert "No such file or directory" in result.stderr


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_killed_by_a_signal(mode: str, api: str, sig: signal.Signals) -> None:
    result = run_one(api, sh(f"echo before; kill -{sig.name[3:]} $$; echo after"))
    assert result.exit_code is None
    assert result.signal == sig
    assert result.stdout == "before\n"
    assert not result.timed_out


def test_env_replaces_and_none_inherits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWISE_PROCESS_TEST", "inherited")
    inherited = run_process(sh('printf %s "$HOOKWISE_PROCESS_TEST"'))
    assert inherited.stdout == "inherited"
    given = run_process(
        sh(
            'printf %s "${HOOKWISE_PROCESS_TEST-unset}:$ONLY"',
            env={"PATH": "/usr/bin:/bin", "ONLY": "x"},
        )
    )
    assert given.stdout == "unset:x"


def test_cwd(mode: str, tmp_path: Path) -> None:
    assert run_process(sh("pwd", cwd=str(tmp_path))).stdout == f"{tmp_path}\n"
    here = os.getcwd()
    assert run_process(sh("pwd", cwd=here)).stdout == f"{here}\n"  # the posix_spawn path
    assert run_process(sh("pwd")).stdout == f"{here}\n"


def test_children_get_default_sigpipe(mode: str) -> None:
    """Python ignores SIGPIPE; a hook must not inherit that (yes | head must end)."""
    result = run_process(sh('yes | head -c 5; echo " ${PIPESTATUS[0]}"', timeout_ms=10_000))
    assert result.stdout == "y\ny\ny 141\n"  # 128 + SIGPIPE


def test_each_child_leads_its_own_process_group_and_session(mode: str) -> None:
    result = run_process(sh("cat /proc/$$/stat"))
    fields = result.stdout[result.stdout.rfind(")") + 2 :].split()
    pgid, sid = int(fields[2]), int(fields[3])
    assert pgid == result.pid
    assert sid == result.pid
    assert os.getpgid(0) != pgid


# --- spawn failures ------------------------------------------------------------------


def test_missing_executable_is_a_result_in_nodes_words(mode: str, api: str) -> None:
    result = run_one(api, ProcessSpec(argv=("hookwise-no-such-command", "x")))
    assert result.spawn_error == "spawn hookwise-no-such-command ENOENT"
    assert result.spawn_error_detail is not None
    assert "'hookwise-no-such-command' not found in PATH" in result.spawn_error_detail
    assert result.exit_code is None and result.signal is None and result.pid is None
    assert result.stdout == "" and result.stderr == ""


def test_missing_executable_path(mode: str) -> None:
    result = run_process(ProcessSpec(argv=("/nonexistent/bin/tool",)))
    assert result.spawn_error == "spawn /nonexistent/bin/tool ENOENT"
    assert result.spawn_error_detail == "command '/nonexistent/bin/tool' not found"


def test_missing_cwd_is_spawn_bash_enoent(mode: str, api: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "gone")
    result = run_one(api, sh("true", cwd=missing))
    assert result.spawn_error == "spawn bash ENOENT"  # exactly what the engine reports
    assert result.spawn_error_detail == f"working directory {missing!r} does not exist"


def test_cwd_is_a_file(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_text("")
    result = run_process(sh("true", cwd=str(file)))
    assert result.spawn_error == "spawn bash ENOTDIR"
    assert str(file) in (result.spawn_error_detail or "")


def test_not_executable(tmp_path: Path) -> None:
    script = tmp_path / "hook.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    result = run_process(ProcessSpec(argv=(str(script),)))
    assert result.spawn_error == f"spawn {script} EACCES"
    assert "Permission denied" in (result.spawn_error_detail or "")


def test_invalid_specs_are_results_too() -> None:
    empty = run_process(ProcessSpec(argv=()))
    assert empty.spawn_error == "spawn  EINVAL"
    nul = run_process(ProcessSpec(argv=("bash", "-c", "true\0")))
    assert nul.spawn_error == "spawn bash EINVAL"
    bad_env = run_process(sh("true", env={"A=B": "c"}))
    assert bad_env.spawn_error == "spawn bash EINVAL"


def test_spawn_failures_do_not_stop_the_batch(mode: str, api: str) -> None:
    results = run_all(
        api,
        [sh("echo a"), ProcessSpec(argv=("hookwise-no-such-command",)), sh("echo c")],
        max_parallel=1,
    )
    assert [r.stdout for r in results] == ["a\n", "", "c\n"]
    assert results[1].spawn_error is not None


def test_path_cache_sees_new_binaries(tmp_path: Path) -> None:
    early, late = tmp_path / "early", tmp_path / "late"
    early.mkdir()
    late.mkdir()
    for directory, word in ((late, "late"),):
        tool = directory / "hwtool"
        tool.write_text(f"#!/bin/sh\necho {word}\n")
        tool.chmod(0o755)
    env = {"PATH": f"{early}:{late}:/usr/bin:/bin"}
    assert run_process(ProcessSpec(argv=("hwtool",), env=env)).stdout == "late\n"
    shadow = early / "hwtool"
    shadow.write_text("#!/bin/sh\necho early\n")
    shadow.chmod(0o755)
    time.sleep(process._ExecutableCache._RECHECK_S)
    assert run_process(ProcessSpec(argv=("hwtool",), env=env)).stdout == "early\n"
    shadow.unlink()
    (late / "hwtool").unlink()
    time.sleep(process._ExecutableCache._RECHECK_S)
    gone = run_process(ProcessSpec(argv=("hwtool",), env=env))
    assert gone.spawn_error == "spawn hwtool ENOENT"


def test_path_cache_never_runs_a_removed_binary(mode: str, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for directory in (first, second):
        directory.mkdir()
    tool = first / "hwtool2"
    tool.write_text("#!/bin/sh\necho first\n")
    tool.chmod(0o755)
    env = {"PATH": f"{first}:{second}:/usr/bin:/bin"}
    assert run_process(ProcessSpec(argv=("hwtool2",), env=env)).stdout == "first\n"
    tool.unlink()
    other = second / "hwtool2"
    other.write_text("#!/bin/sh\necho second\n")
    other.chmod(0o755)
    # within the cache's re-check interval: the remembered path is gone
    assert run_process(ProcessSpec(argv=("hwtool2",), env=env)).stdout == "second\n"


# --- timeouts ------------------------------------------------------------------------


def pids_in(text: str) -> list[int]:
    return [int(word) for word in text.split()]


def test_timeout_kills_the_whole_group(mode: str, api: str) -> None:
    """`sleep & sleep`: the background sleep holds the pipes; all of it must die."""
    started = time.monotonic()
    result = run_one(api, sh("sleep 100 & echo $!; sleep 100 & echo $!; wait", timeout_ms=300))
    elapsed = time.monotonic() - started
    assert result.timed_out
    assert result.signal == signal.SIGTERM and result.exit_code is None
    assert 0.25 < elapsed < 3.0  # well inside the 5 s grace: TERM was enough
    pids = pids_in(result.stdout)
    assert len(pids) == 2
    assert all(is_dead(pid) for pid in pids)


def test_term_ignored_gets_kill_after_the_grace(mode: str, api: str) -> None:
    started = time.monotonic()
    result = run_one(
        api,
        sh(
            "trap '' TERM; sleep 100 & echo $!; sleep 100; echo never",
            timeout_ms=200,
            kill_grace_ms=600,
        ),
    )
    elapsed = time.monotonic() - started
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert "never" not in result.stdout
    assert 0.75 < elapsed < 4.0
    assert all(is_dead(pid) for pid in pids_in(result.stdout))


def test_grandchild_holding_the_pipes_after_a_normal_exit(mode: str, api: str) -> None:
    """The child exits 0 at once; its background job keeps stdout open. Like the engine
    (which waits for the pipes to close) this is a timeout, but the exit code is kept."""
    started = time.monotonic()
    result = run_one(api, sh("sleep 100 & echo $!", timeout_ms=300))
    elapsed = time.monotonic() - started
    assert result.timed_out
    assert result.exit_code == 0
    assert elapsed < 3.0
    assert all(is_dead(pid) for pid in pids_in(result.stdout))


def test_grandchild_that_left_the_group_does_not_hold_us(mode: str, api: str) -> None:
    """A grandchild in its own session keeps the pipe open and survives the group kill:
    once the child is gone and the group is empty we stop reading."""
    started = time.monotonic()
    result = run_one(api, sh("setsid sleep 30 & echo $!", timeout_ms=300))
    elapsed = time.monotonic() - started
    escaped = pids_in(result.stdout)
    try:
        assert result.timed_out and result.exit_code == 0
        assert elapsed < 3.0  # not the 5 s grace, not the 30 s sleep
    finally:
        for pid in escaped:
            kill_quietly(pid)


def test_stopped_child_is_continued_so_that_term_works(mode: str) -> None:
    started = time.monotonic()
    result = run_process(sh("kill -STOP $$; echo never", timeout_ms=200))
    assert result.timed_out
    assert result.signal == signal.SIGTERM
    assert time.monotonic() - started < 3.0


def test_closed_output_but_still_running_is_waited_for(mode: str, api: str) -> None:
    started = time.monotonic()
    result = run_one(api, sh("echo hi; exec >&- 2>&-; sleep 0.3; exit 4"))
    assert result.exit_code == 4
    assert result.stdout == "hi\n"
    assert not result.timed_out
    assert time.monotonic() - started >= 0.3


def test_zero_and_nan_timeouts_fire_at_once() -> None:
    for timeout in (0.0, -5.0, float("nan")):
        result = run_process(sh("sleep 5", timeout_ms=timeout))
        assert result.timed_out
        assert result.duration_ms < 3000


def test_infinite_timeout() -> None:
    result = run_process(sh("echo ok", timeout_ms=float("inf")))
    assert result.stdout == "ok\n" and not result.timed_out


# --- output --------------------------------------------------------------------------


def test_output_is_capped_and_marked(mode: str, api: str) -> None:
    result = run_one(
        api,
        sh(
            "head -c 3000000 /dev/zero | tr '\\0' a; head -c 70000 /dev/zero | tr '\\0' b >&2",
            max_output_bytes=1000,
        ),
    )
    assert result.exit_code == 0  # kept reading past the cap: the child never blocked
    assert result.stdout == "a" * 1000
    assert result.stdout_truncated and result.stdout_dropped_bytes == 3_000_000 - 1000
    assert result.stderr == "b" * 1000
    assert result.stderr_truncated and result.stderr_dropped_bytes == 70_000 - 1000


def test_default_cap_is_one_mebibyte() -> None:
    result = run_process(sh("head -c 2000000 /dev/zero | tr '\\0' x"))
    assert len(result.stdout) == 1 << 20
    assert result.stdout_truncated
    assert not result.stderr_truncated and result.stderr_dropped_bytes == 0


def test_invalid_utf8_is_replaced(mode: str) -> None:
    result = run_process(sh(r"printf 'ok \xff\xfe \xe2\x82 end'; printf '\xc3' >&2"))
    assert result.stdout == "ok \ufffd\ufffd \ufffd end"
    assert result.stderr == "\ufffd"


def test_child_that_does_not_read_a_large_stdin(mode: str, api: str) -> None:
    data = b"x" * (8 << 20)
    for command, code in (("true", 0), ("exit 3", 3), ("head -c 10 >/dev/null; exit 5", 5)):
        result = run_one(api, sh(command, stdin=data, timeout_ms=20_000))
        assert result.exit_code == code
        assert not result.timed_out


def test_large_stdin_and_large_stdout_at_once(mode: str, api: str) -> None:
    """cat echoes 8 MiB while we are still writing: both directions must flow."""
    data = bytes(range(32, 127)) * ((8 << 20) // 95)
    result = run_one(api, sh("cat", stdin=data, max_output_bytes=16 << 20, timeout_ms=30_000))
    assert result.exit_code == 0
    assert result.stdout == data.decode()
    assert not result.stdout_truncated


def test_stdin_of_exactly_pipe_buf_and_one_more() -> None:
    import select

    for size in (select.PIPE_BUF, select.PIPE_BUF + 1, 65536, 65537):
        data = b"y" * size
        assert run_process(sh("cat", stdin=data)).stdout == data.decode()


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=5000), cap=st.integers(min_value=0, max_value=6000))
def test_any_bytes_round_trip_through_cap_and_decoder(data: bytes, cap: int) -> None:
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        result = run_process(
            ProcessSpec(
                argv=("bash", "-c", 'cat "$1"; cat "$1" >&2', "_", f.name), max_output_bytes=cap
            )
        )
    expected = data[:cap].decode("utf-8", "replace")
    assert result.stdout == expected and result.stderr == expected
    assert result.stdout_truncated == (len(data) > cap)
    assert result.stdout_dropped_bytes == max(0, len(data) - cap)


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(st.binary(max_size=300), max_size=20), cap=st.integers(0, 2000))
def test_stream_cap_over_any_chunking(chunks: list[bytes], cap: int) -> None:
    stream = process._Stream(-1, cap)
    for chunk in chunks:
        stream.keep(chunk)
    whole = b"".join(chunks)
    assert bytes(stream.buf) == whole[:cap]
    assert stream.dropped == max(0, len(whole) - cap)


# --- parallelism ---------------------------------------------------------------------


def test_results_keep_spec_order(mode: str, api: str) -> None:
    specs = [sh(f"sleep 0.{4 - i}; echo {i}") for i in range(4)]
    assert [r.stdout for r in run_all(api, specs, max_parallel=4)] == [f"{i}\n" for i in range(4)]


def test_parallelism_is_bounded(mode: str, api: str) -> None:
    spans_cmd = "date +%s%N; sleep 0.2; date +%s%N"
    results = run_all(api, [sh(spans_cmd) for _ in range(7)], max_parallel=3)
    spans = [tuple(int(x) for x in r.stdout.split()) for r in results]
    edges = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    running = peak = 0
    for _, step in edges:
        running += step
        peak = max(peak, running)
    assert peak == 3


def test_max_parallel_must_be_positive() -> None:
    with pytest.raises(ValueError):
        run_processes([sh("true")], 0)
    with pytest.raises(ValueError):
        asyncio.run(arun_processes([sh("true")], 0))


def test_no_specs() -> None:
    assert run_processes([]) == []
    assert asyncio.run(arun_processes([])) == []


def test_run_process_and_arun_process() -> None:
    assert run_process(sh("echo x")).stdout == "x\n"
    assert asyncio.run(arun_process(sh("echo y"))).stdout == "y\n"


# --- asyncio -------------------------------------------------------------------------


def test_async_does_not_block_the_loop(mode: str) -> None:
    async def main() -> tuple[int, ProcessResult]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        result = await arun_process(sh("sleep 0.5; echo done"))
        task.cancel()
        return ticks, result

    ticks, result = asyncio.run(main())
    assert result.stdout == "done\n"
    assert ticks >= 15


def test_cancelling_kills_and_reaps(mode: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"

    async def main() -> None:
        spec = sh(f"echo $$ > {pidfile}; sleep 100 & wait")
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(arun_processes([spec, spec]), 0.5)

    asyncio.run(main())
    assert is_dead(int(pidfile.read_text()))


def test_concurrent_batches_on_one_loop(mode: str) -> None:
    async def main() -> list[list[ProcessResult]]:
        return await asyncio.gather(
            *(arun_processes([sh(f"echo {b}-{i}") for i in range(3)], 2) for b in range(5))
        )

    batches = asyncio.run(main())
    assert [[r.stdout for r in batch] for batch in batches] == [
        [f"{b}-{i}\n" for i in range(3)] for b in range(5)
    ]


# --- failures inside the layer -------------------------------------------------------


def test_a_crash_inside_a_handler_kills_and_reaps(
    mode: str, api: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(self: object, data: bytes) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(process._Stream, "keep", boom)
    with pytest.raises(RuntimeError, match="boom"):
        run_all(api, [sh("echo hi; sleep 100"), sh("sleep 100")])


# --- leaks ---------------------------------------------------------------------------


@pytest.mark.slow
def test_no_zombies_and_no_fd_leaks_after_10000_runs(tmp_path: Path) -> None:
    """10,000 runs, sync and async, including spawn failures, other cwds, stdin and
    output; afterwards no child of ours exists and the fd count is back to baseline."""
    run_processes([ProcessSpec(argv=("true",))])  # warm the PATH cache etc.
    baseline = len(open_fds())
    other_cwd = str(tmp_path)
    specs: list[ProcessSpec] = []
    for i in range(100):
        if i == 7:
            specs.append(ProcessSpec(argv=("hookwise-no-such-command",)))
        elif i == 13:
            specs.append(ProcessSpec(argv=("true",), cwd=str(tmp_path / "missing")))
        elif i % 10 == 3:
            specs.append(ProcessSpec(argv=("pwd",), cwd=other_cwd))
        elif i % 10 == 5:
            specs.append(ProcessSpec(argv=("cat",), stdin=b"z" * 5000))
        else:
            specs.append(ProcessSpec(argv=("true",), stdin=b"{}"))

    async def run_async(batches: int) -> None:
        for _ in range(batches):
            await arun_processes(specs, 8)

    for _ in range(50):
        results = run_processes(specs, 8)
        assert sum(r.exit_code == 0 for r in results) == 98
    asyncio.run(run_async(50))

    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
    assert my_children() == set()
    assert len(open_fds()) == baseline
