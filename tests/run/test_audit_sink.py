"""The audit sink: records sent from inside reach the log; nothing inside can remove,
truncate, replace or redirect it; the client never blocks and never raises."""

from __future__ import annotations

import _socket
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.audit import MAX_RECORD, SEND_TIMEOUT, send_record
from hookwise.run.audit_sink import AuditSink, SinkError, line_of, open_log, stamped_line
from tests.run.conftest import HOOKWISE, World, needs_namespaces

SENDER = (
    "import os, sys\n"
    "from hookwise.policy.audit import send_record\n"
    "path = os.environ['HOOKWISE_RUN_AUDIT']\n"
    'ok = [send_record(path, (\'{"n": %d, "decision": "deny"}\' % i).encode()) for i in range(5)]\n'
    "ok.append(send_record(path, b'not json'))\n"
    "ok.append(send_record(path, b'[1, 2]'))\n"
    "print(ok)\n"
)


@needs_namespaces
def test_records_from_inside_reach_the_log(world: World) -> None:
    before = world.audit_log.read_bytes()
    python = str(Path(HOOKWISE).parent / "python")
    done = world.run(f'{python} -c "$SENDER"', env={**world.env, "SENDER": SENDER})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str([True] * 7)
    assert "refused 2 audit record(s)" in done.stderr
    text = world.audit_log.read_bytes()
    assert text.startswith(before)
    added = [json.loads(line) for line in text[len(before) :].splitlines()]
    assert [r["n"] for r in added if "n" in r] == [0, 1, 2, 3, 4]
    # each stamped with its sender as the kernel saw it (not a hook: it never said started)
    senders = {r["sender"]["pid"] for r in added if "n" in r}
    assert len(senders) == 1 and senders != {0}
    assert all(r["sender"]["hook"] is False for r in added if "n" in r)
    # and the refusals are in the log itself, not only on stderr
    refused = [r for r in added if r.get("event") == "records_refused"]
    assert sum(r["refused"] for r in refused) == 2
    assert all(r["source"] == "run" for r in refused)


@needs_namespaces
@pytest.mark.parametrize(
    "attack",
    [
        'rm -f "$L" && echo BROKEN',
        '( : > "$L" ) && echo BROKEN',
        'truncate -s 0 "$L" && echo BROKEN',
        'mv "$L" /tmp/moved && echo BROKEN',
        'rm -f "$L"; mkfifo "$L" && echo BROKEN',
        'ln -sf /dev/stdout "$L" && echo BROKEN',
        'mv "$(dirname "$L")" /tmp/state && echo BROKEN',
        'rm -f "$HOOKWISE_RUN_AUDIT" && echo BROKEN',
        'python3 -c "import socket,os; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); '
        "s.bind(os.environ['HOOKWISE_RUN_AUDIT'])\" && echo BROKEN",
    ],
)
def test_the_log_cannot_be_rewritten_from_inside(world: World, attack: str) -> None:
    before = world.audit_log.read_bytes()
    env = {**world.env, "L": str(world.audit_log)}
    done = world.run("echo SESSION; " + attack + "; true", env=env)
    assert "SESSION" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, done.stderr
    assert world.audit_log.read_bytes() == before
    assert world.audit_log.is_file() and not world.audit_log.is_symlink()


@needs_namespaces
def test_a_fifo_in_place_of_the_log_is_refused_before_the_start(world: World) -> None:
    world.audit_log.unlink()
    os.mkfifo(world.audit_log)
    done = world.run("echo STARTED")
    assert done.returncode == 125
    assert "STARTED" not in done.stdout
    assert f"the audit log {world.audit_log} is a FIFO; remove it" in done.stderr


def test_open_log_refuses_links_and_fifos(tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "target")
    with pytest.raises(SinkError, match="is a symbolic link"):
        open_log(str(link))
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader: the open alone succeeds
    try:
        with pytest.raises(SinkError, match="is a FIFO"):
            open_log(str(fifo))
    finally:
        os.close(reader)
    fd = open_log(str(tmp_path / "new/audit.jsonl"))
    os.close(fd)
    assert (tmp_path / "new/audit.jsonl").stat().st_mode & 0o777 == 0o600


