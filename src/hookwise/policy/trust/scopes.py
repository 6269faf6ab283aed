"""Where policy files live, and reading them without ever hanging or failing open.

- managed: the system file (``/etc/hookwise/policy.yaml``; on macOS
  ``/Library/Application Support/hookwise/policy.yaml``), always read. ``$HOOKWISE_MANAGED_POLICY``
  names one more managed file (read when present); it never replaces or empties the
  system one.
- user: ``$XDG_CONFIG_HOME/hookwise/policy.yaml`` (``~/.config/...``), or
  ``$HOOKWISE_USER_POLICY``;
- project: every ``.hookwise/policy.yaml`` from the filesystem root down to the event's
  cwd, and down to the project root the host names (``$CLAUDE_PROJECT_DIR``,
  ``$GEMINI_PROJECT_DIR``), outermost first, so a nested file adds to the outer ones and
  never shadows them. The walk does not stop at a repository: a nested repository or a
  submodule (``git init x && cd x``) keeps every rule of the project around it, and its own
  policy adds rules, untrusted until trusted like any project file. Or the one file
  ``$HOOKWISE_POLICY`` / ``--policy`` names, which must exist;
- local: ``.hookwise/policy.local.yaml`` beside each project file.

Project and local files are repository content: the compiler applies only their
restrictive parts until the user trusts their exact bytes (trust.py).

Reading: a policy path is stat'ed first and only a regular file is opened (never a FIFO,
device, socket or directory); it is opened non-blocking and checked again on the open
descriptor (no race), and read up to :data:`MAX_POLICY_BYTES`. A file that is present but
cannot be used (empty, too large, not regular, a dangling or looping symlink, unreadable,
an explicit path that does not exist) raises :class:`PolicyFileError`, which the hook turns
into a deny on tool events. Standard library only (hot path).
"""

from __future__ import annotations

import sys

from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.confinement import START_VARIABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

SCOPES = ("managed", "user", "project", "local")
MANAGED_DEFAULT = (
    "/Library/Application Support/hookwise/policy.yaml"
    if sys.platform == "darwin"
    else "/etc/hookwise/policy.yaml"
)
PROJECT_DIR = ".hookwise"
PROJECT_FILE = "policy.yaml"
LOCAL_FILE = "policy.local.yaml"
MAX_POLICY_BYTES = 1024 * 1024  # documented in docs/policy.md ("When something is wrong")

# How a path came to be read: "system" and "discovered" files may be absent; an "explicit"
# one (named by --policy or an environment variable) must exist.
SYSTEM = "system"
DISCOVERED = "discovered"
EXPLICIT = "explicit"


class PolicyFileError(OSError):
    """A policy file is present (or was named) but cannot be used; fails closed."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.filename = path
        self.why = why

    def __str__(self) -> str:
        return f"{self.filename}: {self.why}"


def user_policy_path(env: dict[str, str]) -> str:
    explicit = env.get("HOOKWISE_USER_POLICY")
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    return os.path.join(config_home(env), "hookwise", "policy.yaml")


def config_home(env: dict[str, str]) -> str:
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or "~", ".config")
    return os.path.abspath(os.path.expanduser(base))


def trust_store_path(env: dict[str, str]) -> str:
    """The user's trust store (trust.py); here because the hook's cache key reads it."""
    return os.path.join(config_home(env), "hookwise", "trust.json")


def sessions_path(env: dict[str, str]) -> str:
    """When ``hookwise run`` sessions ran (run/session_log.py): a policy file written while
    one ran is not trusted by ``settings.trust.projects`` (store.py). A directory of its own
    (``$XDG_STATE_HOME/hookwise-run/``, read-only inside every session), apart from
    hookwise's configuration and state, which a session leaves as they were."""
    state = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME") or "~", ".local", "state")
    return os.path.join(
        os.path.abspath(os.path.expanduser(state)), "hookwise-run", "sessions.jsonl"
    )


def services_dir(env: dict[str, str]) -> str:
    """Where each running ``hookwise serve`` names its data directory (a file per server,
    named by its pid): ``hookwise run`` hides the admin token and database found there
    (docs/confinement.md). Beside ``sessions_path``, so read-only inside every session."""
    return os.path.join(os.path.dirname(sessions_path(env)), "services")


def launcher_path(env: dict[str, str]) -> str:
    """The per-user fast launcher ``hookwise install`` writes and the portable command runs
    (``$XDG_DATA_HOME/hookwise/hook``, ``~/.local/share/hookwise/hook``)."""
    home = env.get("HOME") or "~"
    base = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(os.path.abspath(os.path.expanduser(base)), "hookwise", "hook")


