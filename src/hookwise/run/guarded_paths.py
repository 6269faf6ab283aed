"""What ``hookwise run`` makes read-only: every file that decides what the guard does.

Computed from the environment and the directory the agent starts in, as the hook and the
hosts will compute them: the policy files of every scope (``.hookwise/`` of every project
from the cwd up, nested repositories included), the trust store, hookwise's data (launcher,
snapshot), caches and state (the audit log's directory), hookwise's installed code, managed
files, and every host settings file that can register or switch off a hook.

This is the one module of ``run/`` that imports the policy package (its modules are moving;
one place to fix). The host settings locations are the config package's facts, repeated here
because importing those modules costs more than ``hookwise run`` may add to a start;
tests/run/test_guarded_paths.py checks each copy against its source.
"""

from __future__ import annotations

import os
import sys

from hookwise.config.env_files import user_path
from hookwise.policy.audit import audit_path, default_path
from hookwise.policy.cache import cache_dir
from hookwise.policy.trust.hook_code import (
    FISH_FILES,
    HOOK_PROGRAMS,
    MANAGED_HOST_DIRS,
    ZSH_FILES,
    install_dir,
    mapped_files,
    program_names,
    startup_files,
)
from hookwise.policy.trust.protect import CODEX_PROFILE_SUFFIX
from hookwise.policy.trust.scopes import (
    LOCAL_FILE,
    MANAGED_DEFAULT,
    PROJECT_DIR,
    launcher_path,
    managed_paths,
    sessions_path,
    trust_store_path,
    user_policy_path,
)
from hookwise.protocol.dotenv import project_env_file
from hookwise.protocol.hosts import HOSTS, row_config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.run.interpreter_paths import Consulted

STATE = "state"  # hookwise's own files: policy, trust, data, caches; a hard link is replaced
HOST = "host"  # a host's settings or trust: a hard link is replaced
CODE = "code"  # the code the hook runs: a hard link is refused
SYSTEM = "system"  # a program of the system the hosts run hooks with: bound, never rewritten
NEUTRAL_POLICY = (
    b"# made by `hookwise run` for the session (removed after it): no rules\nversion: 1\n"
)
NEUTRAL_JSON = b"{}\n"
NEUTRAL_TOML = b""
# a missing ~/.bash_profile made for the session: bash (login) then reads what it read
# without it, ~/.bash_login where that was there, else ~/.profile (an empty one would hide
# both; a missing ~/.bash_login is made empty, so the choice is made before the start)
_MADE = b"# made by `hookwise run` for the session (removed after it): what bash read before\n"
NEUTRAL_BASH_PROFILE = _MADE + b'[ -r "$HOME/.profile" ] && . "$HOME/.profile"\n'
NEUTRAL_BASH_PROFILE_LOGIN = _MADE + b'[ -r "$HOME/.bash_login" ] && . "$HOME/.bash_login"\n'
NEUTRAL_CONTENTS = frozenset(
    (NEUTRAL_POLICY, NEUTRAL_JSON, NEUTRAL_TOML, NEUTRAL_BASH_PROFILE, NEUTRAL_BASH_PROFILE_LOGIN)
)
"""Every content a placeholder file is made with: the only files the journal may remove."""

# config/'s facts (see the module docstring): the managed directories on Linux and the
# names hookwise and the hosts keep beside their settings.
CLAUDE_MANAGED_DIR, GEMINI_SYSTEM_DIR, CODEX_MANAGED_DIR = (d for d, _why in MANAGED_HOST_DIRS)
GEMINI_SYSTEM_SETTINGS = GEMINI_SYSTEM_DIR + "/settings.json"
HOOK_TRUST_STORE = "hookwise_trusted_hooks.json"


class Guarded:
    """One path to make read-only, and what to do when it does not exist yet."""

    __slots__ = ("directory", "path", "placeholder", "role", "why")

    def __init__(
        self,
        path: str,
        role: str,
        why: str,
        *,
        placeholder: bytes | None = None,
        directory: bool = False,
    ) -> None:
        self.path = os.path.abspath(path)
        self.role = role
        self.why = why
        self.placeholder = placeholder
        """The content of the file made when it is missing (None: none is made)."""
        self.directory = directory
        """When missing, an empty directory is made in its place (and bound read-only)."""

    @property
    def must_exist(self) -> bool:
        return self.directory or self.placeholder is not None

    def __repr__(self) -> str:
        return f"Guarded({self.path!r}, {self.role!r})"


def audit_log(env: dict[str, str]) -> str:
    """The audit log the session's sink appends to (``$HOOKWISE_AUDIT_LOG`` or the default)."""
    return os.path.abspath(audit_path({}, env))


def audit_limits(env: dict[str, str], cwd: str) -> tuple[int, int]:
    """(``settings.audit.max_bytes``, ``settings.audit.keep``) of the user and managed
    policy, for the sink's rotation. Read beside the sink once it serves; a stale cache
    is compiled in memory, not written (the session leaves hookwise's files as they were)."""
    from hookwise.policy.audit import DEFAULT_KEEP, DEFAULT_MAX_BYTES
    from hookwise.policy.cache import load_policy

    settings = load_policy(cwd, env, write=False).policy["settings"]
    return (
        int(settings.get("audit.max_bytes", DEFAULT_MAX_BYTES)),
        int(settings.get("audit.keep", DEFAULT_KEEP)),
    )


def run_sessions(env: dict[str, str]) -> str:
    """The record of when sessions ran (``policy/trust/scopes.sessions_path``)."""
    return sessions_path(env)


def state_dir(env: dict[str, str]) -> str:
    """hookwise's state directory (the audit log's, by default)."""
    return os.path.abspath(os.path.dirname(default_path(env)))


def _home(env: dict[str, str]) -> str:
    return os.path.abspath(env.get("HOME") or os.path.expanduser("~"))


