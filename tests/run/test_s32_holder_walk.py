"""Red team s31 run #3: the pipe-holder look walked the session by every thread's
``children`` file inside its 0.5 s budget, then killed every process it had not read in
time; two processes of 8,000 idle threads made an idle dev server of the session die as
each hook answered. The walk now reads at most ``HOST_THREADS`` threads of a process (its
cost is not the process's to choose), the budget starts after it, and only processes read
and found holding the pipe are killed; a look that cannot finish is followed by later
passes, and past ``LOOK_FOR`` the host left waiting is ended instead (fail closed: its
timeout would run the tool).

Real processes: a session root with a reader of a pipe (the host), a dev server holding
40 files, and idle processes of many threads, at two sizes in one run; the walk's cost is
counted in ``children`` files read."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookwise.run import hook_output, hook_watch

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc")

# argv: IDLERS THREADS HIDE. Forks a reader (the host), a dev server (40 files, not the
# pipe), IDLERS processes of THREADS idle threads, and with HIDE a holder of the pipe's
# write end hoarding 15,100 descriptors after 3 hoarders of 15,000 (past one pass).
SESSION = textwrap.dedent(
    """
    import json, os, resource, sys, threading, time
    idlers, count, hide = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    out = os.environ["OUT"]
    read_end, write_end = os.pipe()

    def hoard(count):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        null = os.open("/dev/null", os.O_RDONLY)
        for _ in range(count):
            os.dup(null)

    def child(role):
        pid = os.fork()
        if pid:
            return pid
        if role == "reader":
            os.close(write_end)
            while os.read(read_end, 4096):
                pass
            open(out + "/eof", "w").write("eof")
            time.sleep(120)
            os._exit(0)
        os.close(read_end)
        if role != "holder":
            os.close(write_end)
        if role == "devserver":
            files = [open("/dev/null") for _ in range(40)]
        if role == "idler":
            threading.stack_size(65536)
            stop = threading.Event()
            for _ in range(count):
                threading.Thread(target=stop.wait, daemon=True).start()
        if role in ("holder", "hoarder"):
            hoard(15100 if role == "holder" else 15000)  # (the holder read last)
        open(f"{out}/ready.{os.getpid()}", "w").close()
        time.sleep(120)
        os._exit(0)

    reader = child("reader")
    devserver = child("devserver")
    idlers = [child("idler") for _ in range(idlers)]
    holder = child("holder") if hide else 0
    hoarders = [child("hoarder") for _ in range(3 if hide else 0)]
    pipe = f"pipe:[{os.fstat(read_end).st_ino}]"
    os.close(read_end)
    os.close(write_end)
    want = 1 + len(idlers) + (4 if hide else 0)
    while len([n for n in os.listdir(out) if n.startswith("ready.")]) < want:
        time.sleep(0.02)
    print(json.dumps({"pipe": pipe, "reader": reader, "devserver": devserver,
                      "idlers": idlers, "holder": holder, "hoarders": hoarders}), flush=True)
    time.sleep(120)
    """
)


class Session:
    def __init__(self, tmp_path: Path, idlers: int, threads: int, *, hide: bool = False) -> None:
        self.out = tmp_path / f"s{idlers}x{threads}{'h' if hide else ''}"
        self.out.mkdir()
        script = tmp_path / "session.py"
        script.write_text(SESSION)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), str(idlers), str(threads), "1" if hide else "0"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "OUT": str(self.out)},
        )
        assert self.proc.stdout is not None
        self.made: dict[str, Any] = json.loads(self.proc.stdout.readline())
        self.pipe: str = self.made["pipe"]

    def pids(self) -> list[int]:
        made = self.made
        return [made["reader"], made["devserver"], *made["idlers"], *made["hoarders"]] + (
            [made["holder"]] if made["holder"] else []
        )

    def end(self) -> None:
        for pid in self.pids():
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def sessions() -> Iterator[list[Session]]:
    made: list[Session] = []
    yield made
    for session in made:
        session.end()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def test_the_walk_reads_as_many_files_however_many_threads_idle(
    tmp_path: Path, sessions: list[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two idlers of 400 threads, then two of 1,600: the old walk read every thread's
    ``children`` file (800, then 3,200, inside the look's budget); this one reads the same
    few in both, and kills nothing (no process holds the pipe but the host reading it)."""
    costs = []
    read = [0]

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("/children"):
            read[0] += 1
        return open(path, *args, **kwargs)

    for threads in (400, 1600):
        session = Session(tmp_path, 2, threads)
        sessions.append(session)
        read[0] = 0
        monkeypatch.setattr(hook_output, "open", counting, raising=False)
        killed, found = hook_output.kill_intruders(session.proc.pid, session.pipe, set())
        monkeypatch.undo()
        costs.append(read[0])
        assert killed == [], killed
        assert not found.walked  # (past HOST_THREADS: their other threads' children unread)
        assert all(_alive(pid) for pid in session.pids())
    small, large = costs
    assert large <= small + 4, costs
    assert large <= 8 * hook_output.HOST_THREADS, costs


def test_a_process_the_look_could_not_read_is_never_killed_for_that(
    tmp_path: Path, sessions: list[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look's time spent before it read anything (what the idlers' walk did under
    load): every process is left unchecked. The old look killed each of them, the dev
    server too; this one kills none and leaves them to its later passes."""
    session = Session(tmp_path, 1, 50)
    sessions.append(session)
    monkeypatch.setattr(hook_output, "LOOK_SECONDS", 0.0)
    killed, found = hook_output.kill_intruders(session.proc.pid, session.pipe, set())
    assert killed == [], killed
    assert session.made["devserver"] in [pid for pid, _count in found.unchecked]
    assert all(_alive(pid) for pid in session.pids())


def test_a_look_that_cannot_finish_ends_the_host_waiting_not_the_unread(
    tmp_path: Path, sessions: list[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A holder hidden among hoarders, past what the passes may read before ``LOOK_FOR``
    (0 here): the host reading the pipe is killed, saying why (its timeout would run the
    tool), and no process only because it was not read: the holder and the hoarders
    live."""
    session = Session(tmp_path, 0, 0, hide=True)
    sessions.append(session)
    monkeypatch.setattr(hook_watch, "LOOK_FOR", 0.0)
    watch = hook_watch.HookWatch(lambda _lost: None)
    watch.root = session.proc.pid
    now = time.monotonic()
    hook = hook_watch.Hook(session.proc.pid, -1, "hook", now)
    watch._look(hook_watch.Follow(hook, session.pipe, set(), (), now))
    assert watch.following and watch.intruders == [], watch.intruders
    assert watch.poll_timeout() > 0  # (the sink wakes for the next pass)
    watch.follow_looks(now + 1.0)
    killed = {intruder.pid: intruder.why for intruder in watch.intruders}
    assert list(killed) == [session.made["reader"]], killed
    assert "tool unguarded" in killed[session.made["reader"]]
    time.sleep(0.2)
    assert not _alive(session.made["reader"])
    others = [session.made["holder"], session.made["devserver"], *session.made["hoarders"]]
    assert all(_alive(pid) for pid in others)
