"""Turning ``hooks`` objects into registered hooks, with the engine's validation.

Invalid parts are skipped with a warning and the rest still loads: a typo in one hook
must not switch off every other hook of the project.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hookwise.config.model import HookEntry, Source, hook_display_name
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.gemini import EVENTS, HOOKS_CONFIG_FIELDS, MatcherKind
from hookwise.protocol.jsregex import JSRegexUnsupportedError, compile_js_regex
from hookwise.protocol.jsvalue import JSON, js_trim, truthy

VALID_TYPES = ("command", "plugin", "runtime")


@dataclass
class HooksObject:
    """A settings-style ``hooks`` object and where it came from."""

    hooks: JSON
    source: Source
    origin: str = ""  # file path, for messages
    scope: str = ""


@dataclass
class Registry:
    entries: list[HookEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def for_event(self, event: str) -> list[HookEntry]:
        """Enabled hooks of one event in execution order (stable sort by source)."""
        return sorted(
            (e for e in self.entries if e.event == event and e.enabled),
            key=lambda e: e.source.priority,
        )

    def set_enabled(self, name: str, enabled: bool) -> int:
        count = 0
        for entry in self.entries:
            if entry.name == name:
                entry.enabled = enabled
                count += 1
        return count


def build_registry(
    objects: Iterable[HooksObject],
    disabled: Sequence[JSON] = (),
    runtime: Sequence[HookEntry] = (),
    dialect: DialectSpec | None = None,
) -> Registry:
    """Register hooks as HookRegistry.processHooksConfiguration does.

    ``dialect`` None is Gemini CLI; Claude Code and Codex hooks are checked against
    their own event tables (same shape: event -> matcher groups -> handlers).
    """
    registry = Registry(entries=list(runtime))
    for obj in objects:
        _register_object(registry, obj, list(disabled), dialect)
    return registry


def _register_object(
    registry: Registry, obj: HooksObject, disabled: list[JSON], dialect: DialectSpec | None
) -> None:
    events = dialect.events if dialect is not None else EVENTS
    where = obj.origin or obj.source.value
    if not isinstance(obj.hooks, dict):
        if obj.hooks is not None:
            registry.warnings.append(f"{where}: 'hooks' must be an object; ignored")
        return
    for event, definitions in obj.hooks.items():
        if event in HOOKS_CONFIG_FIELDS:
            continue
        if event not in events:
            registry.warnings.append(
                f'{where}: Invalid hook event name: "{event}" from {obj.source.value} config. '
                f"Skipping. (expected one of: {', '.join(events)})"
            )
            continue
        if not isinstance(definitions, list):
            registry.warnings.append(
                f"{where}: hooks.{event} must be an array of hook definitions; skipped"
            )
            continue
        for index, definition in enumerate(definitions):
            path = f"{where}#/hooks/{event}/{index}"
            _register_definition(
                registry,
                obj,
                event=event,
                definition=definition,
                path=path,
                disabled=disabled,
                dialect=dialect,
            )


def _register_definition(
    registry: Registry,
    obj: HooksObject,
    *,
    event: str,
    definition: JSON,
    path: str,
    disabled: list[JSON],
    dialect: DialectSpec | None = None,
) -> None:
    if not isinstance(definition, dict) or not isinstance(definition.get("hooks"), list):
        registry.warnings.append(f"{path}: a hook definition needs a 'hooks' array; discarded")
        return
    problem = matcher_problem(event, definition.get("matcher")) if dialect is None else None
    if problem is not None:
        registry.warnings.append(f"{path}/matcher: {problem}")
    for index, config in enumerate(definition["hooks"]):
        hook_path = f"{path}/hooks/{index}"
        kinds = (*dialect.events[event].handler_types, "runtime") if dialect else VALID_TYPES
        problem = validate_hook_config(config, kinds)
        if problem is not None:
            registry.warnings.append(f"{hook_path}: {problem}; discarded")
            continue
        assert isinstance(config, dict)
        is_disabled = hook_display_name(config) in disabled
        config["source"] = obj.source.value
        registry.entries.append(
            HookEntry(
                config=config,
                event=event,
                source=obj.source,
                matcher=definition.get("matcher"),
                sequential=definition.get("sequential"),
                enabled=not is_disabled,
                origin=hook_path,
                scope=obj.scope or obj.source.value,
            )
        )


def matcher_problem(event: str, matcher: JSON) -> str | None:
    """Why a matcher will not do what its author expects, or None."""
    if matcher is None or matcher == "":
        return None
    if not isinstance(matcher, str):
        return f"a matcher must be a string (got {type(matcher).__name__}); the engine fails here"
    text = js_trim(matcher)
    if text in ("", "*"):
        return None
    spec = EVENTS[event]
    if spec.matcher is MatcherKind.TOOL_REGEX:
        try:
            valid = compile_js_regex(text) is not None
        except JSRegexUnsupportedError as exc:
            return f"{text!r} is a JavaScript regex Python cannot run exactly ({exc})"
        if not valid:
            return (
                f"{text!r} is not a valid regular expression; it matches only a tool "
                f"named exactly {text!r}"
            )
        return None
    if spec.matcher is MatcherKind.IGNORED and spec.documented_matcher_field is None:
        return f"matchers are ignored for {event}: this hook runs for every {event}"
    return None


def validate_hook_config(config: JSON, kinds: Sequence[str] = VALID_TYPES) -> str | None:
    """Why the engine would discard this hook config, or None when it is kept (``kinds``:
    the handler types the host runs there)."""
    if not isinstance(config, dict) or not truthy(config):
        return "a hook must be an object"
    kind = config.get("type")
    if not truthy(kind) or kind not in kinds:
        return f"'type' must be one of {', '.join(kinds)} (got {kind!r})"
    if kind == "command" and not truthy(config.get("command")):
        return "a command hook needs a non-empty 'command'"
    if kind == "runtime" and not truthy(config.get("name")):
        return "a runtime hook needs a 'name'"
    return None
