"""What the agent must do now: the merged answer turned into one typed effect per event.

An embedding agent loop should not have to know the answer format: it asks the effect
("block this tool call with this text", "retry with this prompt", "use this response")
and applies it. The texts the model sees are the engine's own wordings.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from hookwise.host.answer import HookAnswer
from hookwise.protocol import llm
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    drop_undefined,
    js_string,
    opt_get,
    spread,
    truthy,
)
from hookwise.protocol.profiles import Profile

STOPPED = "Agent execution stopped by hook: "
TOOL_BLOCKED = "Tool execution blocked: "
RESULT_BLOCKED = "Tool result blocked: "


@dataclass(frozen=True)
class Effect:
    """Common to every event: what the user is shown."""

    system_message: JSON = UNDEFINED
    suppress_output: bool = False

    def user_message(self, profile: Profile = Profile.DOCUMENTED) -> str | None:
        """The message for the user, unless the documented suppressOutput hides it."""
        if not truthy(self.system_message):
            return None
        if profile is Profile.DOCUMENTED and self.suppress_output:
            return None
        return js_string(self.system_message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for name in self.__dataclass_fields__:
            out[name] = drop_undefined(getattr(self, name))
        return {k: v for k, v in out.items() if v is not UNDEFINED}


@dataclass(frozen=True)
class ToolCallEffect(Effect):
    """BeforeTool: run the tool (maybe with new arguments), ask, block it, or stop."""

    action: str = "proceed"  # proceed | ask | block | stop
    error: str | None = None  # the tool error the model receives
    error_type: str | None = None  # policy_violation | stop_execution
    tool_input: JSON = UNDEFINED  # arguments to run with, when a hook rewrote them
    ask_message: JSON = UNDEFINED


@dataclass(frozen=True)
class ToolResultEffect(Effect):
    """AfterTool: the tool result the model receives."""

    action: str = "proceed"  # proceed | replace | stop
    tool_result: JSON = None
    additional_context: str | None = None
    tail_tool_call: JSON = UNDEFINED


@dataclass(frozen=True)
class PromptEffect(Effect):
    """BeforeAgent: go on (maybe with extra context), block the prompt, or stop."""

    action: str = "proceed"  # proceed | block | stop
    reason: JSON = UNDEFINED
    appended_part: JSON = UNDEFINED  # {"text": "<hook_context>...</hook_context>"}
    prompt_kept_in_history: bool = True


@dataclass(frozen=True)
class ResponseEffect(Effect):
    """AfterAgent: accept the final answer, retry with a new prompt, or stop."""

    action: str = "accept"  # accept | retry | stop
    reason: JSON = UNDEFINED
    retry_prompt: JSON = UNDEFINED  # the parts sent as the next user message
    clear_context: bool = False


@dataclass(frozen=True)
class ModelRequestEffect(Effect):
    """BeforeModel: call the model (maybe with a changed request), answer synthetically,
    block the call, or stop."""

    action: str = "proceed"  # proceed | block | stop
    reason: JSON = UNDEFINED
    synthetic_response: JSON = UNDEFINED
    request: JSON = UNDEFINED  # the modified SDK request, when a hook changed it
    failed: str | None = None  # the host's catch-all swallowed an error


@dataclass(frozen=True)
class ModelResponseEffect(Effect):
    """AfterModel: the chunk to yield (maybe replaced), or block / stop."""

    action: str = "proceed"  # proceed | block | stop
    reason: JSON = UNDEFINED
    response: JSON = UNDEFINED  # UNDEFINED when the documented profile discards the chunk
    replaced: bool = False
    failed: str | None = None


@dataclass(frozen=True)
class ToolSelectionEffect(Effect):
    """BeforeToolSelection: the tool config and tools for this model call."""

    changed: bool = False
    tool_config: JSON = UNDEFINED
    tools: JSON = UNDEFINED
    failed: str | None = None


@dataclass(frozen=True)
class SessionStartEffect(Effect):
    history_part: str | None = None  # context injected as the first turn


@dataclass(frozen=True)
class AdvisoryEffect(Effect):
    """SessionEnd, PreCompress, Notification: nothing to do but show messages."""


@dataclass
class EffectInput:
    """What the effect needs besides the merged answer: the event's original arguments."""

    args: dict[str, JSON] = field(default_factory=dict)


