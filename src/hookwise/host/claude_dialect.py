"""Claude Code's reading of hook answers and what the agent then does (headless, ``-p``).

Exit 2 blocks blockable events whatever the JSON says; any other code lets a valid JSON
answer decide and is otherwise a non-blocking error; ``hookSpecificOutput`` counts only
with the right ``hookEventName``; several PreToolUse hooks combine deny > defer > ask >
allow. The event table (protocol/claude.py) says which event does what.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from hookwise.config.claude.http_limits import HttpHookLimits, http_hook_limits
from hookwise.config.claude.mcp import McpServers, load_claude_mcp_servers
from hookwise.config.claude.settings import ClaudeHooks, ClaudeScope, load_claude_hooks
from hookwise.config.claude.trust import ClaudeTrustOptions, gate_claude_project_hooks
from hookwise.config.dialect_hooks import DialectHooks
from hookwise.host.dialect_answers import (
    DialectEffect,
    Reading,
    field_type_problem,
    first_line,
    join,
    parse_object_stdout,
    type_problem,
)
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.outcome import Outcome
from hookwise.host.runtime import LoadOptions
from hookwise.protocol.claude import (
    CLAUDE,
    COMMON_LEFT_OUT,
    ELICITATION_ACTIONS,
    EXACT_MATCHER_CHARS,
    LEGACY_DECISIONS,
    NO_VERDICT_DENIALS,
    OUTPUT_CAP_CHARS,
    PERMISSION_RANK,
    PERSISTED_FRAME,
    PERSISTED_PATH,
    PERSISTED_PREVIEW_CHARS,
    UNBLOCKABLE_CONFIG_SOURCE,
)
from hookwise.protocol.dialect import (
    PROMPT_KINDS,
    SPECIFIC_ANSWER_TYPES,
    STOP_KINDS,
    VERDICT_TYPES,
    Decision,
    DialectEvent,
    Exit2,
    Kind,
)
from hookwise.protocol.jsregex import JSRegexUnsupportedError, compile_js_regex, js_regex_test
from hookwise.protocol.jsvalue import JSON, js_string, truthy

EXIT_BLOCK = 2
NO_STDERR = "No stderr output"  # what Claude Code says for an exit 2 with nothing on stderr
# what the model reads for a deny or a block whose reason is missing or empty (observed)
NO_REASON = "Blocked by hook"
BOM = "\ufeff"


def schema_problem(event: DialectEvent, answer: dict[str, JSON]) -> str | None:
    """Why the answer is outside Claude Code's output schema (it then ignores it whole):
    a top-level field of the wrong type, or a ``decision`` the event does not take."""
    wrong = type_problem(answer)
    if wrong is not None:
        return f"hook JSON output validation failed: {wrong}"
    decision = answer.get("decision")
    if decision is not None and decision not in event.decision_values:
        expected_values = ", ".join(repr(v) for v in event.decision_values)
        return (
            f"hook JSON output validation failed: decision {decision!r} is not one of"
            f" {expected_values}"
        )
    return None


def specific_problem(answer: dict[str, JSON]) -> str | None:
    """Claude Code's own schema for ``hookSpecificOutput`` (observed with 2.1.330): one
    variant per event, told apart by ``hookEventName``, so a name that is no Claude Code
    event (``pretooluse``, ``preToolUse``) or none at all, or a field of the wrong type (a
    string ``updatedInput``), makes the whole answer invalid, its top-level decision too."""
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return None
    name = specific.get("hookEventName")
    if not isinstance(name, str) or name not in CLAUDE.events:  # a list or object: hostile
        return (
            f"hook JSON output validation failed: hookSpecificOutput.hookEventName {name!r}"
            " names no Claude Code event"
        )
    wrong = field_type_problem(specific, SPECIFIC_ANSWER_TYPES, "hookSpecificOutput.")
    verdict = specific.get("decision")
    if wrong is None and isinstance(verdict, dict):
        wrong = field_type_problem(verdict, VERDICT_TYPES, "hookSpecificOutput.decision.")
    return None if wrong is None else f"hook JSON output validation failed: {wrong}"


def check(event: DialectEvent, reading: Reading) -> Reading:
    """The schema gate of the hosts that copied Claude Code's form: an answer outside the
    output schema is ignored whole (on exit 2, stderr then gives the reason; otherwise a
    non-blocking error)."""
    return _gate(event, reading, None)


def check_own(event: DialectEvent, reading: Reading) -> Reading:
    """Claude Code's own schema gate: ``check`` and its ``hookSpecificOutput`` schema."""
    answer = reading.answer
    return _gate(event, reading, specific_problem(answer) if answer is not None else None)


