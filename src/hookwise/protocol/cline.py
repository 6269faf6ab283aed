"""Cline's hook protocol as data (docs.cline.bot/features/hooks/hook-reference; observed with
the Cline CLI 3.0.65, tests/e2e/fixtures/more-hosts/cline.jsonl).

A hook is an executable file named after its event in ``.clinerules/hooks/`` (project) or
``~/.cline/hooks/`` (user; the VS Code extension: ``~/Documents/Cline/Hooks/``): no
settings file, no matcher, no timeout field. stdin is one JSON object with ``hookName``;
3.x names the events by its agent loop (``tool_call``, ``tool_result``, ``agent_start``,
``agent_end``), the reference by the file names. The pre-tool payload carries the tool twice:
``tool_call {id, name, input}`` and ``preToolUse {toolName, parameters}`` whose values are
JSON-encoded strings.

The answer, observed: only ``{"cancel": true}`` on stdout stops the call, and it **aborts
the whole run** (the tool does not run, no further model request; the model never reads
``errorMessage``); exit codes (2 included) and Claude's JSON are ignored, so a crash, a
garbage answer or a missing hookwise lets the tool run unless the hook prints the cancel.
``contextModification`` (without a cancel) reaches the model.
No timeout was seen: a slow hook is waited for. There is no ask, no allow and no rewrite.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("clineVersion", "hookName", "timestamp", "taskId", "workspaceRoots")

ANSWER_FIELDS: Final = ("cancel", "contextModification", "errorMessage")


def _event(name: str, kind: Kind, fields: tuple[str, ...], cancels: bool) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        fields,
        None,
        Decision.CANCEL if cancels else Decision.NONE,
        Exit2.IGNORED,
        specific_fields=ANSWER_FIELDS if cancels else (),
        common_fields=(),
        default_timeout_s=0.0,  # none: Cline waits
        stop_supported=False,
        decision_values=(),
    )


_EVENTS: Final = (
    _event("TaskStart", Kind.SESSION_START, ("taskStart",), True),
    _event("TaskResume", Kind.SESSION_START, ("taskResume",), True),
    _event("UserPromptSubmit", Kind.PROMPT, ("userPromptSubmit",), True),
    _event("PreToolUse", Kind.TOOL_BEFORE, ("preToolUse", "tool_call"), True),
    _event("PostToolUse", Kind.TOOL_AFTER, ("postToolUse", "tool_result"), False),
    _event("TaskCancel", Kind.SESSION_END, ("taskCancel",), False),
    _event("TaskComplete", Kind.STOP, ("taskComplete",), False),
    _event("PreCompact", Kind.COMPACT_BEFORE, ("preCompact",), False),
)

CLINE: Final = DialectSpec("cline", {e.name: e for e in _EVENTS}, COMMON_INPUT, {})
EVENT_NAMES: Final = tuple(CLINE.events)

# ``hookName`` as the 3.x CLI sends it (observed) -> the event (the file's name)
HOOK_NAMES: Final = {
    "tool_call": "PreToolUse",
    "tool_result": "PostToolUse",
    "agent_start": "TaskStart",
    "agent_end": "TaskComplete",
    "agent_resume": "TaskResume",
    "agent_abort": "TaskCancel",
    "user_prompt_submit": "UserPromptSubmit",
    "pre_compact": "PreCompact",
    **{name: name for name in EVENT_NAMES},
}

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("data/settings/cline_mcp_settings.json", "mcpServers"),),
}
