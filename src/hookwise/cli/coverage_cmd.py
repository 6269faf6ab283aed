"""``hookwise coverage``: tool calls the agents ran without a hookwise decision, with causes.

The work is in ``hookwise.scan.coverage``; this module reads the options, prints the
report (text or JSON, docs/coverage.md) and sets the exit code: 0 when every call was
guarded, 1 when some was not, 2 for bad options.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from hookwise.protocol.hosts import HOST_TITLES, hosts_with

SINCE_HELP = (
    "Only calls from then on: an ISO date or time (UTC unless it has an offset), today, "
    "yesterday, or an age (30m, 1h, 2d), as for `hookwise logs`."
)


@click.command()
@click.option("--since", default=None, help=SINCE_HELP)
@click.option(
    "--host",
    "hosts",
    type=click.Choice(hosts_with("coverage")),
    multiple=True,
    help="Only this host's sessions (repeatable; default: every host).",
)
@click.option(
    "--audit-log",
    "audit_logs",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    help="The audit log(s) to read (default: the one `hookwise logs` reads); "
    "rotated files next to each are read too.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def coverage(
    since: str | None, hosts: tuple[str, ...], audit_logs: tuple[Path, ...], as_json: bool
) -> None:
    """Find every tool call an agent ran that `hookwise hook` never decided on, and why.

    Reads the agents' own records (Claude Code transcripts, Codex rollouts, Gemini CLI chat
    logs, Qwen Code chat records) and hookwise's audit log. Exit 1 when a call was unguarded.
    """
    from hookwise.cli.policy_cmd import parse_since
    from hookwise.scan.coverage import build_report

    moment = parse_since(since, time.time()) if since is not None else None
    report = build_report(
        hosts=hosts or hosts_with("coverage"),
        since=moment,
        audit_logs=[str(p) for p in audit_logs] or None,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        _print_text(report)
    if report.unguarded:
        sys.exit(1)


def _print_text(report: object) -> None:
    from hookwise.scan.coverage import CoverageReport
    from hookwise.wording import count

    assert isinstance(report, CoverageReport)
    for host in report.hosts:
        totals = report.host_totals(host)
        if not totals["sessions"]:
            click.echo(f"{HOST_TITLES[host]}: no session recorded")
            continue
        state = (
            "all guarded"
            if not totals["unguarded"]
            else f"{totals['guarded']} guarded, {totals['unguarded']} UNGUARDED"
        )
        outside = (
            f" (+{count(totals['outside_hooks'], 'call')} of tools no hook can see)"
            if totals["outside_hooks"]
            else ""
        )
        denied = (
            f"; {count(totals['denied_by_host'], 'call')} denied by the host itself"
            if totals["denied_by_host"]
            else ""
        )
        click.echo(
            f"{HOST_TITLES[host]}: {count(totals['calls'], 'tool call')} in "
            f"{count(totals['sessions'], 'session')}: {state}{outside}{denied}"
        )
        for session in report.sessions:
            if session.record.host != host or not session.unguarded:
                continue
            record = session.record
            who = f" subagent {record.agent}" if record.agent else ""
            click.echo(f"  session {record.session}{who} in {record.cwd or '?'} ({record.file})")
            for item in session.unguarded:
                call = item.call
                what = call.command if call.command else (item.to_json()["input"] or "")
                click.echo(f"    {call.time or '?'} {call.tool} {what}")
                click.echo(f"      {item.cause}: {item.detail}")
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if report.unguarded:
        click.echo(f"{count(len(report.unguarded), 'tool call')} ran without a hookwise decision")
