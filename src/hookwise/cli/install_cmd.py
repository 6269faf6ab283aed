"""``hookwise install`` and ``hookwise uninstall``: register the policy hook with a host.

The logic (which events, which file, the text edits, Codex's hook trust) is in
``hookwise.policy.install.plan``; this module parses options and reports.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hookwise.cli.errors import EXIT_CHECK_FAILED, InputError
from hookwise.cli.guardrails import changes_guardrails
from hookwise.cli.options import project_option, project_root
from hookwise.policy.install.plan import InstallPlan
from hookwise.policy.install.targets import SCOPES
from hookwise.protocol.hosts import HOST_TITLES, hosts_with

if TYPE_CHECKING:
    from hookwise.policy.install.mcp_entries import McpPlan

# `shell`: the user's shell starts every agent under `hookwise run` (run/shell_setup.py)
SHELL_TARGET = "shell"
_host_argument = click.argument(
    "host", required=False, type=click.Choice((*hosts_with("install"), SHELL_TARGET))
)
_native_option = click.option(
    "--native",
    is_flag=True,
    help="Instead of the hook: the policy's rules in the hosts' own permission systems "
    "(`hookwise policy export`); uninstall: back as they were. Default scope: user. "
    "See docs/policy-export.md.",
)
_native_host_option = click.option(
    "--host",
    "native_hosts",
    multiple=True,
    help="With --native: a host (repeatable; default: every host with an exporter).",
)


def _native(
    install: bool,
    host: str | None,
    hosts: tuple[str, ...],
    scope: str | None,
    project: Path | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    from hookwise.cli.native_cmd import native_hosts, run_native

    chosen = native_hosts(host, hosts)
    run_native(
        chosen,
        scope or "user",
        project,
        install=install,
        dry_run=dry_run,
        as_json=as_json,
        explicit=bool(host or hosts),
    )


def _need_host(host: str | None, hosts: tuple[str, ...]) -> str:
    if hosts:
        raise click.UsageError("--host goes with --native (else HOST is the argument)")
    if host is None:
        raise click.UsageError("Missing argument 'HOST'.")
    return host


_rc_option = click.option(
    "--rc",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="shell: the rc file to edit (default: from $SHELL: ~/.bashrc, ~/.zshrc, or fish's "
    "conf.d/hookwise.fish).",
)


def _shell(install: bool, rc: Path | None, dry_run: bool, as_json: bool) -> None:
    """`install shell` / `uninstall shell`: the agents' functions in the user's rc file."""
    from hookwise.run import shell_setup

    env = dict(os.environ)
    try:
        target = rc or shell_setup.rc_file(env)
        change = shell_setup.plan_install(target) if install else shell_setup.plan_uninstall(target)
        if not dry_run:
            shell_setup.write(change)
    except (shell_setup.ShellSetupError, OSError) as exc:
        raise InputError(str(exc)) from None
    if as_json:
        click.echo(
            json.dumps({"rc": str(target), "changed": change.changed, "dry_run": dry_run}, indent=2)
        )
        return
    verb = "added to" if install else "removed from"
    if not change.changed:
        state = "already there" if install else "not there"
        click.echo(f"the hookwise run functions are {state}: {target}; nothing to change")
    elif dry_run:
        click.echo(f"would be {verb} {target}:")
        shown = (change.after if install else change.before) or b""
        click.echo(shown.decode(errors="replace"))
    else:
        click.echo(
            f"{verb} {target}: {', '.join(hosts_with('run'))} now start under `hookwise run`"
        )
        click.echo("open a new shell (or source the file) for it to take effect")


_scope_option = click.option(
    "--scope",
    type=click.Choice(SCOPES),
    default=None,
    help="project: the project's settings file; user: your own, for every project "
    "(default: project; with --native: user).",
)
_project_option = project_option(must_exist=True)
_dry_run_option = click.option(
    "--dry-run", is_flag=True, help="Print the changes as a diff; write nothing."
)


_mcp_option = click.option(
    "--mcp",
    is_flag=True,
    help="Instead of the hook: run HOST's MCP server entries through `hookwise mcp wrap` "
    "(uninstall: back as they were). Exits 1 when a stdio server is left unwrapped "
    "(skipped or replacing; --json names each under left_unwrapped). See docs/mcp.md.",
)


def _mcp(
    host: str, scope: str, project: Path | None, install: bool, dry_run: bool, as_json: bool
) -> None:
    """`install --mcp` / `uninstall --mcp`: the host's MCP server entries, wrapped or not."""
    from hookwise.policy.install.errors import InstallError
    from hookwise.policy.install.mcp_entries import plan_mcp, write_mcp

    try:
        plan = plan_mcp(host, scope, project_root(project), dict(os.environ), install=install)
        written = [] if dry_run else write_mcp(plan)
    except (InstallError, OSError) as exc:
        raise InputError(str(exc)) from None
    left = plan.left_unwrapped() if install else []
    if as_json:
        changes = [
            {"file": str(c.file), "server": c.name, "action": c.action, "detail": c.detail}
            for c in plan.changes
        ]
        unwrapped = [{"server": c.name, "file": str(c.file), "why": c.detail} for c in left]
        click.echo(
            json.dumps(
                {"host": host, "scope": scope, "servers": changes,
                 "written": [str(p) for p in written], "dry_run": dry_run,
                 "not_looked": plan.unlooked, "left_unwrapped": unwrapped},
                indent=2,
            )
        )  # fmt: skip
    else:
        _mcp_text(host, scope, plan, written, dry_run)
    if left:  # a stdio server left outside the proxy is no success
        if not as_json:
            click.echo(
                f"hookwise: {len(left)} stdio MCP server(s) left unwrapped: "
                f"{', '.join(c.name for c in left)} (see each 'skipped' or 'replacing' above)",
                err=True,
            )
        sys.exit(EXIT_CHECK_FAILED)


