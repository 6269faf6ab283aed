"""What decides whether a hook runs at all, outside hookwise's own files: its code and the
programs the hosts start it with.

Self-protection (protect.py) and ``hookwise run`` (run/guarded_paths.py) read these facts
here: a write of hookwise's package, of the interpreter the hook runs on (its binary, the
links to it, its virtualenv's ``pyvenv.cfg``, a standard library this user can change,
every file it maps: libpython, the loader, libc, extension modules; and the loader's
configuration), of the ``hookwise`` command, of a ``bash``/``sh``/``node`` or a host's own
command that PATH would find before the real one (Gemini CLI and Codex run every hook with
``bash -c``, Claude Code with ``/bin/sh -c``), of a host's install, of the hosts' managed
settings under ``/etc``, or of a directory a host loads hooks from (plugins, agents,
skills), switches every later hook off without touching a policy (red team s32 #1, #2; s33
#1, #4, #5). A descriptor opened for writing on a program (``3>>/bin/sh``) is such a
write too: the kernel then refuses to exec it (ETXTBSY, s32 #5).

Everything here is fixed per process or read from the event's environment: no subprocess,
standard library only (the hook's hot path, computed only when a call writes somewhere).
"""

from __future__ import annotations

import sys

from hookwise.policy import os_lite as os  # os without its import cost

# What the hosts run a hook command with, looked up through PATH (Gemini CLI and Codex:
# `bash -c`; the portable command falls back to `hookwise`), the runtime the npm-installed
# hosts start on (`#!/usr/bin/env node`: Gemini CLI, Codex's and Qwen's launchers; red team
# s33 #5), and Claude Code's shell, named by its path. The hosts' own commands are the
# protocol table's (``HostInfo.commands``: :func:`program_names`).
HOOK_PROGRAMS = ("bash", "sh", "hookwise", "node")
# What else a planted file on PATH takes over: `python3` the hooks and validators of other
# projects. (`hookwise doctor` names a writable PATH directory before any of these.)
PATH_PROGRAMS = (*HOOK_PROGRAMS, "python3")
HOOK_SHELL = "/bin/sh"
# The hosts' managed (system) settings directories on Linux: each can switch hooks off
# (Claude Code's `disableAllHooks`) or register its own.
MANAGED_HOST_DIRS = (
    ("/etc/claude-code", "Claude Code managed settings"),
    ("/etc/gemini-cli", "Gemini CLI system settings"),
    ("/etc/codex", "Codex managed config"),
)