def test_a_record_is_one_json_object_on_one_line() -> None:
    assert line_of(b'{"a": 1}') == b'{"a": 1}\n'
    assert line_of(b'{"a":\n 1}\n') == b'{"a":  1}\n'
    assert line_of(b"[1]") is None
    assert line_of(b'"text"') is None
    assert line_of(b"{not json") is None
    big = b'{"a": "' + b"x" * MAX_RECORD + b'"}'
    assert line_of(big) is None


def test_the_sink_appends_what_it_receives_and_drains_on_stop(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log))
    thread = threading.Thread(target=sink.serve)
    thread.start()
    try:
        for number in range(50):  # (a full queue on a loaded machine: sent again)
            while not send_record(sink.socket_path, json.dumps({"n": number}).encode()):
                time.sleep(0.01)
        while not send_record(sink.socket_path, b"garbage"):
            time.sleep(0.01)
    finally:
        sink.stop()
        thread.join(timeout=10)
        sink.close()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["n"] for r in records if "n" in r] == list(range(50))
    assert [r["refused"] for r in records if r.get("event") == "records_refused"] == [1]
    assert sink.accepted == 50
    assert sink.refused == 1


def test_send_record_never_raises_and_never_waits_long(tmp_path: Path) -> None:
    assert send_record(str(tmp_path / "nobody-listens.sock"), b"{}") is False
    assert send_record("\0bad", b"{}") is False
    # a listener that never reads: the queue fills, then each send gives up in time
    path = str(tmp_path / "stalled.sock")
    stalled = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM)
    stalled.bind(path)
    try:
        record = b'{"pad": "' + b"x" * 8000 + b'"}'
        sent = 0
        while send_record(path, record):
            sent += 1
            assert sent < 100_000
        started = time.monotonic()
        assert send_record(path, record) is False
        assert time.monotonic() - started < SEND_TIMEOUT + 0.2
    finally:
        stalled.close()


def test_the_client_is_cheap_to_import() -> None:
    """The hook imports it: no json, socket.py, asyncio or threading on the way."""
    probe = (
        "import sys\n"
        "import hookwise.run.audit_sink\n"
        "print(sorted(m for m in ('json', 'socket', 'asyncio', 'threading', 'enum') "
        "if m in sys.modules))\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            f"import sys; sys.path.insert(0, {str(Path(__file__).parents[2] / 'src')!r})\n" + probe,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def _serving(sink: AuditSink) -> threading.Thread:
    thread = threading.Thread(target=sink.serve)
    thread.start()
    return thread


def _stop(sink: AuditSink, thread: threading.Thread) -> None:
    sink.stop()
    thread.join(timeout=10)
    sink.close()


HOOKLIKE = (
    "import sys, time\n"
    "from hookwise.policy.audit import HOOK_DONE, HOOK_STARTED, send_record\n"
    "path, how = sys.argv[1], sys.argv[2]\n"
    "send_record(path, HOOK_STARTED)\n"
    "if how == 'record': send_record(path, b'{\"decision\": \"deny\"}')\n"
    "if how == 'done': send_record(path, HOOK_DONE)\n"
    "if how == 'hang': time.sleep(30)\n"
)


def test_a_hook_that_starts_and_ends_without_answering_is_lost(tmp_path: Path) -> None:
    """The sender's pid comes from the kernel; a hook that answered (a record or `done`) is
    not lost, one that exited without, or was killed, is, with a record in the log."""
    log = tmp_path / "audit.jsonl"
    lost: list[str] = []
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), session="abc", on_lost=lost.append)
    thread = _serving(sink)
    try:
        for how in ("record", "done", "exit"):
            subprocess.run([sys.executable, "-c", HOOKLIKE, sink.socket_path, how], check=True)
        hanging = subprocess.Popen([sys.executable, "-c", HOOKLIKE, sink.socket_path, "hang"])
        time.sleep(1)
        hanging.kill()
        hanging.wait()
        deadline = time.monotonic() + 10
        while len(lost) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        _stop(sink, thread)
    assert sink.watch.answered == 2
    hows = [item.how for item in sink.watch.lost]
    assert hows[0] in ("exited with status 0 without answering", "ended without answering")
    assert hows[1] in ("was killed (SIGKILL) before it answered", "ended without answering")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r.get("event") for r in records] == [None, "hook_lost", "hook_lost"]
    assert records[1]["run_session"] == "abc" and records[1]["source"] == "run"
    assert b"started" not in log.read_bytes()  # the control messages are not logged


