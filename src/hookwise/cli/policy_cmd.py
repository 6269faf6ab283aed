"""``hookwise policy validate|show|schema|init``, ``hookwise explain`` and ``hookwise test``.

(``hookwise hook`` itself is dispatched in entry.py before click is imported.)
Module-level imports stay light (click only): the policy packages load inside the commands.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from hookwise.cli.errors import InputError, os_reason
from hookwise.cli.guardrails import changes_guardrails
from hookwise.cli.host_option import host_option
from hookwise.cli.options import project_option
from hookwise.policy.export.model import EXPORT_HOSTS
from hookwise.policy.trust.scopes import POLICY_SCOPES
from hookwise.protocol.hosts import hosts_with
from hookwise.wording import count

PLATFORMS = hosts_with("hook")


def _env(policy: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if policy is not None:
        env["HOOKWISE_POLICY"] = str(policy.resolve())
    return env


def _compile_scopes(cwd: str, env: dict[str, str]) -> dict[str, Any]:
    from hookwise.policy.cache import load_policy

    try:
        return load_policy(cwd, env, use_cache=False).policy
    except OSError as exc:
        raise InputError(f"cannot read the policy: {exc}") from None


def _problem_line(problem: dict[str, Any]) -> str:
    place = f"{problem['file']}:{problem['line']}:{problem['column']}"
    return f"{place}: {problem['severity']}: {problem['message']}"


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


_cwd_option = project_option(
    "cwd",
    aliases=("--cwd",),
    must_exist=True,
)


def _platform_alias(func: Any) -> Any:
    """``--platform``: the former name of ``--host`` here, hidden and kept working."""
    return click.option(
        "--platform",
        type=click.Choice(PLATFORMS),
        default=None,
        hidden=True,
        help="Former name of --host.",
    )(func)


_policy_option = click.option(
    "--policy",
    "policy_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Use this file as the project policy.",
)


@click.group()
def policy() -> None:
    """Check, show and start policy files (.hookwise/policy.yaml)."""


@policy.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@_cwd_option
@click.option("--strict", is_flag=True, help="Warnings count as errors.")
@click.option(
    "--scope",
    type=click.Choice(POLICY_SCOPES),
    default=None,
    help="Check FILES as this scope's policy (default: from where each lies: the managed "
    "and user files by their locations, policy.local.yaml local, else project).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def validate(
    files: tuple[Path, ...], cwd: Path | None, strict: bool, scope: str | None, as_json: bool
) -> None:
    """Check policy files: FILES alone, or every scope that applies here."""
    from hookwise.policy.rules.compiler import compile_files
    from hookwise.policy.trust.scopes import scope_of_path
    from hookwise.policy.trust.store import Trust

    if files:
        results = []
        for path in files:
            read_as = scope or scope_of_path(str(path), _env(None))
            try:
                # the file's content as written (trust decides what applies where it is)
                results.append(
                    compile_files([(read_as, str(path))], trust=Trust.everything_trusted())
                )
                results[-1]["read_as"] = read_as
            except OSError as exc:
                raise InputError(f"cannot read {path}: {os_reason(exc)}") from None
            if not results[-1]["files"]:
                raise InputError(f"{path}: no such file")
    else:
        compiled = _compile_scopes(str(cwd or Path.cwd()), _env(None))
        if not compiled["files"]:
            from hookwise.policy.trust.scopes import scope_files

            looked = ", ".join(p for _, p in scope_files(str(cwd or Path.cwd()), _env(None)))
            raise InputError(
                f"no policy file found (looked at: {looked}); `hookwise policy init` writes one"
            )
        results = [compiled]
    # "blocked": valid content the hook does not apply yet (a trusted file that changed or
    # is gone: tool calls are denied until it is trusted again), not an error of the file
    found = [p for r in results for p in r["errors"]]
    errors = [p for p in found if p.get("severity") != "blocked"]
    blocked = [p for p in found if p.get("severity") == "blocked"]
    warnings = [p for r in results for p in r["warnings"]]
    if as_json:
        click.echo(_dump({"errors": errors, "warnings": warnings, "blocked": blocked}))
    else:
        for problem in errors + warnings:
            click.echo(_problem_line(problem), err=True)
        for result in results:
            enabled = sum(1 for r in result["rules"] if r["enabled"])
            names = ", ".join(p for _, p in result["files"])
            read = result.get("read_as", "project")  # a file named alone: its scope
            read_as = f" (as the {read} policy)" if read != "project" else ""
            click.echo(
                f"{names}{read_as}: {count(len(result['rules']), 'rule')} ({enabled} enabled)"
            )
            shown = {p["file"] for p in blocked}
            for untrusted in (
                t for t in result.get("trust", []) if not t["trusted"] and t["file"] not in shown
            ):
                click.echo(
                    f"  {untrusted['file']}: {untrusted['why']}: only its restrictions apply "
                    f"until `hookwise policy trust {untrusted['file']}`"
                )
        for problem in blocked:
            click.echo(f"  {problem['file']}: {problem['message']}")
        verdict = "invalid" if errors or (strict and warnings) else "valid"
        click.echo(f"{verdict}: {count(len(errors), 'error')}, {count(len(warnings), 'warning')}")
    if errors or (strict and warnings):
        sys.exit(1)


def _describe_match(rule: dict[str, Any]) -> str:
    parts = []
    m = rule["m"]
    if "tool" in m:
        names = list(m["tool"]["names"]) + [f"<{len(m['tool']['globs'])} glob(s)>"] * bool(
            m["tool"]["globs"]
        )
        parts.append("tool=" + ",".join(names))
    for key in ("tool_regex", "host_tool", "host", "command", "files", "prompt", "response"):
        if key in m:
            if key == "command":
                shown = [c.get("pattern") or "{...}" for c in m[key]]
                parts.append("command=" + " | ".join(shown))
            elif key == "host":
                parts.append("host=" + ",".join(m[key]))
            else:
                parts.append(key)
    for key in ("mcp", "fields"):
        if key in m:
            parts.append(key)
    if "when_src" in rule:
        parts.append(f"when: {rule['when_src']}")
    return "; ".join(parts) or "(no matcher)"


@policy.command()
@_cwd_option
@_policy_option
@click.option("--json", "as_json", is_flag=True, help="Print the compiled policy as JSON.")
def show(cwd: Path | None, policy_file: Path | None, as_json: bool) -> None:
    """Print the merged policy, each rule with its origin, in evaluation order."""
    compiled = _compile_scopes(str(cwd or Path.cwd()), _env(policy_file))
    if as_json:
        shown = {k: v for k, v in compiled.items() if k != "hosts"}
        click.echo(_dump(shown))
        return
    click.echo("files:")
    trust = {t["file"]: t for t in compiled.get("trust", [])}
    for scope, path in compiled["files"]:
        state = trust.get(path)
        note = ""
        if state is not None:
            note = "  [trusted]" if state["trusted"] else f"  [{state['why']}: restrictive only]"
        click.echo(f"  {scope:8} {path}{note}")
    if not compiled["files"]:
        click.echo("  (none)")
    click.echo("rules (evaluation order):")
    for rule in compiled["rules"]:
        state = "" if rule["enabled"] else " [disabled]"
        click.echo(
            f"  {rule['id']}: {rule['action']} ({rule['mode']}, priority {rule['priority']}){state}"
        )
        events = ", ".join(
            name if hosts is None else f"{name} ({', '.join(hosts)})"
            for name, hosts in rule["on"].items()
        )
        click.echo(f"      events: {events}")
        click.echo(f"      match:  {_describe_match(rule)}")
        pack = f" (pack {rule['pack']})" if rule.get("pack") else ""
        click.echo(f"      origin: {rule['scope']} {rule['file']}:{rule['line']}{pack}")
        if rule.get("replaces"):
            click.echo(f"      replaces the rule of {rule['replaces']}")
        for note in rule.get("overridden", []):
            click.echo(f"      overridden by {note}")
    click.echo("settings:")
    origins = compiled["setting_origins"]
    for key, value in sorted(compiled["settings"].items()):
        click.echo(f"  {key} = {json.dumps(value)}  ({origins.get(key, 'default')})")
    for problem in compiled["errors"] + compiled["warnings"]:
        click.echo(_problem_line(problem), err=True)
    if compiled["errors"]:
        sys.exit(1)


@policy.command()
def docs() -> None:
    """Print the policy reference (docs/policy.md, packaged: pip users have no repository)."""
    from importlib.resources import files

    try:
        text = files("hookwise.policy").joinpath("policy-reference.md").read_text("utf-8")
    except OSError as exc:
        raise click.ClickException(f"the packaged policy reference is missing: {exc}") from None
    click.echo(text, nl=False)


@policy.command()
def schema() -> None:
    """Print the JSON Schema of the policy format (for editors)."""
    from hookwise.policy.rules.schema import SCHEMA

    click.echo(_dump(SCHEMA))


@policy.command()
@project_option(
    "directory",
    aliases=("--dir",),
    must_exist=True,
    help_text="Where to start the project's policy (default: the current directory: a "
    "new project starts here).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing policy file.")
@click.option(
    "--packs",
    default="",
    metavar="A,B",
    help="Rule packs to enable (filesystem,git,secrets,database,kubernetes,cloud or all).",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@changes_guardrails("policy init")
def init(directory: Path | None, force: bool, packs: str, as_json: bool) -> None:
    """Write a commented starter policy to .hookwise/policy.yaml."""
    from hookwise.policy.tools.starter import starter_policy

    try:
        text = starter_policy([p.strip() for p in packs.split(",") if p.strip()])
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    target = (directory or Path.cwd()) / ".hookwise" / "policy.yaml"
    if target.exists() and not force:
        raise InputError(f"{target} exists (use --force to overwrite it)")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    # you wrote it (through hookwise): it applies in full until it changes
    from hookwise.policy.trust.store import store_path, trust_file

    real, digest = trust_file(str(target), dict(os.environ))
    if as_json:
        trusted = {"path": real, "sha256": digest, "store": store_path(dict(os.environ))}
        click.echo(_dump({"wrote": str(target), "trusted": trusted}))
        return
    click.echo(f"wrote {target}")
    click.echo(
        "trusted it for you; after you edit it, run `hookwise policy trust` again (until then "
        "tool calls are denied: a trusted policy that changed no longer holds)"
    )
    click.echo("next: `hookwise policy validate`, then register `hookwise hook` with your agents")


def _read_payload(source: str) -> Any:
    from hookwise.policy import fastjson

    name = "stdin" if source == "-" else source
    if source == "-" and sys.stdin.isatty():  # else a bare `hookwise explain` seems to hang
        click.echo("reading the hook event (JSON) from stdin; end it with Ctrl-D", err=True)
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {name}: {os_reason(exc)}") from None
    except UnicodeDecodeError:
        raise InputError(f"cannot read {name}: not UTF-8 text") from None
    try:
        data = fastjson.loads(text)
    except ValueError as exc:
        raise InputError(f"{name}: not JSON ({exc}); a hook event is a JSON object") from None
    if not isinstance(data, dict):
        raise InputError(f"{name}: not a JSON object; a hook event is one ({{...}})")
    return data


def _print_explanation(report: dict[str, Any]) -> None:
    canonical = ", ".join(report["canonical"]) or "-"
    tool = f"  tool: {report['host_tool']} ({report['tool']})" if report["tool"] else ""
    host, event = report["host"] or "unknown", report["event"] or "none"
    click.echo(f"host: {host}  event: {event} -> {canonical}{tool}")
    if report["paths"]:
        click.echo(f"paths: {', '.join(report['paths'])}")
    if report["arguments"]:
        click.echo(f"arguments: {', '.join(report['arguments'])}")
    if report["error"]:
        click.echo(f"error: {report['error']}")
    for item in report.get("unverifiable") or []:  # what hookwise cannot account for
        click.echo(f"unverifiable: {item['command']}: {item['why']}")
    click.echo(f"confinement: {report['confinement']['why']}")
    decision = report["decision"] or {}
    verdict = decision.get("decision") or "none"
    by = f" by rule {decision['rule']!r}" if decision.get("rule") else ""
    reason = f": {decision['reason']}" if decision.get("reason") else ""
    click.echo(f"decision: {verdict}{by}{reason}")
    for key in ("contexts", "messages", "warnings", "notes", "errors"):
        for text in decision.get(key) or []:
            click.echo(f"  {key[:-1]}: {text}")
    if decision.get("updated_input") is not None:
        click.echo(f"  rewritten input: {json.dumps(decision['updated_input'])}")
    relayed = report.get("relay")
    if relayed:
        then = (
            f"after {relayed['interactive_wait']} s the host asks the user (a person is there)"
            if relayed["hand_over"]
            else f"no decision within {relayed['wait']} s or no service: deny"
        )
        click.echo(
            f"  `hookwise hook` sends this ask to {relayed['url']} (settings.approvals) and "
            f"waits for a person's decision; {then}"
        )
    answer = report["answer"]
    click.echo(f"answer: exit {answer['exit_code']}")
    if answer["stdout"]:
        click.echo(f"  stdout: {answer['stdout']}")
    if answer["stderr"]:
        click.echo(f"  stderr: {answer['stderr'].rstrip()}")
    click.echo("rules:")
    for rule in report["rules"]:
        statuses = {r["status"] for r in rule["results"]}
        mark = (
            "MATCH"
            if "matched" in statuses
            else ("MAYBE" if "unverifiable" in statuses else "  -  ")
        )
        outcome = f" -> {rule['outcome']}" if rule.get("outcome") else ""
        click.echo(
            f"  {mark} {rule['id']} [{rule['action']}, {rule['mode']}, priority "
            f"{rule['priority']}, {rule['scope']} {rule['file']}:{rule['line']}]{outcome}"
        )
        for result in rule["results"]:
            if result["status"] not in ("matched", "not matched", "unverifiable"):
                click.echo(f"        {result['event']}: {result['status']}")
                continue
            for step in result["trace"]:
                sign = "yes" if step["ok"] else "NO "
                click.echo(f"        {result['event']}: {sign} {step['matcher']}: {step['detail']}")
            if result["status"] == "matched" and not result["trace"]:
                click.echo(f"        {result['event']}: matched (no matcher)")
    if not report["rules"] and not report["error"]:
        click.echo("  (no rules)")
    for text in report.get("untrusted") or []:
        click.echo(f"untrusted: {text} (`hookwise policy trust` after review)")


@click.command()
@click.argument("payload", default="-")
@host_option("The host that sent the payload (default: detected from it)", "hook")
@_platform_alias
@_cwd_option
@_policy_option
@click.option(
    "--event",
    default=None,
    metavar="NAME",
    help="The host's event name (PreToolUse, BeforeTool...) when the payload has no "
    "hook_event_name.",
)
@click.option("--no-validators", is_flag=True, help="Do not run validator commands.")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
def explain(
    payload: str,
    dialect: str | None,
    platform: str | None,
    cwd: Path | None,
    policy_file: Path | None,
    event: str | None,
    no_validators: bool,
    as_json: bool,
) -> None:
    """Explain the decision for a hook PAYLOAD (a JSON file, or - for stdin): what the
    host sends its hook, e.g. {"hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {"command": "ls"}, "cwd": "/path/to/project"}.

    Exit 2 when the payload cannot be read as an event of a host.
    """
    from hookwise.policy.tools.explain import explain as run_explain

    platform = dialect or platform
    data = _read_payload(payload)
    if not isinstance(data, dict):
        raise InputError("a hook event is a JSON object")
    if event is not None:
        data.setdefault("hook_event_name", event)
    elif not data.get("hook_event_name"):
        raise InputError(
            "the payload has no hook_event_name: give it with --event (e.g. --event "
            "PreToolUse --host claude), or add it, as the host sends it"
        )
    env = _env(policy_file)
    event_cwd = data.get("cwd") if isinstance(data, dict) else None
    if isinstance(data, dict) and not event_cwd:
        # as `hookwise hook` does: an event without cwd is relative to where it runs
        event_cwd = data["cwd"] = str((cwd or Path.cwd()).resolve())
    where = str(cwd) if cwd else (event_cwd if isinstance(event_cwd, str) else str(Path.cwd()))
    compiled = _compile_scopes(where, env)
    report = run_explain(
        compiled, data, platform, env, now=time.time(), run_validators=not no_validators
    )
    if as_json:
        click.echo(_dump(report))
    else:
        _print_explanation(report)
    if report.get("error") and not report.get("canonical"):
        # the payload is no event hookwise can read: an input error, not a decision
        raise SystemExit(2)


@click.command(name="test")
@click.argument("scenarios", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--policy",
    "policy_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Policy to test (default: the file's `policy:`, else the scopes that apply).",
)
@click.option("--no-validators", is_flag=True, help="Do not run validator commands.")
@click.option("-v", "--verbose", is_flag=True, help="Show every scenario's answer.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def test_cmd(
    scenarios: Path, policy_file: Path | None, no_validators: bool, verbose: bool, as_json: bool
) -> None:
    """Run SCENARIOS (payload -> expected decision) against the policy.

    Exit 1 when a scenario fails, 2 when the scenario file or the policy cannot be used.
    """
    from hookwise.policy.rules.compiler import compile_files
    from hookwise.policy.tools.scenarios import ScenarioError, load_scenarios, run_scenarios
    from hookwise.policy.trust.store import Trust

    try:
        scenario_file = load_scenarios(str(scenarios))
    except ScenarioError as exc:
        raise InputError(str(exc)) from None
    chosen = str(policy_file) if policy_file else scenario_file.policy
    if chosen:
        compiled = compile_files([("project", chosen)], trust=Trust.everything_trusted())
        if not compiled["files"]:
            if policy_file:
                raise InputError(f"--policy {policy_file}: no such policy file")
            raise InputError(
                f"{scenarios}: policy: no such policy file {os.path.normpath(chosen)} "
                "(a relative path is relative to the scenario file's folder)"
            )
    else:
        compiled = _compile_scopes(str(scenarios.resolve().parent), _env(None))
    if compiled["errors"]:
        for problem in compiled["errors"]:
            click.echo(_problem_line(problem), err=True)
        raise InputError("the policy has errors; no scenario was run")
    results = run_scenarios(scenario_file, compiled, run_validators=not no_validators)
    failed = sum(not result.passed for result in results)
    if as_json:
        click.echo(
            _dump(
                {
                    "file": str(scenarios),
                    "passed": len(results) - failed,
                    "failed": failed,
                    "scenarios": [
                        {
                            "name": result.scenario.name,
                            "passed": result.passed,
                            "failures": list(result.failures),
                            "answer": {
                                "exit_code": result.outcome.answer.exit_code,
                                "stdout": result.outcome.answer.stdout,
                                "stderr": result.outcome.answer.stderr,
                            },
                        }
                        for result in results
                    ],
                }
            )
        )
        if failed:
            sys.exit(1)
        return
    for result in results:
        status = "PASS" if result.passed else "FAIL"
        click.echo(f"{status} {result.scenario.name}")
        for failure in result.failures:
            click.echo(f"     {failure}")
        if verbose or not result.passed:
            answer = result.outcome.answer
            click.echo(f"     answer: exit {answer.exit_code} stdout {answer.stdout or '(empty)'}")
    click.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str, now: float) -> str:
    """``--since`` as the audit log's UTC ISO time, so records compare as strings.

    Accepted: an ISO date or time (``2026-01-05``, ``2026-01-05T10:00``, with an offset or
    ``Z``; without one it is UTC, as the log is), ``today``, ``yesterday`` (UTC midnights),
    and an age: a number and a unit, ``30s``, ``15m``, ``1h``, ``2d``, ``1w``.
    """
    import datetime as dt
    import re

    value = text.strip().lower()
    midnight = dt.datetime.fromtimestamp(now, dt.UTC).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    if value in ("today", "yesterday"):
        moment = midnight - dt.timedelta(days=1 if value == "yesterday" else 0)
    elif match := re.fullmatch(r"(\d+)\s*([smhdw])", value):
        seconds = int(match.group(1)) * _UNITS[match.group(2)]
        moment = dt.datetime.fromtimestamp(now - seconds, dt.UTC)
    else:
        try:
            moment = dt.datetime.fromisoformat(text.strip().replace("z", "Z"))
        except ValueError:
            raise click.BadParameter(
                f"{text!r} is not a time: give an ISO date or time (2026-01-05, "
                "2026-01-05T10:00, UTC unless it has an offset), today, yesterday, "
                "or an age such as 30m, 1h, 2d",
                param_hint="'--since'",
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
        moment = moment.astimezone(dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"


def _log_matches(record: dict[str, Any], filters: dict[str, str | None], since: str | None) -> bool:
    for key, wanted in filters.items():
        if wanted is None:
            continue
        if key == "rule":
            if wanted not in {r.get("id") for r in record.get("rules") or []}:
                return False
        elif str(record.get(key)) != wanted:
            return False
    return since is None or str(record.get("time", "")) >= since


# A shell command in `hookwise logs` text output: on one line, cut past this many characters.
LOG_COMMAND_WIDTH = 120


def _log_line(record: dict[str, Any]) -> str:
    tool = f" {record.get('host_tool')}" if record.get("host_tool") else ""
    who = record.get("host") or "-"
    if record.get("framework"):  # a framework agent's decision (hookwise.integrations)
        agent = f"/{record['agent']}" if record.get("agent") else ""
        who = f"{record['framework']}{agent}"
    rule = f" [{record['rule']}]" if record.get("rule") else ""
    reason = f": {record['reason']}" if record.get("reason") else ""
    command = record.get("command")
    shown = ""
    if isinstance(command, str) and command:
        line = " ".join(command.split())
        shown = (
            f" $ {line if len(line) <= LOG_COMMAND_WIDTH else line[: LOG_COMMAND_WIDTH - 1] + '…'}"
        )
    if record.get("source") in ("fire", "simulate"):  # not an agent's call (policy/hook.py)
        who = f"{who} [{record['source']}]"
    return (
        f"{record.get('time', '?')} {who} {record.get('event') or '-'}{tool}"
        f"{shown} -> {record.get('decision', '?')}{rule}{reason}{_approval_text(record)}"
    )


def _approval_text(record: dict[str, Any]) -> str:
    """`` [approval ID allowed by NAME: note]`` for a decision that went to the relay;
    `` (interrupt: rejected)``, how the ask was answered, for a framework's own approval."""
    approval = record.get("approval")
    if not isinstance(approval, dict):
        answered = record.get("ask_resolved")
        return f" ({answered})" if isinstance(answered, str) and answered else ""
    words = [f"approval {approval.get('id') or '-'} {approval.get('outcome') or '?'}"]
    if approval.get("approver"):
        words.append(f"by {approval['approver']}")
    if approval.get("remembered_from"):
        words.append(f"(remembered from {approval['remembered_from']})")
    text = " ".join(words)
    if approval.get("note"):
        text += f": {approval['note']}"
    elif approval.get("error"):
        text += f": {approval['error']}"
    return f" [{text}]"


@click.group(invoke_without_command=True)
@click.option(
    "--path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The audit log to read (default: the one the policy's settings name).",
)
@click.option(
    "--decision",
    type=click.Choice(["deny", "ask", "allow", "none"]),
    default=None,
    help="Only records with this decision.",
)
@click.option(
    "--host", type=click.Choice(PLATFORMS), default=None, help="Only events from this host."
)
@click.option("--session", default=None, help="Only this session id's records.")
@click.option("--rule", default=None, help="Only decisions this rule matched.")
@click.option(
    "--framework",
    default=None,
    help="Only decisions for agents of this framework (claude-agent-sdk, openai-agents...).",
)
@click.option("--agent", default=None, help="Only decisions for the framework agent of this name.")
@click.option(
    "--since",
    default=None,
    help="Only records from then on: an ISO date or time (UTC unless it has an offset), "
    "today, yesterday, or an age (30m, 1h, 2d).",
)
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=0),
    default=50,
    show_default=True,
    help="How many of the newest records to show; 0: all.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the records as JSON lines.")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new records.")
