"""``hookwise migrate``: move hooks from one agent's settings to another's.

Dry run by default: prints the unified diff of the target file and what could not be
carried over; ``--write`` writes it. The conversion is ``hookwise.config.migrate``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from hookwise.cli.errors import EXIT_INPUT_ERROR
from hookwise.cli.options import project_option, project_root
from hookwise.protocol.hosts import HOST_TITLES, hosts_with

if TYPE_CHECKING:
    from hookwise.config.migrate import Migration

DIALECTS = hosts_with("migrate")
HOSTS = HOST_TITLES


@click.command("migrate")
@click.option(
    "--from", "source", type=click.Choice(DIALECTS), required=True, help="Agent to read hooks from."
)
@click.option(
    "--to", "target", type=click.Choice(DIALECTS), required=True, help="Agent to write hooks for."
)
@project_option(must_exist=True)
@click.option(
    "--scope",
    type=click.Choice(("project", "user")),
    default="project",
    show_default=True,
    help="Read and write the project's settings, or the user's.",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Home directory holding the agents' user settings (default: ~).",
)
@click.option("--write", is_flag=True, help="Write the target file (default: show the diff only).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def migrate(
    source: str,
    target: str,
    project: Path | None,
    scope: str,
    home: Path | None,
    write: bool,
    as_json: bool,
) -> None:
    """Convert hooks between the agents' settings (Gemini CLI, Claude Code, Codex, GitHub
    Copilot CLI, Qwen Code, Factory Droid).

    Events, tool names in matchers, project-directory variables ($CLAUDE_PROJECT_DIR,
    $GEMINI_PROJECT_DIR...), timeouts (milliseconds or seconds) and handler keys are
    converted. Hooks already in the target file stay; hooks it already has are not added
    twice.
    """
    if write:
        from hookwise.cli.guardrails import refuse_when_confined

        refuse_when_confined("migrate --write")
    from hookwise.config.detect import Dialect
    from hookwise.config.migrate import MigrationError, plan_migration

    if source == target:
        raise click.UsageError("--from and --to must name different agents")
    migration = plan_migration(
        cast(Dialect, source),
        cast(Dialect, target),
        project_root(project),
        scope=scope,
        home=home,
    )
    wrote = False
    # a settings file it cannot read or convert is an input error (2); a failed write is 1
    failure = EXIT_INPUT_ERROR if migration.error is not None else 1
    if write and migration.error is None:
        try:
            wrote = migration.write()
        except OSError as exc:
            migration.error = f"{migration.target_path}: cannot write: {exc.strerror or exc}"
        except MigrationError as exc:
            migration.error = str(exc)
            failure = EXIT_INPUT_ERROR
    if as_json:
        payload = migration.to_json()
        payload["written"] = wrote
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        _report(migration, write=write, wrote=wrote)
    if migration.error is not None:
        raise SystemExit(failure)


def _report(migration: Migration, *, write: bool, wrote: bool) -> None:
    for warning in migration.warnings:
        click.echo(f"warning: {warning}", err=True)
    if migration.error is not None:
        click.echo(f"error: {migration.error}", err=True)
        return
    if not write:
        diff = migration.diff()
        if diff:
            click.echo(diff, nl=False)
    for note in migration.notes:
        click.echo(f"note: {note}", err=True)
    for item in migration.unmapped:
        click.echo(f"not migrated: {item}", err=True)
    source_host, target_host = HOSTS[migration.source], HOSTS[migration.target]
    if not migration.sources:
        click.echo(f"no {source_host} settings found ({migration.scope} scope)", err=True)
        return
    target = migration.target_path
    already = f", {migration.duplicates} already there" if migration.duplicates else ""
    if not migration.added:
        found = migration.found
        click.echo(
            f"nothing to add to {target}: {found} {source_host} hook(s) convertible{already}",
            err=True,
        )
    elif wrote:
        click.echo(f"wrote {target}: {migration.added} hook(s) added{already}", err=True)
    else:
        click.echo(
            f"{migration.added} hook(s) to add to {target} for {target_host}{already}; "
            "nothing written (use --write)",
            err=True,
        )
