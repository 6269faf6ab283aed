"""The server's name as rules see it (``mcp__<name>__<tool>``): ``--name`` checked, or one
taken from the command. Apart from the decision's modules so that ``hookwise mcp wrap``
checks its arguments and starts the server before the policy's modules load."""

from __future__ import annotations

import re

# a server name as hosts write it in mcp__<server>__<tool>: no "__" (it would split there)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def check_name(name: str) -> str:
    """``--name``: the server's name in ``mcp__<name>__<tool>``, or a ValueError saying why."""
    if not _NAME.fullmatch(name) or "__" in name or len(name) > 64:
        raise ValueError(
            f"--name {name!r}: expected letters, digits, '.', '-' or single '_' (at most 64, "
            "starting with a letter or digit), as hosts name a server in mcp__<name>__<tool>"
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
