"""Other processes holding a hook's output pipes: found when the hook answers, and killed.

Every process of a session has the same uid, and a host (``node``) and the shell that
starts a hook are dumpable: any of them can reopen the pipe the host reads a hook's answer
from through ``/proc/<pid>/fd/N`` (a read access, which neither Yama nor a read-only
``/proc`` restricts; the pipe is not on ``/proc``). A process that keeps such a copy open
makes the host wait for the pipe's end until its timeout (Claude Code and Gemini CLI then
run the tool), and can write around the hook's answer once it is written. The supervisor
sees every process of the session (it owns their namespaces): when a hook's record (or
``done``) arrives, the hook has written its answer, and any process that still holds the
pipe for writing and is not the hook or one of the ancestors that started it (a shell that
forked instead of exec'ing) is an intruder: it is killed (``SIGKILL``), so the host gets
the pipe's end as soon as the hook exits, and named in the audit log and on stderr.

What it cannot do: undo bytes an intruder wrote before and closed (a deny also exits 2
where the host obeys that whatever stdout holds: ``policy/adapters/base.exit_blocking``),
nor stop one that writes in the millisecond between the hook's answer and this look. A
hook inside a session points its stdout and stderr at ``/dev/null`` before it says it
answered (``policy/audit.release_output``), so no process can reopen its pipes through it
after this look.
"""

from __future__ import annotations

import os

O_ACCMODE = 3  # the access mode bits of /proc/<pid>/fdinfo's ``flags`` (octal)
LOOK_BUDGET = 16384  # descriptors one look reads in all (a few tens of ms)
LOOK_SECONDS = 0.5  # and the longest it reads them; past either, the rest is unchecked
# threads of one process whose ``children`` files a walk or a decision reads (a host's
# children, a target's thread ids): past it only the main thread's, so the cost is not the
# process's to choose (red team s30 run #4: a process of 3000 threads made every decision
# of the signal guard read 3000 files; s31 run #3: two of 8,000 made the pipe-holder look's
# session walk overrun its budget)
HOST_THREADS = 256
WALK_FILES = 16384  # ``children`` files one session walk reads in all
HELD = "held it for writing"  # an intruder's reason when its descriptors were read


