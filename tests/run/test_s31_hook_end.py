"""tests/run/test_signal_guard.py::test_a_host_ending_its_own_hook_is_allowed_and_reported_lost
failed one whole-file run in three: the host's ``timeout`` ended the hook (SIGTERM), then the
agent exited at once, and the sink's thread, slower under load, read the hook's end after the
session had begun to end, so it took it for the session's own SIGKILL and said nothing. A
hook's end is now read from its pidfd (``PIDFD_GET_INFO``, reaped or not): only the session's
SIGKILL is the session's. Real processes, the session's end given."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from hookwise.run.hook_watch import HookWatch, Lost, exit_status

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="pidfds")


def _ended(sig: int) -> list[Lost]:
    """A launched hook ended by ``sig`` and reaped, read once the session is ending."""
    lost: list[Lost] = []
    watch = HookWatch(lost.append)
    watch.session_ending = lambda: True
    proc = subprocess.Popen(["sleep", "60"])
    pidfd = os.pidfd_open(proc.pid)
    assert watch.launched(proc.pid, pidfd, "sh -c hookwise hook --platform claude") == pidfd
    proc.send_signal(sig)
    proc.wait()  # (reaped by its parent, as a host's `timeout` does)
    if exit_status(pidfd) is None:
        pytest.skip("this kernel does not give a pidfd's exit status (Linux 6.15 on)")
    watch.ended(pidfd)
    return lost


def test_a_hook_its_host_ended_is_lost_even_as_the_session_ends() -> None:
    lost = _ended(signal.SIGTERM)
    assert len(lost) == 1 and "killed (SIGTERM)" in lost[0].how, [x.how for x in lost]


def test_a_hook_the_sessions_end_killed_is_not() -> None:
    assert _ended(signal.SIGKILL) == []
