"""Cursor's hook protocol as data, from its published reference (cursor.com/docs/hooks.md,
cursor.com/docs/reference/third-party-hooks.md; cupcake's and hookshot's Cursor references).
No Cursor CLI runs here: nothing below is observed.

``.cursor/hooks.json`` (project) and ``~/.cursor/hooks.json`` (user):
``{"version": 1, "hooks": {EVENT: [{"command": CMD, "timeout": S, "failClosed": true}]}}``.
stdin: ``hook_event_name`` (camelCase) with ``conversation_id``, ``generation_id``,
``workspace_roots``, ``model``, ``cursor_version``, ``user_email`` on every event.
Blocking events answer ``{"permission": "allow"|"deny"|"ask", "user_message",
"agent_message"}`` (snake_case since 2.0); exit 2 blocks; ``failClosed`` makes a crash or a
timeout block. ``beforeReadFile`` reads ``permission`` only; ``beforeSubmitPrompt`` reads
``continue`` (+ ``user_message``); ``stop`` reads ``followup_message``. Reported limits: the
CLI honoured only the shell events as of 2.3; ``ask`` is downgraded to a deny from 2.4.21.

Claude Code compatibility: with "Third-party skills" on, Cursor also runs the hooks of
``.claude/settings.local.json``, ``.claude/settings.json`` and ``~/.claude/settings.json``,
mapping Claude's event names to its own (``PreToolUse`` -> ``preToolUse``, matcher ``Shell``
for the shell tool). Which answer form it reads then is not documented: hookwise answers a
Cursor payload that reaches its Claude hook in both forms at once (adapters/cursor.py).
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = (
    "hook_event_name",
    "conversation_id",
    "generation_id",
    "workspace_roots",
    "model",
    "cursor_version",
    "user_email",
)

PERMISSION_FIELDS: Final = ("permission", "user_message", "agent_message")


def _before(name: str, fields: tuple[str, ...], answer: tuple[str, ...]) -> DialectEvent:
    return DialectEvent(
        name,
        Kind.TOOL_BEFORE,
        fields,
        "tool_name" if "tool_name" in fields else None,
        Decision.CURSOR,
        Exit2.BLOCK,
        specific_fields=answer,
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
    )


def _after(name: str, kind: Kind, fields: tuple[str, ...]) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        fields,
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
    _after("sessionStart", Kind.SESSION_START, ()),
    DialectEvent(
        "beforeSubmitPrompt",
        Kind.PROMPT,
        ("prompt", "attachments"),
        None,
        Decision.CURSOR,
        Exit2.BLOCK,
        specific_fields=("continue", "user_message"),
        common_fields=(),
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
    ),
    _before("preToolUse", ("tool_name", "tool_input"), (*PERMISSION_FIELDS, "updated_input")),
    _before("beforeShellExecution", ("command", "cwd"), PERMISSION_FIELDS),
    _before("beforeMCPExecution", ("tool_name", "tool_input", "url", "command"), PERMISSION_FIELDS),
    _before("beforeReadFile", ("file_path", "content", "attachments"), ("permission",)),
    _after("postToolUse", Kind.TOOL_AFTER, ("tool_name", "tool_input", "tool_output")),
    _after("postToolUseFailure", Kind.TOOL_FAILURE, ("tool_name", "tool_input", "error")),
    _after("afterShellExecution", Kind.TOOL_AFTER, ("command", "output", "duration")),
    _after("afterMCPExecution", Kind.TOOL_AFTER, ("tool_name", "tool_input", "result_json")),
    _after("afterFileEdit", Kind.TOOL_AFTER, ("file_path", "edits")),
    _after("subagentStart", Kind.SUBAGENT_START, ()),
    _after("subagentStop", Kind.STOP, ()),
    _after("preCompact", Kind.COMPACT_BEFORE, ()),
    _after("stop", Kind.STOP, ("status", "loop_count")),
    _after("sessionEnd", Kind.SESSION_END, ()),
)

CURSOR: Final = DialectSpec("cursor", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(CURSOR.events)

# Claude Code's event names as Cursor runs a Claude settings hook (third-party hooks)
FROM_CLAUDE: Final = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "UserPromptSubmit": "beforeSubmitPrompt",
    "Stop": "stop",
    "SubagentStop": "subagentStop",
    "SessionStart": "sessionStart",
    "SessionEnd": "sessionEnd",
    "PreCompact": "preCompact",
}

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("mcp.json", "mcpServers"),),
    "project": ((".cursor/mcp.json", "mcpServers"),),
}
