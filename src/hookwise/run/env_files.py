"""The dotenv files the hosts load at start and export to every hook they run (the
``env_files`` of their rows in protocol/hosts.py), and the variables in them that change
what a hook runs.

A red team wrote ``BASH_ENV=<its script>`` into ``~/.codex/.env`` from inside a session: the
next Codex session exported it, and every hook's ``bash -c`` sourced the script before the
hook command ran, which no hook command can prevent. So the user's env files are read-only
in a session (``guarded_paths``), the one a host would load from the project is read-only
too, and ``hookwise run`` refuses to start an agent while a file the hosts will load sets a
variable of :data:`HOOK_VARIABLES` (one planted in a directory no session guarded: a new
``.env`` below the project, or written outside any session).
"""

from __future__ import annotations

import os

from hookwise.protocol.hosts import HOSTS
from hookwise.run.guarded_paths import _user_path, project_env_file

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
KEY = r"^[ \t]*(?:export[ \t]+)?([\w.-]+)[ \t]*(?:=|:)"  # (compiled when a file is read)


def keys(text: str) -> list[str]:
    """Every name a dotenv parser could set from ``text`` (dotenv's and dotenvy's keys:
    ``[export ]NAME=`` or ``NAME:`` at a line's start; a line inside a quoted value counts
    too: more names, never fewer)."""
    import re

    found = re.finditer(KEY, text, re.MULTILINE)
    return list(dict.fromkeys(match.group(1) for match in found))


def affects_hooks(name: str) -> bool:
    return any(name.startswith(v[:-1]) if v.endswith("*") else name == v for v in HOOK_VARIABLES)


def loaded(cwd: str, env: dict[str, str]) -> list[tuple[str, str, bool]]:
    """(host title, path, overrides) of every env file a host would load when started in
    ``cwd`` (for Gemini CLI, its one file: a project's first, else the user's first)."""
    out: list[tuple[str, str, bool]] = []
    for host in HOSTS.values():
        user, project, overrides = host.env_files
        found = project_env_file(project, cwd) if project else None
        candidates = [found] if found else [_user_path(host, f, env) for f in user]
        if project and not found:  # (one file only: the first of the user's found)
            candidates = [p for p in candidates if os.path.isfile(p)][:1]
        out += [(host.title, p, overrides) for p in candidates if os.path.isfile(p)]
    return out


def hook_variables(cwd: str, env: dict[str, str]) -> list[str]:
    """One line per env file a host will load that sets a variable of
    :data:`HOOK_VARIABLES` (and could: a file that only sets unset variables cannot change
    PATH or HOME)."""
    problems: list[str] = []
    for title, path, overrides in loaded(cwd, env):
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_SIZE)
        except OSError:
            continue
        names = [
            k
            for k in keys(data.decode("utf-8", "replace"))
            if affects_hooks(k) and (overrides or k not in ALWAYS_SET)
        ]
        if names:
            problems.append(
                f"{path} (loaded by {title} at its start and exported to every hook) sets "
                f"{', '.join(names)}, which decide(s) what a hook runs; remove them from it "
                "(an agent may have written them there)"
            )
    return problems
