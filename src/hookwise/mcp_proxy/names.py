"""The server's name as rules see it (``mcp__<name>__<tool>``): ``--name`` checked, or one
taken from the command. Apart from the decision's modules so that ``hookwise mcp wrap``
checks its arguments and starts the server before the policy's modules load."""

from __future__ import annotations

import re

# a server name as hosts write it in mcp__<server>__<tool> (install --mcp names it as Claude
# Code does; "." kept for entries written before the names followed Claude Code's)
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def check_name(name: str) -> str:
    """``--name``: the server's name in ``mcp__<name>__<tool>``, or a ValueError saying why.
    A name with ``__`` is taken as it is: the tool is then named as the host names it
    (``a__b`` -> ``mcp__a__b__tool``), and rules see it as the hook does (red team s25 F3)."""
    if not _NAME.fullmatch(name):
        raise ValueError(
            f"--name {name!r}: expected 1 to 128 letters, digits, '_', '-' or '.', as hosts "
            "name a server in mcp__<name>__<tool>"
        )
    return name


def default_name(argv: list[str]) -> str:
    """A name from the server's command when ``--name`` is not given (npx pkg -> pkg)."""
    words = [w for w in argv if not w.startswith("-")]
    runners = {"npx", "uvx", "pipx", "bunx", "node", "python", "python3", "deno", "docker"}
    pick = next(
        (w for w in words if w.rsplit("/", 1)[-1] not in runners), words[0] if words else ""
    )
    base = pick.rsplit("/", 1)[-1].split("@", 1)[0] or "server"
    cleaned = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_.-]", "_", base)).strip("_.-")
    return (cleaned or "server")[:64]
