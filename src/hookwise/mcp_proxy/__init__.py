"""``hookwise mcp wrap``: a stdio MCP proxy that puts every ``tools/call`` through the policy.

Hooks guard only what a host hands them; an MCP server's tools are called whatever the host
does with its hooks. The proxy sits on the server's stdio instead (docs/mcp.md):
``framing`` reads the wire, ``decide`` asks the policy (the framework Gate's engine, audit
and ``ask_fallback``), ``elicit`` asks the user through the client, ``server`` owns the
server's process, and ``proxy`` moves the messages between them.
"""

WRAP = ("mcp", "wrap")  # the proxy's subcommand, as server entries name it


def wrapped(argv: tuple[str, ...] | list[str]) -> bool:
    """Whether a server command runs through the proxy (``hookwise mcp wrap ...`` or
    ``python -m hookwise mcp wrap ...``): what ``scan`` reports as guarded."""
    for at in range(1, len(argv) - 1):
        if (argv[at], argv[at + 1]) == WRAP:
            return argv[at - 1].rsplit("/", 1)[-1] == "hookwise"
    return False
