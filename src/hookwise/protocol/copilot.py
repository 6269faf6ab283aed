"""GitHub Copilot CLI's hook protocol as data (cli-hooks-reference; observed with 1.0.102).

Hooks live in ``.github/hooks/*.json`` (loaded only in a trusted folder: ``--trust-folder``,
``COPILOT_ALLOW_ALL``, or the folder trusted interactively; otherwise they silently do not
run and the tool runs) and ``~/.copilot/hooks/*.json`` (``$COPILOT_HOME``), each file
``{"version": 1, "hooks": {EVENT: [{"type": "command", "bash": CMD, "timeoutSec": N}]}}``.

Two dialects, chosen by how the event key is spelled (observed):

- camelCase (``preToolUse``): stdin ``{sessionId, timestamp (ms), cwd, toolName, toolArgs}``
  with no event name (``permissionRequest`` alone names itself in ``hookName``); answers at
  the top level: ``permissionDecision`` allow/deny/ask + ``permissionDecisionReason``,
  ``modifiedArgs``, ``additionalContext``; permissionRequest ``behavior`` + ``message``.
  Claude's ``hookSpecificOutput`` and a top-level ``decision: "block"`` are ignored there.
- PascalCase (``PreToolUse``, "VS Code compatible"): stdin ``{hook_event_name, session_id,
  timestamp (ISO), cwd, tool_name: "Bash", tool_input}``; Claude Code's
  ``hookSpecificOutput`` answers are obeyed (deny + reason, ask, allow, ``updatedInput``,
  ``additionalContext``). A PascalCase ``PermissionRequest`` key still gets the camelCase
  payload and answer form, so it is the camelCase event here.

Observed on the pre-tool event (both dialects): exit 2 blocks but the model sees only
"hook exited with code 2" (stderr is dropped; a JSON reason on stdout with exit 2 reaches
it); exit 1 blocks ("hook errored": fails closed); a timeout lets the tool run; an
``allow`` grants the permission outright (no ``--allow-all-tools`` needed); ``ask`` in a
headless run (``-p``) is a deny whose reason reaches the model; ``--yolo`` does not turn a
deny or an ask into a run.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

# What the model reads after an exit 2 on the pre-tool event (stderr is dropped), and after
# a crash (exit 1): Copilot names the hook file, 'Denied by preToolUse hook from
# ".github/hooks/x.json" (hook errored)' (observed with 1.0.102). On permissionRequest the
# model reads Copilot's own words (no text of the hook's reaches it).
EXIT2_SHOWN: Final = "Denied by preToolUse hook: hook exited with code 2"
CRASH_SHOWN: Final = "hook errored"
PERMISSION_EXIT2_SHOWN: Final = "Permission denied by hook."
PERMISSION_CRASH_SHOWN: Final = "Permission denied by hook."

# camelCase payloads carry these on every event; PascalCase ones Claude's names
COMMON_INPUT: Final = ("sessionId", "timestamp", "cwd")
PASCAL_COMMON_INPUT: Final = ("hook_event_name", "session_id", "timestamp", "cwd")

_NO_COMMON: Final = ()

_EVENTS: Final = (
    DialectEvent(
        "sessionStart",
        Kind.SESSION_START,
        ("source", "initialPrompt"),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "userPromptSubmitted",
        Kind.PROMPT,
        ("prompt",),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "preToolUse",
        Kind.TOOL_BEFORE,
        ("toolName", "toolArgs"),
        "toolName",
        Decision.TOP_PERMISSION,
        Exit2.BLOCK,
        specific_fields=(
            "permissionDecision",
            "permissionDecisionReason",
            "modifiedArgs",
            "additionalContext",
        ),
        common_fields=_NO_COMMON,
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
        exit2_text=EXIT2_SHOWN,
        failure_text=CRASH_SHOWN,
    ),
    DialectEvent(
        "permissionRequest",
        Kind.PERMISSION,
        ("hookName", "toolName", "toolInput", "permissionSuggestions"),
        "toolName",
        Decision.TOP_BEHAVIOR,
        Exit2.BLOCK,  # observed: "Permission denied by hook."; exit 1 blocks too
        specific_fields=("behavior", "message", "interrupt"),
        common_fields=_NO_COMMON,
        default_timeout_s=30.0,
        stop_supported=False,
        decision_values=(),
        exit2_text=PERMISSION_EXIT2_SHOWN,
        failure_text=PERMISSION_CRASH_SHOWN,
    ),
    DialectEvent(
        "postToolUse",
        Kind.TOOL_AFTER,
        ("toolName", "toolArgs", "toolResult"),
        "toolName",
        Decision.NONE,
        Exit2.IGNORED,  # observed: the tool already ran and its result is unchanged
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "postToolUseFailure",
        Kind.TOOL_FAILURE,
        ("toolName", "toolArgs", "toolResult"),
        "toolName",
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "agentStop",
        Kind.STOP,
        ("transcriptPath", "stopReason", "stop_hook_active"),
        None,
        Decision.BLOCK,  # reference: {"decision": "block", "reason"} forces another turn
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=("block",),
    ),
    DialectEvent(
        "subagentStart",
        Kind.SUBAGENT_START,
        (),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "subagentStop",
        Kind.STOP,
        ("transcriptPath", "stopReason", "stop_hook_active"),
        None,
        Decision.BLOCK,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=("block",),
    ),
    DialectEvent(
        "preCompact",
        Kind.COMPACT_BEFORE,
        (),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "sessionEnd",
        Kind.SESSION_END,
        ("reason",),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    DialectEvent(
        "notification",
        Kind.NOTIFICATION,
        (),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=_NO_COMMON,
        decision_values=(),
    ),
    # the PascalCase ("VS Code compatible") pre-tool event: Claude Code's payload and answers
    DialectEvent(
        "PreToolUse",
        Kind.TOOL_BEFORE,
        ("tool_name", "tool_input"),
        "tool_name",
        Decision.PERMISSION,
        Exit2.BLOCK,
        specific_fields=(
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ),
        common_fields=_NO_COMMON,
        default_timeout_s=30.0,
        stop_supported=False,
        # observed: a top-level decision "block" is ignored, a top-level permissionDecision
        # deny + reason obeyed; after an exit 2 the JSON is ignored (the model reads only
        # that the hook exited with code 2)
        decision_values=(),
        also_top_level=("permissionDecision", "permissionDecisionReason"),
        exit2_text=EXIT2_SHOWN,
        exit2_json=False,
        failure_text=CRASH_SHOWN,
    ),
)

COPILOT: Final = DialectSpec("copilot", {e.name: e for e in _EVENTS}, (), {})
EVENT_NAMES: Final = tuple(COPILOT.events)

# The common fields of each event's payload: the camelCase keys' own, the PascalCase
# PreToolUse's Claude-style ones.
EVENT_COMMON_INPUT: Final = {
    name: PASCAL_COMMON_INPUT if name == "PreToolUse" else COMMON_INPUT for name in EVENT_NAMES
}

# The events whose payload names them (hook_event_name, or permissionRequest's hookName);
# a camelCase payload without a name is read by its fields (adapters/copilot.py).
NAMED_BY: Final = {"hook_event_name": "PascalCase", "hookName": "camelCase"}


# Copilot's events for Claude Code's (what an agent loop written for Claude's events fires
# here: the simulator), and the camelCase fields for Claude's; the PascalCase PreToolUse
# takes Claude's own fields.
CLAUDE_EVENTS: Final = {
    "SessionStart": ("sessionStart",),
    "UserPromptSubmit": ("userPromptSubmitted",),
    "PreToolUse": ("preToolUse", "PreToolUse"),
    "PermissionRequest": ("permissionRequest",),
    "PostToolUse": ("postToolUse",),
    "PostToolUseFailure": ("postToolUseFailure",),
    "Stop": ("agentStop",),
    "SubagentStop": ("subagentStop",),
    "PreCompact": ("preCompact",),
    "SessionEnd": ("sessionEnd",),
    "Notification": ("notification",),
}
FIELD_ALIASES: Final = {
    "sessionId": "session_id",
    "toolName": "tool_name",
    "toolArgs": "tool_input",
    "toolInput": "tool_input",
    "toolResult": "tool_response",
    "transcriptPath": "transcript_path",
    "initialPrompt": "prompt",
}

# Where MCP servers are configured (the published CLI reference, "MCP server loading
# priority"; not observed here): scope -> (file, key holding the servers); "user" relative
# to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("mcp-config.json", "mcpServers"),),
    "project": (
        (".mcp.json", "mcpServers"),
        (".github/mcp.json", "mcpServers"),
        (".vscode/mcp.json", "servers"),
    ),
}

# An MCP server entry's `type` values that are a local (stdio) command (the published CLI
# reference: "local" or "stdio"; "http" and "sse" are remote): mcp_proxy.transport.
MCP_STDIO_TYPES: Final = ("local", "stdio")

# The variables naming the project directory in a hook's environment (observed).
PROJECT_ENV: Final = ("COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR")


# Session records (scan/transcripts/records.py): (format, directories under $COPILOT_HOME):
# session-state/<session>/events.jsonl (observed with 1.0.102: a ``tool.execution_start``
# per call, ``toolName`` as the camelCase preToolUse hook gets it).
SESSION_RECORDS: Final = ("copilot-events", ("session-state",))

# The record's (and camelCase hook's) tool name -> the ``tool_name`` the PascalCase
# PreToolUse hook gets (what install registers, so what the audit log keeps). Observed:
# ``bash`` -> ``Bash``; no other tool was seen through the PascalCase event, and a tool not
# listed keeps its recorded name.
PASCAL_TOOL_NAMES: Final = {"bash": "Bash"}
