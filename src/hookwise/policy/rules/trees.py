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


def why(raw: str, held: str) -> str:
    """The reason a tree read is unverifiable for a rule, naming the file found."""
    return f"{WHY} `{raw}`, {held} among them"


def tree_files(directory: str, cache: dict[str, list[str]], follow: bool = False) -> list[str]:
    """The files under ``directory`` (absolute paths), breadth first, at most
    MAX_ENTRIES entries looked at. ``follow``: into symbolic links, as the program does
    (``grep -R``, ``diff -r``: red team s29 G, a link to ``~`` or ``~/.aws`` in the tree),
    each directory once; else not (``grep -r``). ``cache``: the event's (one look per
    tree and event, never across events)."""
    key = f"{directory}\0L" if follow else directory
    found = cache.get(key)
    if found is not None:
        return found
    found = []
    queue = [directory]
    entered = {os.realpath(directory)}
    seen = at = 0
    while at < len(queue) and seen < MAX_ENTRIES:
        where = queue[at]
        at += 1
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for name in names[: MAX_ENTRIES - seen]:
            seen += 1
            path = f"{where.rstrip('/')}/{name}"
            try:
                mode = os.lstat(path).st_mode
                if follow and os.S_ISLNK(mode):
                    mode = os.stat(path).st_mode
                    if os.S_ISDIR(mode):
                        real = os.realpath(path)
                        if real in entered:
                            continue
                        entered.add(real)
            except OSError:
                continue
            if os.S_ISDIR(mode):
                if name not in _SKIPPED:
                    queue.append(path)
            elif os.S_ISREG(mode):
                found.append(path)
    cache[key] = found
    return found


def held_file(
    ref: Any,
    command: Any,
    where: tuple[str, str],
    matches: Callable[[Any], bool],
    cache: dict[str, list[str]],
    *,
    made: list[tuple[str, str]] | None = None,
) -> str | None:
    """A file of the tree ``ref`` names that ``matches`` (a rule's files) and the
    command's options do not leave out, as the rules show it; None: none found.
    ``made``: symbolic links the line makes before the command (link, what it reaches,
    absolute): one in the tree is followed as the program follows it."""
    from hookwise.policy.canonical import resolve_path
    from hookwise.shell.exclusions import leaves_out

    top = ref.absolute.rstrip("/") or "/"
    program = command.program if command is not None else ""
    argv = command.argv if command is not None else []
    walked = command.walked if command is not None else None
    cwd, home = where
    from hookwise.shell.programs import follows_links

    follow = follows_links(program, argv)
    for path in tree_files(top, cache, follow) if os.path.isdir(top) else []:
        inner = path[len(top) :].lstrip("/")
        if walked is not None:  # find ... -exec READER {}: what find's tests give it
            from hookwise.shell.find_exec import find_leaves_out

            if find_leaves_out(walked, ref.raw, inner):
                continue
        elif leaves_out(program, argv, inner):
            continue
        found = resolve_path(path, cwd, home)
        if matches(found):
            return found.relative or found.absolute or path
        if follow:  # h/.aws/credentials through a link to ~: the file it reaches
            real = resolve_path(os.realpath(path), cwd, home)
            if matches(real):
                return f"{path[len(top) :].lstrip('/')} ({real.relative or real.absolute})"
    for link, reached in made or [] if follow else []:
        if link != top and not link.startswith(f"{top.rstrip('/')}/"):
            continue  # (ln -s ~/.aws d/x && grep -R aws d: red team s29 G)
        paths = tree_files(reached, cache, True) if os.path.isdir(reached) else [reached]
        for path in paths:
            real = resolve_path(os.realpath(path), cwd, home)
            if matches(real):
                shown = real.relative or real.absolute
                return f"{link[len(top) :].lstrip('/')}, a link the line makes to {shown},"
    return None
