"""Kiro CLI's hooks as data, from its published reference (kiro.dev/docs/cli/hooks). No
Kiro CLI runs here: nothing below is observed.

Hooks belong to an agent configuration (``.kiro/agents/*.json``, ``~/.kiro/agents/*.json``),
its ``hooks`` field: ``{"preToolUse": [{"matcher": "execute_bash", "command": CMD,
"timeout_ms": 30000, "cache_ttl_seconds": 0}]}``; matchers name tools (``fs_write``,
``fs_*``, ``@git``, ``*``). stdin: ``{hook_event_name, cwd, tool_name, tool_input,
tool_response}``. Only ``preToolUse`` can block: exit 2, its stderr returned to the model.
No JSON decision, no ask, no rewrite. (The IDE's ``.kiro/hooks/*.kiro.hook`` files are a
different system that passes no tool payload.)
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("hook_event_name", "cwd")


def _event(name: str, kind: Kind, fields: tuple[str, ...], blocks: bool) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        fields,
        "tool_name" if "tool_name" in fields else None,
        Decision.EXIT2 if blocks else Decision.NONE,
        Exit2.BLOCK if blocks else Exit2.IGNORED,
        json_honoured=blocks,  # (no JSON is read at all; a blocking event's exit 2 is)
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
    )


_EVENTS: Final = (
    _event("agentSpawn", Kind.SESSION_START, (), False),
    _event("userPromptSubmit", Kind.PROMPT, ("prompt",), False),
    _event("preToolUse", Kind.TOOL_BEFORE, ("tool_name", "tool_input"), True),
    _event("postToolUse", Kind.TOOL_AFTER, ("tool_name", "tool_input", "tool_response"), False),
    _event("stop", Kind.STOP, (), False),
)

KIRO: Final = DialectSpec("kiro", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(KIRO.events)

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("settings/mcp.json", "mcpServers"),),
    "project": ((".kiro/settings/mcp.json", "mcpServers"),),
}