def _gate(event: DialectEvent, reading: Reading, problem: str | None) -> Reading:
    if reading.answer is None:
        return reading
    problem = schema_problem(event, reading.answer) or problem
    if problem is None:
        return reading
    if reading.kind == "exit2":
        return replace(reading, answer=None, problem=problem)
    return Reading("error", None, "", reading.stderr, reading.exit_code, problem)


def json_stdout(stdout: str) -> tuple[dict[str, JSON] | None, str | None]:
    """Claude Code's split of stdout (observed with 2.1.330): JSON when, past a UTF-8 BOM
    and blanks, it starts with ``{`` and ends with ``}`` (two objects or invalid JSON in
    that shape: ignored, an error); anything else is plain text (truncated JSON, text
    after the object, an array, ``null``)."""
    stripped = stdout.removeprefix(BOM).strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None, None
    return parse_object_stdout(stripped)


def read(event: DialectEvent, stdout: str, stderr: str, exit_code: int | None) -> Reading:
    """How Claude Code classifies one hook run (a UTF-8 BOM before the JSON is skipped).
    The output schema is checked after this (``check``): the service's parse-output reads
    the same run and applies its own strict or lenient validation instead."""
    answer, problem = json_stdout(stdout)
    text = "" if answer is not None or problem is not None else stdout.strip()
    if event.decision is Decision.PATH:
        text = stdout  # a command hook's stdout is the path, JSON-shaped or not
    if exit_code == EXIT_BLOCK:
        return Reading("exit2", answer, text, stderr.strip(), exit_code, problem)
    if exit_code == 0:
        if answer is not None:
            return Reading("json", answer, text, stderr, exit_code)
        if text:
            return Reading("text", None, text, stderr, exit_code, problem)
        return Reading("none", None, "", stderr, exit_code, problem)
    if answer is not None:  # a valid JSON answer decides whatever the exit code
        return Reading("json", answer, text, stderr, exit_code)
    status = "a signal" if exit_code is None else str(exit_code)
    line = first_line(stderr) or "No stderr output"
    return Reading(
        "error",
        None,
        text,
        stderr,
        exit_code,
        f"{event.name} hook error: Failed with non-blocking status code {status}: {line}",
    )


def specific_output(event: DialectEvent, answer: dict[str, JSON]) -> dict[str, JSON]:
    """hookSpecificOutput, only when it names this event (else the host ignores it)."""
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("hookEventName") == event.name:
        return specific
    return {}


def _text(value: JSON) -> str | None:
    return js_string(value) if truthy(value) else None


def model_context(event: DialectEvent, context: str) -> str:
    """A hook's additionalContext as the model gets it: whole up to OUTPUT_CAP_CHARS, else
    saved to a file and only its head sent, in Claude Code's frame."""
    if len(context) <= OUTPUT_CAP_CHARS:
        return context
    head = context[:PERSISTED_PREVIEW_CHARS]
    line_end = head.rfind("\n")
    if line_end > PERSISTED_PREVIEW_CHARS // 2:
        head = head[:line_end]
    size = len(context) / 1024
    shown = f"{size:.1f}KB" if size < 1024 else f"{size / 1024:.1f}MB"
    path = PERSISTED_PATH.format(event=event.name)
    return PERSISTED_FRAME.format(size=shown, path=path, head=head)


