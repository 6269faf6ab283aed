"""Codex's hook protocol as data (codex-rs/hooks; Codex 0.169.0).

Codex fails open: an answer it does not support (an unknown key, ``ask``, a missing
``hookEventName``, ``continue:false`` on PreToolUse) marks the hook failed and is ignored
as a whole. Exit 2 blocks only with a non-empty stderr. Stop answers must be JSON. Output
is JSON when it parses as JSON other than a string, or starts with ``{``/``[``; JSON must
be an object; anything else (a byte-order mark first, a JSON string) is plain text.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from hookwise.protocol.dialect import (
    Decision,
    DialectEvent,
    DialectSpec,
    Exit2,
    Kind,
    McpHookRules,
)

COMMON_INPUT: Final = (
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "model",
    "permission_mode",
)
# Codex's permission modes (the enum of ``permission_mode`` in the 0.169.0 binary's input
# schemas; every recorded run sends the field).
PERMISSION_MODES: Final = ("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions")
# The common fields an event's input leaves out: the compaction events' schemas lack
# permission_mode; recorded (tests/e2e/fixtures/codex-events lifecycle): PreModelRequest
# sends no permission_mode, SessionEnd neither it nor model.
COMMON_LEFT_OUT: Final = {
    "PreCompact": ("permission_mode",),
    "PostCompact": ("permission_mode",),
    "PreModelRequest": ("permission_mode",),
    "SessionEnd": ("model", "permission_mode"),
}
# How long Codex's exit waits for SessionEnd hooks, whatever their timeout (recorded:
# session-end-slow, 8 s of sleep under a 30 s timeout, killed after 3.1 s; a 1 s timeout
# still ends it after 1.1 s)
SESSION_END_WAIT_S: Final = 3.0

# Codex merges an MCP server's entry across its config layers (codex_merged), and its own
# loader reads the layers from the filesystem root down to the project.
MERGES_MCP_LAYERS: Final = True
# Where an event's own ``turn_id`` goes: Codex sends it right after ``session_id``, before
# the other common fields (every recorded input: codex-events/interrupt*.json, codex.jsonl)
TURN_ID_AFTER: Final = "session_id"

_COMMON = ("continue", "stopReason", "systemMessage", "suppressOutput")

# The handler types Codex runs on each of these events (prompt and agent handlers are
# parsed and skipped; the binary refuses mcp_tool on SessionEnd, see _HANDLERS_OF).
HANDLER_TYPES: Final = ("command", "mcp_tool")

_EVENTS: Final = (
    DialectEvent(
        "SessionStart",
        Kind.SESSION_START,
        ("source",),
        "source",
        Decision.CONTEXT,
        Exit2.IGNORED,
        plain_stdout_is_context=True,
        specific_fields=("additionalContext",),
        decision_values=(),
    ),
    DialectEvent(
        "UserPromptSubmit",
        Kind.PROMPT,
        ("turn_id", "prompt"),
        None,
        Decision.BLOCK,
        Exit2.BLOCK,
        plain_stdout_is_context=True,
        specific_fields=("additionalContext",),
        decision_values=("block",),
    ),
    DialectEvent(
        "PreToolUse",
        Kind.TOOL_BEFORE,
        ("turn_id", "tool_name", "tool_use_id", "tool_input"),
        "tool_name",
        Decision.PERMISSION,
        Exit2.BLOCK,
        specific_fields=(
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ),
        common_fields=("continue", "systemMessage"),
        stop_supported=False,
        # observed: a legacy "approve" is taken (and does nothing); "block" denies
        decision_values=("approve", "block"),
        inert_decisions=("approve",),
        # observed: "ask" and "defer" fail the hook
        permission_values=("allow", "deny"),
        # updatedInput needs permissionDecision "allow", which approves the call: a rewrite
        # cannot leave the decision to Codex (rewrites_alone False)
    ),
    DialectEvent(
        "PermissionRequest",
        Kind.PERMISSION,
        ("turn_id", "tool_name", "tool_input"),
        "tool_name",
        Decision.PERMISSION_REQUEST,
        Exit2.BLOCK,  # observed: exit 2 with stderr declines, stderr the message
        specific_fields=("decision",),
        common_fields=("continue", "systemMessage"),
        stop_supported=False,
        decision_values=(),
    ),
    DialectEvent(
        "PostToolUse",
        Kind.TOOL_AFTER,
        ("turn_id", "tool_name", "tool_use_id", "tool_input", "tool_response"),
        "tool_name",
        Decision.BLOCK,
        Exit2.FEEDBACK,
        specific_fields=("additionalContext",),
        decision_values=("block",),
    ),
    DialectEvent(
        "PreCompact",
        Kind.COMPACT_BEFORE,
        ("turn_id", "trigger"),
        "trigger",
        Decision.NONE,
        Exit2.IGNORED,
        decision_values=(),
    ),
    DialectEvent(
        "PostCompact",
        Kind.COMPACT_AFTER,
        ("turn_id", "trigger"),
        "trigger",
        Decision.NONE,
        Exit2.IGNORED,
        decision_values=(),
    ),
    DialectEvent(
        "Stop",
        Kind.STOP,
        ("turn_id", "stop_hook_active", "last_assistant_message"),
        None,
        Decision.BLOCK,
        Exit2.CONTINUE,
        json_required=True,
        decision_values=("block",),
    ),
    DialectEvent(
        "SubagentStart",
        Kind.SUBAGENT_START,
        ("turn_id", "agent_id", "agent_type"),
        "agent_type",
        Decision.CONTEXT,
        Exit2.IGNORED,
        plain_stdout_is_context=True,
        specific_fields=("additionalContext",),
        stop_supported=False,
        decision_values=(),
    ),
    DialectEvent(
        "SubagentStop",
        Kind.STOP,
        (
            "turn_id",
            "agent_id",
            "agent_type",
            "agent_transcript_path",
            "stop_hook_active",
            "last_assistant_message",
        ),
        "agent_type",
        Decision.BLOCK,
        Exit2.CONTINUE,
        json_required=True,
        decision_values=("block",),
    ),
    # 0.150+: the user interrupted the turn. Advisory: its answer schema
    # (interrupt.command.output, in the 0.169.0 binary) has only systemMessage; no matcher
    DialectEvent(
        "Interrupt",
        Kind.INTERRUPT,
        ("turn_id",),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=("systemMessage",),
        stop_supported=False,
        decision_values=(),
    ),
    # Fired before each model request, no feature flag (recorded: codex-events lifecycle,
    # twice for the fake model's two requests). Advisory: exit 2 with a reason,
    # continue:false, a top-level block and additionalContext all leave the request, the
    # tool and what the model reads unchanged (pre-model-*); a matcher is ignored (matchers)
    DialectEvent(
        "PreModelRequest",
        Kind.MODEL_BEFORE,
        ("turn_id",),
        None,
        Decision.NONE,
        Exit2.IGNORED,
        common_fields=("systemMessage",),
        stop_supported=False,
        decision_values=(),
    ),
    # Fired when ``codex exec`` ends (recorded: lifecycle), with ``reason`` always "other"
    # (its input schema's const), which a matcher is compared with (matchers: "nomatch"
    # does not fire). Nothing is left to decide: exit 2 and its reason change nothing
    # (session-end-slow: exit code 0); the exit waits at most SESSION_END_WAIT_S
    DialectEvent(
        "SessionEnd",
        Kind.SESSION_END,
        ("reason",),
        "reason",
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,  # no output schema in the binary: nothing is read
        common_fields=(),
        stop_supported=False,
        decision_values=(),
        wait_cap_s=SESSION_END_WAIT_S,
        fixed_input=(("reason", "other"),),
    ),
)

# ``type: "mcp_tool"`` handlers (codex-rs/hooks, 0.169.0; recorded in
# tests/e2e/fixtures/codex-handlers): the session's own connection to the server is used;
# ``"${tool_input.count}"`` alone keeps the value's type, a placeholder naming nothing fails
# the hook (the tool then runs, as for any failed hook: mcp-no-field, mcp-embedded), as does
# a server that is not configured (mcp-missing) or a result with ``isError``; text items
# are joined by a newline.
MCP_HOOK: Final = McpHookRules(
    typed_placeholders=True, missing_placeholder_fails=True, text_join="\n", on_failure_key=None
)

# The handler types each event runs: the 0.169.0 binary refuses an mcp_tool hook on
# SessionEnd (its session's MCP connections are closing)
_HANDLERS_OF: Final = {"SessionEnd": ("command",)}

CODEX: Final = DialectSpec(
    "codex",
    {e.name: replace(e, handler_types=_HANDLERS_OF.get(e.name, HANDLER_TYPES)) for e in _EVENTS},
    COMMON_INPUT,
    {"model": "", "permission_mode": "default"},
    merges_identical_handlers=False,
    # recorded (tests/e2e/fixtures/codex-handlers async-*): an async hook's exit 2, block,
    # reason and context reach neither the call nor the model, even when it is done before
    # the next request; the run does not wait for it and ends it when the session ends
    async_commands_detached=True,
    mcp_hook=MCP_HOOK,
)
EVENT_NAMES: Final = tuple(CODEX.events)

# Tool-name aliases a matcher also tries (apply_patch answers to Edit and Write).
TOOL_ALIASES: Final = {"apply_patch": ("Edit", "Write")}

# Codex cuts very long reasons to 12,000 bytes: head and tail around "…N tokens truncated…".
REASON_CAP_BYTES: Final = 12_000

# What the model gets in place of a shell call a PreToolUse hook blocked. Codex cuts this
# whole text, frame included, to REASON_CAP_BYTES (observed: tests/e2e cell
# pre-shape-long_reason), so a long reason keeps less of its head and tail than its own
# cut would leave.
BLOCK_FRAME_PREFIX: Final = "Command blocked by PreToolUse hook: "
BLOCK_FRAME_SUFFIX: Final = ". Command: {command}"

# What the model gets when an allow's updatedInput for a shell call has no string
# ``command`` (a string updatedInput included): the call fails (observed, tests/e2e cell
# pre-class-rewrite_string).
UPDATED_INPUT_NO_COMMAND: Final = "hook returned updatedInput without string field `command`"

# A hook's additionalContext longer than this many bytes is saved to a file and reaches
# the model as its head and tail (CONTEXT_KEPT_BYTES each, on character boundaries) in this
# frame (observed: 10,000 bytes pass whole, 10,001 do not; the kept part does not depend
# on the length): T = the original's bytes / 4 rounded up, L = its lines, R = the removed
# bytes / 4 rounded up.
CONTEXT_CAP_BYTES: Final = 10_000
CONTEXT_KEPT_BYTES: Final = 4_922
CONTEXT_CUT_FRAME: Final = (
    "Warning: truncated output (original token count: {tokens})\nTotal output lines: {lines}"
    "\n\n{head}…{removed} tokens truncated…{tail}\n\nFull hook output saved to: {path}"
)
# Codex names the file with ids of its own, shown as <...>
CONTEXT_CUT_PATH: Final = "$TMPDIR/hook_outputs/<id>/<id>.txt"

# The legacy turn-complete notify program's payload type.
NOTIFY_TYPE: Final = "agent-turn-complete"

# The tool names of a rollout (``~/.codex/sessions/**/rollout-*.jsonl``: ``function_call``,
# ``custom_tool_call`` and ``local_shell_call`` items) as a PreToolUse hook gets them in
# ``tool_name``. Observed with Codex 0.169.0: ``exec_command`` -> ``Bash`` and the freeform
# ``apply_patch`` -> ``apply_patch``; MCP tools keep their ``mcp__server__tool`` name. Every
# other tool (``write_stdin``, ``view_image``, ``update_plan``, web search, goals, agents)
# fires no PreToolUse hook at all.
ROLLOUT_HOOK_TOOLS: Final = {
    "exec_command": "Bash",
    "shell": "Bash",
    "shell_command": "Bash",
    "local_shell": "Bash",
    "local_shell_call": "Bash",
    "apply_patch": "apply_patch",
}
MCP_TOOL_PREFIX: Final = "mcp__"

# Codex profiles: ``codex --profile NAME`` reads ``$CODEX_HOME/NAME.config.toml`` over the
# user's config.toml, then the trusted project layers over both; a server's table merges field
# by field, a list (``disabled_tools``) whole: the last layer that sets it gives it. A legacy
# ``[profiles.NAME]`` table or ``profile = "NAME"`` makes ``--profile NAME`` refuse to start.
# Recorded with Codex 0.169.0 (tests/e2e/fixtures/codex-mcp-layers.json; red team s27 F4, F13).
PROFILE_FILE_SUFFIX: Final = ".config.toml"

# Where Codex reads MCP servers (scope -> (file, table)): ``[mcp_servers.NAME]`` of the
# user's config.toml (CODEX_HOME), of each profile file beside it (a ``*`` is a glob: every
# file the host may be run with) and of the project's .codex/config.toml.
MCP_FILES: Final = {
    "user": (("config.toml", "mcp_servers"), ("*" + PROFILE_FILE_SUFFIX, "mcp_servers")),
    "project": ((".codex/config.toml", "mcp_servers"),),
}

# Servers under a legacy ``[profiles.NAME]`` table of the user's config.toml
# (``[profiles.NAME.mcp_servers.X]``): Codex 0.169.0 starts none of them (without --profile
# the table is ignored; ``--profile NAME`` and ``profile = "NAME"`` refuse to start:
# tests/e2e/fixtures/codex-legacy-profiles.json). (file, table of profiles, key of servers,
# the file a profile's servers belong in): doctor names them as servers that never start.
MCP_UNSTARTED: Final = (("config.toml", "profiles", "mcp_servers", "{name}" + PROFILE_FILE_SUFFIX),)

# The model a session of this host names in its payloads where the simulator is told none
# (sim/dialect.py).
EXAMPLE_MODEL: Final = "gpt-5-codex"

# Session records (scan/transcripts/records.py): (format, directories under $CODEX_HOME):
# rollout-*.jsonl, live and archived.
SESSION_RECORDS: Final = ("codex-rollout", ("sessions", "archived_sessions"))

# A hook's timeout is whole seconds (a fraction is not accepted); no project-directory
# variable: hooks run in the session's directory.
TIMEOUT_WHOLE_SECONDS: Final = True
# Fields of a command handler beside its command and timeout (Claude Code's own).
HANDLER_FIELDS: Final = ("statusMessage", "async")
# Tools of a canonical kind that do only part of it (view_image reads images, not files):
# another host's tool of that kind does not migrate to one of these.
NARROW_TOOLS: Final = frozenset({"view_image"})