def snapshot_path(launcher: str) -> str:
    """The launcher's snapshot of the hook's compiled modules (snapshot.py)."""
    return launcher + ".snapshot"


def managed_paths(env: dict[str, str]) -> list[tuple[str, str]]:
    """(path, how) of the managed files: the system one, then the one the environment adds."""
    paths = [(MANAGED_DEFAULT, SYSTEM)]
    extra = env.get("HOOKWISE_MANAGED_POLICY")
    if extra:
        extra = os.path.abspath(os.path.expanduser(extra))
        if extra != MANAGED_DEFAULT:
            paths.append((extra, DISCOVERED))
    return paths


def owned(uid: int) -> bool:
    """Whether a policy file or directory owned by ``uid`` may be read: this user's or
    root's. Another user's ``.hookwise/`` in a shared ancestor (``/tmp/.hookwise``, made by
    anyone) would otherwise hand its context rules and its slow parse to every user's agent
    below it; as git's ``safe.directory``, such a directory is not read."""
    return uid == os.getuid() or uid == 0


def _has_policy_dir(directory: str) -> bool:
    """Whether ``directory/.hookwise`` exists in any form (a broken one must be reported),
    owned by this user or root (see :func:`owned`; :func:`foreign_dirs` names the others)."""
    try:
        info = os.lstat(os.path.join(directory, PROJECT_DIR))
    except (OSError, ValueError):
        return False
    return owned(info.st_uid)


def foreign_dirs(starts: list[str]) -> list[str]:
    """The ``.hookwise`` directories above ``starts`` that another user owns: ignored by
    discovery, named by the compiler as a warning."""
    out: list[str] = []
    for start in starts:
        current = os.path.abspath(start or ".")
        while True:
            path = os.path.join(current, PROJECT_DIR)
            try:
                uid = os.lstat(path).st_uid
            except (OSError, ValueError):
                uid = None
            if uid is not None and not owned(uid) and path not in out:
                out.append(path)
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
    return out


FOREIGN = (
    "owned by another user (uid {uid}), not by you or root: not read (anyone who can write "
    "the directory above could have put it there; its rules would reach your agent)"
)


def project_dirs(start: str) -> list[str]:
    """Every directory from the filesystem root down to ``start`` with a ``.hookwise``.

    Outermost first. Repository boundaries do not stop the walk: a ``.git`` the agent can
    create must not hide the rules of the project around it."""
    current = os.path.abspath(start or ".")
    found: list[str] = []
    while True:
        if _has_policy_dir(current):
            found.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    found.reverse()
    return found


# The project root a host names in its hooks' environment (Claude Code; Gemini CLI sets both)
HOST_PROJECT_VARIABLES = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")


def start_dirs(cwd: str, env: dict[str, str], also: Sequence[str] = ()) -> list[str]:
    """Where the search for project policies starts (see policy_dirs); empty when one
    file is named (``HOOKWISE_POLICY``) and nothing is searched. ``also``: directories the
    command line moves into (trust/followed.py)."""
    if env.get("HOOKWISE_POLICY"):
        return []
    starts = [env.get("HOOKWISE_PROJECT_DIR") or cwd or os.getcwd()]
    starts += [d for d in also if os.isabs(d)]
    session_start = env.get(START_VARIABLE)  # inside `hookwise run`: from its record only
    if session_start and os.isabs(session_start):
        starts.append(session_start)
    for name in HOST_PROJECT_VARIABLES:
        named = env.get(name)
        if named and os.isabs(named):
            starts.append(named)
    return starts


def policy_dirs(cwd: str, env: dict[str, str], also: Sequence[str] = ()) -> list[str]:
    """The project directories whose policy applies to an event: those above its cwd, above
    the host's project root (a ``cd`` elsewhere keeps the project's rules) and, inside
    ``hookwise run``, above the directory the session started in (pinned from the session's
    record by ``confinement.pinned_env``: the agent cannot move it), and above the
    directories in ``also``, outermost first (by depth, then name: the order the merge
    uses)."""
    starts = start_dirs(cwd, env, also)
    found: list[str] = []
    for start in starts:
        for directory in project_dirs(start):
            if directory not in found:
                found.append(directory)
    if len(starts) > 1:
        found.sort(key=lambda d: (d.rstrip("/").count("/"), d))
    return found