def _mcp_text(host: str, scope: str, plan: McpPlan, written: list[Path], dry_run: bool) -> None:
    if not plan.files and not plan.changes:
        click.echo(f"{HOST_TITLES[host]} ({scope}): no MCP settings file; nothing to change")
    for change in plan.changes:
        detail = f" ({change.detail})" if change.detail else ""
        click.echo(f"  {change.action}: {change.name} in {change.file}{detail}")
    for path in written:
        click.echo(f"wrote {path}")
    if dry_run and plan.changed:
        click.echo("(dry run: nothing written)")
    if plan.unlooked:  # (the repository's other start directories were walked: F5)
        click.echo(f"note: MCP files looked for in every directory of the repository, "
                   f"{plan.unlooked}", err=True)  # fmt: skip


def _report(plan: InstallPlan, written: list[Path], dry_run: bool) -> None:
    for change in plan.changes:
        if not change.changed:
            continue
        if dry_run:
            click.echo(change.diff(), nl=False)
        elif change.path in written:
            click.echo(f"{'removed' if change.deleted else 'wrote'} {change.path}")


@click.command()
@_host_argument
@_scope_option
@_project_option
@_dry_run_option
@click.option(
    "--timeout",
    type=click.IntRange(1, 3600),
    default=None,
    help="Hook timeout in seconds (written in the host's unit). Default: 10 + validators.",
)
@click.option(
    "--console",
    is_flag=True,
    help="Register `<path>/hookwise hook` directly (a path of this machine only).",
)
@click.option(
    "--direct",
    is_flag=True,
    help="Register this machine's `python -I -S run_hook.py` directly instead of the "
    "portable command (for settings nobody else uses: it fails on other machines).",
)
@click.option(
    "--no-trust",
    is_flag=True,
    help="Codex: do not record the hooks' hashes as trusted (approve them in /hooks).",
)
@_rc_option
@_mcp_option
@_native_option
@_native_host_option
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
@changes_guardrails("install")
def install(
    host: str | None,
    scope: str | None,
    project: Path | None,
    dry_run: bool,
    timeout: int | None,
    console: bool,
    direct: bool,
    no_trust: bool,
    rc: Path | None,
    mcp: bool,
    native: bool,
    native_hosts: tuple[str, ...],
    as_json: bool,
) -> None:
    """Register `hookwise hook` with HOST for every event the policy uses.

    `hookwise install shell` instead makes the user's shell start every agent CLI under
    `hookwise run` (a marked block in the rc file; `hookwise uninstall shell` removes it).
    `hookwise install --native [--host H]` writes the policy's rules into the hosts' own
    permission systems instead."""
    if native and mcp:
        raise click.UsageError("--native and --mcp are separate steps: run one, then the other")
    if native:
        _native(True, host, native_hosts, scope, project, dry_run, as_json)
        return
    host = _need_host(host, native_hosts)
    scope = scope or "project"
    if host == SHELL_TARGET:
        _shell(True, rc, dry_run, as_json)
        return
    if mcp:
        _mcp(host, scope, project, True, dry_run, as_json)
        return
    from hookwise.policy.install.errors import InstallError
    from hookwise.policy.install.launcher import hook_command
    from hookwise.policy.install.plan import plan_install, write_plan

    directory = project_root(project)
    env = dict(os.environ)
    try:
        plan = plan_install(
            host,
            scope,
            directory,
            env,
            command=hook_command(host, console=console, direct=direct),
            timeout=timeout,
            trust=not no_trust,
        )
    except InstallError as exc:  # a settings file it cannot read or edit safely: input
        raise InputError(str(exc)) from None
    try:
        written = [] if dry_run else write_plan(plan)
    except InstallError as exc:
        raise click.ClickException(str(exc)) from None
    edit = plan.edit
    if as_json:
        click.echo(
            json.dumps(
                {
                    "host": host,
                    "scope": scope,
                    "settings": str(plan.settings),
                    "command": plan.command,
                    "added": [r.event for r in edit.added],
                    "kept": [r.event for r in edit.kept],
                    "removed": [h.event for h in edit.removed],
                    "trusted": plan.trusted,
                    "written": [str(p) for p in written],
                    "dry_run": dry_run,
                    "notes": plan.notes,
                },
                indent=2,
            )
        )
    else:
        label = HOST_TITLES[host]
        click.echo(f"{label} ({scope}): {plan.settings}")
        click.echo(f"  command: {plan.command}")
        for registration in edit.added:
            click.echo(f"  + {registration.event}{_matcher(registration.matcher)}")
        for registration in edit.kept:
            click.echo(f"  = {registration.event}{_matcher(registration.matcher)}")
        for hook in edit.removed:
            click.echo(f"  - {hook.event} (an older hookwise entry)")
        if plan.trusted and (dry_run or written):
            click.echo(f"  trusted {len(plan.trusted)} Codex hook hash(es)")
        if not plan.changed:
            click.echo("  already installed; nothing to change")
        _report(plan, written, dry_run)
    for note in plan.notes:
        click.echo(f"note: {note}", err=True)
    if not dry_run and not as_json:
        click.echo(f"check it with: hookwise doctor --host {host}")


