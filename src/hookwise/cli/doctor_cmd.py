"""``hookwise doctor``: registration, trust, policy validity and a live self-test per host.

The checks are in ``hookwise.policy.doctor``; this module prints them and sets the exit
code (1 when any check fails).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hookwise.cli.host_option import host_option
from hookwise.cli.options import project_option, project_root
from hookwise.policy.install import HOSTS
from hookwise.protocol.hosts import HOST_TITLES

_MARKS = {"ok": "ok  ", "info": "info", "warn": "WARN", "fail": "FAIL"}


@click.command()
@host_option("The host to check (default: every host)")
@click.option(
    "--platform", type=click.Choice(HOSTS), default=None, hidden=True, help="Former name of --host."
)
@project_option(
    must_exist=True,
    help_text="The project directory (default: the one holding the .hookwise/ found from "
    "the current directory, else the current directory).",
)
@click.option("--no-self-test", is_flag=True, help="Do not run the registered commands.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def doctor(
    dialect: str | None,
    platform: str | None,
    project: Path | None,
    no_self_test: bool,
    as_json: bool,
) -> None:
    """Check that `hookwise hook` is registered, trusted and answering, and the policy valid."""
    from hookwise.policy.doctor import diagnose

    platform = dialect or platform
    hosts = (platform,) if platform else HOSTS
    report = diagnose(
        project_root(project),
        hosts=hosts,
        explicit=platform is not None,
        run_self_test=not no_self_test,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
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
