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
