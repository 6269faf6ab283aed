"""What a directory read recursively holds (red team s28 F, G): ``grep -r x .``, ``diff -rN
../e .``, ``tar czf a.tgz .`` read every file under ``.``. Where a rule's file lies in such
a tree on this machine, found by a bounded look, the command reads it, unless the
program's own options leave it out (shell.exclusions.leaves_out). The rule's glob reaching
into the tree (``grep -r x ~`` over ``~/.ssh/**``) is the engine's own match (maybe.reaches);
a file found only by looking makes the command unverifiable for the rule: it is asked,
naming the file, and the program's exclusion options answer it.

Cold: imported only for an event with a tree read. Standard library only."""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# the look is bounded (a hook answers in a few seconds whatever the tree): this many
# entries, breadth first (what lies near the top, as a project's .env does, is seen first)
MAX_ENTRIES = 4000
# git's own directory: objects and refs, none of them a file a rule names by its name
_SKIPPED = frozenset([".git"])


WHY = "it reads every file under"  # how a tree's reason opens (maybe.unverifiable_for)


# what held_file says of a tree larger than the look: none of its files is known
PAST_BOUND = (
    f"more than hookwise looks at (over {MAX_ENTRIES} entries, or a directory it cannot read)"
)


def why(raw: str, held: str) -> str:
    """The reason a tree read is unverifiable for a rule, naming the file found."""
    if held == PAST_BOUND:
        return f"{WHY} `{raw}`, {held} (any of them could be one of its files)"
    return f"{WHY} `{raw}`, {held} among them"


def look(directory: str, skipped: frozenset[str] = frozenset()) -> tuple[list[str], bool]:
    """What lies under ``directory`` that is no directory (files, links, others: absolute
    paths), breadth first, at most MAX_ENTRIES entries looked at; symbolic links are not
    followed into. The flag: whether that is all of it (False: past the bound, or a
    directory in it could not be read). ``skipped``: names of directories not entered."""
    found: list[str] = []
    queue = [directory]
    seen = at = 0
    whole = True
    while at < len(queue):
        if seen >= MAX_ENTRIES:
            whole = False  # (a directory left to look into)
            break
        where = queue[at]
        at += 1
        try:
            names = os.listdir(where)
        except OSError:
            whole = False
            continue
        if len(names) > MAX_ENTRIES - seen:
            whole = False
        for name in names[: MAX_ENTRIES - seen]:
            seen += 1
            path = f"{where.rstrip('/')}/{name}"
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                whole = False
                continue
            if os.S_ISDIR(mode):
                if name not in skipped:
                    queue.append(path)
            else:
                found.append(path)
    return found, whole


def tree_files(directory: str, cache: dict[str, tuple[list[str], bool]]) -> tuple[list[str], bool]:
    """The regular files under ``directory`` (:func:`look`, ``.git`` left out: grep -r),
    and whether that is all of them. ``cache``: the event's (one look per tree and event,
    never across events)."""
    known = cache.get(directory)
    if known is None:
        found, whole = look(directory, _SKIPPED)
        known = cache[directory] = ([path for path in found if _regular(path)], whole)
    return known


def _regular(path: str) -> bool:
    try:
        return os.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def held_file(
    ref: Any,
    command: Any,
    where: tuple[str, str],
    matches: Callable[[Any], bool],
    cache: dict[str, tuple[list[str], bool]],
    *,
    unseen: bool = True,
    configured: bool = False,
) -> str | None:
    """A file of the tree ``ref`` names that ``matches`` (a rule's files) and the
    command's options do not leave out, as the rules show it; PAST_BOUND when none was
    found but the tree is larger than the look and ``unseen`` (a file the look did not
    reach could be the rule's: unverifiable, never allowed); None: none."""
    from hookwise.policy.canonical import resolve_path
    from hookwise.shell.exclusions import leaves_out

    top = ref.absolute.rstrip("/") or "/"
    if not os.path.isdir(top):
        return None
    program = command.program if command is not None else ""
    argv = command.argv if command is not None else []
    walked = command.walked if command is not None else None
    cwd, home = where
    files, whole = tree_files(top, cache)
    for path in files:
        inner = path[len(top) :].lstrip("/")
        if walked is not None:  # find ... -exec READER {}: what find's tests give it
            from hookwise.shell.find_exec import find_leaves_out

            if find_leaves_out(walked, ref.raw, inner):
                continue
        elif leaves_out(program, argv, inner, configured):
            continue
        found = resolve_path(path, cwd, home)
        if matches(found):
            return found.relative or found.absolute or path
    return PAST_BOUND if unseen and not whole else None


def configured(command: Any, script: Any, env: dict[str, str]) -> bool:
    """Whether the searcher may read a file of options (rg's RIPGREP_CONFIG_PATH, where
    ``--hidden`` reads hidden files): set in the event's environment, or by any command
    of the line (``export X=...; rg``, ``X=... rg``, ``env X=... rg``)."""
    from hookwise.shell.exclusions import CONFIG_VARIABLES

    name = CONFIG_VARIABLES.get(command.program if command is not None else "")
    if name is None:
        return False
    if env.get(name):
        return True
    commands = script.commands if script is not None else [command]
    return any(
        name in c.assigned or name in c.env or any(name in w for w in c.argv) for c in commands
    )
