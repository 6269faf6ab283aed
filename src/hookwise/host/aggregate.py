"""Many answers -> one, with the merge strategy of each event (hookAggregator.ts).

OR of blocking decisions, joined messages and contexts, last-wins hookSpecificOutput,
field replacement for model events, a sorted union of allowed tools with NONE winning.
The arithmetic is done with JavaScript semantics because hooks write arbitrary JSON.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from hookwise.host.answer import HookAnswer
from hookwise.protocol.gemini import MergeStrategy, event_spec
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    get,
    has_property,
    js_sort_key,
    js_string,
    opt_get,
    spread,
    strict_equals,
    truthy,
)
from hookwise.protocol.profiles import Profile


@dataclass
class Aggregate:
    """The merged result of one event's hooks."""

    success: bool
    final: HookAnswer | None
    all_outputs: list[JSON] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    merge_error: str | None = None  # the merge itself failed (the engine's catch-all)


def aggregate(
    event: str,
    outputs: Sequence[JSON],
    errors: Sequence[str],
    profile: Profile = Profile.DOCUMENTED,
) -> Aggregate:
    """Merge the answers (in plan order) of the hooks that ran for ``event``."""
    spec = event_spec(event)
    answers = [o for o in outputs if truthy(o)]
    try:
        merged = merge(spec.merge, answers, profile)
    except JSTypeError as exc:
        message = str(exc)
        return Aggregate(False, None, [], [message], merge_error=message)
    final = HookAnswer(merged, spec.output_class, profile) if merged is not None else None
    return Aggregate(not errors, final, list(answers), list(errors))


def merge(strategy: MergeStrategy, outputs: Sequence[JSON], profile: Profile) -> JSON:
    if not outputs:
        return None
    if strategy is MergeStrategy.OR_DECISION:
        return merge_or_decision(outputs, profile)
    if strategy is MergeStrategy.FIELD_REPLACEMENT:
        return merge_field_replacement(outputs)
    if strategy is MergeStrategy.TOOL_SELECTION:
        return merge_tool_selection(outputs)
    return merge_simple(outputs)


def _is_block(decision: JSON) -> bool:
    return strict_equals(decision, "block") or strict_equals(decision, "deny")


def merge_or_decision(outputs: Sequence[JSON], profile: Profile) -> dict[str, JSON]:
    merged: dict[str, JSON] = {"continue": True, "suppressOutput": False}
    stop_reasons: list[JSON] = []
    reasons: list[JSON] = []
    system_messages: list[JSON] = []
    contexts: list[str] = []
    has_block = has_ask = has_continue_false = False
    tool_inputs: list[JSON] = []
    for output in outputs:
        if get(output, "continue") is False:
            has_continue_false = True
            merged["continue"] = False
            if truthy(get(output, "stopReason")):
                stop_reasons.append(get(output, "stopReason"))
        decision = get(output, "decision")
        if _is_block(decision):
            has_block = True
            merged["decision"] = decision
        elif strict_equals(decision, "ask"):
            has_ask = True
            if not has_block:
                merged["decision"] = decision
        for key, bucket in (("reason", reasons), ("systemMessage", system_messages)):
            if truthy(get(output, key)):
                bucket.append(get(output, key))
        if truthy(get(output, "suppressOutput")):
            merged["suppressOutput"] = True
        specific = get(output, "hookSpecificOutput")
        if opt_get(specific, "clearContext") is True:
            merged["hookSpecificOutput"] = {
                **spread(merged.get("hookSpecificOutput") or {}),
                "clearContext": True,
            }
        if truthy(specific):
            rest = spread(specific)
            rest.pop("clearContext", None)
            if profile is Profile.DOCUMENTED and isinstance(rest.get("tool_input"), dict):
                tool_inputs.append(rest["tool_input"])
            merged["hookSpecificOutput"] = {
                **spread(merged.get("hookSpecificOutput") or {}),
                **rest,
            }
            if has_property(specific, "additionalContext"):
                context = get(specific, "additionalContext")
                if isinstance(context, str):
                    contexts.append(context)
    if not (has_block or has_ask or has_continue_false):
        merged["decision"] = "allow"
    for key, bucket in (
        ("stopReason", stop_reasons),
        ("reason", reasons),
        ("systemMessage", system_messages),
    ):
        if bucket:
            merged[key] = "\n".join(js_string(v) for v in bucket)
    if contexts:
        merged["hookSpecificOutput"] = {
            **spread(merged.get("hookSpecificOutput") or {}),
            "additionalContext": "\n".join(contexts),
        }
    if len(tool_inputs) > 1:
        # documented: each hook's tool_input merges over the model's arguments, so
        # several rewrites compose in plan order instead of the last one winning.
        combined: dict[str, JSON] = {}
        for value in tool_inputs:
            combined.update(value)
        merged["hookSpecificOutput"] = {
            **spread(merged["hookSpecificOutput"]),
            "tool_input": combined,
        }
    return merged


def merge_field_replacement(outputs: Sequence[JSON]) -> dict[str, JSON]:
    merged: dict[str, JSON] = {}
    for output in outputs:
        merged = {
            **merged,
            **spread(output),
            "hookSpecificOutput": {
                **spread(merged.get("hookSpecificOutput", UNDEFINED)),
                **spread(get(output, "hookSpecificOutput")),
            },
        }
    return merged


def _iterate(value: JSON, what: str) -> Iterator[JSON]:
    """``for (const x of value)``: arrays by element, strings by code point."""
    if isinstance(value, list | str):
        yield from value
    else:
        raise JSTypeError(f"{what} is not iterable")


def _same_value_key(value: JSON) -> tuple[str, object]:
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int | float):
        return ("n", float(value))
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z", None)
    return ("o", id(value))


def merge_tool_selection(outputs: Sequence[JSON]) -> dict[str, JSON]:
    names: dict[tuple[str, object], JSON] = {}
    has_none = has_any = False
    for output in outputs:
        tool_config = opt_get(get(output, "hookSpecificOutput"), "toolConfig")
        if not truthy(tool_config):
            continue
        mode = get(tool_config, "mode")
        if strict_equals(mode, "NONE"):
            has_none = True
        elif strict_equals(mode, "ANY"):
            has_any = True
        allowed = get(tool_config, "allowedFunctionNames")
        if truthy(allowed):
            for name in _iterate(allowed, "toolConfig.allowedFunctionNames"):
                names.setdefault(_same_value_key(name), name)
    if has_none:
        return _tool_selection("NONE", [])
    ordered = sorted(names.values(), key=js_sort_key)
    return _tool_selection("ANY" if has_any else "AUTO", ordered)


def _tool_selection(mode: str, names: list[JSON]) -> dict[str, JSON]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "BeforeToolSelection",
            "toolConfig": {"mode": mode, "allowedFunctionNames": names},
        }
    }


def merge_simple(outputs: Sequence[JSON]) -> dict[str, JSON]:
    merged: dict[str, JSON] = {}
    for output in outputs:
        merged = {**merged, **spread(output)}
    return merged
