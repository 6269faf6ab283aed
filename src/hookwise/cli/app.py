"""The ``hookwise`` command group; each sub-command lives in its own module."""

from __future__ import annotations

from typing import Any

import click

from hookwise import __version__

INTERRUPTED = 130  # 128 + SIGINT: what a shell reports for a command stopped by Ctrl-C


class _Hookwise(click.Group):
    """The group: Ctrl-C in any command ends it quietly with 130, as a shell's own
    commands do (click would print "Aborted!" and exit 1)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo(err=True)  # close the terminal's ^C line
            raise click.exceptions.Exit(INTERRUPTED) from None


@click.group(cls=_Hookwise, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hookwise")
def cli() -> None:
    """Hooks for AI coding agents: run, test and answer them like the real hosts."""


@cli.command(
    "hook",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.pass_context
def hook(ctx: click.Context) -> None:
    """Answer one agent hook event (JSON on stdin): the command agents run.

    `hookwise hook --help` lists its options. The console script runs it before click is
    imported (it is on every tool call's path); this entry serves `--help` and embedders.
    """
    from hookwise.policy.hook import main as hook_main

    ctx.exit(hook_main(list(ctx.args)))


def _register() -> None:
    from hookwise.cli import conformance_cmd, fire_cmd, hooks_cmd, migrate_cmd, sim_cmd, turns_cmd

    cli.add_command(fire_cmd.fire)
    cli.add_command(hooks_cmd.hooks)
    cli.add_command(conformance_cmd.conformance)
    cli.add_command(migrate_cmd.migrate)
    cli.add_command(sim_cmd.simulate)
    cli.add_command(turns_cmd.rollout)
    cli.add_command(turns_cmd.turns)

    from hookwise.cli import policy_cmd

    cli.add_command(policy_cmd.policy)
    cli.add_command(policy_cmd.explain)
    cli.add_command(policy_cmd.test_cmd)
    cli.add_command(policy_cmd.logs)

    from hookwise.cli import logs_export_cmd

    policy_cmd.logs.add_command(logs_export_cmd.export)

    from hookwise.cli import serve_cmd

    cli.add_command(serve_cmd.serve)

    from hookwise.cli import coverage_cmd, doctor_cmd, install_cmd

    cli.add_command(coverage_cmd.coverage)
    cli.add_command(install_cmd.install)
    cli.add_command(install_cmd.uninstall)
    cli.add_command(doctor_cmd.doctor)

    from hookwise.cli import mcp_cmd

    cli.add_command(mcp_cmd.mcp)

    from hookwise.cli import scan_cmd

    cli.add_command(scan_cmd.scan)

    from hookwise.cli import run_cmd

    cli.add_command(run_cmd.command())


_register()
