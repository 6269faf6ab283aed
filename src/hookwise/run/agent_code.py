"""The agent's own program, guarded where this user could change it.

The guard lives in the host: an agent that rewrites its CLI (``cli.js`` of an npm install, a
native build under ``~/.local/share``) or the interpreter it runs on (a ``node`` under
``~/.nvm``) would start the *next* session with a host that skips its hooks. So the program
the session starts, the interpreter named by its ``#!`` line and, for an npm package, the
package's directory are read-only inside, when this user can write them (a system-wide
install is already out of the agent's reach). Its name is guarded in every PATH directory
before the one it is found in, as the hook programs are (a wrapper put there would be started
by the next ``hookwise run -- <agent>``).
"""

from __future__ import annotations

import os

from hookwise.run.guarded_paths import SYSTEM, Guarded, path_shadows


def _which(name: str, env: dict[str, str]) -> str | None:
    if "/" in name:
        return os.path.abspath(name) if os.access(name, os.X_OK) else None
    for directory in (env.get("PATH") or "").split(os.pathsep):
        candidate = os.path.join(directory or ".", name)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return os.path.abspath(candidate)
    return None


def _interpreter(path: str, env: dict[str, str]) -> str | None:
    """The program a ``#!`` line names (through ``env``, looked up as env would)."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env":
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        return _which(names[0], env) if names else None
    return words[0]


def _package_root(path: str) -> str | None:
    """The npm package a file belongs to: the directory right under ``node_modules`` (or
    under its ``@scope``)."""
    parts = path.split("/")
    for index in range(len(parts) - 2, 0, -1):
        if parts[index] == "node_modules":
            end = index + 2 if parts[index + 1].startswith("@") else index + 1
            return "/".join(parts[: end + 1])
    return None


def agent_code(argv: list[str], env: dict[str, str]) -> list[Guarded]:
    if not argv:
        return []
    program = _which(argv[0], env)
    if program is None:
        return []
    out: list[Guarded] = []
    if "/" not in argv[0]:
        out += path_shadows(argv[0], env, f"`{argv[0]}`, the agent's program, as found on PATH")
    real = os.path.realpath(program)
    candidates = [(program, "the agent's program")]
    interpreter = _interpreter(real, env)
    if interpreter:
        candidates.append((interpreter, "the agent's interpreter"))
    package = _package_root(real)
    if package:
        candidates.append((package, "the agent's package"))
    for path, why in candidates:
        if os.access(os.path.realpath(path), os.W_OK):
            out.append(Guarded(path, SYSTEM, why))
    return out
