"""Variables a host exported from a project's dotenv file: not taken.

Gemini CLI loads a project's ``.gemini/.env`` or ``.env`` (the first found from its cwd up:
its row's ``env_files`` in protocol/hosts.py) and exports it to every hook. One computed
write there (``base64 -d >> .env``) of ``HOOKWISE_POLICY=<an empty file>`` switched the
project's rules, and the changed/vanished rule, off for every later session (red team s26
#9); ``XDG_CONFIG_HOME``, ``XDG_STATE_HOME`` and ``XDG_CACHE_HOME`` there moved the user
policy, the trust store, the audit log and the cache (s27 #3, #5). The write is checked
where it can be (trust/env_writes.py); the hook itself takes no variable of the table that
moves the guard (protocol/guard_env.moves_guard) that such a file sets: it is dropped, and
said on stderr. A person sets them in the shell that starts the agent.

Which file set it: the one the host would load *now* can be gone or emptied since the host
read it (s27 #4: ``mv .env notes.txt``, after which the variable the host exported stays).
So what a hook drops is remembered for the host process that started it (on Linux: its
pid and start time, in the user's default state directory, never one a variable names):
a later hook of the same host drops the same variable with the same value, whether or not
the file is still there. The ``mv`` is itself a tool call whose hook sees the file first.

A file moved before the host's first hook leaves neither the file nor a memory. What the
agent cannot touch is the environment the host was *started* with: the kernel keeps it at
the process's exec (``/proc/<pid>/environ``), and what the host loads or sets later is not
in it. So under a host that names its project to its hooks (``GEMINI_PROJECT_DIR``,
``CLAUDE_PROJECT_DIR``: a real host's hook, which the agent cannot start without them), a
variable of the table is taken only when the host, and each process of the same program it
was relaunched from, was started with it, with this value: the person set it in the shell
that started the agent. Whatever else set it (a project env file, gone or not, a settings
``env`` block, the host itself), it is dropped; and where that environment cannot be read
(no /proc, another user's host), every such variable is (docs/confinement.md, "Variables
a host sets for its hooks").

Only when such a variable is set at all does this run (most calls set none). Inside
``hookwise run`` the session's record decides them (confinement.pinned_env).
"""

from __future__ import annotations

from hookwise.policy import confinement
from hookwise.policy import os_lite as os
from hookwise.policy.safe_files import open_append, read_regular
from hookwise.protocol.guard_env import moves_guard

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# set by `hookwise run` for its session, and replaced from its record inside one
_SESSION = frozenset(
    [confinement.SESSION_VARIABLE, confinement.AUDIT_VARIABLE, confinement.START_VARIABLE]
)
_MAX_READ = 1 << 20
# the variables a host names the project with (where it loaded its file from, too)
_PROJECT_VARIABLES = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")


def candidates(env: dict[str, str]) -> list[str]:
    """The variables set here that move the guard and that a file could have set."""
    return [name for name in env if moves_guard(name) and name not in _SESSION]


_SHELLS = frozenset(["sh", "bash", "dash", "zsh", "ksh", "mksh", "busybox", "env"])


def _proc(pid: int, name: str) -> bytes:
    fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def _stat(pid: int) -> list[bytes]:
    """/proc/<pid>/stat's fields after the command's ")": state, ppid, ...; starttime is
    the 20th of them."""
    return _proc(pid, "stat").rsplit(b")", 1)[1].split()


def _host_pid() -> int:
    """The nearest ancestor that is not a shell (raises OSError without /proc)."""
    pid = int(_stat(os.getpid())[1])
    for _ in range(8):  # (bash -c, maybe sh -c: the hosts' own shells)
        if _proc(pid, "comm").strip().decode("utf-8", "replace") not in _SHELLS:
            break
        pid = int(_stat(pid)[1])
    return pid


def host_identity() -> str | None:
    """The host process that started this hook, as ``<pid>-<start time>`` (None without
    /proc): the nearest ancestor that is not a shell (a host that relaunches itself runs
    its hooks from the one process it relaunched)."""
    try:
        pid = _host_pid()
        return f"{pid}-{int(_stat(pid)[19])}"
    except (OSError, ValueError, IndexError):
        return None


def _environ(pid: int) -> dict[str, str]:
    """The environment ``pid`` was started with (what its exec was given; setenv after it
    does not show here)."""
    data = read_regular(f"/proc/{pid}/environ", _MAX_READ)
    out: dict[str, str] = {}
    for entry in data.split(b"\0"):
        name, equals, value = entry.decode("utf-8", "surrogateescape").partition("=")
        if equals:
            out.setdefault(name, value)
    return out


def host_start_environments() -> list[dict[str, str]] | None:
    """The environments the host was started with: its process's, and that of each
    ancestor running the same program (a host that relaunches itself after loading its
    env files starts the relaunched process with them). None when they cannot be read."""
    try:
        pid = _host_pid()
        program = os.readlink(f"/proc/{pid}/exe")
        out = [_environ(pid)]
        for _ in range(8):
            parent = int(_stat(pid)[1])
            if parent <= 1 or os.readlink(f"/proc/{parent}/exe") != program:
                break
            pid = parent
            out.append(_environ(pid))
        return out
    except (OSError, ValueError, IndexError):
        return None