def decide(event: DialectEvent, readings: Sequence[Reading]) -> DialectEffect:
    """All hooks' readings -> the decision and outcome for the event."""
    rank = 0
    decision = "none"
    reasons: list[str] = []  # for the model
    user: list[str] = []
    contexts: list[str] = []
    diagnostics: list[str] = []
    updated: dict[str, JSON] | None = None
    stop = False
    blocked = False
    output: dict[str, JSON] = {}
    for r in readings:
        if r.problem:
            diagnostics.append(r.problem)
        if r.kind == "error":
            user.append(r.problem or "")
            continue
        answer = r.answer if event.json_honoured else None
        specific = specific_output(event, answer) if answer else {}
        if answer:
            if answer.get("continue") is False and event.stop_supported:
                stop = True
                user.append(_text(answer.get("stopReason")) or "")
            if event.shows_system_message:
                user.append(_text(answer.get("systemMessage")) or "")
            _own_output(event, specific, output)
            context = specific.get("additionalContext")
            if isinstance(context, str) and context:
                contexts.append(model_context(event, context))
        if r.kind == "text" and event.plain_stdout_is_context:
            contexts.append(r.text)
        if r.kind == "exit2":
            if event.exit2 in (Exit2.BLOCK, Exit2.CONTINUE, Exit2.FEEDBACK):
                reason = block_reason(event, answer, specific) or r.stderr or NO_STDERR
                if event.exit2 is Exit2.BLOCK and event.kind in PROMPT_KINDS:
                    user.append(reason)
                else:
                    reasons.append(reason)
                if event.exit2 is not Exit2.FEEDBACK:
                    blocked = True
                    if event.decision is Decision.ELICITATION:
                        decision = "decline"  # exit 2 denies the elicitation
                    elif event.decision is not Decision.PERMISSION:
                        decision = "block"
                    elif PERMISSION_RANK["deny"] > rank:
                        rank, decision = PERMISSION_RANK["deny"], "deny"
            elif event.exit2 is Exit2.USER and r.stderr:
                user.append(r.stderr)
            if event.exit2 is not Exit2.IGNORED:
                continue  # exit 2 decided; where it is no decision, the JSON still is
        if not answer:
            continue
        if event.decision is Decision.PERMISSION:
            value = permission_decision(answer, specific)
            if isinstance(value, str) and value in PERMISSION_RANK:
                why = answer_reason(event, answer, specific)
                if value != specific.get("permissionDecision"):  # the legacy field won
                    why = _text(answer.get("reason"))
                if PERMISSION_RANK[value] > rank:
                    rank, decision = PERMISSION_RANK[value], value
                if value == "deny" and not why:
                    why = NO_REASON
                if value in ("deny", "ask") and why:
                    reasons.append(why)
                elif value == "allow" and why:
                    user.append(why)
            if isinstance(specific.get("updatedInput"), dict) and value != "deny":
                updated = specific["updatedInput"]
        elif event.decision is Decision.PERMISSION_REQUEST:
            verdict = specific.get("decision")
            behavior = verdict.get("behavior") if isinstance(verdict, dict) else None
            if behavior == "deny":
                rank, decision = PERMISSION_RANK["deny"], "deny"
                message = _text(verdict.get("message")) if isinstance(verdict, dict) else None
                if message:
                    reasons.append(message)
                if isinstance(verdict, dict) and verdict.get("interrupt") is True:
                    stop = True  # observed: a deny with interrupt ends the session
            elif behavior == "allow" and rank < PERMISSION_RANK["allow"]:
                rank, decision = PERMISSION_RANK["allow"], "allow"
                if isinstance(verdict, dict) and isinstance(verdict.get("updatedInput"), dict):
                    updated = verdict["updatedInput"]
        elif event.decision is Decision.BLOCK and answer.get("decision") == "block":
            reason = _text(answer.get("reason")) or (NO_REASON if event.kind is Kind.STOP else "")
            decision = "block"
            if event.kind is Kind.TOOL_AFTER:
                reasons.append(reason)
            elif event.kind in PROMPT_KINDS:
                blocked = True
                user.append(reason)
            else:
                blocked = True
                reasons.append(reason)
        elif event.decision is Decision.RETRY and specific.get("retry") is True:
            decision = "retry"
        elif event.decision is Decision.ELICITATION and decision not in ("decline", "cancel"):
            action = specific.get("action")
            if isinstance(action, str) and action in ELICITATION_ACTIONS:
                decision = action  # a decline or cancel from any hook wins over an accept
    if event.decision is Decision.ELICITATION and decision in ("decline", "cancel"):
        blocked = True  # the server gets the refusal; no dialog is shown
    if event.decision is Decision.PATH:
        decision, blocked, problem = _worktree_path(readings, output)
        # a failed creation is an error the user reads (the session ends), not the model
        user.extend(r for r in [*reasons, problem] if r and r not in user)
        reasons = []
    if not event.block_reason_shown:
        reasons = []
    return DialectEffect(
        dialect="claude",
        event=event.name,
        decision=decision,
        outcome=_outcome(
            event,
            decision=decision,
            blocked=blocked,
            stop=stop,
            reasons=reasons,
            user=user,
            contexts=contexts,
            updated=updated,
        ),
        diagnostics=tuple(diagnostics),
        output=output,
    )


