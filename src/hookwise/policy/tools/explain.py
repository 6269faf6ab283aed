"""``hookwise explain``: for one payload, every rule, matched or not, and why.

The decision is the one :func:`hookwise.policy.pipeline.decide` takes (the same code the hook
runs); the per-rule reasons come from :func:`hookwise.policy.rules.engine.match_rule` with a trace.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from hookwise.policy.pipeline import Outcome, decide
from hookwise.policy.retry_state import RetryState
from hookwise.policy.rules.engine import match_rule

if TYPE_CHECKING:
    from hookwise.policy.canonical import Event


# Programs whose operands are files: every word that is not an option is shown as a path.
FILE_PROGRAMS = frozenset(
    [
        "cat",
        "chgrp",
        "chmod",
        "chown",
        "cp",
        "cd",
        "dd",
        "du",
        "file",
        "head",
        "less",
        "ln",
        "ls",
        "mkdir",
        "more",
        "mv",
        "nano",
        "rm",
        "rmdir",
        "shred",
        "source",
        "stat",
        "tail",
        "tar",
        "tee",
        "touch",
        "truncate",
        "unlink",
        "vi",
        "vim",
        "wc",
    ]
)


def _path_like(word: str, absolute: str | None) -> bool:
    """Whether a shell word reads as a path: a separator, a dot, ``~`` or ``$``, or on disk."""
    if "/" in word or word.startswith(("~", "$", ".")) or "." in word.strip("."):
        return True
    return absolute is not None and os.path.lexists(absolute)


def split_arguments(event: Event) -> tuple[list[str], list[str]]:
    """The paths the event touches, and a shell command's other words (``push``, ``main``).

    Path rules see every word of a shell command (``files`` lists them all, since any word may
    name a file); explain shows the words that read as paths apart from the rest.
    """
    script = event.script
    if script is None:
        return event.files, []
    redirects = {target for cmd in script.commands for target in cmd.redirects}
    file_commands = {
        index
        for index, cmd in enumerate(script.commands)
        if cmd.argv and os.path.basename(cmd.argv[0]) in FILE_PROGRAMS
    }
    paths: list[str] = []
    others: list[str] = []
    for ref in event.paths:
        shown = ref.relative or ref.absolute or ref.raw
        if (
            ref.command < 0
            or ref.command in file_commands
            or ref.raw in redirects
            or _path_like(ref.raw, ref.absolute)
        ):
            paths.append(shown)
        else:
            others.append(ref.raw)
    # once each: a file is listed again where the parser reads it for a reading subcommand
    # too (git add F, git show HEAD:F)
    return list(dict.fromkeys(paths)), list(dict.fromkeys(others))


def rule_results(policy: dict[str, Any], outcome: Outcome) -> list[dict[str, Any]]:
    """Per rule: for each canonical event of the payload, the status and the matcher trace."""
    records: dict[str, dict[str, Any]] = {}
    if outcome.decision is not None:
        for record in outcome.decision.records:
            records.setdefault(record["id"], record)
    out: list[dict[str, Any]] = []
    for rule in policy["rules"]:
        results: list[dict[str, Any]] = []
        for ev in outcome.events:
            entry: dict[str, Any] = {"event": ev.name}
            if not rule["enabled"]:
                entry.update(status="disabled", trace=[])
            elif ev.name not in rule["on"]:
                entry.update(status="not for this event", trace=[])
            elif rule["on"][ev.name] is not None and (
                f"{ev.host}:{ev.host_event}" not in rule["on"][ev.name]
            ):
                entry.update(status=f"only for {', '.join(rule['on'][ev.name])}", trace=[])
            else:
                trace: list[Any] = []
                maybe: list[str] = []
                matched = match_rule(rule, ev, trace, maybe)
                status = "matched" if matched else "not matched"
                if maybe:  # words known only when it runs could make it match
                    status = "unverifiable"
                    trace.append(("unverifiable", False, "; ".join(maybe)))
                entry.update(
                    status=status,
                    trace=[{"matcher": m, "ok": ok, "detail": d} for m, ok, d in trace],
                )
            results.append(entry)
        item: dict[str, Any] = {
            "id": rule["id"],
            "scope": rule["scope"],
            "file": rule["file"],
            "line": rule["line"],
            "priority": rule["priority"],
            "mode": rule["mode"],
            "action": rule["action"],
            "results": results,
        }
        if rule["id"] in records:
            item["outcome"] = records[rule["id"]].get("outcome")
        out.append(item)
    return out


def explain(
    policy: dict[str, Any],
    payload: Any,
    platform: str | None,
    env: dict[str, str],
    *,
    now: float,
    run_validators: bool = True,
) -> dict[str, Any]:
    """The explanation of one payload as data (the CLI prints it)."""
    outcome = decide(
        payload, policy, platform, env, now=now, state=RetryState(), run_validators=run_validators
    )
    decision = outcome.decision
    paths, arguments = split_arguments(outcome.events[0]) if outcome.events else ([], [])
    relayed = None
    from hookwise.policy.approvals import relay

    if relay.applies(decision, outcome.events, policy["settings"], policy["hosts"]):
        config = policy["settings"]["approvals"]
        relayed = {
            "url": config["url"],
            "wait": config["wait"],
            "interactive_wait": config["interactive_wait"],
            "on_timeout": config["on_timeout"],
            # what `hookwise hook` would do now: a person at the host's own prompt?
            "hand_over": bool(
                config["on_timeout"] == "ask"
                and outcome.host is not None
                and relay.host_prompts(
                    outcome.host, outcome.events, policy["hosts"], policy["settings"]
                )
                and relay.attended(outcome.host, policy["hosts"][outcome.host], env)
            ),
        }
    script = outcome.events[0].script if outcome.events else None
    unverifiable = [
        {"command": " ".join(cmd.argv) or cmd.text, "why": cmd.unverifiable}
        for cmd in (script.commands if script is not None else [])
        if cmd.unverifiable is not None
    ] + [{"command": "(the line)", "why": why} for why in (script.overall if script else [])]
    from hookwise.policy import confinement

    confined, why_confined = confinement.confinement_status(env)
    return {
        "confinement": {"confined": confined, "why": why_confined},
        "unverifiable": unverifiable,
        "relay": relayed,
        "host": outcome.host,
        "event": outcome.host_event,
        "canonical": [e.name for e in outcome.events],
        "tool": outcome.events[0].tool if outcome.events else None,
        "host_tool": outcome.events[0].host_tool if outcome.events else None,
        "files": outcome.events[0].files if outcome.events else [],
        "paths": paths,
        "arguments": arguments,
        "error": outcome.error,
        "decision": decision.as_dict() if decision is not None else None,
        "answer": outcome.answer.as_dict(),
        "rules": rule_results(policy, outcome) if outcome.events and not outcome.error else [],
        "policy_errors": policy.get("errors", []),
        "policy_files": policy.get("files", []),
        "untrusted": policy.get("untrusted", []),
    }
