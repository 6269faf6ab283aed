"""``hookwise serve``: the Hook Output Processing API and its web console."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from hookwise.cli.errors import InputError


def _refuse_host(value: str | None) -> None:
    """--host names an agent in every other command; serve's address is --bind."""
    if value is not None:
        raise click.UsageError(
            f"serve listens on --bind ADDRESS (--bind {value}); --host names an agent "
            "(gemini, claude, codex) in hookwise's other commands"
        )


@click.group(invoke_without_command=True)
@click.option(
    "--bind",
    "host",
    default=None,
    metavar="ADDRESS",
    help="Address to listen on (default 127.0.0.1: loopback only).",
)
@click.option(
    "--host",
    "old_host",
    default=None,
    hidden=True,
    expose_value=False,
    callback=lambda _ctx, _param, value: _refuse_host(value),
)
@click.option("--port", type=click.IntRange(0, 65535), default=None, help="Port (default 8765).")
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Processes."
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the SQLite database, token and service.yaml live (default: "
    "HOOKWISE_DATA_DIR, else $XDG_DATA_HOME/hookwise or ~/.local/share/hookwise).",
)
@click.option(
    "--allow-command",
    "allow_commands",
    multiple=True,
    metavar="COMMAND",
    help="Let execute-with-output run exactly this command (repeatable; turns execution on).",
)
@click.option(
    "--project-root",
    "project_roots",
    multiple=True,
    type=click.Path(file_okay=False, exists=True, resolve_path=True, path_type=Path),
    metavar="DIR",
    help="execute-with-output's input.cwd must lie inside one of these (repeatable; "
    "also HOOKWISE_PROJECT_ROOTS, execute.project_roots; default: the current directory).",
)
@click.option(
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    default="info",
    show_default=True,
    help="The least severe log records written (to stderr).",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Log lines as text or as one JSON object each (for log collectors).",
)
@click.option("--access-log", is_flag=True, help="Log one line per request.")
@click.option(
    "--allow-remote-execution",
    is_flag=True,
    help="Allow execute-with-output when --bind is not a loopback address.",
)
@click.option(
    "--webhook-allow-private",
    is_flag=True,
    help="Let webhooks reach loopback, private and link-local addresses (refused by "
    "default; also HOOKWISE_WEBHOOK_ALLOW_PRIVATE=1).",
)
@click.option(
    "--webhook-allow-cidr",
    "webhook_allow_cidrs",
    multiple=True,
    metavar="CIDR",
    help="Let webhooks reach addresses in this network, e.g. 10.1.2.0/24 (repeatable; "
    "also HOOKWISE_WEBHOOK_ALLOW_CIDRS, comma-separated).",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    help="Where people reach the console, for approval links in notifications "
    "(default: the bound address; also HOOKWISE_PUBLIC_URL, service.yaml public_url).",
)
def serve(
    host: str | None,
    port: int | None,
    workers: int,
    data_dir: Path | None,
    allow_commands: tuple[str, ...],
    project_roots: tuple[Path, ...],
    log_level: str,
    log_format: str,
    access_log: bool,
    allow_remote_execution: bool,
    webhook_allow_private: bool,
    webhook_allow_cidrs: tuple[str, ...],
    public_url: str | None,
) -> None:
    """Serve the API, webhooks and console (HOOKWISE_API_TOKEN, HOOKWISE_DATABASE_URL).

    `hookwise serve token ...` manages the named tokens of the approval relay instead.
    Needs the `serve` extra: pip install 'hookwise[serve]'.
    """
    ctx = click.get_current_context()
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"data_dir": data_dir}
        return
    _require_serve_extra()
    if host is not None:
        _check_bind(host)
    from hookwise.api.secret_env import environment, reexec_without_secrets

    reexec_without_secrets()  # the token must not stay readable in /proc/<pid>/environ
    from hookwise.api.serve import serve as run
    from hookwise.api.settings import SettingsError, load_settings

    try:
        settings = load_settings(
            data_dir,
            host=host,
            port=port,
            workers=workers,
            allow_commands=allow_commands,
            project_roots=project_roots,
            webhook_allow_private=webhook_allow_private,
            webhook_allow_cidrs=webhook_allow_cidrs,
            public_url=public_url,
            env=environment(),
        )
        run(
            settings,
            log_level=log_level,
            log_format=log_format,
            access_log=access_log,
            allow_remote_execution=allow_remote_execution,
        )
    except SettingsError as err:
        raise InputError(str(err)) from None