def find_project(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding a project policy (``.hookwise``)."""
    dirs = project_dirs(start)
    return dirs[-1] if dirs else None


POLICY_SCOPES = ("managed", "user", "project", "local")


def scope_of_path(path: str, env: dict[str, str]) -> str:
    """The scope a policy file at ``path`` has where it lies: the managed or the user file
    by their locations, ``policy.local.yaml`` local, anything else project."""
    real = os.path.realpath(path)
    for managed, _how in managed_paths(env):
        if real == os.path.realpath(managed):
            return "managed"
    if real == os.path.realpath(user_policy_path(env)):
        return "user"
    return "local" if os.path.basename(real) == LOCAL_FILE else "project"


def scope_files(cwd: str, env: dict[str, str]) -> list[tuple[str, str]]:
    """(scope, path) of every policy file that may apply, present or not, in scope order."""
    return [(scope, path) for scope, path, _how in scope_sources(cwd, env)]


def scope_sources(
    cwd: str, env: dict[str, str], also: Sequence[str] = ()
) -> list[tuple[str, str, str]]:
    """(scope, path, how) of every policy file that may apply, in merge order."""
    files = [("managed", path, how) for path, how in managed_paths(env)]
    files.append(("user", user_policy_path(env), DISCOVERED))
    explicit = env.get("HOOKWISE_POLICY")
    if explicit:
        path = os.path.abspath(os.path.expanduser(explicit))
        files.append(("project", path, EXPLICIT))
        stem = path[:-5] if path.endswith(".yaml") else path
        files.append(("local", stem + ".local.yaml", DISCOVERED))
        return files
    for directory in policy_dirs(cwd, env, also):
        base = os.path.join(directory, PROJECT_DIR)
        files.append(("project", os.path.join(base, PROJECT_FILE), DISCOVERED))
        files.append(("local", os.path.join(base, LOCAL_FILE), DISCOVERED))
    return files


def _kind(mode: int) -> str:
    if os.S_ISDIR(mode):
        return "a directory"
    if os.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if os.S_ISCHR(mode) or os.S_ISBLK(mode):
        return "a device"
    if os.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_policy_file(path: str, how: str, project: bool = False) -> bytes | None:
    """The bytes of one policy file; None when it is absent and may be.

    Raises :class:`PolicyFileError` for every other case where the file cannot be used;
    ``project``: a project or local file, which must be this user's or root's (a file
    another user put into a project directory fails closed there).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise PolicyFileError(path, f"a dangling symlink (to {os.readlink(path)!r})") from None
        if how == EXPLICIT:
            raise PolicyFileError(path, "does not exist (named explicitly)") from None
        parent = os.path.dirname(path)
        if os.path.isdir(parent) and not os.access(parent, os.R_OK | os.X_OK):
            raise PolicyFileError(path, f"cannot read the directory {parent}") from None
        return None
    except PermissionError:
        raise PolicyFileError(path, "permission denied (a directory on the way)") from None
    except OSError as exc:  # ELOOP (a symlink loop), ENOTDIR, ENAMETOOLONG...
        raise PolicyFileError(path, exc.strerror or str(exc)) from None
    if not os.S_ISREG(info.st_mode):
        raise PolicyFileError(path, f"is {_kind(info.st_mode)}, not a policy file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise PolicyFileError(path, f"cannot open: {exc.strerror or exc}") from None
    try:
        opened = os.fstat(fd)
        if not os.S_ISREG(opened.st_mode):
            raise PolicyFileError(path, f"is {_kind(opened.st_mode)}, not a policy file")
        if project and not owned(opened.st_uid):
            raise PolicyFileError(path, FOREIGN.format(uid=opened.st_uid))
        if opened.st_size > MAX_POLICY_BYTES:
            raise PolicyFileError(
                path, f"is {opened.st_size} bytes; policy files are at most {MAX_POLICY_BYTES}"
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_POLICY_BYTES:
                raise PolicyFileError(
                    path, f"is larger than {MAX_POLICY_BYTES} bytes (the policy file cap)"
                )
    except PolicyFileError:
        raise
    except OSError as exc:
        raise PolicyFileError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if not data.strip():
        raise PolicyFileError(path, "is empty (a policy file holds at least 'version: 1')")
    return data


def read_sources(files: list[tuple[str, str]]) -> list[tuple[str, str, bytes | None]]:
    """The files' bytes (None when absent); a file that cannot be used raises OSError.

    Paths given this way are "discovered" (may be absent) unless they are the explicit
    ones of :func:`scope_sources`; callers with ``how`` use :func:`read_scope_sources`.
    """
    return [(scope, path, read_policy_file(path, DISCOVERED)) for scope, path in files]


def read_scope_sources(
    sources: list[tuple[str, str, str]],
) -> list[tuple[str, str, bytes | None]]:
    return [
        (scope, path, read_policy_file(path, how, how == DISCOVERED and scope in _PROJECT))
        for scope, path, how in sources
    ]


_PROJECT = ("project", "local")