def _common(final: HookAnswer | None) -> dict[str, Any]:
    if final is None:
        return {}
    return {
        "system_message": final.system_message,
        "suppress_output": truthy(final.suppress_output),
    }


def compute_effect(
    event: str, final: HookAnswer | None, args: dict[str, JSON], profile: Profile
) -> Effect:
    handler = _HANDLERS.get(event)
    if handler is None:
        return AdvisoryEffect(**_common(final))
    return handler(final, args, profile)


def _before_tool(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    if final is None:
        return ToolCallEffect()
    common = _common(final)
    if final.should_stop_execution():
        return ToolCallEffect(
            action="stop",
            error=STOPPED + js_string(final.effective_reason()),
            error_type="stop_execution",
            **common,
        )
    blocking = final.blocking_error()
    if blocking.blocked:
        return ToolCallEffect(
            action="block",
            error=TOOL_BLOCKED + js_string(blocking.reason),
            error_type="policy_violation",
            **common,
        )
    action = "proceed"
    ask_message: JSON = UNDEFINED
    if final.is_ask_decision():
        action = "ask"
        ask_message = final.system_message
    tool_input: JSON = UNDEFINED
    modified = final.modified_tool_input()
    if modified is not None and truthy(modified):
        if profile is Profile.DOCUMENTED:
            original = args.get("tool_input")
            tool_input = {**(original if isinstance(original, dict) else {}), **modified}
        else:
            tool_input = modified
    return ToolCallEffect(action=action, tool_input=tool_input, ask_message=ask_message, **common)


def _append_context(content: JSON, wrapped: str) -> JSON:
    if isinstance(content, str):
        return content + wrapped
    if isinstance(content, list):
        return [*content, {"text": wrapped}]
    if truthy(content) and content is not UNDEFINED:
        return [content, {"text": wrapped}]
    return wrapped


def _after_tool(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    response = args.get("tool_response", UNDEFINED)
    result: dict[str, JSON] = (
        copy.deepcopy(spread(response))
        if truthy(response)
        else {"llmContent": "", "returnDisplay": ""}
    )
    if final is None:
        return ToolResultEffect(tool_result=result)
    common = _common(final)
    if final.should_stop_execution():
        reason = final.effective_reason()
        text = STOPPED + js_string(reason)
        return ToolResultEffect(
            action="stop",
            tool_result={
                "llmContent": text,
                "returnDisplay": text,
                "error": {"type": "stop_execution", "message": reason},
            },
            **common,
        )
    blocking = final.blocking_error()
    if blocking.blocked:
        text = RESULT_BLOCKED + js_string(blocking.reason)
        return ToolResultEffect(
            action="replace",
            tool_result={
                "llmContent": text,
                "returnDisplay": text,
                "error": {"type": "execution_failed", "message": blocking.reason},
            },
            **common,
        )
    context = final.additional_context()
    if context:
        result["llmContent"] = _append_context(
            result.get("llmContent", UNDEFINED), f"\n\n<hook_context>{context}</hook_context>"
        )
    tail = final.tail_tool_call_request()
    if tail is not None:
        result["tailToolCallRequest"] = tail
    return ToolResultEffect(
        tool_result=result,
        additional_context=context or None,
        tail_tool_call=tail if tail is not None else UNDEFINED,
        **common,
    )


def _before_agent(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    if final is None:
        return PromptEffect()
    common = _common(final)
    if final.should_stop_execution():
        return PromptEffect(action="stop", reason=final.effective_reason(), **common)
    if final.is_blocking_decision():
        return PromptEffect(
            action="block",
            reason=final.effective_reason(),
            prompt_kept_in_history=False,
            **common,
        )
    context = final.additional_context()
    part: JSON = {"text": f"<hook_context>{context}</hook_context>"} if context else UNDEFINED
    return PromptEffect(appended_part=part, **common)


def _after_agent(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    if final is None:
        return ResponseEffect()
    common = _common(final)
    if final.should_stop_execution():
        return ResponseEffect(
            action="stop",
            reason=final.effective_reason(),
            clear_context=final.should_clear_context(),
            **common,
        )
    if final.is_blocking_decision():
        reason = final.effective_reason()
        return ResponseEffect(
            action="retry",
            reason=reason,
            retry_prompt=[{"text": reason}],
            clear_context=final.should_clear_context(),
            **common,
        )
    return ResponseEffect(**common)


def _before_model(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    request = args.get("llm_request", UNDEFINED)
    if final is None:
        return ModelRequestEffect()
    common = _common(final)
    try:
        if final.should_stop_execution():
            return ModelRequestEffect(action="stop", reason=final.effective_reason(), **common)
        blocking = final.blocking_error()
        if blocking.blocked:
            reason = final.effective_reason()
            return ModelRequestEffect(
                action="block",
                reason=reason if truthy(reason) else "Model call blocked by hook",
                synthetic_response=final.synthetic_response(),
                **common,
            )
        if profile is Profile.DOCUMENTED:
            synthetic = final.synthetic_response()
            if synthetic is not UNDEFINED:
                return ModelRequestEffect(action="block", synthetic_response=synthetic, **common)
        modified = final.apply_llm_request_modifications(copy.deepcopy(request))
        return ModelRequestEffect(request=modified, **common)
    except JSTypeError as exc:
        return ModelRequestEffect(failed=f"TypeError: {exc}", **common)


def _after_model(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    chunk = args.get("llm_response", UNDEFINED)
    if final is None:
        return ModelResponseEffect(response=chunk)
    common = _common(final)
    discard = profile is Profile.DOCUMENTED
    try:
        if final.should_stop_execution():
            return ModelResponseEffect(
                action="stop",
                reason=final.effective_reason(),
                response=UNDEFINED if discard else chunk,
                **common,
            )
        if final.blocking_error().blocked:
            return ModelResponseEffect(
                action="block",
                reason=final.effective_reason(),
                response=UNDEFINED if discard else chunk,
                **common,
            )
        modified = final.modified_response()
        if modified is not UNDEFINED and truthy(modified):
            return ModelResponseEffect(response=modified, replaced=True, **common)
        return ModelResponseEffect(response=chunk, **common)
    except JSTypeError as exc:
        return ModelResponseEffect(response=chunk, failed=f"TypeError: {exc}", **common)


def _before_tool_selection(
    final: HookAnswer | None, args: dict[str, JSON], profile: Profile
) -> Effect:
    if final is None:
        return ToolSelectionEffect()
    request = args.get("llm_request", UNDEFINED)
    config = opt_get(request, "config")
    try:
        applied = final.apply_tool_config_modifications(
            {"toolConfig": opt_get(config, "toolConfig"), "tools": opt_get(config, "tools")}
        )
    except JSTypeError as exc:
        return ToolSelectionEffect(failed=f"TypeError: {exc}")
    return ToolSelectionEffect(
        changed=True,
        tool_config=applied.get("toolConfig", UNDEFINED),
        tools=applied.get("tools", UNDEFINED),
    )


def _session_start(final: HookAnswer | None, args: dict[str, JSON], profile: Profile) -> Effect:
    if final is None:
        return SessionStartEffect()
    context = final.additional_context()
    return SessionStartEffect(
        history_part=f"<hook_context>{context}</hook_context>" if context else None,
        **_common(final),
    )


_HANDLERS = {
    "BeforeTool": _before_tool,
    "AfterTool": _after_tool,
    "BeforeAgent": _before_agent,
    "AfterAgent": _after_agent,
    "BeforeModel": _before_model,
    "AfterModel": _after_model,
    "BeforeToolSelection": _before_tool_selection,
    "SessionStart": _session_start,
}

__all__ = [
    "AdvisoryEffect",
    "Effect",
    "EffectInput",
    "ModelRequestEffect",
    "ModelResponseEffect",
    "PromptEffect",
    "ResponseEffect",
    "SessionStartEffect",
    "ToolCallEffect",
    "ToolResultEffect",
    "ToolSelectionEffect",
    "compute_effect",
    "llm",
]