def _check_bind(host: str) -> None:
    """A listen address that does not resolve is a usage error, said before the server
    starts (uvicorn would log a bare "Name or service not known" and exit 3)."""
    import socket

    try:
        socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise click.BadParameter(
            f"{host!r} does not resolve ({reason}); give an IP address such as 127.0.0.1 "
            "or 0.0.0.0, or a host name that resolves",
            param_hint="'--bind'",
        ) from None


SERVE_MODULES = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "httpx", "psycopg")


def _require_serve_extra() -> None:
    """The service's packages are an extra (the hook and the CLI do without them): say
    which extra to install instead of failing with an ImportError."""
    from importlib.util import find_spec

    missing = [name for name in SERVE_MODULES if find_spec(name) is None]
    if missing:
        click.echo(
            f"hookwise serve needs the service's packages ({', '.join(missing)} missing): "
            "install the extra with `pip install 'hookwise[serve]'` "
            "(or `pipx install 'hookwise[serve]'`, `uv tool install 'hookwise[serve]'`)",
            err=True,
        )
        raise SystemExit(2)


def _token_engine(ctx: click.Context, data_dir: Path | None) -> Any:
    """An engine on the database ``hookwise serve`` uses with the same options and
    environment, migrated (the server may never have run)."""
    import os

    _require_serve_extra()
    from hookwise.api.settings import SettingsError, database_url_for
    from hookwise.api.storage.db import make_engine, migrate

    chosen = data_dir or (ctx.obj or {}).get("data_dir")
    try:
        resolved, url = database_url_for(chosen, os.environ)
    except SettingsError as err:
        raise InputError(str(err)) from None
    engine = make_engine(url)
    migrate(engine, resolved)
    return engine


_DATA_DIR = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The server's data directory (as for `hookwise serve`; HOOKWISE_DATA_DIR and "
    "HOOKWISE_DATABASE_URL apply too).",
)


@serve.group("token")
def token() -> None:
    """Named tokens: approvers decide approval requests, agents only open and wait on them."""


@token.command("add")
@click.argument("name")
@click.option(
    "--role", type=click.Choice(["approver", "agent"]), required=True, help="What it may do."
)
@_DATA_DIR
@click.pass_context
def token_add(ctx: click.Context, name: str, role: str, data_dir: Path | None) -> None:
    """Create token NAME and print it once (only its sha256 is stored)."""
    from hookwise.api.tokens import TokenError, add_token

    engine = _token_engine(ctx, data_dir)
    try:
        secret = add_token(engine, name, role)
    except TokenError as err:
        raise InputError(str(err)) from None
    finally:
        engine.dispose()
    click.echo(secret)
    where = "the approver signs in with it" if role == "approver" else "the hook reads it"
    click.echo(f"token {name!r} ({role}) created; shown only now: {where}", err=True)


@token.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@_DATA_DIR
@click.pass_context
def token_list(ctx: click.Context, as_json: bool, data_dir: Path | None) -> None:
    """Name, role, created, last used and revoked (never the secret)."""
    import json
    from datetime import UTC, datetime

    from hookwise.api.tokens import list_tokens

    engine = _token_engine(ctx, data_dir)
    try:
        tokens = list_tokens(engine)
    finally:
        engine.dispose()

    def when(ms: int | None) -> str:
        if ms is None:
            return "-"
        return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    if as_json:
        for info in tokens:
            click.echo(json.dumps(vars(info)))
        return
    click.echo("name\trole\tcreated\tlast used\trevoked")
    for info in tokens:
        click.echo(
            f"{info.name}\t{info.role}\t{when(info.created_at)}\t{when(info.last_used_at)}"
            f"\t{when(info.revoked_at)}"
        )


@token.command("revoke")
@click.argument("name")
@_DATA_DIR
@click.pass_context
def token_revoke(ctx: click.Context, name: str, data_dir: Path | None) -> None:
    """Revoke token NAME: it answers 401 from now on and its console sign-ins end."""
    from hookwise.api.tokens import TokenError, revoke_token

    engine = _token_engine(ctx, data_dir)
    try:
        revoke_token(engine, name)
    except TokenError as err:
        raise InputError(str(err)) from None
    finally:
        engine.dispose()
    click.echo(f"token {name!r} revoked", err=True)


@token.command("notify-secret")
@_DATA_DIR
@click.pass_context
def token_notify_secret(ctx: click.Context, data_dir: Path | None) -> None:
    """Print the key that signs approval notifications of type "webhook"."""
    from hookwise.api.approvals.notify import notify_secret

    engine = _token_engine(ctx, data_dir)
    try:
        with engine.begin() as conn:
            click.echo(notify_secret(conn))
    finally:
        engine.dispose()
