"""Whether this process runs confined by ``hookwise run``, from a few system calls.

The environment variables alone prove nothing (any shell can set them). What does is what
they name: the audit socket is named after the session, its directory (the user's session
directory) is on a read-only mount here, and hookwise's configuration directory (the trust
store and the user policy) is read-only here as well. An unconfined process of the same
user cannot make either read-only. Standard library only, nothing imported beyond
``posix`` (the hook may ask).
"""

from __future__ import annotations

import posix

ST_RDONLY = 1  # os.ST_RDONLY, without importing os
SESSION_VARIABLE = "HOOKWISE_RUN"
AUDIT_VARIABLE = "HOOKWISE_RUN_AUDIT"
SESSION_PREFIX = "hookwise-run-"
SOCKET_SUFFIX = ".sock"


def _read_only(path: str) -> bool | None:
    try:
        return bool(posix.statvfs(path).f_flag & ST_RDONLY)
    except OSError:
        return None


def config_dir(env: dict[str, str]) -> str:
    """hookwise's configuration directory, as policy.scopes computes it (the trust store's
    directory; tests/run/test_status.py checks the two agree)."""
    base = env.get("XDG_CONFIG_HOME") or ((env.get("HOME") or "") + "/.config")
    return base.rstrip("/") + "/hookwise"


def confinement_status(env: dict[str, str]) -> tuple[bool, str]:
    """(confined, why): why it is, or why it is not (what is missing or writable)."""
    session = env.get(SESSION_VARIABLE)
    socket = env.get(AUDIT_VARIABLE)
    if not session or not socket:
        return False, f"not started by `hookwise run` (${SESSION_VARIABLE} is not set)"
    directory, _, name = socket.rpartition("/")
    if name != session + SOCKET_SUFFIX or not directory.rpartition("/")[2].startswith(
        SESSION_PREFIX
    ):
        return False, f"${AUDIT_VARIABLE} does not name the socket of session {session}"
    state = _read_only(directory)
    if state is None:
        return False, f"the session directory {directory} does not exist here"
    if not state:
        return False, f"the session directory {directory} is writable here"
    guard = config_dir(env)
    if not _read_only(guard):
        return False, f"hookwise's configuration {guard} is writable here"
    return True, f"confined by `hookwise run` (session {session})"