def creatable(path: str) -> bool:
    """Whether this user could create ``path`` (its nearest existing ancestor is writable):
    what the agent could create must exist, as a placeholder, before it starts."""
    parent = os.path.dirname(path)
    while parent and not os.path.lexists(parent):
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    return os.access(parent, os.W_OK)


# For root, who owns them: where a change runs code outside the session without anyone
# starting it (/etc/ld.so.preload in every new process, cron and at jobs, service units,
# udev rules), read-only whole.
ROOT_SYSTEM = ("/etc", "/var/spool", "/boot", "/usr/lib/systemd", "/lib/systemd", "/usr/lib/udev")


# For root too: the programs and libraries every hook runs on (the loader, libc, the shells
# the hosts start hooks with, /usr/bin/env), which root can rewrite (dropped capabilities do
# not help: root owns them). Read-only whole: no `apt install` in a root session.
ROOT_PROGRAMS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def _root_system() -> list[Guarded]:
    if os.geteuid() != 0:
        return []
    why = "the system's start-up points (root owns them)"
    out = [
        Guarded(p, SYSTEM, why) for p in ROOT_SYSTEM if os.path.isdir(p) and not os.path.islink(p)
    ]
    why = "the system's programs and libraries, which every hook runs on (root owns them)"
    out += [
        Guarded(p, SYSTEM, why) for p in ROOT_PROGRAMS if os.path.isdir(p) and not os.path.islink(p)
    ]
    # and what this interpreter maps from elsewhere (/opt, a home): what the hook maps too
    whole = tuple(p + "/" for p in ROOT_PROGRAMS)
    why = "a library the hook's interpreter maps (root owns it)"
    return out + [Guarded(p, SYSTEM, why) for p in mapped_files() if not p.startswith(whole)]


def _under_root_system(path: str) -> bool:
    return os.geteuid() == 0 and any(path.startswith(d + "/") for d in ROOT_SYSTEM)


def _system(path: str, role: str, why: str) -> Guarded | None:
    """A system location: guarded when present, made empty when this user could create it
    (and root's read-only /etc does not already keep it from being created)."""
    if os.path.lexists(path):
        return Guarded(path, role, why)
    if creatable(path) and not _under_root_system(path):
        return Guarded(path, role, why, directory=True)
    return None


def _walk_up(start: str) -> list[str]:
    """``start`` and its ancestors, innermost first."""
    current = os.path.abspath(start)
    out = [current]
    while True:
        parent = os.path.dirname(current)
        if parent == current:
            return out
        out.append(parent)
        current = parent


def project_roots(cwd: str, env: dict[str, str]) -> tuple[list[str], str]:
    """(every directory from the cwd up holding ``.hookwise``, outermost first; the
    outermost project: the highest directory holding ``.git`` or ``.hookwise``, else the
    cwd). The walk passes nested repositories and submodules: scope discovery must not stop
    at the nearest one."""
    starts = [cwd]
    starts += [
        env[name] for name in ("HOOKWISE_PROJECT_DIR", "CLAUDE_PROJECT_DIR") if env.get(name)
    ]
    found: list[str] = []
    outermost = os.path.abspath(cwd)
    for start in starts:
        for directory in _walk_up(start):
            if os.path.lexists(os.path.join(directory, PROJECT_DIR)) and directory not in found:
                found.append(directory)
            if (
                os.path.lexists(os.path.join(directory, ".git"))
                or os.path.lexists(os.path.join(directory, PROJECT_DIR))
            ) and len(directory) < len(outermost):
                outermost = directory
    found.sort(key=len)
    return found, outermost


def _repository_root(cwd: str) -> str:
    for directory in _walk_up(cwd):
        if os.path.lexists(os.path.join(directory, ".git")):
            return directory
    return os.path.abspath(cwd)


def _policy(cwd: str, env: dict[str, str]) -> list[Guarded]:
    out: list[Guarded] = []
    config = os.path.dirname(trust_store_path(env))
    out.append(Guarded(config, STATE, "user policy and trust store", directory=True))
    user = user_policy_path(env)
    if os.path.dirname(user) != config:
        out.append(
            Guarded(user, STATE, "user policy ($HOOKWISE_USER_POLICY)", placeholder=NEUTRAL_POLICY)
        )
    for path, _how in managed_paths(env):
        if path == MANAGED_DEFAULT:
            found = _system(os.path.dirname(path), STATE, "managed policy")
            out += [found] if found else []
        elif os.path.lexists(path) or creatable(path):
            out.append(
                Guarded(
                    path,
                    STATE,
                    "managed policy ($HOOKWISE_MANAGED_POLICY)",
                    placeholder=NEUTRAL_POLICY,
                )
            )
    explicit = env.get("HOOKWISE_POLICY")
    if explicit:
        path = os.path.abspath(os.path.expanduser(explicit))
        stem = path[:-5] if path.endswith(".yaml") else path
        out.append(Guarded(path, STATE, "project policy ($HOOKWISE_POLICY)"))
        out.append(Guarded(stem + ".local.yaml", STATE, "local policy", placeholder=NEUTRAL_POLICY))
    projects, outermost = project_roots(cwd, env)
    if outermost not in projects:
        projects.insert(0, outermost)
    for directory in projects:
        why = f"project policy ({PROJECT_DIR}/, {LOCAL_FILE} included)"
        out.append(Guarded(os.path.join(directory, PROJECT_DIR), STATE, why, directory=True))
    return out