def test_past_the_cap_records_are_refused_but_a_launched_hook_s_get_in(tmp_path: Path) -> None:
    """Past the cap only a hook the exec watch started (its own channel) uses the reserve: a
    process that says ``started`` on the session's socket is a hook to the lost-hook count,
    but its record is refused like any other (red team s25 #8)."""
    from tests.run.launched import go, start_launched

    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), cap=1000, reserve=200)
    thread = _serving(sink)
    try:
        sent = 0  # (under load the socket's queue can be full: a send then fails at once)
        for number in range(40):
            record = json.dumps({"n": number, "pad": "x" * 40}).encode()
            sent += send_record(sink.socket_path, record)
        deadline = time.monotonic() + 30
        while sink.written + 120 <= 1000 and time.monotonic() < deadline:
            sent += send_record(sink.socket_path, b"{}")  # (a hook's line no longer fits)
            time.sleep(0.05)
        subprocess.run([sys.executable, "-c", HOOKLIKE, sink.socket_path, "record"], check=True)
        assert go(start_launched(sink, HOOKLIKE, sink.socket_path, "record")) == 0
        time.sleep(0.3)
    finally:
        _stop(sink, thread)
    lines = log.read_text().splitlines()
    flood = [line for line in lines if '"hook":false' in line]
    assert 0 < len(flood) < sent and sink.capped >= sent - len(flood)
    assert sum(len(line) + 1 for line in flood) <= 1000
    hooks = [json.loads(line) for line in lines if line.startswith('{"decision":"deny"')]
    # (the unlaunched one's record, when its send found room in the queue, was refused)
    assert [(r["sender"]["hook"], r["sender"]["launched"]) for r in hooks] == [(True, True)]
    assert json.loads(lines[-1])["event"] == "audit_capped"


def test_the_sink_rotates_without_losing_records(tmp_path: Path) -> None:
    """Past max_bytes the log becomes audit.jsonl.1 (and so on), as outside a session; a
    rotation made meanwhile by a hook outside (the path renamed away) is followed; every
    record is in one of the files, in order."""
    log = tmp_path / "audit.jsonl"
    log.write_text('{"time": "t", "decision": "none", "n": -1}\n')
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), limits=lambda: (600, 100))
    thread = threading.Thread(target=sink.serve)
    thread.start()
    while sink.max_bytes != 600:  # (read beside the sink)
        time.sleep(0.01)
    try:
        for number in range(60):
            record = {"time": "t", "decision": "deny", "n": number}
            while not send_record(sink.socket_path, json.dumps(record).encode()):
                time.sleep(0.01)  # (a loaded machine: the queue is full)
            if number == 30:  # a hook outside rotates it (policy/audit.py's _rotate)
                time.sleep(0.3)
                from hookwise.policy.audit import _rotate

                _rotate(str(log), 100)
    finally:
        sink.stop()
        thread.join(timeout=10)
        sink.close()

    def age(path: Path) -> int:  # audit.jsonl.N is older than .N-1, the bare name newest
        suffix = path.name.rpartition(".")[2]
        return -int(suffix) if suffix.isdigit() else 0

    files = sorted((p for p in tmp_path.glob("audit.jsonl*") if p.suffix != ".lock"), key=age)
    assert len(files) >= 4 and all(f.stat().st_size <= 600 for f in files), files
    numbers = [json.loads(line)["n"] for f in files for line in f.read_text().splitlines()]
    assert numbers == list(range(-1, 60)), numbers
    assert sink.failed is None


