"""host/process.py in streaming mode: output reaches the callback while the process runs;
timeouts and cancellation kill the whole process group; output caps; spawn failures as results."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from hookwise.host.process import (
    OutputCallback,
    ProcessResult,
    ProcessSpec,
    StreamName,
    arun_process,
)


async def astream_process(
    spec: ProcessSpec, on_output: OutputCallback | None = None
) -> ProcessResult:
    return await arun_process(replace(spec, on_output=on_output))


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


async def wait_for_file(path: Path, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path} never written")


def test_chunks_arrive_while_the_process_runs() -> None:
    seen: list[tuple[float, StreamName, str]] = []
    script = "echo one; sleep 0.4; echo two >&2; sleep 0.4; echo three; exit 3"

    async def main() -> float:
        start = time.monotonic()
        result = await astream_process(
            ProcessSpec(["sh", "-c", script]),
            lambda stream, text: seen.append((time.monotonic() - start, stream, text)),
        )
        assert result.exit_code == 3
        assert result.stdout == "one\nthree\n" and result.stderr == "two\n"
        return time.monotonic() - start

    total = asyncio.run(main())
    assert [(s, t) for _, s, t in seen] == [
        ("stdout", "one\n"),
        ("stderr", "two\n"),
        ("stdout", "three\n"),
    ]
    assert seen[0][0] < total - 0.6  # "one" was delivered long before the exit
    assert seen[1][0] < total - 0.2


def test_utf8_split_between_reads_is_not_mangled() -> None:
    chunks: list[str] = []
    script = "printf '\\342\\202'; sleep 0.2; printf '\\254 euro\\n'"
    result = asyncio.run(
        astream_process(ProcessSpec(["sh", "-c", script]), lambda s, t: chunks.append(t))
    )
    assert "".join(chunks) == result.stdout == "€ euro\n"
    assert "\ufffd" not in "".join(chunks)


def test_stdin_env_and_cwd(tmp_path: Path) -> None:
    spec = ProcessSpec(
        ["sh", "-c", 'cat; echo "$FOO"; pwd'],
        stdin=b'{"hook": "turn_start"}\n',
        env={**os.environ, "FOO": "bar"},
        cwd=str(tmp_path),
    )
    result = asyncio.run(astream_process(spec))
    assert result.stdout == f'{{"hook": "turn_start"}}\nbar\n{tmp_path}\n'


def test_output_cap_counts_what_it_drops() -> None:
    chunks: list[str] = []
    spec = ProcessSpec(
        ["sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x >&2"], max_output_bytes=1000
    )
    result = asyncio.run(astream_process(spec, lambda s, t: chunks.append(t)))
    assert result.stderr == "x" * 1000 and len("".join(chunks)) == 1000
    assert result.stderr_truncated and result.stderr_dropped_bytes == 99_000


def test_spawn_failures_are_results(tmp_path: Path) -> None:
    result = asyncio.run(astream_process(ProcessSpec(["no-such-command-hookwise"])))
    assert result.spawn_error == "spawn no-such-command-hookwise ENOENT"
    assert result.spawn_error_detail == "command 'no-such-command-hookwise' not found in PATH"
    result = asyncio.run(astream_process(ProcessSpec(["sh"], cwd=str(tmp_path / "gone"))))
    assert result.spawn_error is not None and "ENOENT" in result.spawn_error
    result = asyncio.run(astream_process(ProcessSpec([])))
    assert result.spawn_error == "spawn  EINVAL"


def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild"
    script = f"sleep 60 & echo $! > {pidfile}; echo started; wait"

    async def main() -> None:
        result = await astream_process(
            ProcessSpec(["sh", "-c", script], timeout_ms=500, kill_grace_ms=200)
        )
        assert result.timed_out and result.exit_code is None and result.signal == 15
        assert result.stdout == "started\n"
        assert result.duration_ms < 5000

    asyncio.run(main())
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(grandchild)


def test_a_process_ignoring_term_gets_killed_after_the_grace() -> None:
    script = "trap '' TERM; echo ready; while :; do sleep 0.05; done"
    result = asyncio.run(
        astream_process(ProcessSpec(["sh", "-c", script], timeout_ms=300, kill_grace_ms=300))
    )
    assert result.timed_out and result.signal == 9
    assert result.duration_ms < 5000


def test_cancelling_kills_the_group_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild"
    script = f"sleep 60 & echo $! > {pidfile}; wait"

    async def main() -> float:
        task = asyncio.ensure_future(astream_process(ProcessSpec(["sh", "-c", script])))
        grandchild = int(await wait_for_file(pidfile))
        start = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        elapsed = time.monotonic() - start
        deadline = time.monotonic() + 2
        while alive(grandchild) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert not alive(grandchild)
        return elapsed

    assert asyncio.run(main()) < 1.0


def test_a_raising_callback_kills_the_process(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"

    def boom(stream: StreamName, text: str) -> None:
        raise RuntimeError("subscriber bug")

    async def main() -> None:
        spec = ProcessSpec(["sh", "-c", f"echo $$ > {pidfile}; echo hi; sleep 60"])
        with pytest.raises(RuntimeError, match="subscriber bug"):
            await astream_process(spec, boom)

    asyncio.run(main())
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 2
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(pid)
