"""Policy files below the session's start directory that were created or changed during
the session, found when it ends.

The hook does not trust them (policy/trust/store.py: a policy written during a session is
refused inside it and loses tree trust after it), but the user should know that something
inside wrote a policy: the supervisor names each on stderr and in the sessions log. Only
files there at the end are seen: one deleted during the session left no trace (a walk at the
start would cost every start 10-20 ms on a few hundred directories).
"""

from __future__ import annotations

import os
import stat

from hookwise.policy.trust.scopes import LOCAL_FILE, PROJECT_DIR, PROJECT_FILE

MAX_DIRECTORIES = 200_000  # a walk past this stops, and says so


def changed_policies(
    start: str, since: float, limit: int = MAX_DIRECTORIES
) -> tuple[list[str], bool]:
    """(policy files below ``start`` whose change time is ``since`` or later, whether the
    walk stopped at ``limit`` directories). Symlinks are not followed: discovery reaches a
    policy through the directories an event's cwd names, and those are walked here."""
    found: list[str] = []
    seen = 0
    for directory, subdirs, _files in os.walk(start, onerror=lambda _exc: None):
        seen += 1
        if seen > limit:
            return sorted(found), True
        if PROJECT_DIR in subdirs:
            base = os.path.join(directory, PROJECT_DIR)
            try:
                link = os.lstat(base)
            except OSError:
                continue
            if stat.S_ISLNK(link.st_mode) and link.st_ctime >= since:
                # a link put there now leads to files older than the session (red team s25
                # #5): the link is the change
                found.append(base)
                continue
            for name in (PROJECT_FILE, LOCAL_FILE):
                path = os.path.join(directory, PROJECT_DIR, name)
                try:
                    changed = os.lstat(path).st_ctime
                except OSError:
                    continue
                if changed >= since:
                    found.append(path)
    return sorted(found), False