@needs_namespaces
def test_the_sessions_log_rotates_at_the_users_setting(world: World) -> None:
    """A real session with settings.audit.max_bytes small: the hooks' records are spread
    over the rotated files, none lost."""
    world.user_policy.write_text(
        world.user_policy.read_text() + "settings:\n  audit: {max_bytes: 3000, keep: 50}\n"
    )
    payload = json.dumps(
        {
            "session_id": "rot",
            "cwd": str(world.project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    )
    hook = f"{HOOKWISE} hook --platform claude"
    done = world.run(
        f"sleep 1; for i in $(seq 20); do printf '%s' '{payload}' | {hook} >/dev/null; done",
    )
    assert done.returncode == 0, done.stderr
    files = list(world.audit_log.parent.glob("audit.jsonl*"))
    assert len(files) > 2, files
    records = [
        json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()
    ]
    assert sum(1 for r in records if r.get("session") == "rot") == 20


def test_a_flood_does_not_rotate_earlier_records_out(tmp_path: Path) -> None:
    """With keep 1, a process flooding the socket would push the records written before it
    out of the log; the sink keeps room for what the session wrote: nothing is deleted."""
    log = tmp_path / "audit.jsonl"
    log.write_text('{"time": "t", "decision": "deny", "n": "before"}\n')
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), limits=lambda: (500, 1))
    thread = threading.Thread(target=sink.serve)
    thread.start()
    while sink.max_bytes != 500:
        time.sleep(0.01)
    try:
        for number in range(80):
            record = {"time": "t", "decision": "none", "flood": "x" * 60, "n": number}
            while not send_record(sink.socket_path, json.dumps(record).encode()):
                time.sleep(0.01)  # (a loaded machine: the queue is full, the sink rotating)
    finally:
        sink.stop()
        thread.join(timeout=10)
        sink.close()
    text = "".join(p.read_text() for p in tmp_path.glob("audit.jsonl*") if p.suffix != ".lock")
    assert '"before"' in text
    assert text.count('"flood"') == 80


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=MAX_RECORD + 16))
def test_line_of_returns_for_any_bytes(record: bytes) -> None:
    line = line_of(record)
    assert line is None or (line.endswith(b"\n") and line.count(b"\n") == 1)


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=2048)
    | st.recursive(
        st.none() | st.booleans() | st.floats() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    ).map(lambda v: json.dumps({"v": v, "source": "run", "sender": 1}).encode())
)
def test_a_stamped_line_is_one_line_whose_sender_is_the_sinks(record: bytes) -> None:
    """Whatever a record from inside holds, its line carries the sink's ``sender`` (its own
    renamed) and never the supervisor's mark."""
    line = line_of(record)
    if line is None:
        return
    sender = {"pid": 7, "uid": 0, "hook": False, "run_session": "s", "received": "t"}
    out = stamped_line(line, sender)
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    value = json.loads(out)
    assert value["sender"] == sender and value.get("source") != "run"


@given(st.integers(min_value=1, max_value=MAX_RECORD // 2 - 8), st.sampled_from([b"[", b'{"a":']))
@settings(max_examples=30, deadline=None)
def test_line_of_returns_for_any_nesting(depth: int, opener: bytes) -> None:
    assert line_of(b'{"a":' + opener * depth) is None


def test_a_datagram_nested_past_the_recursion_limit_does_not_end_the_sink(tmp_path: Path) -> None:
    """A red team's datagram (60000 brackets) made json raise RecursionError, which ended the
    sink's thread: later records were lost and lost hooks no longer seen."""
    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log))
    thread = _serving(sink)
    try:
        for record in (b'{"n": 0}', b'{"a":' + b"[" * 60000, b'{"n": 1}'):
            while not send_record(sink.socket_path, record):
                time.sleep(0.01)
        deadline = time.monotonic() + 10
        while sink.accepted < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert thread.is_alive()
    finally:
        _stop(sink, thread)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r.get("n") for r in records if r.get("event") != "records_refused"] == [0, 1]
    assert sink.refused == 1


