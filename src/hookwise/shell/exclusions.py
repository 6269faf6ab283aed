"""Words that are exclusion patterns: ``zip -x P...``/``-i``, ``--exclude[=]P``,
``--exclude-dir``, ``--filter``, ``rg -g '!P'``, ``find ! -path P``, ``find -path P
-prune``. Naming a file there keeps away from it: neither a rule's file nor self-protection
reads it as a file the command reads or changes.

Cold: needed only for a command of programs.excluded_words' programs with such an option.
Standard library only.
"""

from __future__ import annotations

_EXCLUDES = frozenset(["--exclude", "--exclude-dir", "--exclude-from", "--filter", "--iglob",
                       "--glob", "-g", "-I"])  # fmt: skip


def excluded(program: str, argv: list[str]) -> set[int]:
    """The indices of words that are exclusion patterns (``zip -r a.zip . -x '.env'``,
    ``tar --exclude .hookwise``, ``find . ! -path './.git/*'``, ``-path P -prune``): not
    files the command reads or changes."""
    out: set[int] = set()
    listing = False  # zip -x P1 P2...: every word up to the next option
    for index, word in enumerate(argv[1:], start=1):
        if listing and not word.startswith("-"):
            out.add(index)
            continue
        listing = False
        option = word.split("=", 1)[0]
        if option in _EXCLUDES and program != "find":
            if option in ("-g", "--glob", "--iglob") and not _negated_glob(argv, index):
                continue  # rg -g '*.py': a file filter, not an exclusion (unless !...)
            out.add(index)
            if "=" not in word and index + 1 < len(argv):
                out.add(index + 1)
        elif program in ("zip", "unzip") and word in ("-x", "-i"):
            listing = True
        elif program in ("zip", "unzip") and word.startswith(("-x@", "-i@")):
            out.add(index)
        elif program == "find" and word in ("-path", "-ipath", "-name", "-iname", "-wholename"):
            before = argv[index - 1] if index > 1 else ""
            pruned = argv[index + 2 : index + 3] == ["-prune"]
            if (before in ("!", "-not") or pruned) and index + 1 < len(argv):
                out.add(index + 1)
    return out


def _negated_glob(argv: list[str], index: int) -> bool:
    word = argv[index]
    value = (
        word.split("=", 1)[1] if "=" in word else (argv[index + 1] if index + 1 < len(argv) else "")
    )
    return value.startswith("!")


# programs that skip hidden files and directories unless told not to (ripgrep, the silver
# searcher): the options that make them read those too
_HIDDEN_SKIPPERS = {"rg": ("--hidden", "-.", "-uu", "-uuu", "--unrestricted"),
                    "ag": ("--hidden", "-u", "--unrestricted")}  # fmt: skip
# the variable naming a file of options ripgrep reads before its own words (``--hidden``
# there reads hidden files: session 29)
CONFIG_VARIABLES = {"rg": "RIPGREP_CONFIG_PATH"}


def _shows_hidden(program: str, argv: list[str]) -> bool:
    """Whether a word may make ``program`` read hidden files: a long option of
    _HIDDEN_SKIPPERS, or a cluster of short ones holding rg's ``.`` or two ``u`` (counted
    over the line: ``-u -u``), ag's ``u`` (a letter that is a value of another there, as
    in ``-e.x``, is counted too: the safe side)."""
    shown = _HIDDEN_SKIPPERS[program]
    units = 0
    for word in argv[1:]:
        if word == "--":
            break
        if word in shown or word.split("=", 1)[0] in shown:
            return True
        if word[:1] == "-" and word[1:2] not in ("-", ""):
            letters = word[1:]
            units += letters.count("u")
            if (program == "rg" and ("." in letters or units >= 2)) or (
                program == "ag" and units >= 1
            ):
                return True
    return False


def _values(argv: list[str], names: tuple[str, ...]) -> list[str]:
    """The values of long options ``names`` (``--exclude=P``, ``--exclude P``)."""
    found: list[str] = []
    for index, word in enumerate(argv[1:], start=1):
        name, equals, value = word.partition("=")
        if name in names:
            if equals:
                found.append(value)
            elif index + 1 < len(argv):
                found.append(argv[index + 1])
    return found


