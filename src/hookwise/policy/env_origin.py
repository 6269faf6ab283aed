"""``HOOKWISE_*`` variables a host exported from a project's dotenv file: not taken.

Gemini CLI loads a project's ``.gemini/.env`` or ``.env`` (the first found from its cwd up:
its row's ``env_files`` in protocol/hosts.py) and exports it to every hook. One computed
write there (``base64 -d >> .env``) of ``HOOKWISE_POLICY=<an empty file>`` switched the
project's rules, and the changed/vanished rule, off for every later session (red team s26
#9). The write is checked where it can be (trust/env_writes.py); the hook itself takes no
``HOOKWISE_*`` variable that such a file sets: it is dropped, and said on stderr. A person
sets hookwise's variables in the shell that starts the agent, or in the user policy.

Only when some ``HOOKWISE_*`` variable is set at all does this look for a file (most calls
set none), and the file names come from the compiled host tables: the hook checks after it
loaded the policy, and loads it again without what it dropped. Inside ``hookwise run`` the
session's record decides them (confinement.pinned_env).
"""

from __future__ import annotations

from hookwise.policy import confinement
from hookwise.policy import os_lite as os
from hookwise.policy.safe_files import read_regular

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
    """The ``HOOKWISE_*`` variables set here that a file could have set."""
    return [name for name in env if name.startswith("HOOKWISE_") and name not in _SESSION]


def project_files(tables: dict[str, Any], starts: list[str]) -> list[str]:
    """The project env files the hosts of ``tables`` would load, started in any of
    ``starts``: for each host, the first of its names found from a start up (its row's
    ``env_files``, carried in the compiled tables: protocol/dotenv.py's
    ``project_env_file``, walked here without importing protocol on the hook's path)."""
    files: list[str] = []
    for table in tables.values():
        names = table.get("env_files") or ()
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
    env: dict[str, str], tables: dict[str, Any], starts: list[str], kept: tuple[str, ...] = ()
) -> list[str]:
    """Remove from ``env`` what :func:`planted` finds (but the ``kept`` names, which the
    registered command itself gave); a note on each for stderr."""
    if not [name for name in candidates(env) if name not in kept]:
        return []
    places = [*starts, *(env[v] for v in _PROJECT_VARIABLES if env.get(v, "").startswith("/"))]
    notes: list[str] = []
    for name, path in planted(env, project_files(tables, places)):
        if name not in kept and env.pop(name, None) is not None:
            notes.append(
                f"hookwise: ignored ${name}: {path} sets it, and a host exports that file "
                "to its hooks (anything that can write the project can write it); set "
                "hookwise's variables in the shell that starts the agent\n"
            )
    return notes
