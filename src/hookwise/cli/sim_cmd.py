"""``hookwise simulate SCENARIO.yaml``: play a scripted session through a host's hooks."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import click

from hookwise.cli.options import project_option, trust_project_option
from hookwise.protocol.hosts import hosts_with
from hookwise.protocol.profiles import Profile

# Exit codes: 0 every expectation passed; 1 one failed; 2 the scenario or setup is bad.
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


@click.command()
@click.argument("scenario_file", metavar="SCENARIO.yaml", type=click.Path(path_type=Path))
@click.option(
    "--host",
    type=click.Choice(hosts_with("runtime")),
    default=None,
    help="The agent CLI whose hook lifecycle is played (default: the scenario's, else gemini).",
)
@click.option(
    "--profile",
    type=click.Choice([p.value for p in Profile]),
    default=None,
    help="Host behaviour profile (gemini: documented | gemini-cli); default: the scenario's.",
)
@project_option(
    "project",
    aliases=("--workspace",),
    must_exist=True,
    help_text="Play in this project directory instead of the scenario's "
    "(its project: key, else the scenario file's folder).",
)
@click.option(
    "--home", type=click.Path(file_okay=False, path_type=Path), help="Use this home directory."
)
@click.option(
    "--rollout",
    "rollout_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the rollout here (default: PROJECT/.agent/rollouts/).",
)
@click.option(
    "--bypass-hook-trust",
    is_flag=True,
    help="Run project hooks nobody approved (Codex hook hashes, HOOKWISE_HOOK_TRUST=enforce).",
)
@trust_project_option("Treat the project folder as trusted for this run (tests, CI).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def simulate(
    scenario_file: Path,
    host: str | None,
    profile: str | None,
    project: Path | None,
    home: Path | None,
    rollout_path: Path | None,
    bypass_hook_trust: bool,
    trust_project: bool,
    as_json: bool,
) -> None:
    """Play SCENARIO.yaml offline through the host's hook lifecycle and check its expectations.

    Exit status: 0 when every expectation holds, 1 when one fails, 2 when the scenario,
    the host or the project's .agent/hook.toml is invalid.
    """
    from rich.console import Console

    from hookwise.config.hook_toml import HookTomlError
    from hookwise.host.loading import HookTrustWarning
    from hookwise.sim.context import SimOptions
    from hookwise.sim.runner import simulate_sync
    from hookwise.sim.scenario import ScenarioError, load_scenario
    from hookwise.sim.view import render_summary

    options = SimOptions(
        host=host,
        profile=profile,
        workspace=project,
        home=home,
        rollout_path=rollout_path,
        bypass_hook_trust=bypass_hook_trust,
        trust_workspace=trust_project,
    )
    console = None if as_json else Console(highlight=False)
    try:
        scenario = load_scenario(scenario_file)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", HookTrustWarning)
            result = simulate_sync(scenario, options, console=console)
        for item in caught:
            click.echo(f"warning: {item.message}", err=True)
    except (ScenarioError, HookTomlError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False, default=str))
    else:
        assert console is not None
        render_summary(console, result)
    if not result.passed:
        sys.exit(EXIT_FAILED)
