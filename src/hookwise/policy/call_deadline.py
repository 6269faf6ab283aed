"""One deadline for a whole hook call, from its first line to its answer.

A host that kills a hook at its timeout lets the tool run (Claude Code, Gemini CLI; the
install writes 10 s plus the validators' and the approval relay's waits). The policy load
has its own budget (rules/budget.py), but nothing bounded the rest: a 46-byte line
(``rm -f a{0..5999}``) cost the shell analysis 11.6 s and a line of 700 ``cd``s 13.4 s, and
the command ran (red team s27 #1, #2). Fixing each slow reading would be teaching spellings;
this bounds them all: past :data:`DECIDE_BUDGET_S` the hook stops where it is and answers
as for any failure (closed where a guard is concerned), before the host's timeout.

Validators and the relay's wait have bounds of their own, which the installed timeout adds
on top: the deadline stands still while they run (:class:`paused`). SIGALRM in the main
thread, as pure Python code cannot be stopped otherwise; ``_signal``, the builtin, keeps
``signal``'s enum import off the hook's cold path.
"""

from __future__ import annotations

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal  # the builtin's stub: the same functions
    from typing import Any
else:
    import _signal

# Seconds from the hook's first line to its answer, validators and the relay's wait aside:
# the installed base timeout is 10 s (policy/install/registrations.BASE_TIMEOUT_S); 3 s are
# left for the interpreter's start, the answer, the audit record and a loaded machine.
DECIDE_BUDGET_S = 7.0

_ends: list[float] = []  # the monotonic time the running deadline ends; empty: none runs


class DecideTimeoutError(BaseException):
    """The call passed its deadline. A BaseException, so that no ``except Exception`` of
    the code it interrupts can swallow it."""


def message() -> str:
    return (
        f"deciding this call took more than the {DECIDE_BUDGET_S:g} s a hook call is given "
        "(a command line this large or this involved is not read in time), so hookwise "
        "stopped before the host's timeout, which would let the tool run"
    )


def _expired(_signum: int, _frame: Any) -> None:
    if _ends:
        raise DecideTimeoutError(message())


def process_began(now: float) -> float:
    """When this process started, on the ``time.monotonic()`` clock of ``now``: the host's
    start of the hook (its fork; the registered command's shell execs the interpreter in
    the same process), so that the interpreter's own start-up counts against the deadline
    too (red team s28 run, #6: under contention the start-up alone took seconds). ``now``
    where that cannot be read (no /proc). Only for a process started for this call (the
    entry points: hook.main's ``own_process``), never an embedder's."""
    import posix

    try:
        fd = posix.open("/proc/self/stat", posix.O_RDONLY)
        try:
            fields = posix.read(fd, 4096).rsplit(b")", 1)[1].split()
        finally:
            posix.close(fd)
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / posix.sysconf(
            "SC_CLK_TCK"
        )
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - max(age, 0.0)


def start(begun: float) -> None:
    """Arm the deadline at ``begun`` (``time.monotonic()`` at the hook's start) plus
    :data:`DECIDE_BUDGET_S`. Outside the main thread there is no timer (an embedder's)."""
    budget = DECIDE_BUDGET_S
    try:
        _signal.signal(_signal.SIGALRM, _expired)
    except ValueError:
        return
    _ends[:] = [begun + budget]
    _signal.setitimer(_signal.ITIMER_REAL, max(begun + budget - time.monotonic(), 0.001))


def stop() -> None:
    """Disarm: the answer is known, and writing it must not be interrupted."""
    if _ends:
        _ends.clear()
        _signal.setitimer(_signal.ITIMER_REAL, 0)


class paused:  # noqa: N801 (used as a context manager, like contextlib's)
    """The deadline stands still in the block (a validator, the relay's wait: bounded by
    their own timeouts, which the installed timeout adds)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = 0.0

    def __enter__(self) -> None:
        if _ends:
            self.left = max(_ends[0] - time.monotonic(), 0.001)
            _signal.setitimer(_signal.ITIMER_REAL, 0)

    def __exit__(self, *_exc: object) -> None:
        if _ends and self.left:
            _ends[0] = time.monotonic() + self.left
            _signal.setitimer(_signal.ITIMER_REAL, self.left)
