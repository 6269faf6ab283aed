"""``hookwise logs export --otel``: the audit log as OpenTelemetry spans.

Export reads the log after the fact, so ``hookwise hook`` never loads OpenTelemetry; the
work is in hookwise.policy.tools.otel_export, which the service can reuse. Exit codes: 0 done,
1 a batch was not accepted or the checkpoint is unusable, 2 usage or the extra is missing.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import click


@click.command(name="export", short_help="Send the audit log on as OpenTelemetry spans.")
@click.option("--otel", is_flag=True, help="Send each decision as a span over OTLP/HTTP.")
@click.option(
    "--endpoint",
    default=None,
    metavar="URL",
    help="OTLP/HTTP base URL (default: $OTEL_EXPORTER_OTLP_ENDPOINT, else"
    " http://localhost:4318); /v1/traces is appended.",
)
@click.option("-f", "--follow", is_flag=True, help="Keep exporting new records.")
@click.option(
    "--path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The audit log (default: the configured one).",
)
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to remember the position (default: the log's path + .otel-checkpoint).",
)
@click.pass_context
def export(
    ctx: click.Context,
    otel: bool,
    endpoint: str | None,
    follow: bool,
    path: Path | None,
    checkpoint: Path | None,
) -> None:
    """Export audit-log decisions, resuming where the last export stopped."""
    if not otel:
        raise click.UsageError("say where to export to: --otel")
    from hookwise.policy import audit
    from hookwise.policy.rules.schema import default_settings
    from hookwise.policy.tools import otel_export

    try:
        otel_export.require_sdk()
    except otel_export.OtelUnavailableError as exc:
        click.echo(f"hookwise: {exc}", err=True)
        ctx.exit(2)
    log = str(path) if path else audit.audit_path(default_settings(), dict(os.environ))
    url = otel_export.traces_endpoint(endpoint, os.environ)
    sender = otel_export.otlp_sender(url)

    def report(message: str) -> None:
        click.echo(message, err=True)

    try:
        with otel_export.exporting(
            log, sender, checkpoint=str(checkpoint) if checkpoint else None, report=report
        ) as exporter:
            if follow:
                stop = threading.Event()
                try:
                    exporter.follow(stop)
                except KeyboardInterrupt:
                    stop.set()  # the exporter flushes what it read, then exit 130
                    raise
                return
            result = exporter.run_once()
    except (otel_export.CheckpointError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    if not result.exported and not Path(log).exists():
        click.echo(f"{log}: no audit log (yet)", err=True)
    skipped = f"; {result.skipped} malformed line(s) skipped" if result.skipped else ""
    click.echo(f"exported {result.exported} decision(s) to {url}{skipped}", err=True)
    if not result.ok:
        click.echo(
            f"hookwise: export to {url} failed: {sender.error or 'not accepted'};"
            " the checkpoint stays before the failed batch, run again to resume",
            err=True,
        )
        ctx.exit(1)