@click.pass_context
def logs(
    ctx: click.Context,
    path: Path | None,
    decision: str | None,
    host: str | None,
    session: str | None,
    rule: str | None,
    framework: str | None,
    agent: str | None,
    since: str | None,
    limit: int,
    as_json: bool,
    follow: bool,
) -> None:
    """Show the audit log of `hookwise hook` decisions (newest last); `logs export` sends it on."""
    if ctx.invoked_subcommand is not None:
        return
    if since is not None:
        since = parse_since(since, time.time())
    from hookwise.policy import audit, fastjson
    from hookwise.policy.rules.schema import default_settings

    log = str(path) if path else audit.audit_path(default_settings(), dict(os.environ))
    if path is not None and not follow and not path.exists():  # the default may not exist yet
        raise InputError(f"--path {path}: no such file")
    filters = {
        "decision": decision,
        "host": host,
        "session": session,
        "rule": rule,
        "framework": framework,
        "agent": agent,
    }

    def show(record: dict[str, Any]) -> None:
        click.echo(fastjson.dumps(record) if as_json else _log_line(record))

    records = audit.read_records(log)
    bad = [number for number, record, _ in records if record is None]
    if bad:
        click.echo(
            f"{log}: {len(bad)} line(s) are not JSON records (first: line {bad[0]})", err=True
        )
    chosen = [r for _, r, _ in records if r is not None and _log_matches(r, filters, since)]
    for record in chosen[-limit:] if limit > 0 else chosen:
        show(record)
    if not follow:
        if not records:
            click.echo(f"{log}: no records", err=True)
        return
    offset = Path(log).stat().st_size if Path(log).exists() else 0
    # Ctrl-C ends it like any command (cli/app.py: exit 130)
    while True:
        time.sleep(0.5)
        if not Path(log).exists():
            continue
        size = Path(log).stat().st_size
        if size < offset:  # rotated
            offset = 0
        if size == offset:
            continue
        with open(log, encoding="utf-8", errors="replace") as handle:
            handle.seek(offset)
            chunk = handle.read()
            offset = handle.tell()
        for line in chunk.splitlines():
            try:
                record = fastjson.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and _log_matches(record, filters, since):
                show(record)


