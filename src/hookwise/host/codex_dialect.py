"""Codex's reading of hook answers and what the agent then does.

Codex fails open: an answer carrying anything it does not support marks the hook failed
and is ignored whole (the tool runs). Exit 2 blocks only with a non-empty stderr; other
non-zero codes are failures; Stop answers must be JSON. Several PreToolUse hooks: any
deny wins and the last rewrite wins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from hookwise.config.codex.mcp import load_codex_mcp_servers
from hookwise.config.codex.settings import CodexHooks, load_codex_hooks
from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.mcp_servers import McpServers
from hookwise.host.dialect_answers import (
    DialectEffect,
    Reading,
    first_line,
    join,
    type_problem,
)
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.outcome import Outcome
from hookwise.host.runtime import LoadOptions
from hookwise.protocol.codex import (
    BLOCK_FRAME_PREFIX,
    BLOCK_FRAME_SUFFIX,
    CODEX,
    COMMON_LEFT_OUT,
    CONTEXT_CAP_BYTES,
    CONTEXT_CUT_FRAME,
    CONTEXT_CUT_PATH,
    CONTEXT_KEPT_BYTES,
    REASON_CAP_BYTES,
    TOOL_ALIASES,
    TURN_ID_AFTER,
    UPDATED_INPUT_NO_COMMAND,
)
from hookwise.protocol.dialect import Decision, DialectEvent, Exit2, Kind
from hookwise.protocol.jsvalue import JSON, js_json_parse, js_string, truthy

EXIT_BLOCK = 2


def _unsupported(event: DialectEvent, answer: dict[str, JSON]) -> str | None:
    """Why Codex rejects this answer (it then ignores it whole), or None."""
    allowed = set(event.common_fields) | {"hookSpecificOutput"}
    if event.decision_values:
        allowed |= {"decision", "reason"}
    for key in answer:
        if key not in allowed:
            return f"unsupported field {key!r} in {event.name} output"
    wrong = type_problem(answer)
    if wrong is not None:
        return f"invalid {event.name} output: {wrong}"
    decision = answer.get("decision")
    if decision is not None and decision not in event.decision_values:
        return f"unsupported decision {decision!r} in {event.name} output"
    specific = answer.get("hookSpecificOutput")
    overridden = isinstance(specific, dict) and "permissionDecision" in specific
    if decision == "block" and not truthy(answer.get("reason")) and not overridden:
        # the output schema's own note: a block needs a reason, checked when parsing (not
        # where a permissionDecision decides instead: observed, its rewrite then runs)
        return f"{event.name} hook returned decision:block without a non-empty reason"
    if answer.get("continue") is False and not event.stop_supported:
        return f"unsupported continue: false in {event.name} output"
    if specific is None:
        return None
    if not isinstance(specific, dict):
        return "hookSpecificOutput must be an object"
    if "hookEventName" not in specific:
        return "hookSpecificOutput.hookEventName is missing"
    name = specific["hookEventName"]
    if not isinstance(name, str) or name not in CODEX.events:  # a list or object: hostile
        # any Codex event name parses (another event's too); any other spelling does not
        return f"unknown hookSpecificOutput.hookEventName {specific['hookEventName']!r}"
    for key in specific:
        if key != "hookEventName" and key not in event.specific_fields:
            return f"unsupported field hookSpecificOutput.{key} in {event.name} output"
    if event.decision is Decision.PERMISSION:
        choice = specific.get("permissionDecision")
        if choice is not None and choice not in event.permission_values:
            return f"unsupported permissionDecision {choice!r}"
        if choice == "allow" and specific.get("updatedInput") is None:
            return "permissionDecision allow without updatedInput is not supported"
        if choice == "deny" and not truthy(specific.get("permissionDecisionReason")):
            return "permissionDecision deny without a non-empty permissionDecisionReason"
        if "updatedInput" in specific and choice != "allow":
            return "updatedInput needs permissionDecision allow"
    return None


def parse_output(stdout: str) -> tuple[dict[str, JSON] | None, str | None]:
    """Codex's split of stdout into JSON and plain text (observed with 0.169.0): output
    that parses as JSON other than a string, or starts with ``{`` or ``[``, is JSON and
    must be an object; anything else is plain text, a byte-order mark first included (it
    is not whitespace to Codex)."""
    stripped = stdout.strip()
    if not stripped:
        return None, None
    try:
        value = js_json_parse(stripped)
    except ValueError as exc:
        if stripped.startswith(("{", "[")):
            return None, f"invalid JSON output: {exc}"
        return None, None
    if isinstance(value, str):
        return None, None
    if not isinstance(value, dict):
        return None, "JSON output is not an object"
    return value, None


RESERVED_PERMISSION_FIELDS = ("updatedInput", "updatedPermissions", "interrupt")


def read(event: DialectEvent, stdout: str, stderr: str, exit_code: int | None) -> Reading:
    if exit_code == EXIT_BLOCK and event.exit2 is not Exit2.IGNORED:
        if stderr.strip():
            return Reading("exit2", None, "", stderr.strip(), exit_code)
        return Reading("failed", None, "", stderr, exit_code, "exit 2 with empty stderr")
    if exit_code != 0:
        status = "a signal" if exit_code is None else str(exit_code)
        line = first_line(stderr)
        detail = f": {line}" if line else ""
        return Reading("failed", None, "", stderr, exit_code, f"hook exited with {status}{detail}")
    answer, problem = parse_output(stdout)
    if problem is not None:
        return Reading("failed", None, "", stderr, exit_code, f"hook returned {problem}")
    if answer is None:
        text = stdout.strip()
        if not text:
            return Reading("none", None, "", stderr, exit_code)
        if event.json_required:
            return Reading("failed", None, text, stderr, exit_code, "hook returned invalid JSON")
        return Reading("text", None, text, stderr, exit_code)
    reason = _unsupported(event, answer)
    if reason is not None:
        return Reading("failed", None, "", stderr, exit_code, reason)
    return Reading("json", answer, "", stderr, exit_code)


def _text(value: JSON, *, cut: bool = True) -> str | None:
    """A text field as Codex passes it on; cut to the cap unless the cut comes later
    (a blocked shell call's reason is cut with its frame, ``finish``)."""
    if not truthy(value):
        return None
    text = js_string(value)
    return truncate_middle(text, REASON_CAP_BYTES) if cut else text


def model_reason(reason: str, command: JSON) -> str:
    """A blocked shell call's reason as it survives Codex's cut of the framed text."""
    if not isinstance(command, str):
        return truncate_middle(reason, REASON_CAP_BYTES)
    prefix, suffix = BLOCK_FRAME_PREFIX, BLOCK_FRAME_SUFFIX.format(command=command)
    framed = truncate_middle(prefix + reason + suffix, REASON_CAP_BYTES)
    if framed.startswith(prefix) and framed.endswith(suffix):
        return framed[len(prefix) : len(framed) - len(suffix)]
    return framed  # the cut reached into the frame: the model gets what is left of it


def model_context(context: str) -> str:
    """A hook's additionalContext as the model gets it: whole up to CONTEXT_CAP_BYTES, else
    its head and tail in Codex's frame (the whole saved to a file)."""
    raw = context.encode("utf-8")
    if len(raw) <= CONTEXT_CAP_BYTES:
        return context
    left, right = CONTEXT_KEPT_BYTES, len(raw) - CONTEXT_KEPT_BYTES
    while left > 0 and raw[left] & 0xC0 == 0x80:
        left -= 1
    while right < len(raw) and raw[right] & 0xC0 == 0x80:
        right += 1
    lines = context.split("\n")
    return CONTEXT_CUT_FRAME.format(
        tokens=-(-len(raw) // 4),
        lines=len(lines) - (lines[-1] == ""),
        head=raw[:left].decode("utf-8"),
        removed=-(-(right - left) // 4),
        tail=raw[right:].decode("utf-8"),
        path=CONTEXT_CUT_PATH,
    )


def finish(event: DialectEvent, effect: DialectEffect, args: Mapping[str, JSON]) -> DialectEffect:
    """Cut a blocked tool call's reason as Codex does, knowing the call's command; a shell
    call's rewrite without a string ``command`` fails the call."""
    outcome = effect.outcome
    updated = outcome.updated_input
    shell = event.kind is Kind.TOOL_BEFORE and args.get("tool_name") == "Bash"
    if shell and updated is not None and not isinstance(updated.get("command"), str):
        failed = replace(
            outcome, proceed=False, updated_input=None, reason_for_model=UPDATED_INPUT_NO_COMMAND
        )
        return replace(effect, decision="deny", outcome=failed)
    if event.kind is not Kind.TOOL_BEFORE or outcome.reason_for_model is None:
        return effect
    tool_input = args.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    cut = model_reason(outcome.reason_for_model, command)
    return replace(effect, outcome=replace(outcome, reason_for_model=cut))


def truncate_middle(text: str, max_bytes: int) -> str:
    """Codex's shortening: the head and the tail (half the budget each, on character
    boundaries) around a "…N tokens truncated…" marker, at four bytes a token."""
    raw = text.encode("utf-8")
    if len(raw) <= max_bytes:
        return text
    left = max_bytes // 2
    right = len(raw) - (max_bytes - left)
    while left > 0 and raw[left] & 0xC0 == 0x80:
        left -= 1
    while right < len(raw) and raw[right] & 0xC0 == 0x80:
        right += 1
    removed = -(-(len(raw) - max_bytes) // 4)
    head, tail = raw[:left].decode("utf-8"), raw[right:].decode("utf-8")
    return f"{head}…{removed} tokens truncated…{tail}"


def decide(event: DialectEvent, readings: Sequence[Reading]) -> DialectEffect:
    decision = "none"
    reasons: list[str] = []
    user: list[str] = []
    contexts: list[str] = []
    diagnostics: list[str] = []
    updated: dict[str, JSON] | None = None
    stop = blocked = False
    for r in readings:
        if r.problem:
            diagnostics.append(r.problem)
        if r.kind == "failed":
            continue
        if r.kind == "text" and event.plain_stdout_is_context:
            contexts.append(r.text)
        cut_now = event.kind is not Kind.TOOL_BEFORE  # pre-tool reasons are cut in finish
        if r.kind == "exit2":
            reason = _text(r.stderr, cut=cut_now) or ""
            if event.exit2 is Exit2.FEEDBACK:
                reasons.append(reason)
            elif event.kind is Kind.PROMPT:
                blocked, decision = True, "block"
                user.append(reason)
            else:
                blocked = True
                denies = event.decision in (Decision.PERMISSION, Decision.PERMISSION_REQUEST)
                decision = "deny" if denies else "block"
                reasons.append(reason)
            continue
        answer = r.answer
        if not answer:
            continue
        specific = answer.get("hookSpecificOutput")
        specific = specific if isinstance(specific, dict) else {}
        if answer.get("continue") is False and event.stop_supported:
            stop = True
            user.append(_text(answer.get("stopReason")) or "")
        user.append(_text(answer.get("systemMessage")) or "")
        context = specific.get("additionalContext")
        if isinstance(context, str) and context:
            contexts.append(model_context(context))
        if event.decision is Decision.PERMISSION:
            choice = specific.get("permissionDecision")
            # hookSpecificOutput's decision, when there is one, overrides the top-level
            # one: an allow + updatedInput runs the rewrite over a top-level block
            if choice == "deny" or (choice is None and answer.get("decision") == "block"):
                blocked, decision = True, "deny"
                reasons.append(
                    _text(specific.get("permissionDecisionReason"), cut=cut_now)
                    or _text(answer.get("reason"), cut=cut_now)
                    or ""
                )
            elif choice == "allow" and isinstance(specific.get("updatedInput"), dict):
                updated = specific["updatedInput"]  # the last rewrite wins
                if decision == "none":
                    decision = "allow"
            elif choice == "allow":  # not an object: the call fails
                blocked, decision = True, "deny"
                reasons.append(UPDATED_INPUT_NO_COMMAND)
        elif event.decision is Decision.PERMISSION_REQUEST:
            verdict = specific.get("decision")
            behavior = verdict.get("behavior") if isinstance(verdict, dict) else None
            reserved = isinstance(verdict, dict) and any(
                key in verdict for key in RESERVED_PERMISSION_FIELDS
            )
            if reserved:  # reserved fields fail closed
                blocked, decision = True, "deny"
                diagnostics.append("reserved PermissionRequest field: denied")
            elif behavior == "deny":
                blocked, decision = True, "deny"
                message = _text(verdict.get("message")) if isinstance(verdict, dict) else None
                if message:
                    reasons.append(message)
            elif behavior == "allow" and decision == "none":
                decision = "allow"
        elif event.decision is Decision.BLOCK and answer.get("decision") == "block":
            decision = "block"
            reason = _text(answer.get("reason")) or ""
            if event.kind is Kind.TOOL_AFTER:
                reasons.append(reason)
            elif event.kind is Kind.PROMPT:
                blocked = True
                user.append(reason)
            else:
                blocked = True
                reasons.append(reason)
    if event.kind is Kind.STOP and stop:
        blocked = False  # continue:false wins over a block: the session ends
    proceed = not blocked
    if stop and event.kind is Kind.PROMPT:
        proceed = False  # continue:false ends the turn before the prompt is sent
    if event.decision is Decision.PERMISSION_REQUEST:
        proceed = decision == "allow"
    model_text = join(reasons) if (not proceed or event.kind is Kind.TOOL_AFTER) else None
    return DialectEffect(
        dialect="codex",
        event=event.name,
        decision=decision,
        outcome=Outcome(
            proceed=proceed,
            reason_for_model=model_text,
            message_for_user=join(user),
            stop_session=stop,
            updated_input=updated if proceed else None,
            additional_context=join(contexts),
            # a permission request no hook decided goes to Codex's own approval
            asks_user=event.decision is Decision.PERMISSION_REQUEST and decision == "none",
        ),
        diagnostics=tuple(diagnostics),
    )


def matches(matcher: JSON, value: JSON) -> bool:
    """Codex's matcher: a regex (unanchored); '*', '' or none match all; apply_patch also
    answers to its aliases Edit and Write."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    subject = value if isinstance(value, str) else js_string(value)
    try:
        pattern = re.compile(matcher)
    except re.error:
        return False
    names = (subject, *TOOL_ALIASES.get(subject, ()))
    return any(pattern.search(name) for name in names)


SPEC = CODEX


def mcp_servers(workspace: str, options: LoadOptions, hooks: DialectHooks) -> McpServers:
    """The servers an mcp_tool hook may call: ``[mcp_servers]`` of the loaded layers."""
    return load_codex_mcp_servers(hooks.layers if isinstance(hooks, CodexHooks) else [])


def load(workspace: str, options: LoadOptions) -> DialectHooks:
    """Codex's config layers, hooks.json files and hook trust (config/codex/settings.py)."""
    return load_codex_hooks(
        workspace,
        home=options.home,
        env=options.env,
        trust_project=True if options.trust_workspace else None,
        bypass_hook_trust=options.bypass_hook_trust,
    )


def _event_common(event: str) -> tuple[str, ...]:
    """The common fields of ``event``'s input in Codex's order: those it leaves out gone, its
    own ``turn_id`` after ``session_id``."""
    left_out = COMMON_LEFT_OUT.get(event, ())
    fields = [f for f in SPEC.common_input if f not in left_out]
    if "turn_id" in SPEC.event(event).input_fields and TURN_ID_AFTER in fields:
        fields.insert(fields.index(TURN_ID_AFTER) + 1, "turn_id")
    return tuple(fields)


RUNTIME = DialectRuntime(
    SPEC,
    read,
    decide,
    matches,
    None,
    load,
    finish=finish,
    mcp_loader=mcp_servers,
    event_common={event: _event_common(event) for event in SPEC.events},
)