# The fields of an event's own answer the host takes as they are, and their JSON type.
_OWN_OUTPUT: dict[str, type] = {
    "displayContent": str,
    "watchPaths": list,
    "content": dict,
    "worktreePath": str,
}


def _own_output(event: DialectEvent, specific: dict[str, JSON], output: dict[str, JSON]) -> None:
    """Those fields of this hook's answer (a later hook's replace an earlier one's)."""
    for key in event.specific_fields:
        value = specific.get(key)
        kind = _OWN_OUTPUT.get(key)
        if isinstance(value, list) and kind is list:
            output[key] = [v for v in value if isinstance(v, str)]
        elif kind is not None and isinstance(value, kind):
            output[key] = value


_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _worktree_path(readings: Sequence[Reading], output: dict[str, JSON]) -> tuple[str, bool, str]:
    """WorktreeCreate: every hook must succeed; the path is a command hook's last non-empty
    stdout line (ANSI codes stripped) or an http hook's ``worktreePath``. Any failure, no
    path, or an absolute path with ``.``/``..`` segments fails the creation."""
    path = ""
    for r in readings:
        if r.kind in ("error", "failed", "exit2"):
            output.pop("worktreePath", None)
            return "block", True, r.problem or r.stderr or "WorktreeCreate hook failed"
        if r.handler == "command":
            lines = [ln.strip() for ln in _ANSI.sub("", r.text).splitlines() if ln.strip()]
            path = lines[-1] if lines else path
        else:
            found = output.get("worktreePath")
            path = found if isinstance(found, str) else path
    if not path:
        return "block", True, "WorktreeCreate hook produced no worktree path"
    if path.startswith("/") and any(part in (".", "..") for part in path.split("/")):
        output.pop("worktreePath", None)
        return "block", True, f"refused worktree path {path!r}: it has . or .. segments"
    output["worktreePath"] = path
    return "none", False, ""


def permission_decision(answer: dict[str, JSON], specific: dict[str, JSON]) -> str | None:
    """PreToolUse's decision: the stronger of permissionDecision and the legacy top-level
    decision, so a top-level "block" beats permissionDecision "allow" (as Claude Code)."""
    chosen: str | None = None
    legacy = answer.get("decision")
    for value in (
        specific.get("permissionDecision"),
        LEGACY_DECISIONS.get(legacy) if isinstance(legacy, str) else None,
    ):
        stronger = chosen is None or PERMISSION_RANK.get(str(value), 0) > PERMISSION_RANK[chosen]
        if isinstance(value, str) and value in PERMISSION_RANK and stronger:
            chosen = value
    return chosen


def answer_reason(
    event: DialectEvent, answer: dict[str, JSON] | None, specific: dict[str, JSON]
) -> str | None:
    """The reason written next to the answer's decision, whatever that decision is."""
    if not answer:
        return None
    if event.decision is Decision.PERMISSION:
        return _text(specific.get("permissionDecisionReason")) or _text(answer.get("reason"))
    return _text(answer.get("reason"))


def block_reason(
    event: DialectEvent, answer: dict[str, JSON] | None, specific: dict[str, JSON]
) -> str | None:
    """Exit 2's message: the JSON reason only when the JSON itself denies or blocks;
    otherwise the caller uses stderr (or "No stderr output"), as Claude Code does."""
    if not answer:
        return None
    if event.decision is Decision.PERMISSION:
        denies = permission_decision(answer, specific) == "deny"
    else:
        denies = answer.get("decision") == "block"
    return answer_reason(event, answer, specific) if denies else None


