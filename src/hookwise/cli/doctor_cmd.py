"""``hookwise doctor``: registration, trust, policy validity and a live self-test per host.

The checks are in ``hookwise.policy.install.doctor``; this module prints them and sets the exit
code (1 when any check fails).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hookwise.cli.host_option import host_option
from hookwise.cli.options import project_option, project_root
from hookwise.policy.install.doctor import DoctorReport
from hookwise.protocol.hosts import HOST_TITLES, hosts_with

_MARKS = {"ok": "ok  ", "info": "info", "warn": "WARN", "fail": "FAIL"}
COVERAGE_SINCE = "7d"


def _coverage(report: DoctorReport, hosts: tuple[str, ...], since: str) -> dict[str, object]:
    """Add one ``coverage`` check per host (warn when calls ran unguarded); the JSON summary.

    Unguarded calls are past events (the gap may be closed since), so they warn and never
    fail the doctor; `hookwise coverage` exits 1 for CI.
    """
    import time

    from hookwise.cli.policy_cmd import parse_since
    from hookwise.scan.coverage import build_report, host_line

    result = build_report(hosts=hosts, since=parse_since(since, time.time()))
    for host_report in report.hosts:
        status, line = host_line(result, host_report.host)
        host_report.add(status, "coverage", line)
    data = result.to_json()
    return {"since": data["since"], "hosts": data["hosts"], "warnings": data["warnings"]}


@click.command()
@host_option("The host to check (default: every host)", "install")
@click.option(
    "--platform",
    type=click.Choice(hosts_with("install")),
    default=None,
    hidden=True,
    help="Former name of --host.",
)
@project_option(must_exist=True)
@click.option("--no-self-test", is_flag=True, help="Do not run the registered commands.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--coverage",
    "with_coverage",
    is_flag=True,
    help="Also sum up, per host, the tool calls of the agents' recorded sessions that ran "
    "without a hookwise decision (see `hookwise coverage`).",
)
@click.option(
    "--since",
    default=None,
    help="With --coverage: only sessions from then on (as `hookwise coverage --since`); "
    f"default {COVERAGE_SINCE}.",
)
def doctor(
    dialect: str | None,
    platform: str | None,
    project: Path | None,
    no_self_test: bool,
    as_json: bool,
    with_coverage: bool,
    since: str | None,
) -> None:
    """Check that `hookwise hook` is registered, trusted and answering, and the policy valid."""
    from hookwise.policy.install.doctor import diagnose

    platform = dialect or platform
    hosts = (platform,) if platform else hosts_with("install")
    report = diagnose(
        project_root(project),
        hosts=hosts,
        explicit=platform is not None,
        run_self_test=not no_self_test,
        # the hosts read their project settings where they are started: here (s28 F6)
        start=Path.cwd().resolve() if project is None else None,
    )
    coverage: dict[str, object] | None = None
    if with_coverage:
        coverage = _coverage(report, hosts, since or COVERAGE_SINCE)
    elif since is not None:
        raise click.UsageError("--since goes with --coverage")
    if as_json:
        data = report.to_json()
        if coverage is not None:
            data["coverage"] = coverage
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(f"project: {report.project}")
        click.echo("policy:")
        for scope, path, present in report.policy.scopes:
            click.echo(f"  {scope:8} {path}{'' if present else '  (absent)'}")
        for check in report.policy.checks:
            click.echo(f"  {_MARKS[check.status]}  {check.detail}")
        for host in report.hosts:
            click.echo(f"{HOST_TITLES[host.host]}:")
            for check in host.checks:
                click.echo(f"  {_MARKS[check.status]}  {check.name}: {check.detail}")
        failed = sum(
            1
            for check in [*report.policy.checks, *(c for h in report.hosts for c in h.checks)]
            if check.status == "fail"
        )
        click.echo("all good" if report.ok else f"{failed} problem(s) found")
    if not report.ok:
        sys.exit(1)
