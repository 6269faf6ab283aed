"""doctor: the session launcher files the registered command reads, judged as it judges them.

The portable command (``config/hookwise_command.SESSION_LAUNCHER``) follows the one-line
file ``launcher`` of a sessions directory only inside ``hookwise run``: in a user namespace
mapping one id, where that very file is a read-only mount point (the session's bind). Outside
a session the file is empty; one that names something there was written by someone (red team
s28 MCP F4: an agent's one write took every later hook of the command written before), and a
sessions directory that is not this user's private one was made by someone else first.
"""

from __future__ import annotations

import os

from hookwise.policy.confinement import (
    LAUNCHER_NAME,
    S_IFDIR,
    S_IFREG,
    private_problem,
    sessions_dirs,
)

UID_MAP = "/proc/self/uid_map"
MOUNTINFO = "/proc/self/mountinfo"
_ESCAPES = {"\\040": " ", "\\011": "\t", "\\012": "\n", "\\134": "\\"}


def namespace_ids(uid_map: str = UID_MAP) -> tuple[int, bool] | None:
    """(the first id the user namespace maps, whether it maps exactly one), as the
    registered command reads them; None without /proc."""
    try:
        with open(uid_map, encoding="ascii") as handle:
            fields = handle.readline().split()
    except (OSError, ValueError):
        return None
    if len(fields) != 3 or not all(f.isdigit() for f in fields):
        return None
    return int(fields[0]), fields[2] == "1"


def _unescape(field: str) -> str:
    for escaped, plain in _ESCAPES.items():
        field = field.replace(escaped, plain)
    return field


def read_only_mount_point(path: str, mountinfo: str = MOUNTINFO) -> bool:
    """Whether a read-only mount has ``path`` itself as its mount point here (what the
    registered command looks for in the same file)."""
    try:
        with open(mountinfo, encoding="utf-8", errors="surrogateescape") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return False
    for line in lines:
        fields = line.split(" ")
        if len(fields) > 5 and _unescape(fields[4]) == path and f"{fields[5]},".startswith("ro,"):
            return True
    return False


def _first_line(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.readline(4096).decode("utf-8", "replace").rstrip("\n")
    except OSError as exc:
        return f"<unreadable: {exc.strerror}>"


def session_launcher_checks() -> list[tuple[str, str]]:
    """(status, detail) for each session launcher file or sessions directory worth a word:
    this session's (ok, or why the command stops), one that exists outside a session and
    names something, a link, or this user's sessions directory owned by another user or
    writable by others."""
    ids = namespace_ids()
    uid = os.getuid()
    places: list[tuple[str, bool]] = []  # (directory, the command reads it here)
    if ids is not None:
        places += [(place, ids[1]) for place in sessions_dirs(ids[0])]
    places += [(place, False) for place in sessions_dirs(uid) if place not in dict(places)]
    out: list[tuple[str, str]] = []
    for place, read_here in places:
        launcher = f"{place}/{LAUNCHER_NAME}"
        own = place in sessions_dirs(uid)
        directory = private_problem(place, S_IFDIR) if os.path.lexists(place) else None
        if own and directory is not None:
            out.append(
                (
                    "fail",
                    f"{directory}: this user's sessions directory must be its own private "
                    "directory (another user can make it first in /tmp); `hookwise run` "
                    "refuses it and the registered command follows no launcher in it: "
                    "remove it",
                )
            )
        if not os.path.lexists(launcher):
            continue
        if read_here and read_only_mount_point(launcher):
            problem = directory or private_problem(launcher, S_IFREG)
            if problem is not None:
                out.append(
                    (
                        "fail",
                        f"{problem}: the registered command stops on it (exit 2, every hook "
                        "blocks); end this session",
                    )
                )
            else:
                out.append(
                    (
                        "ok",
                        f"{launcher}: this session's launcher, bound read-only: "
                        f"{_first_line(launcher)}",
                    )
                )
            continue
        link = os.path.islink(launcher)
        try:
            size = os.lstat(launcher).st_size
        except OSError:
            size = 0
        if link or size:
            named = f"a link to {os.readlink(launcher)}" if link else _first_line(launcher)
            out.append(
                (
                    "fail",
                    f"{launcher} exists outside a `hookwise run` session and names {named}: "
                    "the registered command ignores it (it follows a session's launcher "
                    "only where the session binds it read-only), but something wrote it: "
                    "with the command written before s28 every hook ran that program (red "
                    f"team s28 F4). Remove it (`rm {launcher}`) and check what it names",
                )
            )
    return out


__all__ = ["namespace_ids", "read_only_mount_point", "session_launcher_checks"]
