"""``hookwise fire``: fire one event at a project's hooks and show what happens."""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import click

from hookwise.cli.errors import InputError
from hookwise.cli.host_option import host_option
from hookwise.cli.options import project_option, project_root, trust_project_option
from hookwise.protocol.profiles import Profile


def _read_payload(source: str) -> dict[str, Any]:
    from hookwise.protocol.jsvalue import js_json_parse

    where = "stdin" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise click.BadParameter(
            f"cannot read {where}: {exc.strerror}", param_hint="--payload"
        ) from None
    try:
        value = js_json_parse(text)
    except ValueError as exc:
        raise click.BadParameter(f"{where} is not JSON: {exc}", param_hint="--payload") from None
    if not isinstance(value, dict):
        raise click.BadParameter(f"{where} must hold a JSON object", param_hint="--payload")
    return value


@click.command()
@click.argument("event")
@click.option(
    "--payload",
    "payload_source",
    default=None,
    metavar="FILE|-",
    help="The event's arguments as JSON (tool_name/tool_input, prompt, llm_request, ...).",
)
@click.option(
    "--raw",
    is_flag=True,
    help="The payload is a complete stdin object, sent to the hooks verbatim.",
)
@project_option(
    "project_dir",
    aliases=("--settings",),
    must_exist=True,
)
@click.option(
    "--profile",
    type=click.Choice([p.value for p in Profile]),
    default=Profile.DOCUMENTED.value,
    show_default=True,
    help="documented: as the hooks reference says; gemini-cli: as the real engine does.",
)
@click.option(
    "--home", type=click.Path(file_okay=False, path_type=Path), help="Use this home directory."
)
@host_option("Whose hooks and rules: detected from the project's settings files when omitted.")
@click.option(
    "--bypass-hook-trust",
    "--dangerously-bypass-hook-trust",
    "bypass_hook_trust",
    is_flag=True,
    help="Run project hooks nobody approved (Codex hook hashes, HOOKWISE_HOOK_TRUST=enforce).",
)
@trust_project_option(
    "Treat the project folder as trusted for this run (tests, CI); nothing is written."
)
@click.option(
    "--record-trust",
    is_flag=True,
    help="Write the host's trust stores as the host would (~/.gemini/trusted_hooks.json...).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def fire(
    event: str,
    payload_source: str | None,
    raw: bool,
    project_dir: Path | None,
    profile: str,
    home: Path | None,
    dialect: str | None,
    bypass_hook_trust: bool,
    trust_project: bool,
    record_trust: bool,
    as_json: bool,
) -> None:
    """Fire EVENT at the hooks of a project and show plan, runs, aggregate and effect.

    EVENT is a name of the host: BeforeTool (Gemini), PreToolUse (Claude Code, Codex)...;
    a name only one host has picks that host, otherwise --host does (or the one host the
    project's settings have hooks for). The host's project trust applies: an untrusted
    project's own hooks do not run (warnings on stderr); --trust-project runs them without
    trusting the folder for good.
    """
    from hookwise.cli.fire_view import render_json, render_rich
    from hookwise.policy.hook import SOURCE_VARIABLE

    # the hooks it runs label their audit records (`coverage` does not count them)
    os.environ[SOURCE_VARIABLE] = "fire"
    from hookwise.config.detect import AmbiguousEventError, host_for_event
    from hookwise.host.loading import HookTrustWarning, load_hook_system
    from hookwise.host.system import PayloadError

    if dialect is None:
        try:
            dialect = host_for_event(event, project_root(project_dir), home)
        except AmbiguousEventError as exc:
            raise InputError(str(exc)) from None
    payload = _read_payload(payload_source) if payload_source else {}
    chosen = Profile.parse(profile)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HookTrustWarning)  # system.warnings says it
        system = load_hook_system(
            project_root(project_dir),
            profile=chosen,
            home=home,
            dialect=dialect,
            bypass_hook_trust=bypass_hook_trust,
            trust_workspace=trust_project,
            record_trust=record_trust,
        )
    # one fire is the whole session: background hooks and MCP servers end with it, as they
    # do when the host exits
    with system:
        try:
            if raw:
                stdin = dict(payload)  # verbatim: no session id or timestamp of hookwise's
                context = system.runtime.match_context(event, stdin)
                result = system.fire_input_sync(event, stdin, context, args={})
            else:
                result = system.fire_sync(event, payload)
        except (PayloadError, KeyError) as exc:
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise InputError(str(message)) from None
        for warning in system.warnings + result.warnings:
            # Gemini CLI's own notices start with "WARNING: "; one label is enough
            click.echo(f"warning: {warning.removeprefix('WARNING: ')}", err=True)
        if as_json:
            click.echo(json.dumps(render_json(result, system), indent=2, ensure_ascii=False))
        else:
            render_rich(result, system)
