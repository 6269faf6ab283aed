"""Factory Droid's hook protocol as data (docs.factory.ai/harness/hooks; observed with
0.225.2, tests/e2e/fixtures/more-hosts/droid.jsonl).

Claude Code's event names, payload and answers with Droid's own tool names (``Execute``,
``Read``, ``Create``, ``Edit``...), in ``hooks.json`` beside each scope's settings
(``.factory/hooks.json``, ``~/.factory/hooks.json``) with **the event keys at the top
level**: a ``{"hooks": {...}}`` wrapper there is ignored (only a log line says so).
``timeout`` is in seconds. Departures from Claude Code, observed: ``ask`` does not block
(the call falls through to the autonomy level, so hookwise answers an ask with its
fallback); ``allow`` grants the call even in read-only ``droid exec`` (no ``--auto``), so it
is sent only for an allow rule; a top-level ``decision: "block"`` is ignored;
``additionalContext`` on PreToolUse does not reach the model; exit 1 and a timeout let the
tool run (fail open), and exit 1's stderr is put before the tool's output; exit 3 (any other
code) ends ``droid exec`` at once without running the tool. What the model reads after a deny
is ``Error: <reason>`` (exit 2: its stderr, or the JSON reason on stdout).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.dialect import DialectSpec

COMMON_INPUT: Final = ("session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name")

# documented; SessionStart, PreToolUse, PostToolUse, Stop and SessionEnd fired in `droid exec`
_NAMES: Final = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Notification",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
)

# Command hooks only (Claude Code's other handler types are its own).
COMMAND_ONLY: Final = ("command",)

_PRE_TOOL: Final = replace(
    CLAUDE.events["PreToolUse"],
    input_fields=("tool_name", "tool_input"),
    # observed: additionalContext never reaches the model
    specific_fields=("permissionDecision", "permissionDecisionReason", "updatedInput"),
    default_timeout_s=60.0,
    handler_types=COMMAND_ONLY,
    stop_supported=False,
    # observed: a top-level decision "block" is ignored; "ask" does not block (the call goes
    # to the autonomy level); exit 3 ends droid exec at once without running the tool
    decision_values=(),
    ignored_decisions=("ask",),
    other_exit_blocks=True,
)

_EVENTS: Final = tuple(
    _PRE_TOOL
    if name == "PreToolUse"
    else replace(CLAUDE.events[name], default_timeout_s=60.0, handler_types=COMMAND_ONLY)
    for name in _NAMES
)

DROID: Final = DialectSpec(
    "droid", {e.name: e for e in _EVENTS}, COMMON_INPUT, {"permission_mode": "auto-high"}
)
EVENT_NAMES: Final = tuple(DROID.events)

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("mcp.json", "mcpServers"),),
    "project": ((".factory/mcp.json", "mcpServers"),),
}

# The variables naming the project directory in a hook's environment (observed with
# 0.225.2: ../shared/e2e README).
PROJECT_ENV: Final = ("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR")

# Where the host keeps its session records (coverage): a format and the directories under
# its config directory. Observed with 0.225.2: ``sessions/<cwd slug>/<session>.jsonl``, a
# ``session_start`` line (``id``, ``cwd``) and Claude-like ``message`` lines whose assistant
# ``tool_use`` blocks are the calls (scan/transcripts/droid.py).
SESSION_RECORDS: Final = ("droid-session", ("sessions",))
