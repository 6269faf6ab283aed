"""Crush's hook protocol as data, from its published reference (charmbracelet/crush#2598,
"Claude Code compatible" PreToolUse hooks; #3410; syllago's Crush provider notes). Crush
cannot be installed here (its npm package downloads its binary at install time), so nothing
below is observed.

``hooks`` in ``crush.json`` / ``.crush.json`` (project) or ``~/.config/crush/crush.json``:
``{"hooks": {"PreToolUse": [{"name", "matcher", "command", "timeout"}]}}`` (``timeout`` in
seconds, default 30). Only ``PreToolUse``, run before Crush's permission check, with
Claude Code's payload (``hook_event_name``, ``session_id``, ``cwd``, ``tool_name``,
``tool_input``) and Crush's tool names (``bash``, ``view``, ``edit``...). A deny is exit 2
(stderr the reason) or JSON ``decision: "deny"``; pre-approval, rewrite (``updated_input``)
and stop are documented; ``ask`` is not confirmed. Since which JSON spelling wins is not
settled, hookwise denies with exit 2 and every documented JSON form at once.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("hook_event_name", "session_id", "cwd")

_EVENTS: Final = (
    DialectEvent(
        "PreToolUse",
        Kind.TOOL_BEFORE,
        ("tool_name", "tool_input"),
        "tool_name",
        Decision.EXIT2,
        Exit2.BLOCK,
        specific_fields=("decision", "reason", "permissionDecision", "permissionDecisionReason"),
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=("deny", "allow"),
    ),
)

CRUSH: Final = DialectSpec("crush", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(CRUSH.events)

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("crush.json", "mcp"),),
    "project": (("crush.json", "mcp"), (".crush.json", "mcp")),
}