def _trust_targets(files: tuple[Path, ...], cwd: Path | None) -> list[str]:
    """The files named, else every project and local policy that applies here."""
    if files:
        return [str(path) for path in files]
    from hookwise.policy.trust.scopes import read_scope_sources, scope_sources

    found = scope_sources(str(cwd or Path.cwd()), dict(os.environ))
    try:
        present = read_scope_sources([s for s in found if s[0] in ("project", "local")])
    except OSError as exc:
        raise InputError(f"cannot read the policy: {exc}") from None
    targets = [path for _scope, path, data in present if data is not None]
    if not targets:
        raise InputError(
            "no project policy applies here (.hookwise/policy.yaml); `hookwise policy init` "
            "writes one"
        )
    return targets


@policy.command(name="trust")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@_cwd_option
@click.option("--json", "as_json", is_flag=True, help="Print the trusted files as JSON.")
@changes_guardrails("policy trust")
def trust_cmd(files: tuple[Path, ...], cwd: Path | None, as_json: bool) -> None:
    """Apply project policy FILES in full (default: those that apply here), pinned to
    their exact content: a later change makes them restrictive-only again.

    Read the file first: a trusted policy can allow commands, run validators and change
    your own rules. The trust is stored per user in ~/.config/hookwise/trust.json.
    """
    from hookwise.policy.trust.store import TrustStoreError, store_path, trust_file

    store = store_path(dict(os.environ))
    done: list[dict[str, str]] = []
    for target in _trust_targets(files, cwd):
        try:
            real, digest = trust_file(target, dict(os.environ))
        except (OSError, TrustStoreError) as exc:
            raise InputError(str(exc)) from None
        done.append({"path": real, "sha256": digest})
        if not as_json:
            click.echo(f"trusted {real} (sha256 {digest[:16]}...) in {store}")
    if as_json:
        click.echo(_dump({"store": store, "trusted": done}))


