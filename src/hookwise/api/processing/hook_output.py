"""parse-output: one hook run (exit code, stdout, stderr) -> the contract's answer.

The reading is the host runtime's, never a second parser: Claude Code and Codex events go
through their dialect's ``read`` and ``decide`` (host/claude_dialect.py, codex_dialect.py),
Gemini CLI events through ``interpret_documented``, ``aggregate`` and ``compute_effect``
(the documented profile). This module only chooses what the host is shown and words the
result. An answer nesting more than 64 levels is not read (see json_validation).

What the configuration changes:

* ``exitCodeBehavior`` maps the exit code to success, blocking_error or non_blocking_error;
  the host then reads the run as if the hook had exited 0, 2 or (for a non-blocking error)
  its own code (1 when the code was 0 or 2). With the default table that is the real code.
* blocking_error: exit 2's meaning from the event table. On a blocking event (PreToolUse,
  UserPromptSubmit, Stop, ...) the answer is a deny/block decision in ``hookSpecificData``
  with the reason (the JSON's blocking reason if it gave one, else stderr), and
  ``continue`` stays true: the agent goes on, the action does not happen. JSON cannot
  override it. On PostToolUse, where the tool already ran, exit 2 is Claude Code's
  feedback, the same as ``decision: "block"``, and is shown so. stderr is always in the
  hook block's metadata.
* non_blocking_error: a valid JSON answer on stdout still decides when ``jsonPrecedence``
  is true (as in Claude Code; for Gemini events too, where the reference alone would
  ignore it); when it is false only a success code lets JSON count. With
  no JSON deciding, the host's notice goes to ``errors``; either way stderr (or the
  notice, when stderr is empty) becomes a ``warn`` block and ``continue`` stays true.
* ``validationLevel``: the answer is checked by json_validation (the same validator as
  validate-json). strict: errors go to ``errors`` as ``"<field>: <message>"`` and the
  failing fields are removed before the host reads the answer, so they are not honoured
  (a wrong-typed systemMessage is not shown, an unknown decision value decides nothing, a
  hookSpecificOutput naming another event is dropped); the rest of the answer counts.
  lenient: they go to ``errors`` as ``"Warning - <field>: <message> (<CODE>)"`` and the
  host reads the answer as written. Validator warnings are listed as ``"Warning - …"``.

The answer: ``continue`` is false only when the session stops (``continue: false``
honoured, or a PreToolUse ``defer``, which ends a headless Claude Code run).
``hookSpecificData`` is the hook's ``hookSpecificOutput`` (when it names the event) with
the host's decision laid over it in the contract's words: ``permissionDecision`` /
``permissionDecisionReason`` on PreToolUse, ``decision: "block"`` / ``reason`` on the
block-style events, plus plain-stdout context where the host takes stdout as context.
Legacy top-level ``decision: approve|block`` on PreToolUse reads as the host's runtime reads
it (Claude Code: allow/deny; Codex: block denies, approve does nothing: its table). "ask"
sets ``requiresUserInteraction``; the caller creates the permission request from ``ask``.
Message blocks follow wave: the systemMessage as a warn block, the decision as a hook
block (``Permission: <decision> - <reason>``, ``Blocked prompt: …``, ``Blocked stop: …``,
``Blocked execution: …``, ``Additional context: …``), every other entry of ``errors`` as a warn
block ``Hook Error: …`` (``Hook Warning: …`` for a warning).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from hookwise.api.processing.blocks import create_hook_block, create_warn_block
from hookwise.api.processing.hook_events import HookEvent, hook_event
from hookwise.api.processing.hook_json import clean_str, read_hook_stdout
from hookwise.api.processing.json_validation import (
    AnswerCheck,
    check_answer,
    deeper_than,
    too_deep_message,
)
from hookwise.api.processing.output_config import (
    BLOCKING_ERROR,
    NON_BLOCKING_ERROR,
    SUCCESS,
    OutputConfig,
    behavior_for,
)
from hookwise.host import claude_dialect
from hookwise.host.aggregate import aggregate
from hookwise.host.claude_dialect import NO_STDERR
from hookwise.host.dialect_answers import parse_object_stdout
from hookwise.host.effect import Effect, ToolCallEffect, compute_effect
from hookwise.host.interpret import Interpretation, interpret_documented
from hookwise.host.outcome import gemini_outcome
from hookwise.host.runtimes import TABLE_RUNTIMES
from hookwise.protocol.dialect import Decision, DialectEvent, Exit2, Kind
from hookwise.protocol.gemini import EVENTS as GEMINI_EVENTS
from hookwise.protocol.gemini import EventSpec
from hookwise.protocol.jsvalue import JSON, JSTypeError, js_string, truthy
from hookwise.protocol.profiles import Profile

WARNING_PREFIX: Final = "Warning - "
DEFAULT_STOP_REASON: Final = "Hook requested to stop execution without providing a reason"
DEFERRED: Final = "Tool call deferred by the hook (permissionDecision defer)"
GEMINI_PROFILE: Final = Profile.DOCUMENTED
_BLOCKED: Final = {
    Kind.PROMPT: "Blocked prompt",
    Kind.STOP: "Blocked stop",
    Kind.TOOL_AFTER: "Blocked execution",
    Kind.TOOL_FAILURE: "Blocked execution",
}


@dataclass(frozen=True, slots=True)
class AskInfo:
    """What a permission request needs from an "ask" answer (the tool is the caller's)."""

    reason: str | None
    updated_input: dict[str, JSON] | None


@dataclass(frozen=True, slots=True)
class ParsedOutput:
    """The parse-output answer plus what the routes need beyond the contract."""

    source: str  # json | exitcode
    continue_: bool
    stop_reason: str | None
    system_message: str | None
    hook_specific_data: dict[str, JSON] | None
    message_blocks: list[dict[str, Any]]
    requires_user_interaction: bool
    errors: list[str]
    decision: str = "none"  # the host's: allow | deny | ask | defer | block | none
    proceed: bool = True  # the guarded action (tool call, prompt, stop...) goes ahead
    ask: AskInfo | None = None
    dialect: str = "claude"
    behavior: str = SUCCESS

    def _head(self) -> dict[str, Any]:
        """What parse-output's answer and ParsedHookOutput share (absent fields left out)."""
        out: dict[str, Any] = {"source": self.source, "continue": self.continue_}
        if self.stop_reason is not None:
            out["stopReason"] = self.stop_reason
        if self.system_message is not None:
            out["systemMessage"] = self.system_message
        if self.hook_specific_data is not None:
            out["hookSpecificData"] = self.hook_specific_data
        return out

    def response(self, permission_request: dict[str, Any] | None = None) -> dict[str, Any]:
        """The contract's parse-output response."""
        out = self._head()
        out["messageBlocks"] = self.message_blocks
        out["requiresUserInteraction"] = self.requires_user_interaction
        if permission_request is not None:
            out["permissionRequest"] = permission_request
        out["errors"] = self.errors
        return out

    def processed_event(
        self, hook_event: str, tool_name: str | None, session_id: str, timestamp: int
    ) -> dict[str, Any]:
        """The contract's ``hook_output_processed`` webhook payload for this reading."""
        event: dict[str, Any] = {
            "eventType": "hook_output_processed",
            "timestamp": timestamp,
            "hookEvent": hook_event,
        }
        if tool_name is not None:
            event["toolName"] = tool_name
        event["result"] = {
            "source": self.source,
            "continue": self.continue_,
            "requiresUserInteraction": self.requires_user_interaction,
        }
        event["sessionId"] = session_id
        return event

    def parsed_hook_output(self) -> dict[str, Any]:
        """The contract's ParsedHookOutput (execute-with-output's ``parsed``)."""
        out = self._head()
        out["errorMessages"] = self.errors
        return out


@dataclass
class _Verdict:
    """A dialect's reading, in neutral words, before the blocks are made."""

    source: str = "exitcode"
    stop: bool = False
    stop_reason: str | None = None
    system_message: str | None = None
    decision: str = "none"
    reason: str | None = None
    data: dict[str, JSON] = field(default_factory=dict)
    proceed: bool = True
    updated_input: dict[str, JSON] | None = None
    kind: Kind | None = None
    errors: list[str] = field(default_factory=list)
    notice: str | None = None  # the host's non-blocking error notice
    user_texts: list[str] = field(default_factory=list)  # stderr the host shows the user
    feedback: str | None = None  # exit 2 stderr sent to the model, nothing blocked


@dataclass(frozen=True, slots=True)
class _Run:
    """One hook run and how the configuration reads its exit code."""

    exit_code: int
    stdout: str
    stderr: str
    behavior: str
    config: OutputConfig


def _text(value: JSON) -> str | None:
    return js_string(value) if truthy(value) else None


def _effective_code(exit_code: int, behavior: str) -> int:
    if behavior == SUCCESS:
        return 0
    if behavior == BLOCKING_ERROR:
        return 2
    return exit_code if exit_code not in (0, 2) else 1


def _validate(
    answer: dict[str, JSON], event: HookEvent, strict: bool, errors: list[str]
) -> dict[str, JSON]:
    """Run the validator; under strict return the answer without the failing fields."""
    check: AnswerCheck = check_answer(answer, event)
    if strict:
        errors.extend(f"{e['field']}: {e['message']}" for e in check.errors)
    else:
        errors.extend(
            f"{WARNING_PREFIX}{e['field']}: {e['message']} ({e['code']})" for e in check.errors
        )
    errors.extend(f"{WARNING_PREFIX}{w['field']}: {w['message']}" for w in check.warnings)
    return check.sanitized(answer) if strict else answer


def _error_text(entry: str) -> str:
    """An ``errors`` entry as a warn block (wave: ``Hook Error: …``)."""
    if entry.startswith(WARNING_PREFIX):
        return f"Hook Warning: {entry.removeprefix(WARNING_PREFIX)}"
    return f"Hook Error: {entry}"


def _ignored_json(exit_code: int) -> str:
    return (
        f"JSON output ignored: exit code {exit_code} is a non-blocking error "
        "and jsonPrecedence is false"
    )


# --------------------------------------------------------------------------- Claude / Codex


def _answer_reason(
    event: DialectEvent, answer: dict[str, JSON] | None, specific: dict[str, JSON]
) -> str | None:
    """The reason the host reads next to the decision (claude_dialect's own reading)."""
    if not answer:
        return None
    if event.decision is Decision.PERMISSION_REQUEST:
        verdict = specific.get("decision")
        return _text(verdict.get("message")) if isinstance(verdict, dict) else None
    if event.decision in (Decision.PERMISSION, Decision.BLOCK):
        return claude_dialect.answer_reason(event, answer, specific)
    return None


def _read_dialect(found: HookEvent, event: DialectEvent, run: _Run) -> _Verdict:
    exit_code, stdout, stderr = run.exit_code, run.stdout, run.stderr
    behavior, config = run.behavior, run.config
    runtime = TABLE_RUNTIMES[found.dialect]
    verdict = _Verdict(kind=event.kind)
    errors = verdict.errors
    code = _effective_code(exit_code, behavior)
    if (
        behavior == NON_BLOCKING_ERROR
        and not config.jsonPrecedence
        and stdout.lstrip().startswith("{")
    ):
        errors.append(_ignored_json(exit_code))
        stdout = ""
    reading = runtime.read(event, stdout, stderr, code)
    if reading.answer is not None and deeper_than(reading.answer):
        errors.append(too_deep_message())
        reading = runtime.read(event, "", stderr, code)
    if reading.kind in ("error", "failed"):
        verdict.notice = reading.problem or f"hook failed with exit code {exit_code}"
    elif reading.problem:
        errors.append(reading.problem)
    if reading.answer is not None:
        answer = _validate(reading.answer, found, config.validationLevel == "strict", errors)
        reading = replace(reading, answer=answer)
    effect = runtime.decide(event, [reading])
    if runtime.finish is not None:  # no tool input here: the host's cut of the bare text
        effect = runtime.finish(event, effect, {})
    outcome = effect.outcome
    honoured = reading.answer if event.json_honoured else None
    specific = claude_dialect.specific_output(event, honoured) if honoured else {}
    exit2 = reading.kind == "exit2"
    verdict.source = "json" if reading.kind == "json" and honoured is not None else "exitcode"
    verdict.stop = outcome.stop_session
    verdict.decision = effect.decision
    if verdict.stop:
        verdict.stop_reason = (_text(honoured.get("stopReason")) if honoured else None) or (
            DEFERRED if effect.decision == "defer" else DEFAULT_STOP_REASON
        )
    verdict.system_message = _text(honoured.get("systemMessage")) if honoured else None
    reason = _answer_reason(event, honoured, specific)
    if exit2:
        reason = reason or reading.stderr.strip() or NO_STDERR
        if event.exit2 is Exit2.FEEDBACK and event.decision is Decision.BLOCK:
            verdict.decision = "block"  # Claude Code: the same as decision "block" here
        elif event.exit2 is Exit2.FEEDBACK:
            verdict.feedback = reason
        elif event.exit2 is Exit2.USER and reading.stderr:
            verdict.user_texts.append(reading.stderr)
        elif event.exit2 is Exit2.IGNORED:
            errors.append(f"exit code 2 is ignored on {event.name}")
    verdict.reason = reason
    data = dict(specific)
    if event.decision is Decision.PERMISSION:
        if verdict.decision != "none":
            data["permissionDecision"] = verdict.decision
            if reason:
                data["permissionDecisionReason"] = reason
        if verdict.decision == "deny":
            data.pop("updatedInput", None)
        elif isinstance(data.get("updatedInput"), dict):
            verdict.updated_input = data["updatedInput"]
    elif verdict.decision == "block" or (verdict.decision == "decline" and not outcome.proceed):
        # a top-level block, or what blocks in another form on Claude Code's other events
        # (TaskCompleted's exit 2, a failed WorktreeCreate, a declined Elicitation)
        data["decision"] = "block"
        if reason:
            data["reason"] = reason
    if outcome.additional_context and "additionalContext" not in data:
        data["additionalContext"] = outcome.additional_context
    verdict.data = data
    verdict.proceed = outcome.proceed and not verdict.stop
    return verdict


# --------------------------------------------------------------------------- Gemini


def _gemini_decision(effect: Effect, output: JSON) -> str:
    action = getattr(effect, "action", "proceed")
    if action in ("block", "replace", "retry"):
        return "deny" if isinstance(effect, ToolCallEffect) else "block"
    if action == "ask":
        return "ask"
    if isinstance(output, dict) and output.get("decision") in ("allow", "approve"):
        return "allow"
    return "none"


def _read_gemini(found: HookEvent, spec: EventSpec, run: _Run) -> _Verdict:
    exit_code, stdout, stderr = run.exit_code, run.stdout, run.stderr
    behavior, config = run.behavior, run.config
    name = spec.name
    verdict = _Verdict(kind=GEMINI_EVENTS[name].kind if name in GEMINI_EVENTS else None)
    errors = verdict.errors
    code = _effective_code(exit_code, behavior)
    interp: Interpretation = interpret_documented(name, stdout, stderr, code)
    if behavior == NON_BLOCKING_ERROR:
        answer, _ = parse_object_stdout(stdout)
        if answer is not None and config.jsonPrecedence:
            interp = interpret_documented(name, stdout, stderr, 0)
        else:
            verdict.notice = interp.warnings[0] if interp.warnings else None
            if answer is not None:
                errors.append(_ignored_json(exit_code))
    output = interp.output
    if deeper_than(output):
        errors.append(too_deep_message())
        interp = interpret_documented(name, "", stderr, code)
        output = interp.output
    if interp.output_format == "json" and isinstance(output, dict):
        output = _validate(output, found, config.validationLevel == "strict", errors)
    agg = aggregate(name, [output] if output is not None else [], [], GEMINI_PROFILE)
    if agg.merge_error:
        errors.append(agg.merge_error)
    final = agg.final
    try:
        effect = compute_effect(name, final, {}, GEMINI_PROFILE)
    except JSTypeError as exc:  # the engine's catch-all: the answer is not used
        errors.append(f"TypeError: {exc}")
        final, effect = None, compute_effect(name, None, {}, GEMINI_PROFILE)
    outcome = gemini_outcome(effect, GEMINI_PROFILE)
    verdict.source = "json" if interp.output_format == "json" and final is not None else "exitcode"
    verdict.stop = outcome.stop_session
    verdict.decision = _gemini_decision(effect, output) if final is not None else "none"
    verdict.system_message = effect.user_message(GEMINI_PROFILE)
    if final is not None and verdict.stop:
        verdict.stop_reason = js_string(final.effective_reason())
    if final is not None and verdict.decision in ("deny", "block"):
        verdict.reason = js_string(final.effective_reason())
    elif final is not None and verdict.decision == "ask":
        verdict.reason = _text(final["reason"])
    specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
    data = dict(specific) if isinstance(specific, dict) and final is not None else {}
    if verdict.decision != "none":
        data["decision"] = verdict.decision
        if verdict.reason:
            data["reason"] = verdict.reason
    if isinstance(effect, ToolCallEffect) and isinstance(effect.tool_input, dict):
        verdict.updated_input = effect.tool_input
    verdict.data = data
    verdict.proceed = outcome.proceed and not verdict.stop and verdict.decision != "ask"
    return verdict


# --------------------------------------------------------------------------- the answer


def _hook_line(verdict: _Verdict) -> str:
    decision, data = verdict.decision, verdict.data
    reason = verdict.reason or "No reason provided"
    permission = data.get("decision")
    if verdict.kind is Kind.PERMISSION and isinstance(permission, dict):
        return f"Permission request: {_text(permission.get('behavior')) or 'none'} - {reason}"
    if verdict.kind is Kind.TOOL_BEFORE and decision in ("allow", "deny", "ask", "defer"):
        return f"Permission: {decision} - {reason}"
    if decision in ("block", "deny"):
        label = _BLOCKED.get(verdict.kind, "Blocked") if verdict.kind else "Blocked"
        return f"{label}: {reason}"
    if "additionalContext" in data:
        return f"Additional context: {_text(data['additionalContext']) or 'None'}"
    if verdict.kind is Kind.STOP:
        return "Stop event processed"
    return "Hook output processed"


def parse_output(  # noqa: PLR0917 - the contract's request fields, in order
    exit_code: int,
    stdout: str,
    stderr: str,
    hook_event_name: str,
    execution_time: float,
    config: OutputConfig,
) -> ParsedOutput:
    """Read one hook run as the host of ``hook_event_name`` would, under ``config``.

    Never raises for any exit code or output; an unknown event raises
    UnknownHookEventError (a ValueError) naming the accepted ones.
    """
    found = hook_event(hook_event_name)
    behavior = behavior_for(config, exit_code)
    read = read_hook_stdout(stdout)  # hook output is data: never a value we cannot answer
    stdout, stderr = read.text, clean_str(stderr)
    run = _Run(exit_code, stdout, stderr, behavior, config)
    if isinstance(found.spec, DialectEvent):
        verdict = _read_dialect(found, found.spec, run)
    else:
        verdict = _read_gemini(found, found.spec, run)
    data: dict[str, JSON] | None = None
    if verdict.data:
        data = {"hookEventName": found.name}
        data.update((k, v) for k, v in verdict.data.items() if k != "hookEventName")
    blocks: list[dict[str, Any]] = []
    if verdict.system_message:
        blocks.append(create_warn_block(verdict.system_message))
    if verdict.stop:
        blocks.append(create_warn_block(f"Execution stopped: {verdict.stop_reason}"))
    if data is not None or verdict.feedback:
        metadata: dict[str, Any] = {
            "source": verdict.source,
            "continue": not verdict.stop,
            "exitCode": exit_code,
            "executionTime": execution_time,
            "decision": verdict.decision,
        }
        if behavior == BLOCKING_ERROR and stderr.strip():
            metadata["stderr"] = stderr.strip()
        line = (
            f"Feedback to the model: {verdict.feedback}"
            if data is None and verdict.feedback
            else _hook_line(verdict)
        )
        blocks.append(create_hook_block(found.name, line, metadata))
    blocks.extend(create_warn_block(text.strip()) for text in verdict.user_texts)
    errors = verdict.errors
    errors[:0] = [
        *([read.unread] if read.unread else []),
        *(f"{WARNING_PREFIX}{note}" for note in read.notes),
    ]
    if verdict.notice:
        errors.insert(0, verdict.notice)
    shown = None
    if behavior == NON_BLOCKING_ERROR and (stderr.strip() or verdict.notice):
        blocks.append(create_warn_block(stderr.strip() or verdict.notice or ""))
        shown = verdict.notice
    blocks.extend(create_warn_block(_error_text(e)) for e in errors if e is not shown)
    ask = verdict.decision == "ask"
    return ParsedOutput(
        source=verdict.source,
        continue_=not verdict.stop,
        stop_reason=verdict.stop_reason if verdict.stop else None,
        system_message=verdict.system_message,
        hook_specific_data=data,
        message_blocks=blocks,
        requires_user_interaction=ask,
        errors=errors,
        decision=verdict.decision,
        proceed=verdict.proceed,
        ask=AskInfo(verdict.reason, verdict.updated_input) if ask else None,
        dialect=found.dialect,
        behavior=behavior,
    )
