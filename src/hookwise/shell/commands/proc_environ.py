"""Words that may name a process's environment (red team s31 D). After ``set -a; .
./.env``, every process the line starts holds the file's values in ``/proc/PID/environ``
(and in its memory, ``/proc/PID/mem``); a command that names one prints or copies them.

A guard that looks for the spelling ``/environ`` misses ``/proc/self/envi*``,
``cd /proc; cat self/envir?n``, ``/dev/fd/../environ``, ``cp /proc/self/en* x``. The rule
here is about places, not spellings: a word (or the path after an option's ``=``, curl's
``@``, a ``file:`` URL's ``:``) names a process's environment when it may be
``/proc``, or anything under a process's directory there (``self``, ``thread-self``, a
number: a pattern that may match one of them counts), read as written and with the
links of its literal part resolved as the kernel does. A relative word is taken from the
directory the line moved to (``cd /proc``) when that is known. Cold: only after a
``source`` on the line."""

from __future__ import annotations

_GLOB = frozenset("*?[")
# an extglob group (``@(self|1)``, ``!(x)``): under extglob it may match any name (braces
# are expanded by the parser before this)
_EXTGLOB_OPENERS = frozenset("?*+@!")
# a process's directory under /proc, besides a number
_PROCESS_NAMES = ("self", "thread-self")
# entries of a process's directory that hold counters and tables, never its environment,
# memory or arguments: /proc/net is a link to self/net (the machine's network tables)
_VALUELESS = frozenset(["net", "stat", "statm", "status", "limits", "io", "cgroup",
                        "mounts", "mountinfo"])  # fmt: skip


def names_environment(word: str, cwd: str | None = None, extglob: bool = False) -> bool:
    """Whether ``word`` may name a process's environment (the module's rule); ``cwd``:
    the absolute directory the line is in when it left the project (None: the project);
    ``extglob``: the line may turn extglob on (an ``@(...)`` group may then be any name)."""
    for found in _paths(word):
        path = found if found.startswith("/") or cwd is None else f"{cwd.rstrip('/')}/{found}"
        if _under_process(path, extglob) or _under_process(_resolved(path, extglob), extglob):
            return True
    return False


def _paths(word: str) -> list[str]:
    """The word, and what follows each ``=``, ``@`` or ``:`` in it (``if=/proc/..``,
    ``-d@/proc/..``, ``file:///proc/..``): the paths an option's value may be."""
    found = [word]
    found += [word[at + 1 :] for at, c in enumerate(word) if c in "=@:" and word[at + 1 :]]
    return found


def _under_process(path: str, extglob: bool) -> bool:
    """Whether ``path`` may be ``/proc`` or under a process's directory in it: a
    component that may be ``proc`` followed by one that may be a process (at any depth:
    ``/proc/self/root/proc/1/environ``, a link to ``/`` made on the line, ``r/proc/..``)."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    absolute = path.startswith("/")
    if absolute and _normalised(parts) == ["proc"] and _literal(parts, extglob):
        return True  # /proc itself: the processes' directories are beneath it
    if absolute and len(parts) == 1 and _may_be(parts[0], "proc", extglob):
        return True  # /p*: it may be /proc
    for at in range(len(parts) - 1):
        if (
            _may_be(parts[at], "proc", extglob)
            and _may_be_process(parts[at + 1], extglob)
            and (absolute or _literal(parts[at : at + 1], extglob) or parts[at] == "*")
            and not _valueless(parts[at + 2 :])
        ):
            return True
    return False


def _valueless(rest: list[str]) -> bool:
    """Whether the path under a process's directory is one of its _VALUELESS entries,
    spelled out (``net/tcp``; not a pattern, no ``..`` back out of it)."""
    return bool(rest) and rest[0] in _VALUELESS and ".." not in rest


def _normalised(parts: list[str]) -> list[str]:
    """``parts`` with ``..`` taken lexically (only for the /proc test)."""
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        else:
            out.append(part)
    return out


def _literal(parts: list[str], extglob: bool) -> bool:
    return not any(_GLOB.intersection(p) or (extglob and _extglob(p)) for p in parts)


def _extglob(pattern: str) -> bool:
    """Whether the component holds an extglob group (``@(...)``): any name, here."""
    return any(c in _EXTGLOB_OPENERS and pattern[at + 1 : at + 2] == "(" for at, c in
               enumerate(pattern))  # fmt: skip


def _may_be(pattern: str, name: str, extglob: bool) -> bool:
    """Whether the component ``pattern`` may be the name ``name`` (bash's pattern
    matching, either case: nocaseglob)."""
    from hookwise.shell.exclusions import shell_match  # (fnmatch would load os)

    if (extglob and _extglob(pattern)) or "[:" in pattern:
        return True  # (a POSIX class: any name, here)
    if not _GLOB.intersection(pattern):
        return pattern == name
    return shell_match(name, pattern.replace("[^", "[!").lower().replace("\\", ""))


def _may_be_process(pattern: str, extglob: bool) -> bool:
    """Whether the component may be a process's directory: ``self``, ``thread-self`` or a
    number (a pattern each of whose literal characters and bracket sets allows a digit)."""
    if any(_may_be(pattern, name, extglob) for name in _PROCESS_NAMES):
        return True
    if pattern.isdigit() or (extglob and _extglob(pattern)):
        return True
    if not _GLOB.intersection(pattern):
        return False
    return _allows_digits(pattern)


def _allows_digits(pattern: str) -> bool:
    """Whether the pattern matches some string of digits: each ``?``/``*`` does, a bracket
    set must allow a digit, a literal character must be one."""
    from hookwise.shell.exclusions import shell_match

    at = 0
    while at < len(pattern):
        c = pattern[at]
        if c == "[":
            end = pattern.find("]", at + 2)
            if end < 0:
                return False  # a lone [ is itself: not a digit
            bracket = pattern[at : end + 1].replace("[^", "[!")
            if "[:" in bracket:
                at = end + 1  # (a POSIX class: may be a digit)
                continue
            if not any(shell_match(d, bracket) for d in "0123456789"):
                return False
            at = end + 1
            continue
        if c == "\\" and at + 1 < len(pattern):
            at += 1
            c = pattern[at]
        if c not in "*?" and not c.isdigit():
            return False
        at += 1
    return True


def _resolved(path: str, extglob: bool) -> str:
    """``path`` with its literal prefix resolved as the kernel does (``/dev/fd/..`` is
    ``/proc/PID``, ``/proc/self/cwd/..`` the parent of a process's directory); the rest
    kept. Relative paths are the project's: left as they are."""
    if not path.startswith("/"):
        return path
    from hookwise.policy import os_lite

    parts = path.split("/")
    at = next((i for i, p in enumerate(parts) if not _literal([p], extglob)),
              len(parts))  # fmt: skip
    prefix = "/".join(parts[:at]) or "/"
    try:
        real = os_lite.realpath(prefix)
    except OSError:
        return path
    return "/".join([real.rstrip("/"), *parts[at:]]) if at < len(parts) else real
