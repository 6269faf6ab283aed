"""``hookwise mcp wrap``: run an MCP server behind the policy (docs/mcp.md).

The work is in ``hookwise.mcp_proxy``; this module reads the options. stdout belongs to
the MCP client (JSON-RPC only); every diagnostic goes to stderr.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

import click

DEFAULT_TIMEOUT = 300.0

URL_NOT_COVERED = (
    "hookwise mcp wrap: --url (Streamable HTTP servers) is not covered: the proxy guards "
    "stdio servers only. An HTTP server's tool calls reach it from the client directly, so "
    "put the server behind `hookwise mcp wrap` as a stdio command if it has one, or rely on "
    "the host's hooks for it (docs/mcp.md, 'Streamable HTTP')."
)


def _check_unpinned() -> None:
    """An unpinned proxy takes its policy and audit log from its environment; a variable
    of them that the program which started it (the host) was not itself started with came
    from the entry's ``env`` or from a file the host loaded into its own environment after
    starting: Claude Code's settings ``env``, Gemini CLI's ``.env`` (red team s26 F8), a
    repository's either way. Refused before the server starts, as a foreign ``--pin`` is."""
    from hookwise.mcp_proxy import config_env

    given = {k: v for k, v in os.environ.items() if config_env.is_config(k)}
    host = os.getppid()
    foreign = config_env.unvouched(given, config_env.host_environment(host))
    if foreign:
        names = ", ".join(sorted(item.partition("=")[0] for item in foreign))
        raise click.UsageError(
            f"hookwise mcp wrap: {names} in the proxy's environment differ from the "
            f"environment the program that started it (pid {host}) was started with: they "
            "come from the server entry's env or from settings the host loaded (Claude "
            "Code's settings env, Gemini CLI's .env), which a repository can write, and "
            "would decide your policy and audit log; run `hookwise install --mcp` (its "
            "entries are --pinned), or start the host with them set"
        )


@click.group()
def mcp() -> None:
    """Guard MCP servers: every tools/call through the policy."""


@mcp.command(
    "wrap",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option(
    "--name",
    default=None,
    help="The server's name in mcp__<name>__<tool> as rules see it (default: from the "
    "command); use the name the host's settings give the server.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds the server may take to answer a request (progress notifications restart "
    "the clock); past it the client gets an error naming the server. 0: no limit.",
)
@click.option(
    "--max-message",
    type=click.IntRange(min=1024),
    default=64 * 1024 * 1024,
    show_default=True,
    help="The largest message (bytes) passed either way; a larger one is dropped with an error.",
)
@click.option(
    "--url", default=None, help="A Streamable HTTP server: not covered (see docs/mcp.md)."
)
@click.option(
    "--pinned",
    is_flag=True,
    help="Ignore every HOOKWISE_*/XDG_*_HOME/HOME variable of the environment (a server "
    "entry's env can set them): the policy and audit log are found from the account's home "
    "and the --pin values only. install --mcp writes this.",
)
@click.option(
    "--pin",
    "pins",
    multiple=True,
    metavar="KEY=VALUE",
    help="With --pinned: a configuration variable's value (install --mcp writes those of "
    "the installing user that are not the defaults).",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def wrap(
    name: str | None,
    timeout: float,
    max_message: int,
    url: str | None,
    pinned: bool,
    pins: tuple[str, ...],
    command: tuple[str, ...],
) -> None:
    """Run SERVER_COMMAND as a stdio MCP server behind the policy:

    hookwise mcp wrap --name fs -- npx @modelcontextprotocol/server-filesystem .
    """
    if url is not None:
        raise click.UsageError(URL_NOT_COVERED)
    argv = list(command)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        raise click.UsageError("hookwise mcp wrap: give the server's command after --")
    from hookwise.mcp_proxy.names import check_name, default_name
    from hookwise.mcp_proxy.server import ServerProcess

    try:
        server_name = check_name(name) if name is not None else default_name(argv)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--name") from None
    env = None
    if pins and not pinned:
        raise click.UsageError("hookwise mcp wrap: --pin needs --pinned")
    if not pinned:
        _check_unpinned()
    else:
        from hookwise.mcp_proxy import config_env

        try:
            given = dict(map(config_env.parse_pin, pins))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--pin") from None
        host = os.getppid()
        foreign = config_env.unvouched(given, config_env.host_environment(host))
        if foreign:  # fail closed: the server is not started unguarded or weakened
            raise click.UsageError(
                f"hookwise mcp wrap: --pin {', '.join(foreign)}: the program that started the "
                f"proxy (pid {host}) was not started with that value, so the pin is the "
                "settings entry's own (a repository's settings can write one) and could turn "
                "your policy or audit log off; start the host with it set, or run `hookwise "
                "install --mcp` again in the host's environment"
            )
        env = config_env.pinned(os.environ, given)

    # the server starts before the policy's modules load (about half a second): hosts wait
    # for its tools (Codex leaves a server not ready within 1 s out of its first request);
    # nothing reaches it before the proxy reads the client, with the policy loaded
    def _stop(signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)  # run()'s finally (or the except below) stops it

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    server = ServerProcess(argv, max_queued=2 * max_message)
    server.start()
    try:
        from hookwise.mcp_proxy.decide import Decider
        from hookwise.mcp_proxy.proxy import Proxy

        proxy = Proxy(
            Decider(server_name, env=env),
            server,
            out=sys.stdout.buffer,
            timeout=timeout or None,
            max_bytes=max_message,
        )
    except BaseException:
        server.stop()
        raise

    sys.exit(proxy.run(sys.stdin.buffer))
