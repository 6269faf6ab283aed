"""One deadline for loading a policy: parse, validate and compile of every file of one call.

A hook the host kills at its timeout (10 s as installed) lets the tool run. A budget per
YAML parse bounded neither a file that parses fast and validates slowly (8,765 rules whose
command matchers the shell parser reads: 12 s, red team s26 #4) nor many slow files on one
call's way (s26 #2). So the whole load of one call shares :data:`LOAD_BUDGET_S`, measured
from the hook's start; past it the load stops and the hook denies, naming the file it was
loading. The verdict is remembered by that file's identity (:func:`remember`, in a file
cache.py names), so later calls deny at once instead of paying the budget again. Standard
library only: the hook reads verdicts before it imports the compiler.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from hookwise.policy import os_lite as os
from hookwise.policy.safe_files import read_regular, replace_with

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

# Seconds the whole policy load of one call may take (wall clock, from the hook's start, its
# interpreter's start-up included): a 1 MiB file of flow mappings takes the Python YAML
# loader 30-60 s (s25 #4), block-style rules 12 s (s26 #4); a normal policy compiles in
# 0.1-0.3 s. Five leaves the evaluation (regexes: 2 s at most) well within the 10 s the
# hooks are installed with, and a busy machine's first compile room to finish.
LOAD_BUDGET_S = 5.0
# ...and of a load no host waits for (validate, show, the service, tests): a bound against a
# hostile file, not a race with a timeout, so a busy machine does not fail a normal policy
UNATTENDED_BUDGET_S = 30.0
# A verdict is remembered when the load itself used this share of the budget in CPU, or
# when the file is this large (no policy a person writes is; on a loaded machine the CPU a
# hostile file gets in the budget can be small): a normal policy on a machine too loaded
# to finish in time is denied for this call only.
_CPU_SHARE = 0.5
_LARGE_FILE = 64 * 1024
_VERDICT_LIMIT = 4096


class LoadTimeoutError(BaseException):
    """The load passed its deadline. A BaseException, so that no ``except Exception`` of
    the validation code it interrupts can swallow it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def message(path: str) -> str:
    return (
        f"loading the policy took more than the time it is given ({LOAD_BUDGET_S:g} s in a "
        f"hook call; stopped while reading "
        f"{path}: a file this large, with this many rules, or this full of flow collections), "
        "so it was stopped before the host's timeout; a policy never needs that much"
    )


class Budget:
    """The file being loaded when the deadline passes, and the CPU the load used."""

    __slots__ = ("cpu", "file")

    def __init__(self) -> None:
        self.file = ""
        self.cpu = time.process_time()

    def spent_cpu(self) -> float:
        return time.process_time() - self.cpu


@contextmanager
def deadline(until: float | None = None, budget: Budget | None = None) -> Iterator[Budget]:
    """Raise :class:`LoadTimeoutError` in the block once ``time.monotonic()`` passes
    ``until`` (default: :data:`UNATTENDED_BUDGET_S` from now; the hook passes its own, its
    start plus :data:`LOAD_BUDGET_S`), by SIGALRM in the main thread (pure
    Python code cannot be stopped otherwise). A timer already running that fires sooner is
    left alone, a later one is restored; outside the main thread there is no timer."""
    import signal

    budget = budget or Budget()
    started = time.monotonic()
    left = (started + UNATTENDED_BUDGET_S if until is None else until) - started
    if left <= 0:
        raise LoadTimeoutError("(the policy files)")
    previous_delay, previous_interval = signal.getitimer(signal.ITIMER_REAL)
    if previous_delay and previous_delay <= left:
        yield budget
        return

    def expired(_signum: int, _frame: object) -> None:
        raise LoadTimeoutError(budget.file or "(the policy files)")

    try:
        previous = signal.signal(signal.SIGALRM, expired)
    except ValueError:  # not the main thread
        yield budget
        return
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield budget
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if previous_delay:
            spent = time.monotonic() - started
            signal.setitimer(
                signal.ITIMER_REAL, max(previous_delay - spent, 0.001), previous_interval
            )


# ------------------------------------------------------------- verdicts between calls


def identity(path: str) -> str | None:
    """What names this version of the file: device, inode, size, modification and change
    times (the change time no program can set back), or None when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (
        f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{path}"
    )


def known_slow(files: list[tuple[str, str]]) -> str | None:
    """The first policy file of ``files`` (policy file, its verdict file) whose current
    version is remembered as too slow to load."""
    for path, verdict in files:
        try:
            stored = read_regular(verdict, _VERDICT_LIMIT)
        except OSError:
            continue
        if stored.decode("utf-8", "replace") == identity(path):
            return path
    return None


def remember(path: str, verdict: str, cpu: float) -> bool:
    """Record that this version of ``path`` was too slow to load, when the load's own CPU
    (``cpu`` seconds) or the file's size says so; whether it was recorded."""
    try:
        large = os.stat(path).st_size >= _LARGE_FILE
    except OSError:
        return False
    if cpu < LOAD_BUDGET_S * _CPU_SHARE and not large:
        return False
    name = identity(path)
    if name is None:
        return False
    directory = os.path.dirname(verdict)
    try:
        os.makedirs(directory, 0o700, exist_ok=True)
        found = os.lstat(directory)
        if not os.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
            return False  # (a shared temp directory: another user's, or a link)
        replace_with(verdict, name.encode("utf-8", "surrogateescape"))
    except OSError:
        return False
    return True
