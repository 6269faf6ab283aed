"""``hookwise scan``: what the agents will run on their own here, and what is wrong with it.

Exit codes (for CI): 0 when no finding is at or above ``--fail-on`` (default ``high``),
1 when one is, 2 on bad input (a missing directory, an unusable baseline).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from hookwise import __version__
from hookwise.cli.options import project_option, project_root

FORMATS = ("text", "json", "sarif")
FAIL_LEVELS = ("info", "low", "medium", "high", "critical", "none")


@click.command("scan")
@click.argument(
    "directory",
    metavar="[PROJECT]",
    required=False,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)
@project_option(must_exist=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_LEVELS),
    default="high",
    show_default=True,
    help="Exit 1 when a finding is at or above this severity (none: never).",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Fingerprints file: recorded when absent, else drift since it is reported.",
)
@click.option("--update-baseline", is_flag=True, help="Rewrite --baseline with this scan.")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to this file instead of stdout.",
)
@click.option("--verbose", "-v", is_flag=True, help="Text: list every command and warning.")
@click.option(
    "--managed-root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    hidden=True,
    help="Read the managed files of every host under this directory.",
)
def scan(
    directory: Path | None,
    project: Path | None,
    fmt: str,
    fail_on: str,
    baseline: Path | None,
    update_baseline: bool,
    output: Path | None,
    verbose: bool,
    managed_root: Path | None,
) -> None:
    """List every command the agents (Claude Code, Gemini CLI, Codex, hookwise) would run on
    their own for the project (--project, or the directory given as the argument, its
    former spelling; default: the current directory) and this user, with the scripts they
    call, and report what is dangerous in them."""
    from hookwise.scan.baseline import BaselineError, drift, read_baseline, write_baseline
    from hookwise.scan.context import ScanContext
    from hookwise.scan.findings import merge_findings
    from hookwise.scan.model import Severity
    from hookwise.scan.render import to_json, to_text
    from hookwise.scan.report import scan_project
    from hookwise.scan.sarif import to_sarif

    if directory is not None and project is not None and directory != project:
        raise click.UsageError("give the project once: as --project or as the argument")
    directory = project or directory
    if update_baseline and baseline is None:
        raise click.UsageError("--update-baseline needs --baseline FILE")
    root = managed_root
    ctx = ScanContext.create(
        project_root(directory),
        claude_managed_dir=root / "claude-code" if root else None,
        codex_managed_dir=root / "codex" if root else None,
        gemini_system_settings=root / "gemini-cli" / "settings.json" if root else None,
        hookwise_managed_policy=root / "hookwise" / "policy.yaml" if root else None,
    )
    report = scan_project(ctx)
    notes: list[str] = []
    if baseline is not None:
        if baseline.exists() and not update_baseline:
            try:
                recorded = read_baseline(baseline)
            except BaselineError as exc:
                raise click.UsageError(str(exc)) from None
            report.findings = merge_findings(
                [*report.findings, *drift(report, ctx, recorded, baseline)]
            )
        else:
            write_baseline(baseline, report, ctx)
            notes.append(f"baseline recorded in {baseline} ({len(report.runnables)} command(s))")
    if fmt == "json":
        text = json.dumps(to_json(report), indent=2, ensure_ascii=False)
    elif fmt == "sarif":
        text = json.dumps(to_sarif(report, __version__), indent=2, ensure_ascii=False)
    else:
        text = to_text(report, verbose=verbose)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)
    for note in notes:
        click.echo(note, err=True)
    if fail_on != "none":
        threshold = Severity.parse(fail_on)
        if any(f.severity.rank >= threshold.rank for f in report.findings):
            raise SystemExit(1)
