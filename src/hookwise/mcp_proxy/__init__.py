"""``hookwise mcp wrap``: a stdio MCP proxy that puts every ``tools/call`` through the policy.

Hooks guard only what a host hands them; an MCP server's tools are called whatever the host
does with its hooks. The proxy sits on the server's stdio instead (docs/mcp.md):
``framing`` reads the wire, ``decide`` asks the policy (the framework Gate's engine, audit
and ``ask_fallback``), ``elicit`` asks the user through the client, ``server`` owns the
server's process, and ``proxy`` moves the messages between them.
"""

WRAP = ("mcp", "wrap")  # the proxy's subcommand, as server entries name it


def _proxy_options(argv: tuple[str, ...] | list[str]) -> list[str] | None:
    """The proxy's own options of a server command that starts the proxy itself
    (``hookwise mcp wrap ...`` or ``python -m hookwise mcp wrap ...``), else None. Only
    the program and its first words count: ``node server.js --label hookwise mcp wrap``
    or ``sh -c '...' hookwise mcp wrap`` runs something else."""
    words = list(argv)
    if words[:1] and words[0].rsplit("/", 1)[-1] == "hookwise":
        rest = words[1:]
    elif len(words) > 2 and _python(words[0]) and words[1:3] == ["-m", "hookwise"]:
        rest = words[3:]
    else:
        return None
    if tuple(rest[:2]) != WRAP:
        return None
    options = rest[2:]
    return options[: options.index("--")] if "--" in options else options


def _python(program: str) -> bool:
    name = program.rsplit("/", 1)[-1]
    return name == "python" or (name.startswith("python") and name[6:].replace(".", "").isdigit())


def wrapped(argv: tuple[str, ...] | list[str]) -> bool:
    """Whether a server command runs through the proxy: what ``scan`` reports as guarded."""
    return _proxy_options(argv) is not None


def pinned(argv: tuple[str, ...] | list[str]) -> bool:
    """Whether a wrapped server's proxy ignores the configuration variables of its
    environment (``--pinned``, config_env)."""
    options = _proxy_options(argv)
    return options is not None and "--pinned" in options
