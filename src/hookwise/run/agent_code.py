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


def _node_chain(package: str, env: dict[str, str]) -> list[Guarded]:
    """Where Node looks for a bare ``require('x')`` the package does not hold: the
    ``node_modules`` of every ancestor of the package (``<prefix>/lib/node_modules`` itself,
    where the package's siblings are, included), then ``~/.node_modules``,
    ``~/.node_libraries``, ``<node's prefix>/lib/node`` and ``$NODE_PATH``. Hosts try
    optional modules that are often absent (Gemini CLI's ``node-pty``): one planted on that
    chain runs in the next host, before any hook (red team s24, #12). Each one that exists
    is read-only whole (no global ``npm install`` inside), each missing one this user could
    make is made empty; the project's own (under the start directory) is left writable."""
    out: list[Guarded] = []
    here = os.path.abspath(os.getcwd()).rstrip("/") + "/"
    why = "Node's module lookup from the agent's package"
    folders: list[str] = []
    current = os.path.dirname(package)
    while True:
        if os.path.basename(current) != "node_modules":
            folders.append(os.path.join(current, "node_modules"))
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    home = env.get("HOME") or os.path.expanduser("~")
    folders += [os.path.join(home, ".node_modules"), os.path.join(home, ".node_libraries")]
    node = _which("node", env)
    if node:
        node_prefix = os.path.dirname(os.path.dirname(os.path.realpath(node)))
        folders.append(os.path.join(node_prefix, "lib", "node"))
    folders += [p for p in (env.get("NODE_PATH") or "").split(os.pathsep) if p.startswith("/")]
    for folder in dict.fromkeys(folders):
        if folder.startswith(here):
            continue
        if os.path.lexists(folder):
            if os.access(folder, os.W_OK) or os.access(os.path.dirname(folder), os.W_OK):
                out.append(Guarded(folder, SYSTEM, why))
        elif os.access(os.path.dirname(folder), os.W_OK):
            out.append(Guarded(folder, SYSTEM, why, directory=True))
    return out


def _program(name: str, env: dict[str, str], title: str) -> list[Guarded]:
    """One agent program's code, where this user could change it: see the module doc."""
    program = _which(name, env)
    if program is None:
        return []
    out: list[Guarded] = []
    if "/" not in name:
        out += path_shadows(name, env, f"`{name}`, {title}, as found on PATH")
    real = os.path.realpath(program)
    candidates = [(program, title)]
    interpreter = _interpreter(real, env)
    if interpreter:
        candidates.append((interpreter, f"{title}: its interpreter"))
    package = _package_root(real)
    if package:
        candidates.append((package, f"{title}: its package"))
    for path, why in candidates:
        if os.access(os.path.realpath(path), os.W_OK):
            out.append(Guarded(path, SYSTEM, why))
    if package:
        out += _node_chain(package, env)
    return out


def agent_code(argv: list[str], env: dict[str, str]) -> list[Guarded]:
    """The started agent's code, and every other host's CLI found on ``PATH``: the agent
    can start another host, and a rewritten one would start the next session unguarded."""
    from hookwise.protocol.hosts import hosts_with

    out = _program(argv[0], env, "the agent's program") if argv else []
    for host in hosts_with("run"):
        if not argv or host != argv[0]:
            out += _program(host, env, f"the {host} CLI (a host the agent could start)")
    return out