def _hookwise_state(env: dict[str, str]) -> list[Guarded]:
    data = os.path.dirname(launcher_path(env))
    state = state_dir(env)
    out = [
        Guarded(data, STATE, "launcher, snapshot and service data", directory=True),
        Guarded(cache_dir(env), STATE, "compiled policy caches", directory=True),
        Guarded(state, STATE, "audit log and hook state", directory=True),
    ]
    xdg = env.get("XDG_DATA_HOME")  # (the service's data; the launcher is under HOME)
    if xdg and os.path.join(os.path.abspath(xdg), "hookwise") != os.path.abspath(data):
        out.append(Guarded(os.path.join(xdg, "hookwise"), STATE, "service data", directory=True))
    sessions = os.path.dirname(run_sessions(env))
    if os.path.isdir(sessions):  # (made by the supervisor before it plans: not a placeholder)
        out.append(Guarded(sessions, STATE, "when sessions ran (trust by tree)"))
    log = audit_log(env)
    if os.path.dirname(log) != os.path.abspath(state):
        out.append(Guarded(log, STATE, "audit log ($HOOKWISE_AUDIT_LOG)"))
    return out


GLOB_CHARACTERS = "*?["


def _host_file(path: str, title: str, scope: str) -> Guarded:
    """One settings location of a host's registry row, guarded: a file (made with neutral
    content when missing), or a directory whole when the row names one (``dir/``) or a
    pattern (``.github/hooks/*.json``: every file in ``.github/hooks/``; made empty when
    missing)."""
    why = f"{title} {scope} settings"
    wild = next((i for i, c in enumerate(path) if c in GLOB_CHARACTERS), -1)
    if wild >= 0 or path.endswith("/"):
        directory = path[: path.rfind("/", 0, wild)] if wild >= 0 else path.rstrip("/")
        return Guarded(directory, HOST, why, directory=True)
    return Guarded(path, HOST, why, placeholder=_neutral(path))


def _host_project(directory: str, files: tuple[str, ...], title: str) -> list[Guarded]:
    """A project's host settings: their directory made empty when missing (nothing can be
    created in it, and git does not see an empty directory), else each file, with a neutral
    placeholder when missing."""
    out: list[Guarded] = []
    for name in files:
        entry = _host_file(os.path.join(directory, name), title, "project")
        base = os.path.dirname(entry.path)
        if not entry.directory and base != directory and not os.path.lexists(base):
            if all(g.path != base for g in out):
                out.append(Guarded(base, HOST, f"{title} project settings", directory=True))
            continue
        out.append(entry)
    return out


def _plugin_dirs(directory: str, dirs: tuple[str, ...], title: str) -> list[Guarded]:
    """A project's plugin directories (every file in one runs in the host): each bound
    read-only, or its config folder made empty when that is missing."""
    out: list[Guarded] = []
    for name in dirs:
        folder = os.path.join(directory, name.partition("/")[0])
        if not os.path.lexists(folder):
            if all(g.path != folder for g in out):
                out.append(Guarded(folder, HOST, f"{title} project plugins", directory=True))
            continue
        out.append(Guarded(os.path.join(directory, name), HOST, f"{title} plugins", directory=True))
    return out


def _code_files(cwd: str, env: dict[str, str]) -> list[Guarded]:
    """Each row's ``code_files``: what makes a host load code or hooks of its own (an
    extension, a plugin, an agent's front matter, a settings file naming plugins), read-only
    like its hook files; the project's in every directory from the repository root down to
    the cwd. A path two rows name (Kilo reads OpenCode's file names) is guarded once."""
    root = _repository_root(cwd)
    between = [
        d for d in reversed(_walk_up(cwd)) if d == root or d.startswith(root.rstrip("/") + "/")
    ]
    out: dict[str, Guarded] = {}
    for host in HOSTS.values():
        base = row_config_path(host, env)
        for name in host.code_files.get("user", ()):
            entry = _host_file(os.path.join(os.path.abspath(base), name), host.title, "user")
            entry.why = f"{host.title}: {name} loads code, hooks or rules (user)"
            out.setdefault(entry.path, entry)
        for directory in between:
            for entry in _host_project(directory, host.code_files.get("project", ()), host.title):
                entry.why += " (code it loads)"
                out.setdefault(entry.path, entry)
    return list(out.values())


def _neutral(name: str) -> bytes:
    return NEUTRAL_TOML if name.endswith(".toml") else NEUTRAL_JSON


def _host_dirs(env: dict[str, str]) -> dict[str, str]:
    """Each host's directory in the home: where its first user file is."""
    return {
        name: os.path.dirname(user_path(host, host.user_files[0], env))
        for name, host in HOSTS.items()
        if host.user_files
    }


def _hosts(cwd: str, env: dict[str, str]) -> list[Guarded]:
    """Every host's settings files from its row of the host registry (protocol/hosts.py:
    ``user_files``, ``project_files``): a host added there is guarded here unchanged."""
    homes = _host_dirs(env)
    out: list[Guarded] = []
    for host in HOSTS.values():
        stores: list[str] = []
        for file in host.user_files:
            path = user_path(host, file, env)
            if host.hooks_layout == "plugin":  # a plugins directory: every file in it runs
                out.append(Guarded(path, HOST, f"{host.title} user plugins", directory=True))
                continue
            entry = _host_file(path, host.title, "user")
            out.append(entry)
            folder = entry.path if entry.directory else os.path.dirname(entry.path)
            if folder not in stores:
                stores.append(folder)
        out += [
            Guarded(os.path.join(folder, HOOK_TRUST_STORE), HOST, "hookwise hook trust")
            for folder in stores
        ]
    out += _codex_profiles(homes["codex"])
    out += _env_files(cwd, env)
    gemini = homes["gemini"]
    folders = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(
        gemini, "trustedFolders.json"
    )
    out.append(Guarded(folders, HOST, "Gemini CLI trusted folders", placeholder=NEUTRAL_JSON))
    out.append(Guarded(os.path.join(gemini, "trusted_hooks.json"), HOST, "Gemini CLI hook trust"))
    system = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    if system:
        defaults = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or os.path.join(
            os.path.dirname(system), "system-defaults.json"
        )
        out += [Guarded(p, HOST, "Gemini CLI system settings") for p in (system, defaults)]
    for path, why in MANAGED_HOST_DIRS:
        found = _system(path, HOST, why)
        out += [found] if found else []
    root = _repository_root(cwd)
    here = os.path.abspath(cwd)

    # every directory from the repository root down to the project directory (Codex reads
    # a layer from each of them)
    between = [
        d for d in reversed(_walk_up(here)) if d == root or d.startswith(root.rstrip("/") + "/")
    ]
    for directory in between:
        for host in HOSTS.values():
            if host.hooks_layout == "plugin":
                out += _plugin_dirs(directory, host.project_files, host.title)
            else:
                out += _host_project(directory, host.project_files, host.title)
        out.append(Guarded(os.path.join(directory, ".mcp.json"), HOST, "project MCP servers"))
    return out