# The dynamic loader's own configuration: what it maps into every new process before its
# program's first instruction (a library named in ld.so.preload; where the cache says a
# library is), the hook's shell and interpreter first (red team s33 #4).
LOADER_CONFIG = ("/etc/ld.so.preload", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d")


# The shells' start-up files under the home (fish's under XDG_CONFIG_HOME, zsh's under
# ZDOTDIR when set): what each line there sets or runs is in the shell that starts the
# next agent (``export NODE_OPTIONS="--require x.js"``: every later Gemini CLI ran each
# hook as /bin/true, red team s35 #1) and in a hook's own ``bash -c`` where bash reads
# ``~/.bashrc`` for it (Debian's SSH_SOURCE_BASHRC: SSH_CLIENT set, SHLVL unset; s35 #2).
# (name, who reads it, whether an empty file in place of a missing one reads the same:
# an empty ~/.bash_profile would hide ~/.profile from bash)
STARTUP_FILES = (
    (".bashrc", "bash (interactive, and `bash -c` started by sshd)", True),
    (".bash_profile", "bash (login)", False),
    (".bash_login", "bash (login, without ~/.bash_profile)", True),
    (".profile", "sh and bash (login)", True),
    (".bash_logout", "bash (a login shell's exit)", True),
)
ZSH_FILES = (
    (".zshenv", "zsh (every start, `zsh -c` too)", True),
    (".zprofile", "zsh (login)", True),
    (".zshrc", "zsh (interactive)", True),
    (".zlogin", "zsh (login)", True),
    (".zlogout", "zsh (a login shell's exit)", True),
)
FISH_FILES = (
    ("fish/config.fish", "fish (every start)", True),
    ("fish/conf.d", "fish (every start: each *.fish in it)", True),
)
# what the shells read for every user (root's to change: listed where this user can)
SYSTEM_STARTUP_FILES = (
    "/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc", "/etc/environment",
    "/etc/zsh", "/etc/zshenv", "/etc/zprofile", "/etc/zshrc", "/etc/zlogin", "/etc/fish",
)  # fmt: skip
# variables naming a file a shell reads at start (bash without a terminal: BASH_ENV; sh
# and an interactive bash in POSIX mode: ENV)
STARTUP_VARIABLES = ("BASH_ENV", "ENV")


def startup_files(env: dict[str, str]) -> list[tuple[str, str, bool]]:
    """(path, why, empty reads the same) of every shell start-up file of this user (the
    tables above), the files BASH_ENV and ENV name, and the system's where this user can
    change them. Absolute, not resolved."""
    home = env.get("HOME") or os.path.expanduser("~")
    zdot = env.get("ZDOTDIR") or home
    config = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    out: list[tuple[str, str, bool]] = []
    for base, table in ((home, STARTUP_FILES), (zdot, ZSH_FILES), (config, FISH_FILES)):
        for name, who, empty in table:
            out.append((os.path.abspath(os.path.join(base, name)), f"read by {who}", empty))
    for variable in STARTUP_VARIABLES:
        value = env.get(variable) or ""
        if value.startswith("/") and "$" not in value:
            why = f"named by {variable}: read by the shells at start"
            out.append((os.path.abspath(value), why, True))
    why = "read by the shells of every user at start"
    out += [(p, why, True) for p in SYSTEM_STARTUP_FILES if _changeable(p)]
    return out


# how deep a chain of files sourced from a start-up file is followed, and how much of
# each is read (a start-up file is a few KiB)
_SOURCED_DEPTH = 3
_SOURCED_BYTES = 1 << 18


def sourced_files(files: list[str], home: str) -> list[tuple[str, str]]:
    """(path, why) of each file a start-up file among ``files`` sources by a literal path
    (``source ~/.cargo/env``, ``[ -s F ] && . F``), and what those source in turn: every
    later shell runs it as surely as the start-up file (red team s35 B: a line that
    sources ``~/.x`` is harmless only while ``~/.x`` is guarded as one)."""
    out: list[tuple[str, str]] = []
    seen = set(files)
    level = [f for f in files if os.path.isfile(f)]
    for _ in range(_SOURCED_DEPTH):
        found: list[str] = []
        for path in level:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read(_SOURCED_BYTES)
            except OSError:
                continue
            for named in _sourced_names(text, home):
                if named not in seen:
                    seen.add(named)
                    found.append(named)
                    out.append((named, f"sourced by {path}, a shell's start-up file"))
        level = [f for f in found if os.path.isfile(f)]
    return out


def _sourced_names(text: str, home: str) -> list[str]:
    """The literal absolute paths ``text``'s lines source (after a ``[ ... ] &&`` test)."""
    out: list[str] = []
    for line in text.splitlines():
        words = line.rsplit("&&", 1)[-1].split()
        if len(words) < 2 or words[0] not in (".", "source"):
            continue
        word = words[1].strip("'\"")
        for start in ("~/", "$HOME/", "${HOME}/"):
            if word.startswith(start):
                word = home + "/" + word[len(start) :]
        if word.startswith("/") and "$" not in word and "`" not in word:
            out.append(os.path.normpath(word))
    return out


def program_names() -> list[tuple[str, str]]:
    """(name, why) of every program PATH finds that starts or runs a hook: the hook
    programs above and each host's own commands (the protocol table)."""
    from hookwise.protocol.hosts import HOSTS

    out = [
        (name, f"`{name}` as the hosts find it on PATH to run every hook") for name in HOOK_PROGRAMS
    ]
    for host in HOSTS.values():
        out += [
            (name, f"`{name}`, {host.title}'s own program, which runs its hooks")
            for name in host.commands
        ]
    return out


def mapped_files() -> list[str]:
    """Every file this process maps (its interpreter, the loader, libc, libpython, the
    extension modules it imported), from the kernel's own list: what a hook, run by the
    same interpreter, maps too. One reader for protect and ``hookwise run``."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    found = set()
    for line in lines:
        fields = line.split(None, 5)
        if len(fields) == 6 and fields[5].startswith("/"):
            found.add(fields[5])
    return sorted(p for p in found if os.path.isfile(p))


def loaded_files() -> list[tuple[str, str]]:
    """What the loader puts into the hook's interpreter before and as it runs, where this
    user can change it: every file it maps (truncated libpython: every hook exits 127 in the
    loader, after the command's ``exec`` succeeded, red team s33 #1) and the loader's
    configuration (s33 #4)."""
    why = "a file the hook's interpreter maps (the loader, libc, libpython, a library)"
    out = [(path, why) for path in mapped_files() if _changeable(path)]
    why = "the dynamic loader's configuration, read by every new process (the hook's too)"
    return out + [(path, why) for path in LOADER_CONFIG if _changeable(path)]


def install_dir(command: str, path_dirs: list[str]) -> str | None:
    """Where a host's command resolves (``~/.local/bin/claude`` ->
    ``~/.local/share/claude/versions/X``): the npm package holding it (the nearest
    directory above with a ``package.json``), else its directory unless that is a PATH
    directory (``/usr/bin``: its file alone is on the list, with its links)."""
    real = os.path.realpath(command)
    current = os.path.dirname(real)
    for _ in range(6):
        if os.path.isfile(os.path.join(current, "package.json")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    directory = os.path.dirname(real)
    return None if directory in path_dirs or directory == "/" else directory


def link_chain(path: str) -> list[str]:
    """``path``, every symlink met on the way to the file it names, and that file."""
    out = [os.path.abspath(path)]
    seen = 0
    current = out[0]
    while os.path.islink(current) and seen < 40:
        seen += 1
        target = os.readlink(current)
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
        out.append(current)
    real = os.path.realpath(path)
    return out if real in out else [*out, real]


def interpreter_files(executable: str) -> list[tuple[str, str]]:
    """The interpreter a hook runs on: its links and binary, its virtualenv's ``pyvenv.cfg``
    (``home =`` picks the base interpreter) and, where this user can change it, the base
    interpreter's standard library."""
    why = "the interpreter hookwise's hook runs on"
    out = [(path, why) for path in link_chain(executable)]
    prefix = os.path.dirname(os.path.dirname(os.path.abspath(executable)))
    config = os.path.join(prefix, "pyvenv.cfg")
    if os.path.exists(config):
        out.append((config, "the virtualenv of hookwise's interpreter (pyvenv.cfg)"))
        base = getattr(sys, "_base_executable", "") or ""
        if base and base != executable:
            out += [(path, why + " (its base)") for path in link_chain(base)]
    stdlib = standard_library()
    if stdlib and os.access(stdlib, os.W_OK):
        out.append((stdlib, "the standard library hookwise's hook imports"))
        # (the zip landmark comes first on sys.path: lib/python3XY.zip)
        version = f"python{sys.version_info[0]}{sys.version_info[1]}.zip"
        out.append((os.path.join(os.path.dirname(stdlib), version), "the interpreter's zip path"))
    return out


def standard_library() -> str:
    """The standard library's directory (``encodings`` is imported by every interpreter)."""
    encodings = sys.modules.get("encodings")
    where = getattr(encodings, "__file__", None) or ""
    return os.path.dirname(os.path.dirname(os.path.abspath(where))) if where else ""


# Modules the interpreter imports by name from anywhere on sys.path at every start (site.py)
STARTUP_MODULES = ("sitecustomize", "usercustomize")


def site_directories() -> list[str]:
    """The directories whose ``.pth`` files the interpreter runs at start (site.py's
    site-packages, the user's site): a new file there can run before hookwise does."""
    site = sys.modules.get("site")  # (imported at every start unless -S: no import cost)
    found: list[str] = []
    if site is not None:
        listed = getattr(site, "getsitepackages", None)  # (not in an old virtualenv's site.py)
        found += list(listed()) if listed is not None else []
        user = getattr(site, "USER_SITE", None)
        if getattr(site, "ENABLE_USER_SITE", False) and user:
            found.append(user)
    return list(dict.fromkeys(os.path.abspath(d) for d in found))


def interpreter_environment(executable: str) -> list[tuple[str, str]]:
    """What the hook's interpreter runs before hookwise, where this user can change it:
    every site directory whole (any ``.pth`` line starting with ``import``, a
    ``sitecustomize.py``, a module shadowing one hookwise imports; red team s33 C), the
    start-up modules in every other ``sys.path`` directory, and its virtualenv's ``bin/``
    whole (the ``hookwise`` command, ``python``, what activates the venv)."""
    out: list[tuple[str, str]] = []
    sites = site_directories()
    why = "a site directory of hookwise's interpreter (its .pth files run at every start)"
    out += [(d, why) for d in sites if _changeable(d)]
    why = "a module hookwise's interpreter imports at every start"
    for entry in sys.path:
        directory = os.path.abspath(entry or ".")
        if directory in sites or not os.path.isdir(directory) or not _changeable(directory):
            continue
        for name in STARTUP_MODULES:
            out += [(os.path.join(directory, name + ".py"), why)]
            out += [(os.path.join(directory, name), why)]
    bin_dir = os.path.dirname(os.path.abspath(executable))
    venv = os.path.exists(os.path.join(os.path.dirname(bin_dir), "pyvenv.cfg"))
    if venv and _changeable(bin_dir):
        why = "the bin/ of hookwise's virtualenv (its python, the hookwise command)"
        out.append((bin_dir, why))
    return out


def planted_programs(env: dict[str, str], cwd: str | None = None) -> list[tuple[str, str]]:
    """Each PATH program that is no hook program (``python3``: the hooks and validators of
    other projects, :data:`PATH_PROGRAMS`) in every writable PATH directory before the one
    holding it: a new file there is what every later ``python3`` runs."""
    out: list[tuple[str, str]] = []
    directories = list(dict.fromkeys(path_directories(env, cwd)))
    for name in PATH_PROGRAMS:
        if name in HOOK_PROGRAMS:
            continue  # (path_programs)
        why = f"`{name}` as PATH finds it for every later command"
        for directory in directories:
            path = os.path.join(directory, name)
            if os.access(path, os.X_OK) and not os.path.isdir(path):
                break
            if os.access(directory, os.W_OK) or not os.path.lexists(directory):
                out.append((path, why))
    return out


def package_dir() -> str:
    """hookwise's package (an editable install's ``src/hookwise`` too)."""
    import hookwise

    return os.path.dirname(os.path.abspath(hookwise.__file__))


def path_directories(env: dict[str, str], cwd: str | None = None) -> list[str]:
    """PATH's directories, absolute (an empty or relative entry against ``cwd``, where the
    host starts its hooks); without PATH, the C library's default search path."""
    base = cwd or os.getcwd()
    value = env.get("PATH") or "/bin:/usr/bin"
    return [os.path.normpath(os.path.join(base, d or ".")) for d in value.split(":")]


def path_programs(
    env: dict[str, str], cwd: str | None = None, installs: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """Each hook program's name in every PATH directory up to where it is found (a file
    put there first is what the host runs), and the program found, with its links, where
    this user can change it (root: ``/bin/sh``, ``/usr/bin/bash``). Directories this user
    can neither write nor create are passed over: nothing can be put there. ``installs``
    gets each host's install (:func:`install_dir`): code, never a program an archive
    may put into its directory (protect's ``holds``)."""
    out: list[tuple[str, str]] = []
    directories = list(dict.fromkeys(path_directories(env, cwd)))  # (a repeat finds nothing new)
    writable = {d: os.access(d, os.W_OK) or not os.path.lexists(d) for d in directories}
    for name, why in program_names():
        for directory in directories:
            path = os.path.join(directory, name)
            found = os.access(path, os.X_OK) and not os.path.isdir(path)
            if writable[directory]:
                out.append((path, why))
            if found:
                out += [(p, why) for p in link_chain(path) if os.access(p, os.W_OK)]
                if installs is not None and name not in HOOK_PROGRAMS:  # a host's command
                    where = install_dir(path, directories)
                    if where is not None and _changeable(where):
                        installs.append((where, why + " (its install)"))
                break
    if os.path.exists(HOOK_SHELL):
        why = "the shell Claude Code runs every hook with"
        out += [(p, why) for p in link_chain(HOOK_SHELL) if _changeable(p)]
    return out


def _changeable(path: str) -> bool:
    return os.access(path, os.W_OK) or os.access(os.path.dirname(path), os.W_OK)


def host_code_dirs(env: dict[str, str]) -> list[tuple[str, str]]:
    """The hosts' user directories of code they load (plugins, agents, skills, commands,
    extensions: the registry's ``code_files``), and their managed settings under /etc."""
    from hookwise.protocol.hosts import HOSTS

    out = [(path, why) for path, why in MANAGED_HOST_DIRS]
    home = env.get("HOME") or os.path.expanduser("~")
    for host in HOSTS.values():
        names = host.code_files.get("user", ())
        if not names:
            continue
        # (hosts.row_config_path's reading, without its `import os`: the hot path)
        variable, default, under = host.config_dir
        explicit = env.get(variable) if variable else None
        if explicit:
            base = os.path.join(os.path.abspath(explicit), under) if under else explicit
        else:
            base = os.path.join(home, default) if default else home
        base = os.path.abspath(base)
        why = f"{host.title} loads code or hooks from it"
        out += [(os.path.join(base, name).rstrip("/"), why) for name in names]
    return out


def project_code_suffixes() -> tuple[str, ...]:
    """The hosts' project directories of code they load (``/.claude/skills`` ...), as
    path endings: guarded in every directory from the cwd up to its repository."""
    from hookwise.protocol.hosts import HOSTS

    out: list[str] = []
    for host in HOSTS.values():
        for name in host.code_files.get("project", ()):
            suffix = "/" + name.rstrip("/")
            if suffix not in out:
                out.append(suffix)
    return tuple(out)


def hook_code(env: dict[str, str], cwd: str | None = None) -> list[tuple[str, str]]:
    """Every path of this module's list for a hook running in this process with ``env``:
    (path, why), absolute."""
    out = [(package_dir(), "hookwise's code")]
    script = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "hookwise")
    if os.path.lexists(script):
        out.append((script, "the hookwise command beside hookwise's interpreter"))
    out += interpreter_files(sys.executable)
    out += interpreter_environment(sys.executable)
    out += loaded_files()
    installs: list[tuple[str, str]] = []
    out += path_programs(env, cwd, installs)
    out += installs
    out += planted_programs(env, cwd)
    out += host_code_dirs(env)
    return [(os.path.abspath(p), why) for p, why in out]