def _outcome(
    event: DialectEvent,
    *,
    decision: str,
    blocked: bool,
    stop: bool,
    reasons: list[str],
    user: list[str],
    contexts: list[str],
    updated: dict[str, JSON] | None,
) -> Outcome:
    proceed = not blocked
    if stop and event.kind in PROMPT_KINDS:
        proceed = False  # continue:false ends the turn before the prompt is sent
    if event.kind in STOP_KINDS and contexts and not stop:
        proceed = False  # Stop context is feedback: the agent goes on with it
    if event.kind in STOP_KINDS and stop:
        proceed = True  # continue:false ends the session; a block does not send it back
    # the host will ask a person: the hook said ask, or left a permission request undecided
    asks = decision == "ask" or (
        event.decision is Decision.PERMISSION_REQUEST and decision == "none"
    )
    if event.decision is Decision.PERMISSION:
        # headless: ask is a denial whose reason reaches the model; defer stops
        proceed = decision in ("none", "allow")
        if decision == "defer":
            stop = True
    if event.decision is Decision.PERMISSION_REQUEST:
        # only an allow lets the call run; undecided, Claude Code asks (headless: denies)
        proceed = decision == "allow"
    model_text = join(reasons) if not proceed or event.kind is not Kind.TOOL_BEFORE else None
    if event.kind in (Kind.TOOL_AFTER, Kind.TOOL_FAILURE):
        model_text = join(reasons)
    if event.kind in STOP_KINDS and stop:
        model_text = None  # the session ends: no model turn reads a reason
    return Outcome(
        proceed=proceed,
        reason_for_model=model_text,
        message_for_user=join(user),
        stop_session=stop,
        updated_input=updated if proceed else None,
        additional_context=join(contexts),
        asks_user=asks,
    )


def matches(matcher: JSON, value: JSON) -> bool:
    """Claude's matcher: '*', '' or none match all; names (| or , lists) match exactly;
    anything else is an unanchored JavaScript regex."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    subject = value if isinstance(value, str) else js_string(value)
    if all(ch in EXACT_MATCHER_CHARS for ch in matcher):
        names = [n.strip() for part in matcher.split("|") for n in part.split(",")]
        return subject in [n for n in names if n]
    try:
        pattern = compile_js_regex(matcher)
    except JSRegexUnsupportedError:
        return matcher == subject
    return pattern is not None and js_regex_test(pattern, subject)


SPEC = CLAUDE


def load(workspace: str, options: LoadOptions) -> DialectHooks:
    """Claude Code's settings scopes and plugins, project hooks only in a trusted workspace."""
    hooks = load_claude_hooks(workspace, home=options.home, env=options.env)
    gate = ClaudeTrustOptions(
        options.home, options.env, options.trust_workspace, options.bypass_hook_trust
    )
    gate_claude_project_hooks(hooks, gate)
    return hooks


def finish(event: DialectEvent, effect: DialectEffect, args: Mapping[str, JSON]) -> DialectEffect:
    """What the event's input changes: a ConfigChange of managed (policy) settings applies
    whatever the hooks said; a ``retry`` after a denial with no classifier verdict is
    ignored; a relative worktree path is the one under the directory the
    hook ran in (the input's ``cwd``), normalised, as 2.1.330 resolves it."""
    if event.kind is Kind.CONFIG_CHANGE and args.get("source") == UNBLOCKABLE_CONFIG_SOURCE:
        return replace(effect, decision="none", outcome=replace(effect.outcome, proceed=True))
    if effect.decision == "retry" and args.get("reason") in NO_VERDICT_DENIALS:
        why = f"retry ignored: auto mode denied with no classifier verdict ({args['reason']})"
        return replace(effect, decision="none", diagnostics=(*effect.diagnostics, why))
    path, cwd = effect.output.get("worktreePath"), args.get("cwd")
    if isinstance(path, str) and not path.startswith("/") and isinstance(cwd, str):
        output = {**effect.output, "worktreePath": posixpath.normpath(posixpath.join(cwd, path))}
        return replace(effect, output=output)
    return effect


def mcp_servers(workspace: str, options: LoadOptions, hooks: DialectHooks) -> McpServers:
    """The servers an mcp_tool hook may call: the user's, and the project's they approved."""
    user: dict[str, JSON] = {}
    if isinstance(hooks, ClaudeHooks):
        for file in hooks.settings_files:
            if file.scope is ClaudeScope.USER and file.settings:
                user = file.settings
    return load_claude_mcp_servers(
        workspace, home=options.home, env=options.env, user_settings=user
    )


def http_limits(hooks: DialectHooks) -> HttpHookLimits:
    """allowedHttpHookUrls and httpHookAllowedEnvVars of the loaded settings files."""
    return http_hook_limits(hooks.settings_files if isinstance(hooks, ClaudeHooks) else [])


RUNTIME = DialectRuntime(
    SPEC,
    read,
    decide,
    matches,
    "CLAUDE_PROJECT_DIR",
    load,
    check_own,
    finish=finish,
    mcp_loader=mcp_servers,
    http_limits=http_limits,
    event_common={
        event: tuple(f for f in SPEC.common_input if f not in left_out)
        for event, left_out in COMMON_LEFT_OUT.items()
    },
)
