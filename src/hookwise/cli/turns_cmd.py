"""``hookwise rollout show FILE`` and ``hookwise turns check [--project DIR]``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hookwise.cli.errors import InputError
from hookwise.cli.options import project_option, project_root


@click.group()
def rollout() -> None:
    """Read the rollout files sessions write (.agent/rollouts/*.jsonl)."""


@rollout.command("show")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the events as a JSON array.")
def show(file: Path, as_json: bool) -> None:
    """Render a rollout: turns, Hook(TurnStart)/Hook(TurnEnd) runs, HookInput lines."""
    from rich.console import Console

    from hookwise.sim.view import render_host_record
    from hookwise.turns.rollout import RolloutError, read_rollout
    from hookwise.turns.view import TranscriptPrinter

    try:
        recorded = read_rollout(file)
    except RolloutError as exc:
        raise InputError(str(exc)) from None
    if as_json:
        events = [event.to_json() for event in recorded.events]
        click.echo(json.dumps(events, indent=2, ensure_ascii=False))
        return
    printer = TranscriptPrinter(Console(highlight=False), host=render_host_record)
    for event in recorded.events:
        printer(event)


@click.group()
def turns() -> None:
    """TurnStart/TurnEnd hooks (.agent/hook.toml)."""


@turns.command("check")
@click.argument(
    "directory",
    metavar="[PROJECT]",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=False,
)
@project_option(must_exist=True)
def check(directory: Path | None, project: Path | None) -> None:
    """Validate PROJECT/.agent/hook.toml and print what it configures.

    The project is --project, or the directory given as the argument (its former
    spelling), else the current directory. Exit status: 0 valid or absent, 1 invalid,
    2 a directory that does not exist.
    """
    from hookwise.config.hook_toml import HookTomlError, hook_toml_path, load_hook_toml

    if directory is not None and project is not None and directory != project:
        raise click.UsageError("give the project once: as --project or as the argument")
    workspace = project_root(project or directory)
    if workspace == Path.cwd().resolve():
        workspace = Path(".")  # messages name .agent/hook.toml as the user sees it

    try:
        config = load_hook_toml(workspace)
    except HookTomlError as exc:
        raise click.ClickException(str(exc)) from None
    if config is None:
        click.echo(f"{hook_toml_path(workspace)}: not found (no turn hooks)")
        return
    click.echo(json.dumps(config.to_json(), indent=2, ensure_ascii=False))
