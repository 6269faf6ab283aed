"""Red team s30 run #3: the pipe-holder check read the link of every descriptor of every
process of the session, twice; 50 processes holding 20,000 descriptors each made it slower
than the host's timeout, and the real Codex ran a denied command. A look now asks the kernel
how many descriptors each process holds (no descriptor read), reads the fewest first, and
stops at a budget; what it leaves unchecked is read by later passes (since red team s31 run
#3 it is no longer taken for a holder and killed), so the host gets the pipe's end.

Real processes: a session root with a reader of the pipe (the host), a holder of its write
end (the intruder) and hoarders of descriptors (``dup`` of ``/dev/null``, each within its
own limit), at two sizes in one run; the look's cost is counted in links read."""

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

import pytest

from hookwise.run import hook_output
from tests.run.conftest import needs_namespaces
from tests.run.test_redteam_run import PIPE_HOST, Lab, _host_blocks, lab
from tests.run.test_s29_output_pipes import HOLDER

__all__ = ["lab"]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc")

# argv: HOARDERS DESCRIPTORS HIDE. Forks a reader (the host: reads the pipe to its end, then
# writes $OUT/eof), a holder (keeps a write end; with HIDE it hoards too, so only a look
# that takes the unchecked for holders finds it) and the hoarders; prints what it made.
SESSION = textwrap.dedent(
    """
    import json, os, resource, sys, time
    hoarders, count, hide = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    out = os.environ["OUT"]
    read_end, write_end = os.pipe()

    def hoard():
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        null = os.open("/dev/null", os.O_RDONLY)
        for _ in range(count - 8):
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
            os._exit(0)
        os.close(read_end)
        if role == "hoarder" or hide:
            hoard()
        if role == "hoarder":
            os.close(write_end)
        open(f"{out}/ready.{os.getpid()}", "w").close()
        time.sleep(120)
        os._exit(0)

    reader = child("reader")
    holder = child("holder")
    pids = [child("hoarder") for _ in range(hoarders)]
    pipe = f"pipe:[{os.fstat(read_end).st_ino}]"
    os.close(read_end)
    os.close(write_end)
    while len([n for n in os.listdir(out) if n.startswith("ready.")]) < hoarders + 1:
        time.sleep(0.02)
    print(json.dumps({"pipe": pipe, "reader": reader, "holder": holder, "hoarders": pids}),
          flush=True)
    time.sleep(120)
    """
)


class Session:
    def __init__(self, tmp_path: Path, hoarders: int, count: int, *, hide: bool) -> None:
        self.out = tmp_path / f"s{hoarders}x{count}{'h' if hide else ''}"
        self.out.mkdir()
        script = tmp_path / "session.py"
        script.write_text(SESSION)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), str(hoarders), str(count), "1" if hide else "0"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "OUT": str(self.out)},
        )
        assert self.proc.stdout is not None
        made = json.loads(self.proc.stdout.readline())
        self.pipe: str = made["pipe"]
        self.reader: int = made["reader"]
        self.holder: int = made["holder"]
        self.hoarders: list[int] = made["hoarders"]

    def got_eof(self, within: float = 10.0) -> bool:
        end = time.monotonic() + within
        while time.monotonic() < end:
            if (self.out / "eof").exists():
                return True
            time.sleep(0.02)
        return False

    def end(self) -> None:
        for pid in [self.reader, self.holder, *self.hoarders]:
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


def _links_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted = [0]
    real = os.readlink

    def counting(path: str) -> str:
        counted[0] += 1
        return real(path)

    monkeypatch.setattr(os, "readlink", counting)
    return counted


def _kill_until_finished(session: Session, allowed: set[int]) -> list[tuple[int, str, str]]:
    """Passes of one look, each reading what the earlier ones did not (as the supervisor
    does, a pass each check: hook_watch.follow_looks), until every process was read."""
    killed: list[tuple[int, str, str]] = []
    done: frozenset[int] = frozenset()
    for _ in range(20):
        found_killed, found = hook_output.kill_intruders(
            session.proc.pid, session.pipe, allowed, done=done
        )
        killed += found_killed
        if found.finished():
            return killed
        done = done | set(found.checked)
    raise AssertionError(f"the look never finished: {killed}")


