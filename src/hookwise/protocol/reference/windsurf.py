"""Windsurf (Cascade) hooks as data, from its published reference
(docs.windsurf.com/windsurf/cascade/hooks; difflore's Windsurf adapter notes). Windsurf is an
IDE with no CLI that runs here: nothing below is observed.

``hooks.json`` at the system (``/etc/windsurf/hooks.json``), user
(``~/.codeium/windsurf/hooks.json``) and workspace (``.windsurf/hooks.json``) levels, all
merged and run system first: ``{"hooks": {EVENT: [{"command", "show_output",
"working_directory"}]}}``. stdin: ``{agent_action_name, trajectory_id, execution_id,
timestamp, tool_info: {...}}``; the event is ``agent_action_name``. The only answer is the
exit code: exit 2 blocks the action and its stderr is shown; there is no JSON decision, no
ask, no rewrite and no context.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("agent_action_name", "trajectory_id", "execution_id", "timestamp")


def _pre(name: str, kind: Kind = Kind.TOOL_BEFORE) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        ("tool_info",),
        None,
        Decision.EXIT2,
        Exit2.BLOCK,
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
    )


def _post(name: str) -> DialectEvent:
    return DialectEvent(
        name,
        Kind.TOOL_AFTER,
        ("tool_info",),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
    )


_EVENTS: Final = (
    _pre("pre_user_prompt", Kind.PROMPT),
    _pre("pre_read_code"),
    _pre("pre_write_code"),
    _pre("pre_run_command"),
    _pre("pre_mcp_tool_use"),
    _post("post_read_code"),
    _post("post_write_code"),
    _post("post_run_command"),
    _post("post_mcp_tool_use"),
)

WINDSURF: Final = DialectSpec("windsurf", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(WINDSURF.events)

# the event -> (the canonical tool it gates, the tool_info keys holding its input)
EVENT_TOOLS: Final = {
    "pre_run_command": "run_command",
    "post_run_command": "run_command",
    "pre_read_code": "read_code",
    "post_read_code": "read_code",
    "pre_write_code": "write_code",
    "post_write_code": "write_code",
    "pre_mcp_tool_use": "mcp_tool_use",
    "post_mcp_tool_use": "mcp_tool_use",
}

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("mcp_config.json", "mcpServers"),),
}
