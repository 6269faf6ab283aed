"""A hook answer and what the host reads from it.

Mirrors the engine's output classes (DefaultHookOutput, BeforeToolHookOutput, ...): the
answer keeps only the seven known top-level fields, and every accessor applies the same
JavaScript tests the engine applies, so an odd answer means the same thing here as there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hookwise.protocol import llm
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    get,
    has_property,
    is_plain_object,
    opt_get,
    spread,
    strict_equals,
    truthy,
)
from hookwise.protocol.profiles import Profile

KNOWN_FIELDS = (
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
)

OUTPUT_CLASSES = (
    "DefaultHookOutput",
    "BeforeToolHookOutput",
    "BeforeModelHookOutput",
    "BeforeToolSelectionHookOutput",
    "AfterModelHookOutput",
    "AfterAgentHookOutput",
)


@dataclass(frozen=True)
class BlockingError:
    blocked: bool
    reason: JSON


class HookAnswer:
    """An aggregated (or single) answer, viewed through one of the engine's output classes."""

    def __init__(
        self,
        data: JSON,
        output_class: str = "DefaultHookOutput",
        profile: Profile = Profile.GEMINI_CLI,
    ) -> None:
        if output_class not in OUTPUT_CLASSES:
            raise ValueError(f"unknown output class {output_class!r}")
        fields = data if isinstance(data, dict) else spread(data)
        self.output_class = output_class
        self.profile = profile
        self.fields: dict[str, Any] = {k: fields.get(k, UNDEFINED) for k in KNOWN_FIELDS}

    # -- plain fields -------------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    @property
    def decision(self) -> JSON:
        return self.fields["decision"]

    @property
    def system_message(self) -> JSON:
        return self.fields["systemMessage"]

    @property
    def suppress_output(self) -> JSON:
        return self.fields["suppressOutput"]

    @property
    def hook_specific(self) -> JSON:
        return self.fields["hookSpecificOutput"]

    def as_json(self) -> dict[str, JSON]:
        """The answer as JSON (undefined fields dropped), like ``JSON.stringify``."""
        return {k: v for k, v in self.fields.items() if v is not UNDEFINED}

    # -- DefaultHookOutput --------------------------------------------------------------
    def is_blocking_decision(self) -> bool:
        return strict_equals(self.decision, "block") or strict_equals(self.decision, "deny")

    def is_ask_decision(self) -> bool:
        return strict_equals(self.decision, "ask")

    def should_stop_execution(self) -> bool:
        return self.fields["continue"] is False

    def effective_reason(self) -> JSON:
        for key in ("stopReason", "reason"):
            value = self.fields[key]
            if truthy(value):
                return value
        return "No reason provided"

    def blocking_error(self) -> BlockingError:
        if self.is_blocking_decision():
            return BlockingError(True, self.effective_reason())
        return BlockingError(False, "")

    def _specific(self, key: str) -> JSON:
        """``hso && key in hso ? hso[key] : undefined`` (throws on a primitive hso)."""
        hso = self.hook_specific
        if truthy(hso) and has_property(hso, key):
            return get(hso, key)
        return UNDEFINED

    def additional_context(self) -> str | None:
        """Context text with ``<`` and ``>`` escaped, so a hook cannot inject tags."""
        value = self._specific("additionalContext")
        if not isinstance(value, str):
            return None
        return value.replace("<", "&lt;").replace(">", "&gt;")

    def should_clear_context(self) -> bool:
        if self.output_class != "AfterAgentHookOutput":
            return False
        return self._specific("clearContext") is True

    def tail_tool_call_request(self) -> dict[str, JSON] | None:
        value = self._specific("tailToolCallRequest")
        return value if is_plain_object(value) else None

    # -- per class ----------------------------------------------------------------------
    def modified_tool_input(self) -> dict[str, JSON] | None:
        if self.output_class != "BeforeToolHookOutput":
            return None
        value = self._specific("tool_input")
        return value if is_plain_object(value) else None

    def synthetic_response(self) -> JSON:
        """BeforeModel: the SDK response to use instead of calling the model, or UNDEFINED."""
        if self.output_class != "BeforeModelHookOutput":
            return UNDEFINED
        value = self._specific("llm_response")
        if truthy(value):
            return llm.from_hook_llm_response(value, self.profile)
        return UNDEFINED

    def apply_llm_request_modifications(self, target: JSON) -> JSON:
        if self.output_class != "BeforeModelHookOutput":
            return target
        value = self._specific("llm_request")
        if truthy(value):
            return {
                **spread(target),
                **spread(llm.from_hook_llm_request(value, target, self.profile)),
            }
        return target

    def apply_tool_config_modifications(self, target: dict[str, JSON]) -> dict[str, JSON]:
        if self.output_class != "BeforeToolSelectionHookOutput":
            return target
        value = self._specific("toolConfig")
        if truthy(value):
            tools = target.get("tools", UNDEFINED)
            return {
                **target,
                "tools": tools if truthy(tools) else [],
                "toolConfig": llm.from_hook_tool_config(value),
            }
        return target

    def modified_response(self) -> JSON:
        """AfterModel: the SDK chunk that replaces the model's, or UNDEFINED."""
        if self.output_class != "AfterModelHookOutput":
            return UNDEFINED
        value = self._specific("llm_response")
        parts = opt_get(opt_get(opt_get(opt_get(value, "candidates"), "0"), "content"), "parts")
        if truthy(opt_get(parts, "length")):
            return llm.from_hook_llm_response(value, self.profile)
        return UNDEFINED