def not_started_with(env: dict[str, str], names: list[str]) -> list[tuple[str, str]]:
    """(variable, why) for each of ``names`` the host was not started with (this value),
    under a host that names its project to its hooks; every one of them when what it was
    started with cannot be read."""
    if not names or not any(env.get(v) for v in _PROJECT_VARIABLES):
        return []
    started = host_start_environments()
    if started is None:
        why = (
            "the host names its project, and the environment it was started with cannot "
            "be read here (no /proc), so nothing shows the person set it"
        )
        return [(name, why) for name in names]
    why = (
        "the host was not started with it (it set it after its start: from an env file it "
        "loaded, gone or not, or its settings)"
    )
    return [(name, why) for name in names if any(e.get(name) != env[name] for e in started)]


def _memory(env: dict[str, str], host: str) -> str:
    """Where the drops for ``host`` are kept: under the *default* state directory (HOME's:
    ``XDG_STATE_HOME`` may be one of the variables dropped)."""
    home = env.get("HOME") or os.expanduser("~")
    return os.path.join(home, ".local", "state", "hookwise", "env-drops", host)


def remembered(env: dict[str, str], host: str | None) -> list[tuple[str, str]]:
    """(variable, why) for each of :func:`candidates` an earlier hook of ``host`` dropped
    with the same value."""
    if host is None:
        return []
    try:
        lines = read_regular(_memory(env, host), _MAX_READ).decode("utf-8", "replace")
    except OSError:
        return []
    seen = set(lines.splitlines())
    why = "an env file the host loaded at its start set it (since moved or emptied)"
    return [(name, why) for name in candidates(env) if f"{name}={env[name]}" in seen]


def remember(env: dict[str, str], host: str | None, dropped: list[tuple[str, str]]) -> None:
    """Add ``dropped`` (variable, value) to ``host``'s record; best effort (a record not
    written leaves the files as they are now to decide)."""
    lines = "".join(f"{n}={v}\n" for n, v in dropped if "\n" not in v and "\r" not in v)
    if host is None or not lines:
        return
    path = _memory(env, host)
    try:
        os.makedirs(os.path.dirname(path), 0o700, exist_ok=True)
        fd = open_append(path)
        try:
            os.write(fd, lines.encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)
    except OSError:
        return


def _rows(platform: str | None) -> list[Any]:
    """The host rows a hook of ``platform`` may run for (every row when it is not named)."""
    from hookwise.protocol.hosts import HOSTS  # (snapshot: such a variable is set)

    return [HOSTS[platform]] if platform in HOSTS else list(HOSTS.values())


def project_files(starts: list[str], platform: str | None = None) -> list[str]:
    """The project env files the hosts would load, started in any of ``starts``: for each
    host, the first of its names found from a start up (its row's ``env_files``; the rows,
    not the compiled tables, which come from a cache a planted XDG_CACHE_HOME names)."""
    files: list[str] = []
    for row in _rows(platform):
        names = row.env_files[1]
        for start in starts if names else ():
            current = os.path.abspath(start)
            while True:
                found = next(
                    (p for p in (os.path.join(current, n) for n in names) if os.isfile(p)), None
                )
                parent = os.path.dirname(current)
                if found is not None or parent == current:
                    break
                current = parent
            if found is not None and found not in files:
                files.append(found)
    return files


def planted(env: dict[str, str], files: list[str]) -> list[tuple[str, str]]:
    """(variable, file) for each of :func:`candidates` that one of ``files`` sets."""
    names = candidates(env)
    if not names or not files:
        return []
    from hookwise.protocol.dotenv import keys  # (cold: such a file is there)

    out: list[tuple[str, str]] = []
    for path in files:
        try:
            text = read_regular(path, _MAX_READ).decode("utf-8", "replace")
        except OSError:
            continue  # (a file the host cannot read either sets nothing)
        set_there = set(keys(text))
        out += [(name, path) for name in names if name in set_there]
    return out


def drop_planted(
    env: dict[str, str],
    starts: list[str],
    kept: tuple[str, ...] = (),
    platform: str | None = None,
) -> list[str]:
    """Remove from ``env`` what :func:`planted` finds, and what an earlier hook of the same
    host dropped (:func:`remembered`), but the ``kept`` names, which the registered command
    itself gave; a note on each for stderr. Nothing to do for a host that loads no
    project env file (``platform``'s row; any row's when it is not named)."""
    if not [name for name in candidates(env) if name not in kept]:
        return []
    if not any(row.env_files[1] for row in _rows(platform)):
        return []
    places = [*starts, *(env[v] for v in _PROJECT_VARIABLES if env.get(v, "").startswith("/"))]
    found = [(n, f"{p} sets it") for n, p in planted(env, project_files(places, platform))]
    host = host_identity()
    if found:
        remember(env, host, [(n, env[n]) for n, _why in found if n not in kept])
    found += remembered(env, host)
    named = {name for name, _why in found}
    found += not_started_with(env, [n for n in candidates(env) if n not in kept and n not in named])
    notes: list[str] = []
    for name, why in found:
        if name not in kept and env.pop(name, None) is not None:
            notes.append(
                f"hookwise: ignored ${name}: {why}, and a host exports its env files to "
                "its hooks (anything that can write the project can write them); set "
                "hookwise's variables in the shell that starts the agent\n"
            )
    return notes
