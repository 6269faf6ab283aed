"""Hosts that read hook answers in Claude Code's form through a table of their own: Qwen
Code, GitHub Copilot CLI (and any later host of that family).

Claude Code's reading (claude_dialect.py) does the work; what differs is data:

* the event table says which answer fields the host reads (an ``updatedInput`` or
  ``additionalContext`` the table does not list is ignored: Qwen Code has no rewrite) and
  where they are: on ``top_permission`` / ``top_behavior`` events (Copilot's camelCase keys)
  the decision is at the top level of the answer, and anything else there is ignored;
* the event's ``exit2_text`` is what the model reads after an exit 2 (Copilot drops
  stderr); ``exit2_json``: whether the JSON still counts after an exit 2;
  ``exit2_needs_stderr``: an exit 2 with nothing on stderr is no block (Qwen);
  ``also_top_level``: answer fields also read at the top level (Copilot's PascalCase
  PreToolUse takes a top-level ``permissionDecision``);
* the host row's ``failure`` says what a crash (exit 1, or any other code without a JSON
  answer) and a timeout do to a tool call: ``blocked`` makes them a denial whose text is
  the event's ``failure_text``;
* the row's ``timeout_unit``, settings files, layout and trust drive the loader
  (config/host_hooks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.host_hooks import load_host_hooks
from hookwise.host import claude_dialect
from hookwise.host.dialect_answers import DialectEffect, Reading
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.runtime import LoadOptions
from hookwise.protocol.dialect import Decision, DialectEvent, Kind
from hookwise.protocol.hosts import claude_events, common_input, host, project_env, table
from hookwise.protocol.jsvalue import JSON

# where a top-level decision pattern puts the decision in Claude Code's form
_TOP_FORMS = {
    Decision.TOP_PERMISSION: Decision.PERMISSION,
    Decision.TOP_BEHAVIOR: Decision.PERMISSION_REQUEST,
}
_TOOL_KINDS = (Kind.TOOL_BEFORE, Kind.PERMISSION)


def _as_claude(event: DialectEvent, answer: dict[str, JSON]) -> dict[str, JSON]:
    """A top-level answer in Claude Code's ``hookSpecificOutput`` form, with only the
    fields the table lists (``modifiedArgs`` is Claude's ``updatedInput``)."""
    listed = {k: answer[k] for k in event.specific_fields if k in answer}
    if event.decision is Decision.TOP_BEHAVIOR:
        verdict = {k: listed[k] for k in ("behavior", "message") if k in listed}
        return {"hookSpecificOutput": {"hookEventName": event.name, "decision": verdict}}
    if "modifiedArgs" in listed:
        listed["updatedInput"] = listed.pop("modifiedArgs")
    return {"hookSpecificOutput": {"hookEventName": event.name, **listed}}


def _only_listed(event: DialectEvent, answer: dict[str, JSON]) -> dict[str, JSON]:
    """The answer without the pre-tool fields the table does not list (the host ignores
    them: Qwen Code runs the original command whatever ``updatedInput`` says)."""
    specific = answer.get("hookSpecificOutput")
    if event.decision is not Decision.PERMISSION or not isinstance(specific, dict):
        return answer
    kept = {k: v for k, v in specific.items() if k == "hookEventName" or k in event.specific_fields}
    return {**answer, "hookSpecificOutput": kept}


def _without_ignored(event: DialectEvent, answer: dict[str, JSON]) -> dict[str, JSON]:
    """The answer without a permission decision the host does not act on (and its reason):
    Droid's ``ask`` lets the call go on as its autonomy level decides."""
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, dict) or specific.get("permissionDecision") not in (
        event.ignored_decisions or ()
    ):
        return answer
    kept = {
        k: v
        for k, v in specific.items()
        if k not in ("permissionDecision", "permissionDecisionReason")
    }
    return {**answer, "hookSpecificOutput": kept}


def _lifted(event: DialectEvent, answer: dict[str, JSON]) -> dict[str, JSON]:
    """The answer as Claude Code would read it: the fields the host also takes at the top
    level moved into ``hookSpecificOutput`` (where that has none of its own), and a
    top-level ``decision`` dropped where the event takes none (Copilot ignores it)."""
    out = dict(answer)
    if not event.decision_values:
        out.pop("decision", None)
    lifted = {k: out[k] for k in event.also_top_level if k in out}
    if lifted:
        specific = out.get("hookSpecificOutput")
        inner = dict(specific) if isinstance(specific, dict) else {}
        if "permissionDecision" not in inner:
            inner = {**lifted, **inner, "hookEventName": event.name}
        out["hookSpecificOutput"] = inner
    return out


def make_runtime(name: str) -> DialectRuntime:
    """The runtime of host ``name`` from its row and its table."""
    info = host(name)
    spec = table(name)
    fails_closed = {what for what, effect in info.failure.items() if effect == "blocked"}

    def adapt(event: DialectEvent, r: Reading) -> Reading:
        crashed = r.kind == "error" and r.exit_code not in (0, 2)
        if crashed and event.other_exit_blocks and r.exit_code not in (None, 1):
            why = f"exit {r.exit_code}: {info.title} does not run the call"
            return Reading("exit2", None, "", "", r.exit_code, why)
        if (
            (crashed and "crash" in fails_closed)
            or (r.kind == "failed" and "timeout" in fails_closed)
        ) and event.kind in _TOOL_KINDS:
            return Reading("exit2", None, "", event.failure_text, r.exit_code, r.problem)
        if r.kind == "exit2" and event.exit2_needs_stderr and not r.stderr.strip():
            return Reading("none", None, "", "", r.exit_code, "exit 2 without stderr: no block")
        if r.kind == "exit2" and not event.exit2_json:
            r = replace(r, answer=None)
        if r.kind == "exit2" and event.exit2_text is not None:
            r = replace(r, stderr=event.exit2_text)
        if r.answer is None:
            return r
        if event.decision in _TOP_FORMS:
            return replace(r, answer=_as_claude(event, r.answer))
        return replace(
            r, answer=_without_ignored(event, _only_listed(event, _lifted(event, r.answer)))
        )

    def decide(event: DialectEvent, readings: Sequence[Reading]) -> DialectEffect:
        claude_event = event
        if event.decision in _TOP_FORMS:
            claude_event = replace(event, decision=_TOP_FORMS[event.decision])
        adapted = [adapt(event, r) for r in readings]
        return replace(claude_dialect.decide(claude_event, adapted), dialect=name)

    def check(event: DialectEvent, reading: Reading) -> Reading:
        if event.decision in _TOP_FORMS or not event.decision_values:
            return reading  # the host reads its few fields and ignores the rest
        return claude_dialect.check(event, reading)

    def load(workspace: str, options: LoadOptions) -> DialectHooks:
        env = dict(options.env)
        if options.home is not None:
            env["HOME"] = str(options.home)
        return load_host_hooks(name, spec, workspace, env, trusted=options.trust_workspace)

    names = claude_events(name)
    return DialectRuntime(
        spec,
        claude_dialect.read,
        decide,
        claude_dialect.matches,
        project_env(name),
        load,
        check,
        timeout_unit=info.timeout_unit,
        event_common={event: common_input(name, event) for event in spec.events},
        aliases=names[1] if names else {},
    )