def output_pipes(pid: int) -> tuple[str, ...]:
    """The pipes ``pid`` writes its stdout and stderr to (``pipe:[inode]``; a host reads
    both to their end), skipping one that is not a pipe or not open for writing (a process
    that put its stdin on fd 1 must not make the writers of that pipe, its host, look like
    intruders)."""
    out: list[str] = []
    for fd in ("1", "2"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("pipe:[") and target not in out and _writes(pid, fd):
            out.append(target)
    return tuple(out)


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
    except OSError:
        return 0
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0


def threads(pid: int) -> int:
    """How many threads ``pid`` has (0 when gone), at a cost that does not grow with them:
    the link count of ``/proc/<pid>/task`` (its threads and two), where ``stat`` sums the
    times of every thread (0.9 ms a read with 3000 threads)."""
    try:
        return max(os.stat(f"/proc/{pid}/task").st_nlink - 2, 0)
    except OSError:
        return 0


def _writes(pid: int, fd: str) -> bool:
    try:
        with open(f"/proc/{pid}/fdinfo/{fd}", "rb") as handle:
            for line in handle:
                if line.startswith(b"flags:"):
                    return int(line.split()[1], 8) & O_ACCMODE != os.O_RDONLY
    except (OSError, ValueError, IndexError):
        return False
    return False


def _holds(pid: int, pipe: str, *, writing: bool = True) -> list[str]:
    """The descriptors of ``pid`` open on ``pipe`` for writing (or for reading only)."""
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return []
    out: list[str] = []
    for fd in names:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == pipe and _writes(pid, fd) is writing:
                out.append(fd)
        except OSError:
            continue
    return out


def parent(pid: int) -> int:
    """``pid``'s parent (0 when gone), read when a hook says it started."""
    return _parent(pid)


def starters(pid: int, first: int, pipe: str, root: int) -> set[int]:
    """``pid`` and, from its parent ``first`` up to the session's init ``root``, the
    ancestors that hold the same pipe for writing (the hook command's shells). The walk
    reads at most :data:`LOOK_BUDGET` descriptors in all (a shell holds a handful): an
    ancestor past it is not spared, and the look decides on it."""
    out = {pid}
    current = first
    spent = 0
    while current > 1 and current != root and current not in out:
        spent += descriptors(current)
        if spent > LOOK_BUDGET or not _holds(current, pipe):
            break
        out.add(current)
        current = _parent(current)
    return out


def children(pid: int) -> list[int]:
    """``pid``'s children, from each of its threads' ``children`` file."""
    return children_within(pid, None)[0]


def children_within(pid: int, limit: int | None) -> tuple[list[int], bool]:
    """``pid``'s children, from its threads' ``children`` files (a child is listed by the
    thread that forked it), and whether every thread was read: past ``limit`` threads only
    the main thread's (where Node and Python fork), so the cost is not the process's to
    choose (red team s30 run #4: a host of 3000 threads made each decision read 3000)."""
    out: list[int] = []
    if limit is not None and threads(pid) > limit:  # (not even listed: the main one only)
        tasks, complete = [str(pid)], False
    else:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            return out, True
        complete = True
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                out += [int(word) for word in handle.read().split()]
        except (OSError, ValueError):
            continue
    return out, complete


def _session(root: int) -> tuple[list[int], bool]:
    """Every process below ``root`` (the session's init, by its pid outside), nested pid
    namespaces included, and whether the walk saw them all: walked down from it, so the
    cost follows the session's size, not the machine's (init adopts every orphan of the
    session), at most :data:`HOST_THREADS` threads of a process and :data:`WALK_FILES`
    files in all. A process of more threads may have children that only its other threads
    list: the walk is then incomplete, and what it did not see is not proven innocent."""
    out: list[int] = []
    seen = {root}
    pending, complete = children_within(root, HOST_THREADS)
    spent = min(threads(root), HOST_THREADS)
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        out.append(pid)
        if spent >= WALK_FILES:
            complete = False
            continue
        found, whole = children_within(pid, HOST_THREADS)
        spent += min(threads(pid), HOST_THREADS) or 1
        complete = complete and whole
        pending += found
    return out, complete


def descriptors(pid: int) -> int:
    """How many descriptors ``pid`` holds, without reading them: the size the kernel gives
    ``/proc/<pid>/fd`` (a count of its open-descriptor bitmap, Linux 6.2 on), or, where
    that is 0, the size of its descriptor table (``FDSize``, a bound of the same)."""
    try:
        size = os.stat(f"/proc/{pid}/fd").st_size
        if size > 0:
            return size
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"FDSize:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return 0


class Look:
    """What one look at a pipe found: the processes that hold it for writing, those that
    could not be read within the look's budget (pid, descriptors), the processes read, the
    descriptors read (the look's cost), and whether the session's walk saw every process."""

    __slots__ = ("checked", "holders", "read", "readers", "unchecked", "walked")

    def __init__(self) -> None:
        self.holders: list[int] = []
        self.readers: list[int] = []  # (the processes that read the pipe: its host)
        self.unchecked: list[tuple[int, int]] = []
        self.checked: list[int] = []
        self.read = 0
        self.walked = True

    def finished(self) -> bool:
        """Whether every process of the session was read (no holder can hide)."""
        return self.walked and not self.unchecked


def _links(pid: int, pipe: str) -> tuple[list[str], list[str]] | None:
    """``pid``'s descriptors on ``pipe``, opened for writing and for reading only; None
    when they cannot be listed (gone)."""
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    writes: list[str] = []
    reads: list[str] = []
    for fd in names:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") != pipe:
                continue
        except OSError:
            continue
        (writes if _writes(pid, fd) else reads).append(fd)
    return writes, reads


def look(
    root: int,
    pipe: str,
    allowed: set[int],
    *,
    budget: int = LOOK_BUDGET,
    seconds: float = LOOK_SECONDS,
    first: tuple[int, ...] = (),
    done: frozenset[int] = frozenset(),
) -> Look:
    """One pass over the session's processes below ``root`` but ``allowed`` (and ``done``:
    read by an earlier pass of the same look), fewest descriptors first, each descriptor's
    link read once: a process of the session can hold as many descriptors as its limit
    allows (50 of them holding 20,000 each made a look that read every one take longer
    than the host waits: red team s30 run #3), so the count is asked of the kernel first
    (:func:`descriptors`, no descriptor read) and the reading stops at ``budget``
    descriptors or ``seconds``, counted from after the session's walk (itself bounded:
    :func:`_session`); what is left is unchecked.
    ``first``: the hosts the exec watch proved (the agent), read first whatever the budget:
    no process of the session can add descriptors to them.
    Holders count only when some process of the session reads the pipe (not the session's
    own output, read outside, which every process started without a redirection shares),
    or when the look did not see every process (one it did not see might)."""
    import time

    out = Look()
    walked, out.walked = _session(root)
    session = [p for p in walked if p not in allowed and p not in done]
    hosts = [p for p in first if p in session]
    counted = [(descriptors(p), p) for p in hosts]
    counted += sorted((descriptors(p), p) for p in session if p not in hosts)
    deadline = time.monotonic() + seconds  # (after what must be read: the walk, the counts)
    readers = False
    writers: list[int] = []
    for count, pid in counted:
        late = out.read + count > budget or time.monotonic() > deadline
        if late and pid not in hosts:
            out.unchecked.append((pid, count))
            continue
        links = _links(pid, pipe)
        out.read += count
        out.checked.append(pid)
        if links is None:
            continue
        writes, reads = links
        readers = readers or bool(reads)
        if reads:
            out.readers.append(pid)
        if writes:
            writers.append(pid)
    if readers or not out.finished() or done:
        out.holders = writers
    return out


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read(4096)
    except OSError:
        return ""
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")


def kill_intruders(
    root: int,
    pipe: str,
    allowed: set[int],
    first: tuple[int, ...] = (),
    done: frozenset[int] = frozenset(),
) -> tuple[list[tuple[int, str, str]], Look]:
    """Kill the processes one look (see :func:`look`, ``first`` and ``done`` too) proved
    hold ``pipe`` for writing: their pids, commands and why; and the look, whose
    unchecked processes a later pass reads (hook_watch.py). A process the look could not
    read is never killed for that (red team s31 run #3: an idle dev server was, when two
    processes of 8,000 threads made the walk overrun the budget)."""
    found = look(
        root, pipe, allowed | {root}, budget=LOOK_BUDGET, seconds=LOOK_SECONDS, first=first,
        done=done,
    )  # fmt: skip
    out: list[tuple[int, str, str]] = []
    for pid in found.holders:
        command = command_line(pid)
        try:
            os.kill(pid, 9)
        except OSError:
            continue
        out.append((pid, command, HELD))
    return out, found