def test_a_looks_cost_does_not_grow_with_the_descriptors_hoarded(
    tmp_path: Path, sessions: list[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """4 hoarders of 5,000 descriptors, then 4 of 15,000: the old look read every link
    twice (40,000, then 120,000); this one reads the same few thousand in both, within its
    budget, and kills the holder, never a process only because it could not be read (red
    team s31 run #3), so the host reads the pipe's end."""
    costs = []
    for count in (5000, 15000):
        session = Session(tmp_path, 4, count, hide=False)
        sessions.append(session)
        counted = _links_read(monkeypatch)
        killed, found = hook_output.kill_intruders(session.proc.pid, session.pipe, set())
        monkeypatch.undo()
        costs.append(counted[0])
        pids = {pid: why for pid, _command, why in killed}
        assert pids == {session.holder: "held it for writing"}, killed
        assert found.unchecked and all(_alive(pid) for pid in session.hoarders), found.unchecked
        assert session.got_eof(), "the host never read the pipe's end"
    # (each within the budget, whatever is hoarded: the old look read 40,000, then 120,000;
    # how far one gets within the time depends on the machine's load)
    assert max(costs) <= hook_output.LOOK_BUDGET + 100, costs


def test_a_holder_hidden_among_the_hoarders_is_found_by_the_later_passes(
    tmp_path: Path, sessions: list[Session]
) -> None:
    """The holder hoards too: past the first pass's budget it is not read, and not killed
    for that; the later passes read it, prove it holds the pipe and kill it alone, so the
    host gets the pipe's end and the hoarders live."""
    session = Session(tmp_path, 3, 15000, hide=True)
    sessions.append(session)
    killed = _kill_until_finished(session, set())
    assert {pid for pid, _command, _why in killed} == {session.holder}, killed
    assert session.got_eof(), "the host never read the pipe's end"
    assert all(_alive(pid) for pid in session.hoarders)


def test_an_allowed_process_is_never_killed_however_many_descriptors_it_holds(
    tmp_path: Path, sessions: list[Session]
) -> None:
    """A process the check spares (a hook, a host's child before its exec) stays, even
    holding the pipe; the others read and found holding it go."""
    session = Session(tmp_path, 3, 15000, hide=True)
    sessions.append(session)
    killed = _kill_until_finished(session, {session.holder})
    assert killed == [], killed
    assert _alive(session.holder)


def test_with_no_reader_inside_and_nothing_unchecked_nothing_is_killed(
    tmp_path: Path, sessions: list[Session]
) -> None:
    """The session's own output (read outside) is shared by every process started without
    a redirection: with every process checked and no reader inside, none is an intruder."""
    session = Session(tmp_path, 1, 100, hide=False)
    sessions.append(session)
    os.kill(session.reader, 9)
    time.sleep(0.2)
    killed, found = hook_output.kill_intruders(session.proc.pid, session.pipe, set())
    assert killed == [] and found.finished(), (killed, found.unchecked)
    assert _alive(session.holder)


HOARD = textwrap.dedent(
    """
    import os, resource, sys, time
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    null = os.open("/dev/null", os.O_RDONLY)
    for _ in range(int(sys.argv[1])):
        os.dup(null)
    open(os.environ["R"] + f"/hoard.{os.getpid()}", "w").close()
    time.sleep(60)
    """
)


@needs_namespaces
def test_in_a_session_the_holder_is_killed_the_hoard_lives_and_the_host_gets_the_end(
    lab: Lab,
) -> None:
    """The attack in a session, scaled down (8 processes of 15,000 descriptors, past the
    look's budget): a holder of the hook's stdout, a pipe host. The host reads the pipe's
    end and blocks the call; the report names the holder, and no process only because
    the look could not read it in its first pass (red team s31 run #3)."""
    (lab.root / "holder.py").write_text(HOLDER)
    (lab.root / "hoard.py").write_text(HOARD)
    (lab.root / "host.py").write_text(PIPE_HOST)
    (lab.root / "payload.json").write_text(lab.payload())
    script = (
        "for i in 1 2 3 4 5 6 7 8; do python3 $R/hoard.py 15000 & done; "
        "while [ $(ls $R | grep -c '^hoard\\.[0-9]') -lt 8 ]; do sleep 0.05; done; "
        "python3 $R/holder.py 1 & "
        "while [ ! -e $R/holder.ready ]; do sleep 0.05; done; "
        "python3 $R/host.py claude; kill $(jobs -p) 2>/dev/null; true"
    )
    result = lab.run(script, timeout=120)
    answer = json.loads((lab.root / "answer").read_text())
    assert (lab.root / "holder.hit").exists(), result.stderr
    assert answer["seconds"] < 15, (answer, result.stderr)
    assert _host_blocks("claude", answer), answer
    assert "held the output of hook" in result.stderr, result.stderr[-3000:]
    assert "hoard.py" not in result.stderr, result.stderr[-3000:]


def test_a_proven_host_is_read_first_whatever_the_budget(
    tmp_path: Path, sessions: list[Session]
) -> None:
    """The look's budget spent on other processes never leaves a host the exec watch
    proved (the agent) unchecked, so it is never killed for that: no process of the
    session can add descriptors to it. Here the reader (the host) is named first while
    hoarders take the whole budget."""
    session = Session(tmp_path, 3, 15000, hide=False)
    sessions.append(session)
    found = hook_output.look(
        session.proc.pid, session.pipe, set(), budget=1, first=(session.reader,)
    )
    assert session.reader not in [pid for pid, _count in found.unchecked], found.unchecked
    assert session.holder in [pid for pid, _count in found.unchecked], found.unchecked
    found = hook_output.look(session.proc.pid, session.pipe, set(), budget=1)
    assert session.reader in [pid for pid, _count in found.unchecked]
