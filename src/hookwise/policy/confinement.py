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
S_IFMT, S_IFDIR, S_IFREG, S_IFLNK = 0o170000, 0o040000, 0o100000, 0o120000  # (stat's)
SESSION_VARIABLE = "HOOKWISE_RUN"
AUDIT_VARIABLE = "HOOKWISE_RUN_AUDIT"
START_VARIABLE = "HOOKWISE_RUN_START"  # the session's start directory (from its record only)
SESSION_PREFIX = "hookwise-run-"
SOCKET_SUFFIX = ".sock"
REQUIRE_ID = "hookwise:unconfined"
# The file in the user's sessions directory each session binds its record over (outside it
# is empty): found by uid alone, never through a variable the agent's host passes on.
RECORD_NAME = "session"
# ... and the one its registered command reads for the launcher (config/hookwise_command.py)
LAUNCHER_NAME = "launcher"
MAX_RECORD = 1 << 16
# What decides which files the hook reads (policy, trust, launcher, caches, the audit log):
# inside a session, the values the session started with and guarded, never the hook's own.
PINNED = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")
PINNED_PREFIX = "HOOKWISE_"


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


def sessions_dirs(uid: int) -> "tuple[str, str]":
    """Where this user's sessions directory can be (run/supervisor.py's ``runtime_base``):
    ``/run/user/<uid>`` when usable, else ``/tmp``."""
    name = f"{SESSION_PREFIX}{uid}"
    return f"/run/user/{uid}/{name}", f"/tmp/{name}"


def is_pinned(name: str) -> bool:
    return name in PINNED or name.startswith(PINNED_PREFIX)


def session_record() -> "dict[str, str] | None":
    """Inside a session, the variables it pinned (its start directory, id and socket
    included); None outside. Read from the record ``hookwise run`` binds over the empty
    ``session`` file of the read-only sessions directory in the session's own mount
    namespace: the agent can neither write it nor make another hook read another one, and
    no variable is consulted (an agent that changes or unsets ``$HOOKWISE_RUN`` for a hook
    changes nothing)."""
    for directory in sessions_dirs(posix.getuid()):
        try:
            fd = posix.open(
                f"{directory}/{RECORD_NAME}",
                posix.O_RDONLY | posix.O_NONBLOCK | posix.O_CLOEXEC | posix.O_NOFOLLOW,
            )
        except OSError:
            continue
        try:
            data = posix.read(fd, MAX_RECORD)
        except OSError:
            data = b""
        finally:
            posix.close(fd)
        # (empty: outside, or a session of another base; written but on a writable mount:
        # not a session's record, whoever wrote it)
        if not data or not _read_only(directory):
            continue
        for path, kind in (
            (directory, S_IFDIR),
            (f"{directory}/{RECORD_NAME}", S_IFREG),
            (f"{directory}/{LAUNCHER_NAME}", S_IFREG),
        ):
            problem = private_problem(path, kind)
            if problem is not None:
                raise OSError(f"{problem}: not a session's own file; end this session")
        return parse_record(data, f"{directory}/{RECORD_NAME}")
    return None


def private_problem(path: str, kind: int) -> "str | None":
    """Why ``path`` is not a private file (``kind``: S_IFREG) or directory (S_IFDIR) of this
    user, or None: another user's, a link, or writable by the group or others (a session's
    files are the supervisor's, 0400 in a 0700 directory; one of those bound read-only can
    still be rewritten through its source by whoever may write that). Missing: None."""
    try:
        info = posix.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    found = info.st_mode & S_IFMT
    if found != kind:
        what = (
            "a link" if found == S_IFLNK else "not a directory" if kind == S_IFDIR else "not a file"
        )
        return f"{path} is {what}"
    if info.st_uid != posix.getuid():
        return f"{path} is owned by uid {info.st_uid}, not this user ({posix.getuid()})"
    if info.st_mode & 0o022:
        return f"{path} is writable by {'every user' if info.st_mode & 0o002 else 'its group'}"
    return None


def parse_record(data: bytes, where: str) -> "dict[str, str]":
    """A session's record: ``NAME=VALUE`` entries ended by NUL (as ``/proc/<pid>/environ``;
    neither part of a variable can hold a NUL), pinned names only, naming the session;
    anything else raises OSError (the supervisor's own file on a read-only mount: fail
    closed)."""
    record: dict[str, str] = {}
    entries = data.split(b"\0")
    if entries[-1] == b"":
        entries.pop()
    for entry in entries:
        name, equals, value = entry.decode("utf-8", "surrogateescape").partition("=")
        if not equals or not is_pinned(name) or name in record:
            record = {}
            break
        record[name] = value
    if not record.get(SESSION_VARIABLE):
        raise OSError(
            f"{where}: expected this session's record, NAME=VALUE entries ended by NUL naming "
            f"${SESSION_VARIABLE} and only the variables a session pins"
        )
    return record


def format_record(pinned: "dict[str, str]") -> bytes:
    """What :func:`parse_record` reads (run/supervisor.py writes it)."""
    return b"".join(
        f"{name}={value}".encode("utf-8", "surrogateescape") + b"\0"
        for name, value in pinned.items()
    )


def pinned_env(env: "dict[str, str]") -> "dict[str, str]":
    """``env`` with the pinned variables as the session started (absent ones removed);
    ``env`` itself outside a session. Raises OSError when the record cannot be read."""
    record = session_record()
    if record is None:
        return env
    out = {name: value for name, value in env.items() if not is_pinned(name)}
    out.update(record)
    return out


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