def _matcher(matcher: str | None) -> str:
    return "" if matcher is None else f" (matcher {matcher!r})"


@click.command()
@_host_argument
@_scope_option
@_project_option
@_dry_run_option
@_rc_option
@_mcp_option
@_native_option
@_native_host_option
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
@changes_guardrails("uninstall")
def uninstall(
    host: str | None,
    scope: str | None,
    project: Path | None,
    dry_run: bool,
    rc: Path | None,
    mcp: bool,
    native: bool,
    native_hosts: tuple[str, ...],
    as_json: bool,
) -> None:
    """Remove hookwise's hook entries from HOST's settings (other hooks stay);
    `hookwise uninstall shell` removes the `hookwise run` functions from the rc file;
    `hookwise uninstall --native` the native rules install --native wrote."""
    if native and mcp:
        raise click.UsageError("--native and --mcp are separate steps: run one, then the other")
    if native:
        _native(False, host, native_hosts, scope, project, dry_run, as_json)
        return
    host = _need_host(host, native_hosts)
    scope = scope or "project"
    if host == SHELL_TARGET:
        _shell(False, rc, dry_run, as_json)
        return
    if mcp:
        _mcp(host, scope, project, False, dry_run, as_json)
        return
    from hookwise.policy.install.errors import InstallError
    from hookwise.policy.install.plan import plan_uninstall, write_plan

    directory = project_root(project)
    try:
        plan = plan_uninstall(host, scope, directory, dict(os.environ))
    except InstallError as exc:
        raise InputError(str(exc)) from None
    try:
        written = [] if dry_run else write_plan(plan)
    except InstallError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(
            json.dumps(
                {
                    "host": host,
                    "scope": scope,
                    "settings": str(plan.settings),
                    "removed": [h.event for h in plan.edit.removed],
                    "deleted": [str(c.path) for c in plan.changes if c.deleted],
                    "written": [str(p) for p in written],
                    "dry_run": dry_run,
                },
                indent=2,
            )
        )
        return
    click.echo(f"{HOST_TITLES[host]} ({scope}): {plan.settings}")
    for hook in plan.edit.removed:
        click.echo(f"  - {hook.event}{_matcher(hook.matcher)}")
    if not plan.changed:
        click.echo("  hookwise is not registered there; nothing to change")
    _report(plan, written, dry_run)
    sys.stdout.flush()
