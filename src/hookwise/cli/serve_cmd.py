"""``hookwise serve``: the Hook Output Processing API and its web console."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--host", default=None, help="Address to bind (default 127.0.0.1: loopback only).")
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
)
@click.option(
    "--log-format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--access-log", is_flag=True, help="Log one line per request.")
@click.option(
    "--allow-remote-execution",
    is_flag=True,
    help="Allow execute-with-output when --host is not a loopback address.",
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
) -> None:
    """Serve the API, webhooks and console (HOOKWISE_API_TOKEN, HOOKWISE_DATABASE_URL).

    Needs the `serve` extra: pip install 'hookwise[serve]'.
    """
    _require_serve_extra()
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
        raise click.ClickException(str(err)) from None


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
