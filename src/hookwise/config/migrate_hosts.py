"""What ``hookwise migrate`` needs to know of one host, read from its registry row and tables.

Claude Code's events are the pivot: every host's events are mapped to Claude's (by name
where the host uses Claude's names, by the protocol module's ``CLAUDE_EVENTS`` where it
renames them, by kind where it has a table of its own: Gemini CLI), and tools go through
the canonical names of the rows' ``tools``. Nothing here asks which host it is: a host added
to the registry with ``migrate`` in its ``supports`` migrates with these facts.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Final

from hookwise.config.claude.settings import UNSUPPORTED_EVENTS
from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.dialect import Kind
from hookwise.protocol.hosts import HostInfo, claude_events, host

# Documented Claude Code events that hookwise's table does not carry (config/claude): a
# hook on one of them is Claude's, but no other host has it.
CLAUDE_ALL_EVENTS: Final = frozenset({*CLAUDE.events, *UNSUPPORTED_EVENTS})


@dataclass(frozen=True)
class MigrateHost:
    """One host's facts for a migration."""

    info: HostInfo
    events: tuple[str, ...]
    to_claude: dict[str, str]
    from_claude: dict[str, str]
    matcher_kinds: dict[str, str]
    """event -> "tool" (a regex on the tool name), "value" (a list or regex of lifecycle
    values), "exact" (one lifecycle value, compared exactly) or "ignored"."""
    default_timeout_s: dict[str, float]
    project_env: tuple[str, ...]
    hook_env: tuple[str, ...]
    handler_fields: tuple[str, ...]
    tool_aliases: dict[str, tuple[str, ...]]
    exact_matcher_chars: frozenset[str] | None
    hooks_config_fields: tuple[str, ...]
    whole_seconds: bool
    narrow_tools: frozenset[str] = frozenset()
    tools: dict[str, str] = field(default_factory=dict)
    field_aliases: dict[str, str] = field(default_factory=dict)
    """Its payload's field names for Claude Code's, on the events it renames (Copilot's
    camelCase ``sessionId``, ``toolName``...)."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def project_var(self) -> str:
        """The variable naming the project directory in its hooks ($PWD where none)."""
        return self.project_env[0] if self.project_env else "PWD"

    def tool_for(self, canonical: str) -> str | None:
        """The host's tool of a canonical kind (the first its row names, of those doing all
        of it), or None."""
        return next(
            (
                name
                for name, kind in self.tools.items()
                if kind == canonical and name not in self.narrow_tools
            ),
            None,
        )

    def sets(self, variable: str) -> bool:
        """Whether its hooks get ``variable`` (a name, or a prefix ending in ``_``)."""
        for known in (*self.project_env, *self.hook_env):
            if variable == known or (known.endswith("_") and variable.startswith(known)):
                return True
        return False


def _by_kind(module: ModuleType) -> dict[str, str]:
    """Claude Code event -> the host event of the same kind, for a host with a table of its
    own (``EVENTS``); of several Claude events of one kind (Stop, SubagentStop) the first."""
    own: dict[Kind, str] = {}
    for spec in module.EVENTS.values():
        if spec.kind is not None:
            own.setdefault(spec.kind, spec.name)
    mapped: dict[str, str] = {}
    taken: set[Kind] = set()
    for name, event in CLAUDE.events.items():
        if event.kind in own and event.kind not in taken:
            taken.add(event.kind)
            mapped[name] = own[event.kind]
    return mapped


def _matcher_kind_of_table(field_name: str | None) -> str:
    if field_name is None:
        return "ignored"
    return "tool" if field_name == "tool_name" else "value"


@cache
def migrate_host(name: str) -> MigrateHost:
    """The facts of the host ``name`` (ValueError for an unknown one)."""
    info = host(name)
    module = importlib.import_module(info.module)
    renamed = claude_events(name) if info.table_name is not None else None
    if info.table_name is None:  # a table of its own (Gemini CLI): events by kind
        from hookwise.protocol.gemini import MatcherKind

        events = tuple(module.EVENTS)
        from_claude = _by_kind(module)
        to_claude = {v: k for k, v in from_claude.items()}
        kinds = {
            e: "tool"
            if spec.matcher is MatcherKind.TOOL_REGEX
            else "exact"
            if spec.matcher is MatcherKind.EXACT
            else "ignored"
            for e, spec in module.EVENTS.items()
        }
        defaults = {e: module.DEFAULT_TIMEOUT_MS / 1000.0 for e in events}
    else:
        spec = getattr(module, info.table_name)
        events = tuple(spec.events)
        if spec is CLAUDE:  # the pivot itself, with the events hookwise has no table of
            events = (*events, *sorted(UNSUPPORTED_EVENTS))
        if renamed is None:
            pivot = CLAUDE_ALL_EVENTS
            to_claude = {e: e for e in events if e in pivot}
            from_claude = dict(to_claude)
        else:
            to_claude = {own: claude for claude, names in renamed[0].items() for own in names}
            # of several spellings, the one named as Claude's (its payload is Claude's)
            from_claude = {
                claude: claude if claude in names else names[0]
                for claude, names in renamed[0].items()
                if names
            }
        kinds = {
            e: _matcher_kind_of_table(spec.events[e].matcher_field)
            for e in events
            if e in spec.events
        }
        defaults = {e: spec.events[e].default_timeout_s for e in events if e in spec.events}
    if info.hooks_layout == "flat":  # handlers straight under the event: no matcher at all
        kinds = dict.fromkeys(kinds, "ignored")
    return MigrateHost(
        info=info,
        events=events,
        to_claude=to_claude,
        from_claude=from_claude,
        matcher_kinds=kinds,
        default_timeout_s=defaults,
        project_env=tuple(getattr(module, "PROJECT_ENV", ())),
        hook_env=tuple(getattr(module, "HOOK_ENV", ())),
        handler_fields=tuple(getattr(module, "HANDLER_FIELDS", ())),
        tool_aliases=dict(getattr(module, "TOOL_ALIASES", {})),
        exact_matcher_chars=getattr(module, "EXACT_MATCHER_CHARS", None),
        hooks_config_fields=tuple(getattr(module, "HOOKS_CONFIG_FIELDS", ())),
        whole_seconds=bool(getattr(module, "TIMEOUT_WHOLE_SECONDS", False)),
        narrow_tools=frozenset(getattr(module, "NARROW_TOOLS", ())),
        tools=dict(info.tools),
        field_aliases=dict(renamed[1]) if renamed else {},
    )


__all__ = ["CLAUDE_ALL_EVENTS", "MigrateHost", "migrate_host"]
