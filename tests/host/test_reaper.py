"""A contained hook's whole process tree ends with it: forks, setsid and daemons too."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hookwise.host.process import ProcessSpec, run_process

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="procfs needed")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def _pids(directory: Path) -> list[int]:
    return [int(p.read_text()) for p in sorted(directory.glob("*.pid"))]


ESCAPES = (
    # a plain background child, a setsid one (new session and group), a double fork
    # whose parent exits at once (reparented), and one holding stdout open
    "sleep 60 & echo $! > bg.pid; "
    "setsid sleep 60 & echo $! > setsid.pid; "
    "sh -c 'sleep 60 & echo $! > daemon.pid' & wait $!; "
    "setsid sh -c 'exec sleep 60' > /dev/null 2>&1 < /dev/null & echo $! > quiet.pid; "
    "echo done"
)


def test_contained_hook_leaves_nothing_behind(tmp_path: Path) -> None:
    result = run_process(
        ProcessSpec(argv=("sh", "-c", ESCAPES), cwd=str(tmp_path), timeout_ms=20_000, contain=True)
    )
    assert result.exit_code == 0
    assert result.stdout.strip() == "done"
    assert result.duration_ms < 15_000  # no pipe held open until the timeout
    pids = _pids(tmp_path)
    assert len(pids) == 4
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in pids if _alive(p)] == []


def test_contained_hook_killed_at_timeout_takes_its_escapees(tmp_path: Path) -> None:
    script = "setsid sleep 60 & echo $! > setsid.pid; sleep 60"
    result = run_process(
        ProcessSpec(
            argv=("sh", "-c", script),
            cwd=str(tmp_path),
            timeout_ms=500,
            kill_grace_ms=200,
            contain=True,
        )
    )
    assert result.timed_out
    (pid,) = _pids(tmp_path)
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def test_without_containment_a_setsid_child_survives(tmp_path: Path) -> None:
    """The control: the process group alone misses it (so the test above can fail)."""
    script = "setsid sleep 30 > /dev/null 2>&1 < /dev/null & echo $! > setsid.pid"
    run_process(ProcessSpec(argv=("sh", "-c", script), cwd=str(tmp_path), timeout_ms=5_000))
    (pid,) = _pids(tmp_path)
    try:
        time.sleep(0.2)
        assert _alive(pid)
    finally:
        os.kill(pid, 9)
