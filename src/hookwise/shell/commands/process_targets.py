"""Commands that act on a process the line did not start: signal it, stop it, trace it,
inject into it or change its limits and scheduling.

Outside ``hookwise run`` nothing keeps a tool call from the host and its hooks: one allowed
``pkill -STOP -f <launcher>`` loop, ``kill -KILL $PPID`` or ``strace -p $PPID -e
inject=execve:error=ENOENT`` and every later hook dies or never starts, which the hosts
take as "no decision" (red team s32 #3, s30 #5). Which process a pid or a pattern names
is known only when the command runs, so such a command is unverifiable (ask), by the table
below: what each program acts on, and which operand or option names it. Not asked about:

- ``kill %1``, ``kill $!``, ``pid=$!; kill $pid``: a job of the line's own shell (it
  started it);
- ``kill -0``, ``kill -l``: a test or a list, no signal sent;
- ``pkill``/``killall`` with a literal pattern that matches none of the processes the hook
  can see above it (the host, its shells) nor the hook itself (``pkill -f 'uvicorn app'``
  of a dev server): such a pattern cannot reach them. A pattern that matches one, is built
  when the line runs, or is not a plain regular expression, is unverifiable; so is a
  selection by relation (``-P $PPID``, ``-s``, ``-g``, ``-u``, ``-t``, a pid file).

Cold: :mod:`hookwise.shell.accounting` imports it for a program of :data:`ACTORS` only.
"""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost (the hook's path)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# program -> (options that name the process it acts on, whether its positional operands
# are processes: "pid", "pattern", "name" (killall) or "" (they are a program it starts))
ACTORS: dict[str, tuple[frozenset[str], str]] = {
    "kill": (frozenset(), "pid"),
    "pkill": (frozenset(), "pattern"),
    "killall": (frozenset(), "name"),
    "killall5": (frozenset(), "all"),
    "skill": (frozenset(), "all"),
    "snice": (frozenset(), "all"),
    "strace": (frozenset(["-p", "--attach"]), ""),
    "ltrace": (frozenset(["-p"]), ""),
    "gdb": (frozenset(["-p", "--pid"]), "gdb"),
    "lldb": (frozenset(["-p", "--attach-pid", "-n", "--attach-name"]), ""),
    "gdbserver": (frozenset(["--attach"]), ""),
    "gcore": (frozenset(), "pid"),
    "reptyr": (frozenset(), "pid"),
    "perf": (frozenset(["-p", "--pid", "-t", "--tid"]), ""),
    "bpftrace": (frozenset(["-p"]), ""),
    "py-spy": (frozenset(["-p", "--pid"]), ""),
    "prlimit": (frozenset(["-p", "--pid"]), ""),
    "renice": (frozenset(["-p", "--pid", "-g", "--pgrp", "-u", "--user"]), "pid"),
    "ionice": (frozenset(["-p", "--pid", "-P", "--pgid", "-u", "--uid"]), ""),
    "chrt": (frozenset(["-p", "--pid"]), ""),
    "taskset": (frozenset(["-p", "--pid"]), ""),
    "criu": (frozenset(["-t", "--tree"]), ""),
    # with -k (any signal) every process that maps, opens, executes or sits in its file or
    # mount operands (red team s33 #3: the hook's libpython); without -k it only lists
    "fuser": (frozenset(), "users"),
}
# fuser's option that makes its operands' users the processes it signals
_FUSER_KILL = frozenset(["-k", "--kill"])
# pkill's and killall's options that select by relation, not by pattern: what they reach
# is known only when the line runs
_RELATIONS = frozenset(
    ["-P", "--parent", "-s", "--session", "-g", "--pgroup", "-G", "--group", "-u", "--euid",
     "-U", "--uid", "-t", "--terminal", "--ns", "--nslist", "-F", "--pidfile", "-A",
     "--ignore-ancestors", "-o", "--older", "-y", "--younger", "--cgroup"]
)  # fmt: skip
# options that take a value (so the value is not the pattern); signal and limit options
_VALUED = frozenset(["-s", "--signal", "-n", "--ns", "--nslist", "-d", "--delimiter", "-q",
                     "--queue", "-o", "--older", "-y", "--younger", "--cgroup", "-P",
                     "--parent", "-g", "--pgroup", "-G", "--group", "-u", "--euid", "-U",
                     "--uid", "-t", "--terminal", "-F", "--pidfile", "-O"])  # fmt: skip
_OWN_JOBS = ("%", "$!", "${!}")


def judge(command: Any) -> str | None:
    """Why ``command`` acts on a process hookwise cannot account for; None when it does
    not (or acts only on its own line's jobs)."""
    argv: list[str] = command.argv
    name = command.program
    spec = ACTORS.get(name)
    if spec is None or len(argv) < 2:
        return None
    options, operands = spec
    for index, word in enumerate(argv[1:], start=1):
        flag = word.split("=", 1)[0]
        if flag in options or _in_cluster(flag, options):
            target = word.split("=", 1)[1] if "=" in word else argv[index + 1 : index + 2]
            return _reason(name, f"{flag} {''.join(target)}".strip())
    if operands == "pid":
        return _pids(command)
    if operands == "all":
        return _reason(name, "the processes its operands select")
    if operands in ("pattern", "name"):
        return _pattern(command, by_name=operands == "name")
    if operands == "users":
        return _users(command)
    if operands == "gdb":  # gdb PROGRAM PID: a running process by its pid
        positional = [w for w in argv[1:] if not w.startswith("-")]
        if len(positional) >= 2 and (positional[1].isdigit() or "$" in positional[1]):
            return _reason(name, positional[1])
    return None


def names_process(name: str, argv: list[str]) -> bool:
    """Whether ``argv`` gives ``name`` an option naming a running process (``strace -p``,
    ``taskset -p``): then it wraps no command of its own."""
    options = ACTORS.get(name, (frozenset(), ""))[0]
    for word in argv[1:]:
        if word == "--":
            return False
        flag = word.split("=", 1)[0]
        if flag in options or _in_cluster(flag, options):
            return True
    return False


def _in_cluster(flag: str, options: frozenset[str]) -> bool:
    """``-fp123``: a short option of ``options`` among a cluster's letters (up to the first
    that is no letter: the rest is a value)."""
    if len(flag) < 3 or flag[0] != "-" or flag[1] == "-":
        return False
    for letter in flag[1:]:
        if not letter.isalpha():
            return False
        if "-" + letter in options:
            return True
    return False


def _reason(name: str, target: str) -> str:
    return (
        f"`{name}` acts on a running process ({target}) this command did not start: "
        "hookwise cannot tell it from the host or the hooks that guard it"
    )


def _pids(command: Any) -> str | None:
    """kill, gcore, reptyr, renice: the pid operands, ``%job`` and ``$!`` excepted."""
    argv: list[str] = command.argv
    words = argv[1:]
    if command.program == "kill":
        if any(w in ("-l", "-L", "--list", "--table") for w in words):
            return None
        if (words and words[0] in ("-0", "-s0", "-n0")) or words[:2] in (["-s", "0"], ["-n", "0"]):
            return None  # (signal 0: whether it exists, nothing sent)
    skip = False
    for index, word in enumerate(words, start=1):
        if skip:
            skip = False
            continue
        if word in ("-s", "-n", "--signal", "-q", "--queue", "--timeout"):
            skip = True
            continue
        if word == "--" or (word.startswith("-") and not word[1:].isdigit()) or word == "-":
            continue
        if command.program == "renice" and index == 1:
            continue  # (the priority)
        if word.startswith("-") and index == 1 and command.program == "kill":
            continue  # kill -9 / -KILL: the signal
        if word.startswith(_OWN_JOBS) or own_job(command, index):
            continue
        return _reason(command.program, word)
    return None


def own_job(command: Any, index: int) -> bool:
    """Whether the word at ``index`` is a variable whose only value is ``$!`` (``pid=$!;
    kill $pid``): the pid of a job the line itself started, as ``kill $!`` is."""
    shapes = getattr(command, "shapes", None)
    if not shapes or index not in shapes or not command.dynamic[index]:
        return False
    from hookwise.shell.variables import OWN_JOB

    return [t for t in shapes[index] if t != ("S",)] == [OWN_JOB]


def _users(command: Any) -> str | None:
    """fuser -k: the processes using its operands, whichever they are (every hook maps the
    loader, libc and libpython; the host sits in the project): unverifiable."""
    argv: list[str] = command.argv
    kills = False
    for word in argv[1:]:
        if word == "--":
            break
        if word in _FUSER_KILL or _in_cluster(word, _FUSER_KILL):
            kills = True
    if not kills:
        return None
    files = [w for w in argv[1:] if not w.startswith("-")] or ["its operands"]
    return _reason(command.program, f"every process using {' '.join(files)}")


def _pattern(command: Any, *, by_name: bool) -> str | None:
    """pkill, killall: a literal pattern that matches none of the processes above the hook
    nor the hook itself is let be; anything else is unverifiable."""
    import re

    argv: list[str] = command.argv
    full = ignore = exact = regex = False
    patterns: list[tuple[str, bool]] = []
    skip = False
    for index, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
            continue
        if word == "--" or not word.startswith("-") or word == "-":
            patterns.append((word, command.dynamic[index]))
            continue
        flag = word.split("=", 1)[0]
        if flag in _RELATIONS:
            return _reason(command.program, f"selected by {flag}")
        if flag in _VALUED and "=" not in word:
            skip = True
            continue
        if flag in ("-f", "--full"):
            full = True
        elif flag in ("-i", "--ignore-case"):
            ignore = True
        elif flag in ("-x", "--exact", "-e"):
            exact = exact or flag != "-e" or by_name
        elif flag in ("-r", "--regexp"):
            regex = True
        elif not flag.startswith("--") and len(flag) > 2 and not flag[1:].isupper():
            letters = flag[1:]
            if not letters.isdigit():
                full = full or "f" in letters
                ignore = ignore or "i" in letters
                exact = exact or "x" in letters
    if not patterns:
        return None
    seen = _visible(full)
    for word, dynamic in patterns:
        if dynamic:
            return _reason(command.program, f"the pattern {word}, made when the line runs")
        found: str | None = None
        try:
            if by_name and not regex:
                found = next(
                    (p for p in seen if (p.lower() == word.lower() if ignore else p == word)),
                    None,
                )
            else:
                compiled = re.compile(word, re.IGNORECASE if ignore else 0)
                test = compiled.fullmatch if exact else compiled.search
                for process in seen:
                    hit = test(process)
                    if hit is not None:
                        start = max(0, hit.start() - 30)
                        found = process[start : hit.end() + 30]
                        break
        except re.error:
            return _reason(command.program, f"the pattern {word!r}, unreadable to hookwise")
        if found is not None:
            return (
                f"`{command.program}`'s pattern {word!r} matches {found!r}, the host or a "
                "hook that guards it (a process this command did not start)"
            )
    return None


def _visible(full: bool) -> list[str]:
    """The command lines (``full``) or names of the processes the next hooks depend on:
    this process (a hook runs as the next ones will), its ancestors (the host and its
    shells) and the programs the hosts start hooks with."""
    out: list[str] = []
    pid = os.getpid()
    for _ in range(64):
        if pid <= 1:
            break
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = [a.decode("utf-8", "replace") for a in handle.read().split(b"\0") if a]
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read().decode("utf-8", "replace")
        except OSError:
            break
        comm = stat[stat.find("(") + 1 : stat.rfind(")")]
        if full:
            out.append(" ".join(argv))
        else:
            out += [comm, *(os.path.basename(a) for a in argv[:1])]
        fields = stat[stat.rfind(")") + 2 :].split()
        pid = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
    import sys

    # the names the next hooks will run under: the launcher's interpreter, the shells
    interpreter = [sys.executable, os.path.realpath(sys.executable)]
    out += [p if full else os.path.basename(p) for p in interpreter]
    out += ["hookwise", "sh", "bash", "dash"]
    return [p for p in out if p]
