"""Which hooks run for an event, in which order, and whether one after another.

Matching follows the engine: tool events compare an unanchored JavaScript regex with the
tool name (an invalid regex means exact equality), session events compare exact
strings, and the other events pass no context so their matchers are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookwise.config.model import HookEntry, hook_key
from hookwise.config.registry import Registry
from hookwise.protocol.gemini import MatcherKind, event_spec
from hookwise.protocol.jsregex import JSRegexUnsupportedError, compile_js_regex, js_regex_test
from hookwise.protocol.jsvalue import JSON, JSTypeError, js_string, js_trim, truthy
from hookwise.protocol.profiles import Profile


@dataclass(frozen=True)
class MatchContext:
    """What matchers are compared with (the engine's planner context)."""

    tool_name: JSON = None
    trigger: JSON = None


@dataclass
class Plan:
    event: str
    hooks: list[HookEntry]
    sequential: bool


def match_context(event: str, payload: dict[str, JSON], profile: Profile) -> MatchContext | None:
    """The context the host derives from an event's input."""
    spec = event_spec(event)
    field = spec.matcher_field if profile is Profile.GEMINI_CLI else spec.documented_matcher_field
    if field is None:
        return None
    value = payload.get(field)
    if spec.matcher is MatcherKind.TOOL_REGEX:
        return MatchContext(tool_name=value)
    return MatchContext(trigger=value)


def matches(
    entry: HookEntry, context: MatchContext | None, warnings: list[str] | None = None
) -> bool:
    matcher = entry.matcher
    if not truthy(matcher) or context is None:
        return True
    if not isinstance(matcher, str):
        raise JSTypeError("entry.matcher.trim is not a function")
    pattern_text = js_trim(matcher)
    if pattern_text in ("", "*"):
        return True
    if truthy(context.tool_name):
        return matches_tool_name(pattern_text, context.tool_name, warnings)
    if truthy(context.trigger):
        return bool(pattern_text == context.trigger)
    return True


def matches_tool_name(matcher: str, tool_name: JSON, warnings: list[str] | None = None) -> bool:
    """``new RegExp(matcher).test(toolName)``; an invalid regex means exact equality."""
    try:
        pattern = compile_js_regex(matcher)
    except JSRegexUnsupportedError as exc:
        if warnings is not None:
            warnings.append(f"matcher {matcher!r} cannot be run exactly ({exc}); using equality")
        pattern = None
    name = tool_name if isinstance(tool_name, str) else js_string(tool_name)
    if pattern is None:
        return bool(matcher == tool_name)
    return js_regex_test(pattern, name)


def create_plan(
    registry: Registry,
    event: str,
    context: MatchContext | None,
    warnings: list[str] | None = None,
) -> Plan | None:
    """None when no hook is registered for the event or none matches."""
    entries = registry.for_event(event)
    if not entries:
        return None
    matching = [e for e in entries if matches(e, context, warnings)]
    if not matching:
        return None
    seen: set[str] = set()
    unique: list[HookEntry] = []
    for entry in matching:
        key = hook_key(entry.config)
        if key not in seen:
            seen.add(key)
            unique.append(entry)
    sequential = any(e.sequential is True for e in unique)
    return Plan(event, unique, sequential)
