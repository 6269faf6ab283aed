"""Claude Code's hook protocol as data (hooks reference, 2026-08; Claude Code 2.1.330).

Answers: stdout is JSON only when its first non-blank character is ``{``; an answer
outside the output schema (a top-level ``decision`` other than approve/block, a field of
the wrong type) is ignored whole; exit 2 blocks on blockable events even when the JSON says
allow; other non-zero codes are non-blocking errors unless stdout holds a valid JSON answer;
``hookSpecificOutput`` counts only when its ``hookEventName`` names the event. PreToolUse
decisions combine deny > defer > ask > allow. A PermissionRequest the hooks leave undecided
goes to Claude Code's own prompt (headless: denied).
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = (
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
    "hook_event_name",
)

_EVENTS: Final = (
    DialectEvent(
        "SessionStart",
        Kind.SESSION_START,
        ("source", "model"),
        "source",
        Decision.CONTEXT,
        Exit2.USER,
        plain_stdout_is_context=True,
        specific_fields=("additionalContext",),
    ),
    DialectEvent(
        "UserPromptSubmit",
        Kind.PROMPT,
        ("prompt",),
        None,
        Decision.BLOCK,
        Exit2.BLOCK,
        plain_stdout_is_context=True,
        specific_fields=("additionalContext",),
        default_timeout_s=30.0,
    ),
    DialectEvent(
        "PreToolUse",
        Kind.TOOL_BEFORE,
        ("tool_name", "tool_input", "tool_use_id"),
        "tool_name",
        Decision.PERMISSION,
        Exit2.BLOCK,
        specific_fields=(
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ),
        # observed: updatedInput without permissionDecision runs the rewritten call under
        # Claude Code's own permission rules (tests/e2e cell pre-shape-updated_input-none)
        rewrites_alone=True,
    ),
    DialectEvent(
        "PermissionRequest",
        Kind.PERMISSION,
        ("tool_name", "tool_input", "permission_suggestions"),
        "tool_name",
        Decision.PERMISSION_REQUEST,
        Exit2.IGNORED,  # exit 2 is no decision; a JSON answer on stdout still decides
        specific_fields=("decision",),
        stop_supported=False,  # observed: continue:false neither stops nor decides
    ),
    DialectEvent(
        "PostToolUse",
        Kind.TOOL_AFTER,
        ("tool_name", "tool_input", "tool_response", "tool_use_id"),
        "tool_name",
        Decision.BLOCK,
        Exit2.FEEDBACK,
        specific_fields=("additionalContext", "updatedMCPToolOutput"),
    ),
    DialectEvent(
        "PostToolUseFailure",
        Kind.TOOL_FAILURE,
        ("tool_name", "tool_input", "tool_use_id", "error", "is_interrupt"),
        "tool_name",
        Decision.CONTEXT,
        Exit2.FEEDBACK,
        specific_fields=("additionalContext",),
    ),
    DialectEvent(
        "Notification",
        Kind.NOTIFICATION,
        ("message", "title", "notification_type"),
        "notification_type",
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,
    ),
    DialectEvent(
        "Stop",
        Kind.STOP,
        ("stop_hook_active", "last_assistant_message"),
        None,
        Decision.BLOCK,
        Exit2.CONTINUE,
        specific_fields=("additionalContext",),
    ),
    DialectEvent(
        "SubagentStart",
        Kind.SUBAGENT_START,
        ("agent_id", "agent_type"),
        "agent_type",
        Decision.CONTEXT,
        Exit2.USER,
        specific_fields=("additionalContext",),
    ),
    DialectEvent(
        "SubagentStop",
        Kind.STOP,
        (
            "stop_hook_active",
            "agent_id",
            "agent_type",
            "agent_transcript_path",
            "last_assistant_message",
        ),
        "agent_type",
        Decision.BLOCK,
        Exit2.CONTINUE,
    ),
    DialectEvent(
        "PreCompact",
        Kind.COMPACT_BEFORE,
        ("trigger", "custom_instructions"),
        "trigger",
        Decision.BLOCK,
        Exit2.BLOCK,
    ),
    DialectEvent(
        "PostCompact",
        Kind.COMPACT_AFTER,
        ("trigger", "compact_summary"),
        "trigger",
        Decision.NONE,
        Exit2.USER,
        json_honoured=False,
    ),
    DialectEvent(
        "SessionEnd",
        Kind.SESSION_END,
        ("reason",),
        "reason",
        Decision.NONE,
        Exit2.USER,
        json_honoured=False,
        shared_budget=True,
    ),
)

CLAUDE: Final = DialectSpec(
    "claude", {e.name: e for e in _EVENTS}, COMMON_INPUT, {"permission_mode": "default"}
)
EVENT_NAMES: Final = tuple(CLAUDE.events)

# PreToolUse precedence across hooks (higher wins).
PERMISSION_RANK: Final = {"allow": 1, "ask": 2, "defer": 3, "deny": 4}

# Legacy top-level PreToolUse decisions.
LEGACY_DECISIONS: Final = {"approve": "allow", "block": "deny"}

# Characters that keep a matcher an exact name (or a | / , separated list of names).
EXACT_MATCHER_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- ,|"
)

OUTPUT_CAP_CHARS: Final = 10_000

# Where Claude Code reads MCP servers that `hookwise install --mcp` can wrap: scope -> (file,
# key of its servers); a project's file relative to it. The user's servers live in
# ~/.claude.json, which Claude Code rewrites as it runs: not edited (scan/sources/mcp.py
# reads every place).
MCP_FILES: Final = {
    "project": ((".mcp.json", "mcpServers"),),
}

# Session records (scan/transcripts/records.py): (format, directories under the config dir).
# A transcript per session, projects/<slug>/<session>.jsonl, and per subagent.
SESSION_RECORDS: Final = ("claude-transcript", ("projects",))

# The variables a hook's environment has: the project directory (first: its own), and
# prefixes of the others Claude Code sets (CLAUDE_PLUGIN_*, CLAUDE_ENV_FILE, CLAUDE_CODE_*).
PROJECT_ENV: Final = ("CLAUDE_PROJECT_DIR",)
HOOK_ENV: Final = ("CLAUDE_",)
# Fields of a command handler beside its command and timeout (``args``: the exec form,
# ``if``: a permission-rule condition), carried by ``hookwise migrate`` to a host that
# lists them too.
HANDLER_FIELDS: Final = ("statusMessage", "async", "if", "args")

# An ``additionalContext`` longer than OUTPUT_CAP_CHARS does not reach the model whole
# (observed, tests/e2e cells ``*-long_context``: 10,000 characters pass, 10,001 do not):
# Claude Code saves it to a file under the session's ``tool-results/`` and sends this
# frame with the head of the text (its first 2,000 characters, cut at the last line end).
PERSISTED_PREVIEW_CHARS: Final = 2_000
PERSISTED_FRAME: Final = (
    "<persisted-output>\nOutput too large ({size}). Full output saved to: {path}\n\n"
    "Preview (first 2KB):\n{head}\n...\n</persisted-output>"
)
# where the file goes: the project's and session's directory, and ids of Claude Code's own
# (the hook run's, a hash) that no one can predict, shown as <...>
PERSISTED_PATH: Final = (
    "~/.claude/projects/<project>/<session_id>/tool-results/hook-<id>-{event}-<hash>"
    "-additionalContext.txt"
)
