"""Policy files below the session's start directory, in a directory above it or in the
home's ``.hookwise/`` that were created or changed during the session, found when it ends.

The hook does not trust them (policy/trust/store.py: a policy written during a session is
refused inside it and loses tree trust after it), but the user should know that something
inside wrote a policy: the supervisor names each on stderr and in the sessions log. Only
files there at the end are seen: one deleted during the session left no trace (a walk at the
start would cost every start 10-20 ms on a few hundred directories). A directory above the
start (``~/.hookwise/`` over every project of the home, ``/tmp/.hookwise``) can be created
inside when its parent is writable there: its policy reaches every later call below it, in
and out of sessions (red team s26 #4), so those are looked at too.
"""

from __future__ import annotations

import os
import stat

from hookwise.policy.trust.scopes import LOCAL_FILE, PROJECT_DIR, PROJECT_FILE

MAX_DIRECTORIES = 200_000  # a walk past this stops, and says so


def changed_policies(
    start: str, since: float, limit: int = MAX_DIRECTORIES, homes: tuple[str, ...] = ()
) -> tuple[list[str], bool]:
    """(policy files below ``start``, in its ancestors and in ``homes`` and theirs, whose
    change time is ``since`` or later, whether the walk stopped at ``limit`` directories).
    Symlinks are not followed: discovery reaches a policy through the directories an
    event's cwd names, and those are walked here."""
    found: list[str] = []
    for directory in _above(start, homes):
        _look(directory, since, found)
    walked = os.walk(start, onerror=lambda _exc: None)
    for seen, (directory, subdirs, _files) in enumerate(walked, start=1):
        if seen > limit:
            return sorted(found), True
        if PROJECT_DIR in subdirs:
            _look(directory, since, found)
    return sorted(found), False


def _above(start: str, homes: tuple[str, ...]) -> list[str]:
    """The directories above ``start`` and each home with theirs, each once."""
    out: dict[str, None] = {}
    for first in (os.path.dirname(os.path.abspath(start)), *homes):
        current = os.path.abspath(first)
        while True:
            out.setdefault(current)
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
    return list(out)


def _look(directory: str, since: float, found: list[str]) -> None:
    """Add ``directory``'s policy files (or its ``.hookwise`` link) changed since then."""
    base = os.path.join(directory, PROJECT_DIR)
    try:
        link = os.lstat(base)
    except OSError:
        return
    if stat.S_ISLNK(link.st_mode) and link.st_ctime >= since:
        # a link put there now leads to files older than the session (red team s25 #5):
        # the link is the change
        found.append(base)
        return
    for name in (PROJECT_FILE, LOCAL_FILE):
        path = os.path.join(directory, PROJECT_DIR, name)
        try:
            changed = os.lstat(path).st_ctime
        except OSError:
            continue
        if changed >= since and path not in found:
            found.append(path)