def _codex_profiles(codex_home: str) -> list[Guarded]:
    """Each Codex profile file (``NAME.config.toml`` directly in CODEX_HOME: MCP servers and
    disabled_tools ``codex --profile NAME`` reads over config.toml), read-only. One by one:
    CODEX_HOME itself stays writable (Codex writes its sessions there); a profile file made
    during the session is denied by self-protection (policy/trust/protect.py, whose copy of
    protocol/codex.py's suffix is taken here: that module costs a start ~25 ms to import)."""
    try:
        names = sorted(os.listdir(codex_home))
    except OSError:
        return []
    return [
        Guarded(os.path.join(codex_home, name), HOST, f"Codex profile `{name[: -len(suffix)]}`")
        for name in names
        if name.endswith(suffix := CODEX_PROFILE_SUFFIX)
        and name != suffix
        and os.path.isfile(os.path.join(codex_home, name))
    ]


def _env_files(cwd: str, env: dict[str, str]) -> list[Guarded]:
    """The dotenv files the hosts load at start and export to their hooks (``env_files`` of
    their rows): the user's read-only, made empty when missing (a ``BASH_ENV`` written there
    runs in every hook of the next session); of a project's, the one a host would load
    (the first found from the start directory up), read-only for the session."""
    out: list[Guarded] = []
    for host in HOSTS.values():
        user, project, _overrides = host.env_files
        why = f"{host.title} environment file (exported to every hook)"
        out += [Guarded(user_path(host, f, env), HOST, why, placeholder=b"") for f in user]
        found = project_env_file(project, cwd) if project else None
        if found:
            out.append(Guarded(found, HOST, f"{why}, as found from the start directory"))
        out += _env_files_before(project, cwd, found, why)
    return out


def _env_files_before(
    names: tuple[str, ...], cwd: str, found: str | None, why: str
) -> list[Guarded]:
    """The project env files a later session started here would load before ``found`` (or
    any at all, when none is found): each of ``names`` missing in the start directory and
    each directory up to ``found``'s, made empty and read-only (red team s28 run #1: a
    program of the session wrote a missing ``.gemini/.env``, whose LOCPATH and LC_CTYPE
    stopped every hook of the next session before its first line)."""
    out: list[Guarded] = []
    current = os.path.abspath(cwd)
    while True:
        for name in names:
            path = os.path.join(current, name)
            if path == found:
                return out
            if not os.path.lexists(path):
                out.append(Guarded(path, HOST, f"{why}: would be loaded first", placeholder=b""))
        parent = os.path.dirname(current)
        if found is None or parent == current:
            return out
        current = parent


def _startup_files(env: dict[str, str]) -> list[Guarded]:
    """The shells' start-up files of this user (hook_code.startup_files): read-only, and
    made when missing (empty, or for ~/.bash_profile what bash reads without it), so that
    nothing of the session adds a line the next agent's shell or a hook's own shell runs
    (red team s35 #1, #2). zsh's and fish's only where that shell is installed (no files
    made for a shell nobody runs); the system's are root's, under /etc (_root_system)."""
    skipped: set[str] = set()
    for table, shell in ((ZSH_FILES, "zsh"), (FISH_FILES, "fish")):
        if _on_path(shell, env) is None:
            skipped |= {name for name, _who, _empty in table}
    out: list[Guarded] = []
    for path, readers, empty in startup_files(env):
        if path.startswith("/etc/") or any(path.endswith("/" + n) for n in skipped):
            continue
        why = f"a shell's start-up file, {readers}"
        if path.endswith("/conf.d"):
            out.append(Guarded(path, HOST, why, directory=True))
        elif empty:
            out.append(Guarded(path, HOST, why, placeholder=b""))
        else:  # (~/.bash_profile)
            login = os.path.lexists(os.path.join(os.path.dirname(path), ".bash_login"))
            content = NEUTRAL_BASH_PROFILE_LOGIN if login else NEUTRAL_BASH_PROFILE
            out.append(Guarded(path, HOST, why, placeholder=content))
    return out


