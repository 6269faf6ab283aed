"""The outcome: what the agent will do, in the same words for every dialect.

Users and tests read it without knowing whether the hooks were written for Gemini CLI,
Claude Code or Codex: does the action go ahead, what text reaches the model and the user,
does the session end, was the tool input rewritten, what context was added.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hookwise.host.effect import (
    Effect,
    ModelRequestEffect,
    ModelResponseEffect,
    PromptEffect,
    ResponseEffect,
    SessionStartEffect,
    ToolCallEffect,
    ToolResultEffect,
    ToolSelectionEffect,
)
from hookwise.protocol.jsvalue import JSON, js_string, truthy
from hookwise.protocol.profiles import Profile


@dataclass(frozen=True)
class Outcome:
    proceed: bool  # the tool call, prompt, stop (or other action) goes ahead
    reason_for_model: str | None = None
    message_for_user: str | None = None
    stop_session: bool = False
    updated_input: dict[str, JSON] | None = None
    additional_context: str | None = None
    # the answer asks a person to confirm: an interactive host waits for them, a headless
    # run does not go ahead; either way ``proceed`` is False
    asks_user: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _text(value: JSON) -> str | None:
    return js_string(value) if truthy(value) else None


def gemini_outcome(effect: Effect, profile: Profile) -> Outcome:
    """The outcome of a Gemini effect (the host runtime's typed result)."""
    user = effect.user_message(profile)
    if isinstance(effect, ToolCallEffect):
        rewritten = effect.tool_input if isinstance(effect.tool_input, dict) else None
        return Outcome(
            proceed=effect.action == "proceed",
            reason_for_model=effect.error if effect.action in ("block", "stop") else None,
            message_for_user=user,
            # observed (Gemini CLI 0.61.0, -p): a call that needs a confirmation ends the
            # headless run, nothing printed; an interactive session waits for the person
            stop_session=effect.action in ("stop", "ask"),
            updated_input=rewritten,
            asks_user=effect.action == "ask",
        )
    if isinstance(effect, ToolResultEffect):
        replaced = effect.action in ("replace", "stop")
        content = (
            effect.tool_result.get("llmContent") if isinstance(effect.tool_result, dict) else None
        )
        return Outcome(
            proceed=not replaced,
            reason_for_model=_text(content) if replaced else None,
            message_for_user=user,
            stop_session=effect.action == "stop",
            additional_context=effect.additional_context,
        )
    if isinstance(effect, PromptEffect):
        appended = (
            effect.appended_part.get("text") if isinstance(effect.appended_part, dict) else None
        )
        return Outcome(
            proceed=effect.action == "proceed",
            message_for_user=user or (_text(effect.reason) if effect.action != "proceed" else None),
            stop_session=effect.action == "stop",
            additional_context=_text(appended),
        )
    if isinstance(effect, ResponseEffect):
        return Outcome(
            proceed=effect.action != "retry",
            reason_for_model=_text(effect.reason) if effect.action == "retry" else None,
            message_for_user=user,
            stop_session=effect.action == "stop",
        )
    if isinstance(effect, ModelRequestEffect):
        return Outcome(
            proceed=effect.action == "proceed",
            message_for_user=user or (_text(effect.reason) if effect.action != "proceed" else None),
            stop_session=effect.action == "stop",
        )
    if isinstance(effect, ModelResponseEffect):
        return Outcome(
            proceed=effect.action == "proceed",
            message_for_user=user or (_text(effect.reason) if effect.action != "proceed" else None),
            stop_session=effect.action == "stop",
        )
    if isinstance(effect, SessionStartEffect):
        return Outcome(proceed=True, message_for_user=user, additional_context=effect.history_part)
    if isinstance(effect, ToolSelectionEffect):
        return Outcome(proceed=True, message_for_user=user)
    return Outcome(proceed=True, message_for_user=user)
