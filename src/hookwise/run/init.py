"""pid 1 of the agent's pid namespace: forwards signals, reaps orphans, exits with the agent.

The terminal's own signals (Ctrl-C, a resize) already reach the agent, which is in the
terminal's foreground process group; init forwards only signals sent with ``kill`` from
outside the namespace (by the supervisor, which forwards what it is sent), recognised by
``si_pid`` 0 (the sender has no pid here) and a user ``si_code``. When the agent ends, init
ends with its status, and the kernel ends whatever the agent left running.
"""

from __future__ import annotations

import os

from hookwise.run.signals import signal

SENT_BY_A_PROCESS = frozenset((0, -1, -6))  # SI_USER, SI_QUEUE, SI_TKILL


def exit_code(status: int) -> int:
    """A wait status as a shell reports it: the exit code, or 128 + the signal."""
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def serve(child: int, forwarded: tuple[int, ...]) -> None:
    """Wait for ``forwarded`` signals and SIGCHLD (blocked by the caller); never returns."""
    waited = {*forwarded, signal.SIGCHLD}
    for number in forwarded:
        signal.signal(number, signal.SIG_DFL)
    while True:
        info = signal.sigwaitinfo(waited)
        if info.si_signo != signal.SIGCHLD:
            if info.si_pid == 0 and info.si_code in SENT_BY_A_PROCESS:
                try:
                    os.kill(child, info.si_signo)
                except ProcessLookupError:
                    continue
            continue
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                os._exit(1)
            if pid == 0:
                break
            if pid == child:
                os._exit(exit_code(status))