@policy.command(name="untrust")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@_cwd_option
@click.option("--json", "as_json", is_flag=True, help="Print what was untrusted as JSON.")
@changes_guardrails("policy untrust")
def untrust_cmd(files: tuple[Path, ...], cwd: Path | None, as_json: bool) -> None:
    """Forget the trust of project policy FILES (default: those that apply here)."""
    from hookwise.policy.trust.store import TrustStoreError, untrust_file

    done: list[dict[str, object]] = []
    for target in _trust_targets(files, cwd):
        try:
            removed = untrust_file(target, dict(os.environ))
        except (OSError, TrustStoreError) as exc:
            raise InputError(str(exc)) from None
        done.append({"path": str(target), "was_trusted": removed})
        if not as_json:
            click.echo(f"{'untrusted' if removed else 'was not trusted:'} {target}")
    if as_json:
        click.echo(_dump({"untrusted": done}))


@policy.command(name="hook-command")
@host_option("The host the command answers (default: detected from each payload)", "hook")
@_platform_alias
@click.option("--console", is_flag=True, help="The plain `hookwise hook` form instead.")
def hook_command(dialect: str | None, platform: str | None, console: bool) -> None:
    """Print the command line to register as the agents' hook (the fastest form): it
    checks the hook's resource limits, then runs this machine's interpreter."""
    from hookwise.config.hookwise_command import direct_command
    from hookwise.policy.install.launcher import hook_argv

    click.echo(direct_command(hook_argv(dialect or platform, console=console)))