def test_any_error_handling_one_datagram_is_that_datagrams(tmp_path: Path) -> None:
    """Whatever raises while one datagram is handled, it is recorded once, the datagram is
    refused and the next one is served."""
    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), session="s1")
    calls = [0]
    real = sink.watch.is_hook

    def flaky(pid: int) -> bool:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("boom")
        return real(pid)

    sink.watch.is_hook = flaky  # type: ignore[method-assign]
    thread = _serving(sink)
    try:
        for number in range(2):
            while not send_record(sink.socket_path, json.dumps({"n": number}).encode()):
                time.sleep(0.01)
        deadline = time.monotonic() + 10
        while sink.accepted < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        _stop(sink, thread)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert (
        records[0]["event"] == "audit_record_error" and "RuntimeError: boom" in records[0]["reason"]
    )
    assert [r.get("n") for r in records[1:] if r.get("event") != "records_refused"] == [1]
    assert sink.refused == 1 and sink.broken == 1


def test_an_error_in_the_loop_outside_a_datagram_is_survived(tmp_path: Path) -> None:
    """The hook watch (or the poll) raising once is recorded once and the sink goes on:
    records sent after it still reach the log."""
    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), session="s2")
    real = sink.watch.check
    calls = [0]

    def flaky() -> list[int]:
        calls[0] += 1
        if calls[0] == 1:
            raise ValueError("watch broke")
        return real()

    sink.watch.check = flaky  # type: ignore[method-assign]
    thread = _serving(sink)
    try:
        while not send_record(sink.socket_path, b'{"n": 0}'):
            time.sleep(0.01)
        deadline = time.monotonic() + 10
        while (sink.accepted < 1 or sink.loop_errors < 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        while not send_record(sink.socket_path, b'{"n": 1}'):
            time.sleep(0.01)
        while sink.accepted < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert thread.is_alive()
    finally:
        _stop(sink, thread)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    errors = [r for r in records if r.get("event") == "audit_sink_error"]
    assert len(errors) == 1 and "ValueError: watch broke" in errors[0]["reason"]
    assert [r.get("n") for r in records if "n" in r] == [0, 1]
    assert sink.loop_errors == 1 and sink.failed is None


def test_a_loop_that_keeps_failing_ends_the_session_visibly(tmp_path: Path) -> None:
    """Failing round after round, the sink would see no record and no lost hook again: it
    says so (log, ``failed``) and calls ``on_dead``, which ends the session."""
    from hookwise.run.audit_sink import MAX_LOOP_FAILURES

    log = tmp_path / "audit.jsonl"
    dead: list[bool] = []
    sink = AuditSink(
        str(tmp_path / "s.sock"), str(log), session="s3", on_dead=lambda: dead.append(True)
    )

    def broken() -> list[int]:
        raise OSError(5, "Input/output error")

    sink.watch.check = broken  # type: ignore[method-assign]
    sink.watch.poll_timeout = lambda: 10  # type: ignore[method-assign]  # (a round each 10 ms)
    thread = _serving(sink)
    thread.join(timeout=30)
    assert not thread.is_alive()
    sink.close()
    assert dead == [True]
    assert sink.loop_errors == MAX_LOOP_FAILURES
    assert sink.failed is not None and "session was ended" in sink.failed
    events = [json.loads(line).get("event") for line in log.read_text().splitlines()]
    assert events == ["audit_sink_error", "audit_sink_dead"]


def test_the_stopper_ends_a_real_session_process_when_the_sink_dies() -> None:
    """``on_dead`` is the supervisor's ``_Stopper.end``: SIGTERM to the session's init
    whatever ``--on-hook-lost`` says."""
    from hookwise.run.supervisor import _Stopper

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stopper = _Stopper("report")
    stopper.init_fd = os.pidfd_open(child.pid)
    try:
        stopper(object())  # a lost hook in "report" mode: nothing
        assert child.poll() is None
        stopper.end()
        assert child.wait(timeout=10) == -15
    finally:
        os.close(stopper.init_fd)
        if child.poll() is None:
            child.kill()
            child.wait()
