"""A process started as the exec watch starts a hook: with its own channel to the sink at
``HOOK_CHANNEL_FD``, registered with the sink before it may send (it waits for a line on
its stdin). For tests of the sink without a session."""

from __future__ import annotations

import _socket
import os
import subprocess
import sys

from hookwise.policy.audit import HOOK_CHANNEL_FD
from hookwise.run.audit_sink import AuditSink


def start_launched(sink: AuditSink, code: str, *args: str) -> subprocess.Popen[str]:
    """Run ``code`` (Python) as a launched hook of ``sink``; it goes on once registered."""
    ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
    ours.setsockopt(_socket.SOL_SOCKET, _socket.SO_PASSCRED, 1)
    child_end = theirs.fileno()
    waiting = (
        f"import os, sys; os.dup2({child_end}, {HOOK_CHANNEL_FD}); os.close({child_end}); "
        "sys.stdin.readline()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", waiting + code, *args],
        stdin=subprocess.PIPE,
        text=True,
        pass_fds=(child_end,),
    )
    theirs.close()
    ours.setblocking(False)
    sink.hook_launched(proc.pid, os.pidfd_open(proc.pid), ours.detach(), "launched-for-test")
    return proc


def go(proc: subprocess.Popen[str], timeout: float = 60) -> int:
    """Let it send (the sink takes the registration first: it reads its wake-up before any
    record on the new channel), and wait for it."""
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.close()
    return proc.wait(timeout=timeout)