def leaves_out(program: str, argv: list[str], relative: str, configured: bool = False) -> bool:
    """Whether the program's own options keep it away from ``relative`` (a file's path
    under a tree it reads, ``sub/.env``), as the program matches them: grep's
    ``--exclude``/``--exclude-dir``/``--include`` (base names, any directory), tar's and
    rsync's ``--exclude`` (any part of the path), zip's ``-x`` (the path), rg's and ag's
    hidden files (read only with ``--hidden``, and not known skipped when
    ``configured``: a file of options CONFIG_VARIABLES names may say it) and ``-g
    '!P'``/``-g P``. What it cannot tell leaves nothing out (red team s28 F)."""
    parts = relative.split("/")
    name = parts[-1]
    if program in ("grep", "egrep", "fgrep"):
        if any(shell_match(name, p) for p in _values(argv, ("--exclude",))):
            return True
        if any(shell_match(d, p) for p in _values(argv, ("--exclude-dir",)) for d in parts[:-1]):
            return True
        included = _values(argv, ("--include",))
        return bool(included) and not any(shell_match(name, p) for p in included)
    if program == "diff":  # -x P / --exclude=P: a file or directory whose base name matches
        patterns = [*_values(argv, ("--exclude",)),
                    *(argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-x")]  # fmt: skip
        return any(shell_match(part, p) for p in patterns for part in parts)
    if program in ("tar", "gtar", "bsdtar", "rsync"):
        patterns = _values(argv, ("--exclude",))
        return any(shell_match(part, p) or shell_match(relative, p)
                   for p in patterns for part in parts)  # fmt: skip
    if program in ("zip",):
        listed = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-x"]
        return any(shell_match(relative, p) for p in listed)
    if program in _HIDDEN_SKIPPERS:
        hidden = any(p.startswith(".") for p in parts)
        if hidden and not configured and not _shows_hidden(program, argv):
            return True
        globs = [*_values(argv, ("--glob", "--iglob")),
                 *(argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-g")]  # fmt: skip
        if any(g.startswith("!") and shell_match(name, g[1:]) for g in globs):
            return True
        chosen = [g for g in globs if not g.startswith("!")]
        return bool(chosen) and not any(shell_match(name, g) for g in chosen)
    return False


def _class(pattern: str, at: int, ch: str) -> tuple[bool, int] | None:
    """Whether ``ch`` is in the bracket expression opening at ``at`` (``[!a-c]``), and the
    index after it; None when it does not close (then ``[`` is a literal)."""
    i = at + 1
    negated = i < len(pattern) and pattern[i] in "!^"
    i += negated
    found = False
    first = True
    while i < len(pattern) and (first or pattern[i] != "]"):
        first = False
        if pattern[i] == "[" and pattern[i + 1 : i + 2] == ":":
            return None  # a POSIX class: not read here (the caller matches nothing)
        lo = pattern[i]
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            found = found or lo <= ch <= pattern[i + 2]
            i += 3
        else:
            found = found or lo == ch
            i += 1
    if i >= len(pattern):
        return None
    return found != negated, i + 1


def shell_match(text: str, pattern: str) -> bool:
    """Whether ``text`` matches the shell pattern as fnmatch(3) without flags matches it
    (``*`` and ``?`` cross ``/``), as grep, diff and tar read their exclusions. A pattern
    this does not read (a POSIX class) matches nothing: nothing is left out."""
    if "[:" in pattern:
        return False
    # (text index, pattern index) pairs still alive, a set: no exponential backtracking
    states = {(0, 0)}
    seen: set[tuple[int, int]] = set()
    while states:
        ti, pi = states.pop()
        if (ti, pi) in seen:
            continue
        seen.add((ti, pi))
        if pi == len(pattern):
            if ti == len(text):
                return True
            continue
        c = pattern[pi]
        if c == "*":
            states.add((ti, pi + 1))
            if ti < len(text):
                states.add((ti + 1, pi))
        elif ti >= len(text):
            continue
        elif c == "?":
            states.add((ti + 1, pi + 1))
        elif c == "[" and (found := _class(pattern, pi, text[ti])) is not None:
            if found[0]:
                states.add((ti + 1, found[1]))
        elif c == "\\" and pi + 1 < len(pattern):
            if text[ti] == pattern[pi + 1]:
                states.add((ti + 1, pi + 2))
        elif text[ti] == c:
            states.add((ti + 1, pi + 1))
    return False
