"""A copy, move or link that leaves a secret under its guard (session 29, issue 24).

Since red team s27 P a copy, move or link of a file is a read of it (shell/written.py): the
new name is one no rule may guard, and a later call reads it there. Where every name the
sources are put under is itself guarded by the same rule (``mv .env .env.bak``, ``cp .env
.env.local``, ``ln -s ../.env .env`` in a subdirectory, ``cp .env.example .env`` under a
``.env*`` rule), nothing is exposed: a later read of the new name meets the same rule.
That holds only for a name that stays where no other program reads it out, so a name is
kept only when it is an ordinary place in the working directory, as the disk holds it
now: not outside it (``/tmp``, ``~``, ``/dev/stdout``), not under or at a symbolic link
(a copy writes where it points), not an existing FIFO, socket or device (whoever opened
it reads what is written), not a regular file with another hard link (its other name
holds the content too), not in a directory another command of the line reads as a
tree or a pattern (``cp .env sub/.env && tar cf - sub``), and, in a git work tree, not a
name git would add (``git add -A`` then a push publishes it: rules/git_ignored.py).
Anything else stays a read.

The engine matches the kept names against each rule that matches a source
(engine._m_files). Cold: imported only for a line that
copies, moves or links. Standard library only; nothing is opened (lstat only)."""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def kept_places(cwd: str, places: Sequence[tuple[str, str]]) -> bool:
    """Whether each (absolute, relative to ``cwd``) place the names
    (shell/written.kept_names) resolve to is an ordinary one no other program reads out
    (canonical resolves them: this module imports nothing of it)."""
    from hookwise.policy.rules.git_ignored import ignored

    base = os.path.normpath(cwd)
    if not places or any(not _ordinary(base, relative) for _absolute, relative in places):
        return False
    return all(ignored(absolute) is not False for absolute, _relative in places)


def _ordinary(base: str, relative: str) -> bool:
    """Each part of ``ref`` below ``base`` that exists is a directory (the last may be a
    regular file of one link); none is a symbolic link. What does not exist yet is made
    by the copy itself."""
    path = base
    parts = relative.split("/")
    for index, part in enumerate(parts):
        path = f"{path}/{part}"
        try:
            st = os.lstat(path)
        except OSError:
            return True  # (nothing below a missing name exists either)
        if os.S_ISDIR(st.st_mode):
            continue
        last = index == len(parts) - 1
        if not (last and os.S_ISREG(st.st_mode) and st.st_nlink == 1):
            return False
    return True


def read_elsewhere(kept: Sequence[Any], others: Sequence[Any]) -> bool:
    """Whether a path another command of the line reads as a tree or a pattern (``tar cf -
    sub``, ``cat sub/.*``, a file server's directory) takes in one of the kept names."""
    for other in others:
        if not (other.tree or other.pattern):
            continue
        if other.absolute is None:
            return True  # (a tree or pattern known only when it runs: could be any)
        top = other.absolute
        if other.pattern:  # the directory before its first pattern character
            cut = min((top.find(c) for c in "*?[{" if c in top), default=len(top))
            top = top[:cut].rpartition("/")[0]
        top = top.rstrip("/") + "/"
        if any(((ref.absolute or "") + "/").startswith(top) for ref in kept):
            return True
    return False
