"""``hookwise install --native`` / ``uninstall --native``: report what
``hookwise.policy.install.native`` planned and wrote, host by host."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from hookwise.cli.errors import InputError
from hookwise.cli.options import project_root
from hookwise.protocol.hosts import HOST_TITLES


def native_hosts(host: str | None, hosts: tuple[str, ...]) -> tuple[str, ...]:
    """The hosts asked for (the argument or ``--host``), default every host whose own rules
    live in a file (native.NATIVE_HOSTS)."""
    from hookwise.policy.export.model import EXPORT_HOSTS
    from hookwise.policy.install.native import NATIVE_HOSTS

    chosen = tuple(dict.fromkeys(((host,) if host else ()) + hosts)) or NATIVE_HOSTS
    unknown = [h for h in chosen if h not in EXPORT_HOSTS]
    if unknown:
        raise click.UsageError(
            f"--native: no exporter for {', '.join(unknown)}; expected one of: "
            f"{', '.join(EXPORT_HOSTS)}"
        )
    return chosen


def run_native(
    hosts: tuple[str, ...],
    scope: str,
    project: Path | None,
    *,
    install: bool,
    dry_run: bool,
    as_json: bool,
    explicit: bool = True,
) -> None:
    """Plan every host first (a refusal writes nothing anywhere), then write them; hosts
    not named (``explicit`` False) without a native file at ``scope`` are skipped, said."""
    from hookwise.policy.install.errors import InstallError
    from hookwise.policy.install.native import native_target, plan_native
    from hookwise.policy.install.plan import compile_policy, write_changes

    directory = project_root(project)
    env = dict(os.environ)
    compiled = None
    if install:
        try:
            compiled = compile_policy(directory, env)
        except InstallError as exc:
            raise InputError(str(exc)) from None
        if compiled.get("errors"):
            first = compiled["errors"][0]
            raise InputError(
                f"the policy has errors (first: {first['file']}:{first['line']}:"
                f"{first['column']}: {first['message']}); fix them first (nothing written)"
            )
    if not explicit:
        kept: list[str] = []
        for host in hosts:
            try:
                native_target(host, scope, directory, env)
                kept.append(host)
            except InstallError as exc:
                click.echo(f"note: skipped: {exc}", err=True)
        hosts = tuple(kept)
    try:
        plans = [plan_native(h, scope, directory, env, compiled) for h in hosts]
    except InstallError as exc:
        raise InputError(str(exc)) from None
    written: list[Path] = []
    if not dry_run:
        for plan in plans:
            try:
                written += write_changes(plan.changes)
            except InstallError as exc:
                raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "host": p.host,
                        "scope": p.scope,
                        "file": str(p.target),
                        "added": p.added,
                        "removed": p.removed,
                        "restored": p.restored,
                        "changed": p.changed,
                        "coverage": [c.as_dict() for c in p.export.coverage] if p.export else [],
                        "notes": p.notes,
                        "written": [str(c.path) for c in p.changes if c.path in written],
                        "dry_run": dry_run,
                    }
                    for p in plans
                ],
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    for plan in plans:
        click.echo(f"{HOST_TITLES[plan.host]} native rules ({scope}): {plan.target}")
        for entry in plan.added:
            click.echo(f"  + {entry}")
        for entry in plan.removed:
            click.echo(f"  - {entry}")
        if plan.export is not None:
            counts = {
                s: sum(c.status == s for c in plan.export.coverage)
                for s in ("covered", "partial", "none")
            }
            click.echo(
                f"  rules covered {counts['covered']}, partly covered {counts['partial']}, "
                f"not expressible {counts['none']} (`hookwise policy export --host "
                f"{plan.host}` says why)"
            )
        if plan.restored:
            click.echo("  restored the file's bytes from before install --native")
        if not plan.changed:
            click.echo("  nothing to change")
        for change in plan.changes:
            if not change.changed:
                continue
            if dry_run:
                click.echo(change.diff(), nl=False)
            elif change.path in written:
                click.echo(f"  {'removed' if change.deleted else 'wrote'} {change.path}")
        for note in plan.notes:
            click.echo(f"note: {note}", err=True)
