"""What ``find`` selects and whether it changes it (``find . -name policy.yaml -delete``),
for the guard of hookwise's own files (protect.py). Imported only for a ``find`` that
deletes, runs a program or writes a list: every other command never needs it.
"""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_FIND_NAMES = ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename")


def _find_test(test: str, pattern: str, shown: str, parents: list[str]) -> bool:
    """Whether ``find``'s name/path test selects ``shown`` (as find prints it), or one of
    the directories above it (``-name .hookwise -exec rm -rf {} +``)."""
    import fnmatch

    fold = test.startswith("-i")
    whole = "path" in test or "whole" in test
    subjects = [shown] if whole else [shown.rsplit("/", 1)[-1], *parents]
    if fold:
        subjects = [x.lower() for x in subjects]
        pattern = pattern.lower()
    return any(fnmatch.fnmatchcase(x, pattern) for x in subjects)


def find_changes(argv: list[str], readers: frozenset[str]) -> bool:
    """Whether ``find`` changes what it selects: ``-delete``, ``-fprint``, or ``-exec``/
    ``-ok`` of a program that is not one of ``readers`` (``-exec wc -l {} +`` only reads)."""
    if any(w in ("-delete", "-fprint", "-fprint0", "-fprintf", "-fls") for w in argv):
        return True
    for index, word in enumerate(argv[:-1]):
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            program = argv[index + 1].rsplit("/", 1)[-1]
            if program not in readers:
                return True
    return False


def find_selects(
    argv: list[str], items: list[str], expand: Callable[[str], list[str]]
) -> tuple[str, str] | None:
    """(the first of ``items`` that ``find`` selects under a start point, not the start
    point itself, and how), or None. A negated test (``-not -path './.hookwise/*'``) and a
    pruned path leave it out; an ``-o`` or a test it cannot read makes it assume the file
    is selected. ``expand``: the absolute paths a start point names."""
    starts: list[str] = []
    i = 1
    while i < len(argv) and not argv[i].startswith(("-", "(", "!")):
        starts.append(argv[i])
        i += 1
    tests: list[tuple[str, str]] = []
    negated: list[tuple[str, str]] = []
    pruned: list[tuple[str, str]] = []
    unsure = False
    while i < len(argv):
        word = argv[i]
        following = argv[i + 1] if i + 1 < len(argv) else ""
        if word in ("!", "-not") and following in _FIND_NAMES and i + 2 < len(argv):
            negated.append((following, argv[i + 2]))
            i += 3
            continue
        if word in _FIND_NAMES and following:
            if argv[i + 2 : i + 3] == ["-prune"] and argv[i + 3 : i + 4] in (["-o"], ["-or"]):
                # -name X -prune -o ...: X left out; without -o, -prune is true and
                # X is what the rest acts on (-name node_modules -prune -exec rm -rf)
                pruned.append((word, following))
                i += 4 if argv[i + 3 : i + 4] in (["-o"], ["-or"]) else 3
                continue
            tests.append((word, following))
            i += 2
            continue
        if word in ("!", "-not", "-o", "-or", "-regex", "-iregex", "(", ")", "\\(", "\\)"):
            unsure = True
        i += 1
    for start in starts or ["."]:
        for root in expand(start):
            inside = root.rstrip("/") + "/"
            for item in items:
                if not item.startswith(inside) or not os.path.lexists(item):
                    continue
                shown = start.rstrip("/") + "/" + item[len(inside) :]
                parents = item[len(inside) :].split("/")[:-1]
                if any(_find_test(t, p, shown, parents) for t, p in negated):
                    continue
                if any(_find_pruned(t, p, shown) for t, p in pruned):
                    continue
                selected = unsure or all(_find_test(t, p, shown, parents) for t, p in tests)
                if selected:
                    return item, f"`find {start}` selects {shown}"
    return None


def _find_pruned(test: str, pattern: str, shown: str) -> bool:
    """Whether ``shown`` is under a directory ``-path P -prune`` leaves out."""
    parts = shown.split("/")
    for end in range(1, len(parts)):
        above = "/".join(parts[:end])
        if _find_test(test, pattern, above, parts[: end - 1]):
            return True
    return False