def _launcher_code(env: dict[str, str]) -> list[str]:
    """The interpreter and package the installed launcher runs (another install than this
    one, possibly): read from its first lines."""
    try:
        with open(launcher_path(env), "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    out: list[str] = []
    if head and head[0].startswith("#!"):
        words = head[0][2:].split()
        if words and words[0] not in ("/bin/sh", "/usr/bin/env"):
            out.append(words[0])
    for line in head:
        if line.startswith("sys.path[0] = "):
            out.append(os.path.dirname(line.split("=", 1)[1].strip().strip("'\"")))
    return out


def _on_path(name: str, env: dict[str, str]) -> str | None:
    for directory in (env.get("PATH") or "").split(os.pathsep):
        candidate = os.path.join(directory or ".", name)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return os.path.abspath(candidate)
    return None


def _venv_base(prefix: str) -> str | None:
    """The interpreter a virtualenv runs on (``executable``, else ``home``, in pyvenv.cfg;
    else where its ``bin/python`` leads): the venv's ``python`` is only a link to it."""
    try:
        with open(os.path.join(prefix, "pyvenv.cfg"), encoding="utf-8", errors="replace") as f:
            values = {k.strip(): v.strip() for k, _, v in (line.partition("=") for line in f)}
    except OSError:
        values = {}
    executable = values.get("executable")
    if executable and os.path.isabs(executable) and os.path.exists(executable):
        return executable
    home = values.get("home")
    version = ".".join(values.get("version", values.get("version_info", "")).split(".")[:2])
    for name in (f"python{version}", "python3", "python"):
        if home and os.path.exists(os.path.join(home, name)):
            return os.path.join(home, name)
    linked = os.path.realpath(os.path.join(prefix, "bin", "python"))
    return linked if not linked.startswith(prefix.rstrip("/") + "/") else None


def _python_libraries(real: str, why: str) -> list[Guarded]:
    """Beside an interpreter (``<prefix>/bin/pythonX.Y``): its ``libpython*.so`` and its
    standard library in ``<prefix>/lib``, where this user can write them."""
    lib = os.path.join(os.path.dirname(os.path.dirname(real)), "lib")
    try:
        names = os.listdir(lib)
    except OSError:
        return []
    out: list[Guarded] = []
    for name in names:
        if not name.startswith(("libpython", "python3")):
            continue
        path = os.path.realpath(os.path.join(lib, name))
        minor = name.removeprefix("libpython3.")[:1]  # (libpython3.so is a stub, not loaded)
        if name.startswith("libpython3.") and minor.isdigit() and ".so" in name:
            found = Guarded(path, CODE, f"{why}'s {os.path.basename(path)}")
        elif name.startswith("python3") and os.path.exists(os.path.join(path, "os.py")):
            found = Guarded(path, CODE, f"{why}'s standard library")
        else:
            continue
        if os.access(path, os.W_OK):
            out.append(found)
    return out


def _interpreter(path: str, why: str) -> list[Guarded]:
    """An interpreter the hook runs: its virtualenv when it is one, and the interpreter
    (a virtualenv's base interpreter), its libpython and standard library where this user
    could change them (a Python under ~, pyenv, or root's own): replaced, every hook
    (``#!<venv>/bin/python -I -S``) would run what the agent put there."""
    out: list[Guarded] = []
    prefix = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    base: str | None = path
    if os.path.exists(os.path.join(prefix, "pyvenv.cfg")):
        out.append(Guarded(prefix, CODE, f"{why}'s virtualenv"))
        base = _venv_base(prefix)
        why = f"{why}'s base interpreter"
    if base is None:
        return out + _consulted(path, why)  # (what the interpreter says it runs on)
    real = os.path.realpath(base)
    if os.access(real, os.W_OK):
        out.append(Guarded(real, CODE, why))
    out += _python_libraries(real, why)
    known = {entry.path for entry in out}
    return out + [entry for entry in _consulted(path, why) if entry.path not in known]


def _writable(path: str) -> bool:
    """Whether this user could change ``path`` or replace it (its directory is writable)."""
    return os.access(path, os.W_OK) or os.access(os.path.dirname(path), os.W_OK)


def _keep_open() -> set[str]:
    return {os.path.abspath(os.getcwd()), _home({**os.environ})}


def _keep_writable() -> set[str]:
    """Directories a session must keep writable beyond the home and the project: the
    user's base directories (every application's data, state, cache) and the temporary
    ones. What lies above an interpreter is read-only whole unless it holds one of these."""
    env = {**os.environ}
    home = _home(env)
    out = _keep_open() | {"/tmp", "/var/tmp", "/dev/shm", os.path.join(home, ".local")}
    for name, default in (
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_CONFIG_HOME", ".config"),
        ("TMPDIR", ""),
    ):
        value = env.get(name) or (os.path.join(home, default) if default else "")
        if value:
            out.add(os.path.abspath(value))
    return out


def _opened(directory: str, keep_open: set[str]) -> bool:
    """Whether ``directory`` must stay writable in a session (the home, the project, or one
    of their parents): it cannot be made read-only whole."""
    return any(directory == k or k.startswith(directory.rstrip("/") + "/") for k in keep_open)


def _hook_interpreters(env: dict[str, str]) -> list[str]:
    """The interpreters hooks start with: this one, and the installed launcher's."""
    found = [sys.executable, *_launcher_code(env)]
    return [p for p in dict.fromkeys(found) if os.path.isfile(p)]


def interpreter_problems(env: dict[str, str]) -> list[str]:
    """Why a session cannot start with these interpreters: a start file beside one that no
    normal install has (planted before its directory was guarded: every hook, and this
    supervisor, would read it), or an interpreter whose start directory must stay writable."""
    from hookwise.run.interpreter_paths import (
        consulted,
        prefix_searches,
        start_directories,
        unexpected_start_files,
    )

    problems: list[str] = []
    keep_open = _keep_open()
    for interpreter in _hook_interpreters(env):
        found = consulted(interpreter)
        problems += [
            f"{path}: a start file beside the hook's interpreter {interpreter} that hookwise "
            "did not expect (it changes what the interpreter imports before hookwise runs); "
            "remove it if you did not put it there"
            for path in unexpected_start_files(interpreter, found)
        ]
        problems += [
            f"the hook's interpreter {interpreter} starts from {d}, which must stay writable "
            "in a session (the home, the project or a parent): start files planted there "
            "would change every later hook; use an interpreter installed elsewhere"
            for d in start_directories(interpreter, found)
            if _writable(d) and _opened(d, keep_open)
        ]
        problems += [
            f"the hook's interpreter {interpreter} looks for its prefix in {lib}, which must "
            "stay writable in a session (the home, the project or a parent): a zip made "
            "there would change every later hook; use an interpreter installed elsewhere"
            for lib in prefix_searches(interpreter, found)
            if os.path.lexists(lib) and _writable(lib) and _opened(lib, keep_open)
        ]
    return list(dict.fromkeys(problems))


def _consulted(path: str, why: str) -> list[Guarded]:
    """What the interpreter at ``path`` reads at start (:mod:`hookwise.run.interpreter_paths`,
    asked of the interpreter), where this user could change it: every symlink of its chains
    (pinned, so it cannot be replaced; what it leads to bound read-only), every entry of its
    ``-I -S`` search path, and for an entry that does not exist the directory it would be
    created in, read-only (a placeholder file instead where that directory is the home, the
    project or one of their parents, which must stay writable)."""
    from hookwise.run.interpreter_paths import VENV_FILE, chain, consulted, start_directories

    found = consulted(path)
    links = list(found.links)
    prefix = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    if os.path.exists(os.path.join(prefix, "pyvenv.cfg")):  # every link of the venv's bin/
        try:
            names = [e.path for e in os.scandir(os.path.join(prefix, "bin")) if e.is_symlink()]
        except OSError:
            names = []
        for name in names:
            links += [link for link in chain(name)[0] if link not in links]
    out = [
        Guarded(link, CODE, f"{why}: a symlink of its chain")
        for link in links
        if os.access(os.path.dirname(link), os.W_OK)
    ]
    out += [Guarded(p, CODE, why) for p in found.binaries if _writable(p)]
    out += [
        Guarded(p, CODE, f"{why}: {os.path.basename(p)} (its search path)")
        for p in found.present
        if _writable(p)
    ]
    keep_open = _keep_open()
    starts = [d for d in start_directories(path, found) if _writable(d)]
    out += [
        Guarded(d, CODE, f"{why}: {d}, whose start files (._pth, pybuilddir.txt) set its path")
        for d in starts
        if not _opened(d, keep_open)  # (those refuse the start: interpreter_problems)
    ]
    above = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    config = os.path.join(above, VENV_FILE)  # (read one level above the invoked binary)
    if not os.path.lexists(config) and above not in starts and os.access(above, os.W_OK):
        out.append(Guarded(config, CODE, f"{why}: {config} would move its prefix", placeholder=b""))
    out += _prefix_search(path, found, why, [d for d in starts if not _opened(d, keep_open)])
    for missing in found.missing:
        parent = os.path.dirname(missing)
        while parent != "/" and not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.access(parent, os.W_OK):
            continue
        why_missing = f"{why}: {missing}, on its search path, must not be created"
        if _opened(parent, keep_open):
            out.append(Guarded(missing, CODE, why_missing, placeholder=b""))
        else:
            out.append(Guarded(parent, CODE, why_missing))
    return out


def _prefix_search(path: str, found: Consulted, why: str, guarded: list[str]) -> list[Guarded]:
    """Every ``lib/`` getpath probes above the interpreter for its prefix
    (:func:`~hookwise.run.interpreter_paths.prefix_searches`) must gain nothing inside: one
    that exists is read-only whole; a missing one is kept from being made by making its
    directory read-only whole, or, where that directory must stay writable (the home, the
    project, the user's base and temporary directories, or a parent of one), by making it
    empty for the session. Those inside a directory already read-only whole are skipped."""
    from hookwise.run.interpreter_paths import prefix_searches

    out: list[Guarded] = []
    keep = _keep_writable()
    for lib in prefix_searches(path, found):
        above = os.path.dirname(lib)
        if any(above == d or above.startswith(d.rstrip("/") + "/") for d in guarded):
            continue
        reason = f"{why}: {lib}, where its prefix search looks (a zip made there moves it)"
        if os.path.lexists(lib):
            if _writable(lib) and not _opened(lib, _keep_open()):  # (else: refused)
                out.append(Guarded(lib, CODE, reason))
        elif os.access(above, os.W_OK):
            if _opened(above, keep):
                out.append(Guarded(lib, CODE, reason, directory=True))
            else:
                out.append(Guarded(above, CODE, f"{reason}; its directory, read-only whole"))
    return out


def _package_roots(env: dict[str, str]) -> list[str]:
    """The directories holding the ``hookwise`` package this process and the installed
    launcher import: first on the launcher's ``sys.path`` (``policy/snapshot._root``), so a
    module made there (``re.py``) shadows the standard library for every hook; for an
    editable install that is the checkout's ``src/``, which its ``.pth`` also puts on the
    path of every unconfined ``hookwise`` command (red team s24, #4)."""
    import hookwise

    package = os.path.dirname(os.path.abspath(hookwise.__file__))
    launched = [p for p in _launcher_code(env) if os.path.isdir(p)]
    return list(dict.fromkeys(os.path.dirname(p) for p in (package, *launched)))


def import_problems(env: dict[str, str]) -> tuple[list[str], list[str]]:
    """(why a session cannot start: a package root that must stay writable; what it cannot
    guard on the ``sys.path`` of hookwise's own commands, said at the start)."""
    keep = _keep_open()
    refused = [
        f"hookwise's package root {root} (first on the hook's sys.path) must stay writable "
        "in a session (the home, the project or a parent): a module made there would run in "
        "every later hook; install hookwise elsewhere (a virtualenv, pipx, uv tool)"
        for root in _package_roots(env)
        if _writable(root) and _opened(root, keep)
    ]
    said = [
        f"{entry} is on the sys.path of this hookwise command and stays writable in the "
        "session (the home, the project or a parent): a module made there runs in the next "
        "unconfined command started this way"
        for entry in _import_path()
        if _writable(entry) and _opened(entry, keep) and entry not in _package_roots(env)
    ]
    return refused, said


def _import_path() -> list[str]:
    """The directories on this process's ``sys.path`` (site-packages, ``.pth`` entries): an
    unconfined ``hookwise`` command started the same way imports from them."""
    entries = (os.path.abspath(e or ".") for e in sys.path)
    return [e for e in dict.fromkeys(entries) if os.path.isdir(e)]


def _import_roots(env: dict[str, str]) -> list[Guarded]:
    keep = _keep_open()
    why = "the directory holding hookwise's package, first on the hook's sys.path"
    out = [
        Guarded(root, CODE, why)
        for root in _package_roots(env)
        if _writable(root) and not _opened(root, keep)
    ]
    why = "on the sys.path of hookwise's commands (a .pth entry, site-packages)"
    return out + [
        Guarded(entry, CODE, why)
        for entry in _import_path()
        if _writable(entry) and not _opened(entry, keep)
    ]


def _code(env: dict[str, str]) -> list[Guarded]:
    import hookwise

    out = [Guarded(os.path.dirname(os.path.abspath(hookwise.__file__)), CODE, "hookwise's code")]
    out += _import_roots(env)
    found: list[Guarded | None] = [*_interpreter(sys.executable, "this interpreter")]
    # every file this interpreter maps, where this user can change it (libpython anywhere,
    # Debian's lib/<arch>; an extension module): the hook maps the same (hook_code's list)
    known = {e.path for e in found if e is not None}
    for path in mapped_files():
        if path not in known and os.access(path, os.W_OK):
            found.append(Guarded(path, CODE, "a file this interpreter maps (the hook's too)"))
    for path in _launcher_code(env):
        if os.path.isdir(path):
            found.append(Guarded(path, CODE, "the launcher's hookwise"))
        elif os.path.exists(path):
            found += _interpreter(path, "the launcher's interpreter")
    # the standard library and the hookwise command, where this user could change them (a
    # Python installed in the home directory, or root's own)
    stdlib = os.path.dirname(os.path.abspath(os.__file__))
    if os.access(stdlib, os.W_OK):
        found.append(Guarded(stdlib, CODE, "the interpreter's standard library"))
    command = _on_path("hookwise", env)
    if command and os.access(command, os.W_OK):
        found.append(Guarded(command, CODE, "the hookwise command on PATH"))
    return out + [entry for entry in found if entry is not None]


def path_directories(env: dict[str, str]) -> list[str]:
    return [os.path.abspath(d or ".") for d in (env.get("PATH") or "").split(os.pathsep)]


def path_shadows(name: str, env: dict[str, str], why: str) -> list[Guarded]:
    """``name`` must not be shadowed on PATH: in every directory of PATH up to where it is
    found, the name is guarded where this user could put a program there. A writable
    directory gets an empty, non-executable placeholder when the name is missing (the
    lookup passes over it); a missing directory this user could create is made for the
    session with the placeholder inside (``~/.local/bin`` before ``/usr/bin``); a directory
    this user cannot write but could rename away is pinned (bound read-only onto itself)."""
    out: list[Guarded] = []
    for directory in path_directories(env):
        path = os.path.join(directory, name)
        found = os.access(path, os.X_OK) and not os.path.isdir(path)
        if os.path.isdir(directory):
            if os.access(directory, os.W_OK):
                out.append(Guarded(path, SYSTEM if found else HOST, why, placeholder=b""))
            elif os.access(os.path.dirname(directory), os.W_OK):
                why_dir = f"{why} (a directory that could be replaced)"
                out.append(Guarded(directory, SYSTEM, why_dir))
        elif (
            not os.path.lexists(directory)
            and creatable(directory)
            and not _under_root_system(directory)
        ):
            out.append(Guarded(path, HOST, f"{why}; its directory made", placeholder=b""))
        if found:
            break
    return out


def _hook_programs(env: dict[str, str]) -> list[Guarded]:
    """A program the host runs every hook with must not be shadowed (:func:`path_shadows`).
    And what opens a shell outside: ssh's authorized keys, and the start-up files a
    non-interactive shell reads (``$BASH_ENV``, ``$ENV``)."""
    out: list[Guarded] = []
    directories = path_directories(env)
    for name, why in program_names():  # (the hook programs, node, each host's commands)
        out += path_shadows(name, env, why)
        found = _on_path(name, env) if name not in HOOK_PROGRAMS else None
        where = install_dir(found, directories) if found else None
        if where is not None and _writable(where):  # a host's install (~/.local/share/claude)
            out.append(Guarded(where, CODE, f"{why} (its install)"))
    # a key the agent adds here opens an unconfined shell through `ssh localhost`
    ssh = os.path.join(_home(env), ".ssh")
    if not os.path.lexists(ssh):
        out.append(Guarded(ssh, HOST, "ssh logins (authorized_keys)", directory=True))
    else:
        for name in ("authorized_keys", "authorized_keys2"):
            why = "ssh logins: a key added opens an unconfined shell"
            out.append(Guarded(os.path.join(ssh, name), HOST, why, placeholder=b""))
    for variable in ("BASH_ENV", "ENV"):
        value = env.get(variable)
        if value:
            path = os.path.expanduser(value)
            why = f"${variable}, read by every hook's shell"
            out.append(Guarded(path, HOST, why, placeholder=b""))
    return out


def _validators(cwd: str, env: dict[str, str]) -> list[Guarded]:
    """What the validators of the policies in force here run (``action: validate``), read
    from the compiled policy (in memory when stale: nothing is written): :func:`command_files`
    resolved where the hook runs them (``policy/rules/validator.validator_directory``, never
    the event's cwd). What the program itself runs is its own (docs/confinement.md)."""
    from hookwise.policy.trust.scopes import read_scope_sources, scope_sources

    try:  # (no file names a validator, the common case: no compile at the start)
        texts = [data for _s, _p, data in read_scope_sources(scope_sources(cwd, env))]
    except OSError:
        return []  # (a policy that cannot be read fails closed in the hook)
    if not any(data and b"validator" in data for data in texts):
        return []
    from hookwise.policy.cache import load_policy
    from hookwise.policy.rules.validator import validator_directory

    try:
        rules = load_policy(cwd, env, write=False).policy.get("rules", [])
    except (OSError, ValueError):
        return []  # (a policy that cannot be read fails closed in the hook)
    out: list[Guarded] = []
    for rule in rules:
        command = (rule.get("validator") or {}).get("command")
        if isinstance(command, str):
            why = f"what rule {rule.get('id')}'s validator runs ({rule.get('file')})"
            out += command_files(command, validator_directory(rule), env, why)
    return out


# Not files a command runs, whatever its words say.
KERNEL_FILES = ("/proc/", "/sys/", "/dev/")


def command_files(command: str, base: str, env: dict[str, str], why: str) -> list[Guarded]:
    """What a command line the guard depends on runs: its program (a path: read-only, or an
    empty non-executable placeholder when missing, so it cannot be made; a name: where
    ``PATH`` finds it, :func:`path_shadows`) and every other word naming a file (a script
    given to an interpreter), resolved against ``base``."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    out: list[Guarded] = []
    for position, word in enumerate(words):
        path = os.path.normpath(os.path.join(base, os.path.expanduser(word)))
        if path.startswith(KERNEL_FILES) or "$" in word or "\0" in word:
            continue
        if position == 0 and "/" not in word:
            out += path_shadows(word, env, why)
        elif position == 0:
            out.append(Guarded(path, CODE, why, placeholder=b""))
        elif os.path.isfile(path):
            out.append(Guarded(path, CODE, why))
    return out


def _settings_data(path: str) -> object:
    """A host settings file's data (JSON with comments, or TOML), None when unreadable."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(1 << 20)
    except OSError:
        return None
    if b"command" not in raw:  # (no hook handler: nothing to parse, the common case)
        return None
    text = raw.decode("utf-8", "replace")
    if path.endswith(".toml"):
        import tomllib

        try:
            return tomllib.loads(text)
        except ValueError:
            return None
    import json

    try:
        return json.loads(text)
    except RecursionError:
        return None  # (nested past the interpreter's limit: no host reads it either)
    except ValueError:
        from hookwise.config.jsonc import parse_jsonc  # (comments: Gemini CLI allows them)

        try:
            data, error = parse_jsonc(text)
        except (RecursionError, ValueError):
            return None
        return None if error else data


def _commands(data: object) -> list[str]:
    """Every ``command`` string in a settings document (hook handlers, wherever they sit)."""
    out: list[str] = []
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "command" and isinstance(item, str):
                    out.append(item)
                else:
                    pending.append(item)
        elif isinstance(value, list):
            pending.extend(value)
    return out


def hook_scripts(entries: list[Guarded], cwd: str, env: dict[str, str]) -> list[Guarded]:
    """What the *other* hooks registered in the guarded host settings files run: a hook may
    answer with a changed tool input (Claude Code's ``updatedInput``, Gemini CLI's
    ``tool_input``) after hookwise decided on the original, so its script rewritten inside
    would undo every decision (red team s24, #6). Each file a hook command names (after
    ``$CLAUDE_PROJECT_DIR``, ``$GEMINI_PROJECT_DIR``, ``$HOME``, ``~``) is read-only; a
    command that names nothing on disk (a program on ``PATH``) is guarded there."""
    root = _repository_root(cwd)
    variables = {**env, "CLAUDE_PROJECT_DIR": root, "GEMINI_PROJECT_DIR": root}
    variables["HOME"] = _home(env)
    out: list[Guarded] = []
    for entry in entries:
        if entry.role != HOST or not os.path.isfile(entry.path):
            continue
        if not entry.path.endswith((".json", ".toml")):
            continue
        for command in _commands(_settings_data(entry.path)):
            # (hookwise's own portable command names only computed paths: skipped below)
            expanded = _expand(command, variables)
            why = f"a hook {entry.path} registers runs it"
            out += command_files(expanded, root, env, why)
    return out


def _expand(command: str, variables: dict[str, str]) -> str:
    """``$NAME`` and ``${NAME}`` of ``variables`` in a command (others are left as they are)."""
    import re

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return variables.get(name, match.group(0))

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", value, command)


def secrets_pack() -> str:
    """The newest secrets pack (``--protect-secrets`` hides what its file rules name)."""
    from hookwise.policy.rules import packs

    version = packs.available()["secrets"][-1]
    return os.path.join(packs.DIRECTORY, f"secrets.v{version}.yaml")


def guarded_paths(env: dict[str, str], cwd: str, answers: str | None = None) -> list[Guarded]:
    """Everything to make read-only for an agent started in ``cwd`` with ``env``; a path
    may appear inside another (``run/plan.py`` keeps the outermost). ``answers``: where the
    interpreters' answers are kept (the sessions' directory, read-only inside; not
    hookwise's caches, which a session leaves as they were)."""
    from hookwise.run.interpreter_paths import ask

    for interpreter in _hook_interpreters(env):  # (answers while we go on)
        ask(interpreter, answers)
    hosts = _hosts(cwd, env)
    known = {g.path for g in hosts}
    hosts += [g for g in _code_files(cwd, env) if g.path not in known]
    return [
        *_policy(cwd, env),
        *_hookwise_state(env),
        *hosts,
        *hook_scripts(hosts, cwd, env),
        *_code(env),
        *_hook_programs(env),
        *_startup_files(env),
        *_validators(cwd, env),
        *_root_system(),
    ]
