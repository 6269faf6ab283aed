"""The dotenv files the hosts load and export to hooks, and the variables in them that change
what a hook runs.

- ``env_files`` of the rows in protocol/hosts.py: loaded by a host at its start into its own
  environment, which every hook inherits (Codex ``~/.codex/.env``; Gemini CLI's
  ``.gemini/.env`` and ``.env``);
- ``extension_env_files``: a Gemini CLI extension's settings (``~/.gemini/extensions/<name>/
  .env``), merged last into the environment of that extension's hooks (and MCP servers).

A red team wrote ``BASH_ENV=<its script>`` into ``~/.codex/.env`` from inside a session: the
next Codex session exported it, and every hook's ``bash -c`` sourced the script before the
hook command ran, which no hook command can prevent. So ``hookwise run`` guards these files
(run/guarded_paths.py) and refuses to start while one sets a variable of
:data:`HOOK_VARIABLES` (run/supervisor.py), and ``hookwise doctor`` names each such file and
variable (policy/install/doctor.py).
"""

from __future__ import annotations

import os

from hookwise.protocol.dotenv import keys, project_env_file
from hookwise.protocol.hosts import HOSTS, HostInfo, row_user_path

# What decides which program a hook runs and what it reads: a shell's start-up files, the
# loader's preloads, where hookwise's policy, launcher and caches are, and which programs
# PATH finds. A name ending in "*" is a prefix.
HOOK_VARIABLES = (
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PATH",
    "HOME",
    "LD_*",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "HOOKWISE_*",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
    "CODEX_HOME",
)
# always set when a host starts: a file that sets only unset variables cannot change them
ALWAYS_SET = ("PATH", "HOME")
MAX_SIZE = 1 << 20


def affects_hooks(name: str) -> bool:
    return any(name.startswith(v[:-1]) if v.endswith("*") else name == v for v in HOOK_VARIABLES)


def user_path(host: HostInfo, file: str, env: dict[str, str]) -> str:
    """A host's user-scope file where ``env`` moves its directory (the row's ``config_dir``)."""
    return os.path.abspath(row_user_path(host, file, env))


def _glob(pattern: str) -> list[str]:
    """``glob.glob(pattern)`` for a pattern whose only wildcards are whole ``*`` components
    (the rows' kind), without importing :mod:`glob`: it brings ``re``, ``enum`` and
    ``contextlib`` into every ``hookwise run`` start (a quarter of its imports). Any other
    wildcard goes to :mod:`glob` itself."""
    parts = pattern.split("/")
    if any(("*" in part and part != "*") or "?" in part or "[" in part for part in parts):
        import glob

        return glob.glob(pattern)
    found = [parts[0]]
    for part in parts[1:]:
        if part != "*":
            found = [f"{path}/{part}" for path in found]
            continue
        names: list[str] = []
        for path in found:
            try:
                # (as glob: ``*`` matches no name starting with a dot)
                names += [f"{path}/{e.name}" for e in os.scandir(path or "/") if e.name[0] != "."]
            except OSError:
                continue
        found = names
    return [path for path in found if os.path.lexists(path)]


def extension_files(env: dict[str, str]) -> list[tuple[str, str]]:
    """(host title, path) of every extension env file present (``extension_env_files`` of
    the rows: globs relative to the home, as ``user_files``)."""
    out: list[tuple[str, str]] = []
    for host in HOSTS.values():
        for pattern in host.extension_env_files:
            found = _glob(user_path(host, pattern, env))
            out += [(host.title, p) for p in sorted(found) if os.path.isfile(p)]
    return out


def loaded(cwd: str, env: dict[str, str]) -> list[tuple[str, str, bool]]:
    """(host title, path, overrides) of every env file a host would load when started in
    ``cwd`` (for Gemini CLI, its one file: a project's first, else the user's first)."""
    out: list[tuple[str, str, bool]] = []
    for host in HOSTS.values():
        user, project, overrides = host.env_files
        found = project_env_file(project, cwd) if project else None
        candidates = [found] if found else [user_path(host, f, env) for f in user]
        if project and not found:  # (one file only: the first of the user's found)
            candidates = [p for p in candidates if os.path.isfile(p)][:1]
        out += [(host.title, p, overrides) for p in candidates if os.path.isfile(p)]
    return out


def _setting(path: str, overrides: bool) -> list[str]:
    """The names of :data:`HOOK_VARIABLES` a dotenv file at ``path`` sets (and could: a file
    that only sets unset variables cannot change PATH or HOME)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SIZE)
    except OSError:
        return []
    return [
        k
        for k in keys(data.decode("utf-8", "replace"))
        if affects_hooks(k) and (overrides or k not in ALWAYS_SET)
    ]


def planted(cwd: str, env: dict[str, str]) -> list[tuple[str, str, list[str]]]:
    """(path, what loads it and where it goes, the variables) of every env file a host
    loads, started in ``cwd``, that sets a variable of :data:`HOOK_VARIABLES`."""
    out: list[tuple[str, str, list[str]]] = []
    for title, path, overrides in loaded(cwd, env):
        names = _setting(path, overrides)
        if names:
            out.append((path, f"loaded by {title} at its start and exported to every hook", names))
    for title, path in extension_files(env):
        names = _setting(path, True)  # (merged last into the extension's hooks' env)
        if names:
            where = f"a {title} extension's settings, exported to that extension's hooks"
            out.append((path, where, names))
    return out


def hook_variables(cwd: str, env: dict[str, str]) -> list[str]:
    """One line per env file of :func:`planted`: what ``hookwise run`` refuses to start with."""
    return [
        f"{path} ({where}) sets {', '.join(names)}, which decide(s) what a hook runs; remove "
        "them from it (an agent may have written them there)"
        for path, where, names in planted(cwd, env)
    ]
