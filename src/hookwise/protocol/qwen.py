"""Qwen Code's hook protocol as data (docs/users/features/hooks.md; observed with 0.24.4).

Claude Code's event names, payload and answers with Gemini CLI's tool ids
(``run_shell_command``, ``write_file``...), in ``.qwen/settings.json`` (project, loaded when
folder trust is off, as it is by default, or the folder is trusted) and
``~/.qwen/settings.json``. Departures from Claude Code, observed: a command hook's
``timeout`` is in **milliseconds** (default 60000); exit 1 and a timeout let the tool run
(fail open); ``updatedInput`` (and Gemini's ``tool_input``) are ignored: no rewrite; an
``ask`` in a headless run is a deny; hooks of one group run in parallel unless
``sequential: true``; the provider's ``OPENAI_API_KEY`` is in the hooks' environment. What the
model reads after a deny is the bare reason (exit 2: stderr). Exit 2 with an empty stderr
lets the tool run even with a JSON deny on stdout; PreToolUse ``additionalContext`` does not
reach the model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = (
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "timestamp",
    "permission_mode",
)

_SAME_AS_CLAUDE: Final = (
    "SessionStart",
    "UserPromptSubmit",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
)

# Command hooks only (Claude Code's other handler types are its own).
COMMAND_ONLY: Final = ("command",)

_PRE_TOOL: Final = replace(
    CLAUDE.events["PreToolUse"],
    input_fields=("tool_name", "tool_input", "tool_use_id", "tool_call_id", "prompt_id"),
    # observed: updatedInput and tool_input are ignored (the original command runs), and
    # additionalContext never reaches the model
    specific_fields=("permissionDecision", "permissionDecisionReason"),
    default_timeout_s=60.0,
    handler_types=COMMAND_ONLY,
    # observed: after an exit 2 the JSON on stdout is ignored, and an exit 2 with nothing on
    # stderr blocks nothing (the tool runs)
    exit2_json=False,
    exit2_needs_stderr=True,
)

_EVENTS: Final = (
    *(
        replace(CLAUDE.events[name], default_timeout_s=60.0, handler_types=COMMAND_ONLY)
        for name in _SAME_AS_CLAUDE[:2]
    ),
    _PRE_TOOL,
    *(
        replace(CLAUDE.events[name], default_timeout_s=60.0, handler_types=COMMAND_ONLY)
        for name in _SAME_AS_CLAUDE[2:]
    ),
    DialectEvent(
        "MessageDisplay",  # observed in headless runs; advisory
        Kind.NOTIFICATION,
        (),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,
        default_timeout_s=60.0,
    ),
)

QWEN: Final = DialectSpec(
    "qwen", {e.name: e for e in _EVENTS}, COMMON_INPUT, {"permission_mode": "default"}
)
EVENT_NAMES: Final = tuple(QWEN.events)

# Where MCP servers are configured (docs/users/features/mcp.md): ``mcpServers`` of the
# settings files; "user" relative to the config dir (~/.qwen), "project" to the project.
MCP_FILES: Final = {
    "user": (("settings.json", "mcpServers"),),
    "project": ((".qwen/settings.json", "mcpServers"),),
}
# Gemini CLI's ``mcp.serverCommand``, kept by the fork: 0.24.4 starts it as server ``mcp``,
# replacing ``mcpServers.mcp`` (protocol/gemini.py; tests/e2e/fixtures/mcp-server-command.md).
MCP_SERVER_COMMAND: Final = ("mcp", "serverCommand", "mcp")

# The variables naming the project directory in a hook's environment (observed).
PROJECT_ENV: Final = ("QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")


# Session records (scan/transcripts/records.py): (format, directories under ~/.qwen): chat
# records, projects/<cwd slug>/chats/<session>.jsonl (observed with 0.24.4).
SESSION_RECORDS: Final = ("qwen-chat", ("projects",))