@policy.command(name="fuzz")
@click.option("--rule", "rule_id", default=None, metavar="ID", help="Fuzz this rule only.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Report format (--json is the same as --format json).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--policy",
    "policy_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Fuzz this policy file alone (default: every scope that applies here).",
)
@_cwd_option
def fuzz_cmd(
    rule_id: str | None, fmt: str, as_json: bool, policy_file: Path | None, cwd: Path | None
) -> None:
    """Mutation-test the deny and ask rules: equivalent spellings that pass, near misses
    that are blocked. Exit 1 when anything is found (for CI), 0 when not, 2 on bad input."""
    if as_json:
        fmt = "json"
    from hookwise.policy.rules.compiler import compile_sources
    from hookwise.policy.tools.fuzz import fuzz_policy
    from hookwise.policy.trust.store import Trust

    where = str(cwd or Path.cwd())
    if policy_file is not None:
        try:
            data = policy_file.read_bytes()
        except OSError as exc:
            raise click.UsageError(f"cannot read {policy_file}: {exc}") from None
        compiled = compile_sources(
            [("project", str(policy_file), data)], trust=Trust.everything_trusted()
        )
    else:
        compiled = _compile_scopes(where, dict(os.environ))
    if compiled["errors"]:
        lines = "\n".join(_problem_line(p) for p in compiled["errors"])
        raise click.UsageError(f"the policy has errors; fix them first:\n{lines}")
    try:
        reports = fuzz_policy(compiled, rule_id=rule_id, env=dict(os.environ))
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    findings = [f for r in reports for f in r.findings]
    if fmt == "json":
        click.echo(
            _dump(
                {
                    "rules": [
                        {
                            "rule": r.rule,
                            "seed": r.seed,
                            "tried": r.tried,
                            "note": r.note,
                            "findings": [f.as_dict() for f in r.findings],
                        }
                        for r in reports
                    ],
                    "escapes": sum(f.kind == "escape" for f in findings),
                    "false_positives": sum(f.kind == "false-positive" for f in findings),
                }
            )
        )
    else:
        for report in reports:
            head = f"{report.rule}: {report.tried} commands tried"
            if report.seed:
                head += f" from {report.seed!r}"
            click.echo(head + (f" ({report.note})" if report.note else ""))
            for f in report.findings:
                what = "ESCAPE" if f.kind == "escape" else f"FALSE POSITIVE ({f.blocked_by})"
                click.echo(f"  {what} [{f.form}]: {f.command!r}")
        escapes = sum(f.kind == "escape" for f in findings)
        click.echo(
            f"{len(reports)} rule(s): {escapes} escape(s), "
            f"{len(findings) - escapes} false positive(s)"
        )
    if findings:
        raise SystemExit(1)


