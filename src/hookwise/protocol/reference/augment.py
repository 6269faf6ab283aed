"""Augment's Auggie CLI hooks as data, from its published reference
(docs.augmentcode.com/cli/hooks, /cli/hooks-examples). Auggie needs Augment's own API and
cannot be pointed at a local model here: nothing below is observed.

Settings, highest first: ``/etc/augment/settings.json`` (system, immutable),
``.augment/settings.local.json``, ``.augment/settings.json``, ``~/.augment/settings.json``;
``hooks`` in Claude Code's shape (event -> matcher groups -> ``{"type": "command",
"command": "<a .sh file>", "timeout"}``). stdin: Claude Code's fields (``hook_event_name``,
``session_id``, ``cwd``, ``tool_name``, ``tool_input``) with Auggie's tool names
(``launch-process``, ``save-file``, ``str-replace-editor``, ``view``...). PreToolUse blocks
with exit 2 (stderr to the agent); Stop can block finishing with ``decision: "block"``. No ask
and no rewrite are documented.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("hook_event_name", "session_id", "cwd")


def _event(
    name: str, kind: Kind, fields: tuple[str, ...], decision: Decision, exit2: Exit2
) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        fields,
        "tool_name" if "tool_name" in fields else None,
        decision,
        exit2,
        json_honoured=decision is not Decision.NONE,  # (its block is exit 2, JSON on Stop)
        common_fields=(),
        default_timeout_s=60.0,
        stop_supported=False,
        decision_values=("block",) if decision is Decision.BLOCK else (),
    )


_EVENTS: Final = (
    _event("SessionStart", Kind.SESSION_START, (), Decision.NONE, Exit2.IGNORED),
    _event(
        "PreToolUse", Kind.TOOL_BEFORE, ("tool_name", "tool_input"), Decision.EXIT2, Exit2.BLOCK
    ),
    _event(
        "PostToolUse",
        Kind.TOOL_AFTER,
        ("tool_name", "tool_input", "tool_output"),
        Decision.NONE,
        Exit2.IGNORED,
    ),
    _event("Stop", Kind.STOP, (), Decision.BLOCK, Exit2.CONTINUE),
    _event("SessionEnd", Kind.SESSION_END, (), Decision.NONE, Exit2.IGNORED),
)

AUGMENT: Final = DialectSpec("augment", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(AUGMENT.events)

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("settings.json", "mcpServers"),),
    "project": ((".augment/settings.json", "mcpServers"),),
}
