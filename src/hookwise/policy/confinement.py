"""Whether the hook (or a hookwise command) runs inside ``hookwise run``'s confinement.

The environment variables alone prove nothing: any shell can set them. What does is what
they name: the session directory holding the audit socket is on a read-only mount here and
carries the session id in its name, and hookwise's configuration directory (trust store,
user policy) is read-only here as well. An unconfined process of the same user can make
neither read-only. A few system calls; ``posix`` only (the hook asks on tool events when
``settings.require_confinement`` is set, and before it writes state).
"""

import posix

ST_RDONLY = 1  # os.ST_RDONLY, without importing os
SESSION_VARIABLE = "HOOKWISE_RUN"
AUDIT_VARIABLE = "HOOKWISE_RUN_AUDIT"
SESSION_PREFIX = "hookwise-run-"
SOCKET_SUFFIX = ".sock"
REQUIRE_ID = "hookwise:unconfined"


def _read_only(path: str) -> "bool | None":
    try:
        return bool(posix.statvfs(path).f_flag & ST_RDONLY)
    except OSError:
        return None


def config_dir(env: "dict[str, str]") -> str:
    """hookwise's configuration directory, as trust.scopes.config_home computes it
    (tests/policy/test_confinement.py checks the two agree)."""
    base = env.get("XDG_CONFIG_HOME") or ((env.get("HOME") or "") + "/.config")
    return base.rstrip("/") + "/hookwise"


def confinement_status(env: "dict[str, str]") -> "tuple[bool, str]":
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


def on_read_only_mount(path: str) -> bool:
    """Whether ``path`` (or, when absent, its directory) lies on a read-only mount here."""
    state = _read_only(path)
    if state is None:
        state = _read_only(path.rpartition("/")[0] or "/")
    return bool(state)


def confined(env: "dict[str, str]") -> bool:
    """Whether this process runs inside `hookwise run` (no variable: no system call)."""
    return bool(env.get(SESSION_VARIABLE)) and confinement_status(env)[0]


def unconfined_reason(env: "dict[str, str]") -> "str | None":
    """The deny reason for a tool call when confinement is required and missing, or None."""
    confined, why = confinement_status(env)
    if confined:
        return None
    return (
        "hookwise requires this agent to run confined (settings.require_confinement) and it "
        f"is not: {why}. Quit and start it as `hookwise run -- <agent> [args]` "
        "(e.g. `hookwise run -- claude`)"
    )