def _coverage_text(report: Any) -> str:
    lines = []
    for item in report.coverage:
        lines.append(f"{item.status:8} {item.rule} ({item.decision})")
        for why in item.why:
            lines.append(f"           - {why}")
    counts = {
        s: sum(c.status == s for c in report.coverage) for s in ("covered", "partial", "none")
    }
    lines.append(
        f"{len(report.natives)} entries; rules covered {counts['covered']}, partly covered "
        f"{counts['partial']}, not expressible {counts['none']}"
    )
    return "\n".join(lines)


@policy.command("export")
@click.option(
    "--host",
    "host",
    required=True,
    type=click.Choice(hosts_with("hook")),
    help="The host whose own permission rules to write (hosts without an exporter: "
    f"every rule not expressible, with why; exporters: {', '.join(EXPORT_HOSTS)}).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the rules to this file (default: stdout; the coverage goes to stderr).",
)
@click.option("--json", "as_json", is_flag=True, help="Print entries, coverage and file as JSON.")
@_cwd_option
@_policy_option
def export_cmd(
    host: str, out: Path | None, as_json: bool, cwd: Path | None, policy_file: Path | None
) -> None:
    """Write the part of the policy HOST's own permission system can express, and list every
    rule it could not express in full (partly covered or not at all), with why."""
    from hookwise.config.atomic import write_text_atomic
    from hookwise.policy.export.build import export_policy

    compiled = _compile_scopes(str(cwd or Path.cwd()), _env(policy_file))
    if compiled["errors"]:
        lines = "\n".join(_problem_line(p) for p in compiled["errors"])
        raise click.UsageError(f"the policy has errors; fix them first:\n{lines}")
    report = export_policy(compiled, host)
    if out is not None:
        try:
            write_text_atomic(out, report.content)
        except OSError as exc:
            raise InputError(f"cannot write {out}: {os_reason(exc)}") from None
    if as_json:
        click.echo(_dump(report.as_dict()))
        return
    if out is None:
        click.echo(report.content, nl=False)
    click.echo(_coverage_text(report), err=out is None)
