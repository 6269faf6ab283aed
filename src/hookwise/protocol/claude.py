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
    "prompt_id",
    "permission_mode",
    "agent_id",
    "agent_type",
    "effort",
    "hook_event_name",
)
# Sent only when the session has them (2.1.330's input builder leaves an unset field out):
# ``prompt_id`` from the first submitted prompt on, on every event after it; ``effort``
# (``{"level": ...}``) when the event runs inside the model loop with a model that takes
# an effort level; ``agent_id`` and ``agent_type`` on every event of a subagent's own loop
# (SubagentStart and SubagentStop carry their agent's there, before ``effort``). Recorded:
# tests/e2e/fixtures/claude-events/events.json, claude.jsonl, claude-offline/subagent-*.
SESSION_INPUT: Final = ("prompt_id", "agent_id", "agent_type", "effort")
# The events whose input carries the loop's permission mode and effort: the binary's input
# builder gets the mode (and the loop's context, hence the effort) only from these. Recorded
# without permission_mode: Setup, InstructionsLoaded, SessionStart, MessageDisplay,
# SessionEnd, CwdChanged, FileChanged, Elicitation and ElicitationResult (the MCP client
# builds those two without the loop's mode; claude-offline/), TaskCreated and TaskCompleted
# (claude-offline/task*); without effort:
# UserPromptSubmit, UserPromptExpansion, InstructionsLoaded.
_WITH_PERMISSION_MODE: Final = frozenset(
    {
        "UserPromptSubmit",
        "UserPromptExpansion",
        "PreToolUse",
        "PermissionRequest",
        "PermissionDenied",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Stop",
        "SubagentStop",
        "TeammateIdle",
    }
)
_WITH_EFFORT: Final = frozenset(
    {
        "PreToolUse",
        "PermissionRequest",
        "PermissionDenied",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Stop",
        "SubagentStop",
        "StopFailure",
    }
)

# Handler types per event ("Prompt-based hooks"): prompt and agent hooks only where a model
# can decide; SessionStart and Setup run command and mcp_tool hooks only.
ALL_HANDLERS: Final = ("command", "http", "mcp_tool", "prompt", "agent")
NO_MODEL: Final = ("command", "http", "mcp_tool")
NO_HTTP: Final = ("command", "mcp_tool")

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
        handler_types=NO_HTTP,
        # headless, the 2.1.330 binary passes the loop's model on resume, fork and compact
        # only: a ``-p`` startup has no ``model`` (recorded: claude-events/events.json); an
        # interactive startup has it (recorded through a pty: claude-offline/config-change)
        headless_sent_only_when=(("model", "source", ("resume", "fork", "compact")),),
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
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PreToolUse",
        Kind.TOOL_BEFORE,
        # mcp_server ({name, source}): an MCP tool's server, as on the events after it
        # (2.1.330's builder; recorded: claude-offline/elicitation-*.json)
        ("tool_name", "tool_input", "tool_use_id", "mcp_server"),
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
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PermissionRequest",
        Kind.PERMISSION,
        ("tool_name", "tool_input", "permission_suggestions", "mcp_server"),
        "tool_name",
        Decision.PERMISSION_REQUEST,
        Exit2.IGNORED,  # exit 2 is no decision; a JSON answer on stdout still decides
        specific_fields=("decision",),
        stop_supported=False,  # observed: continue:false neither stops nor decides
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PostToolUse",
        Kind.TOOL_AFTER,
        # duration_ms: the call's time; mcp_server: an MCP tool's server (2.1.330's builder)
        ("tool_name", "tool_input", "tool_response", "tool_use_id", "duration_ms", "mcp_server"),
        "tool_name",
        Decision.BLOCK,
        Exit2.FEEDBACK,
        specific_fields=("additionalContext", "updatedMCPToolOutput"),
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PostToolUseFailure",
        Kind.TOOL_FAILURE,
        (
            "tool_name",
            "tool_input",
            "tool_use_id",
            "error",
            "is_interrupt",
            "duration_ms",
            "mcp_server",
        ),
        "tool_name",
        Decision.CONTEXT,
        Exit2.FEEDBACK,
        specific_fields=("additionalContext",),
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "Notification",
        Kind.NOTIFICATION,
        ("message", "title", "notification_type"),
        "notification_type",
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "Stop",
        Kind.STOP,
        # background_tasks, session_crons: what is still running (recorded: both [])
        ("stop_hook_active", "last_assistant_message", "background_tasks", "session_crons"),
        None,
        Decision.BLOCK,
        Exit2.CONTINUE,
        specific_fields=("additionalContext",),
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "SubagentStart",
        Kind.SUBAGENT_START,
        ("agent_id", "agent_type"),
        "agent_type",
        Decision.CONTEXT,
        Exit2.USER,
        specific_fields=("additionalContext",),
        handler_types=NO_MODEL,
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
            "background_tasks",
            "session_crons",
        ),
        "agent_type",
        Decision.BLOCK,
        Exit2.CONTINUE,
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PreCompact",
        Kind.COMPACT_BEFORE,
        ("trigger", "custom_instructions"),
        "trigger",
        Decision.BLOCK,
        Exit2.BLOCK,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "PostCompact",
        Kind.COMPACT_AFTER,
        ("trigger", "compact_summary"),
        "trigger",
        Decision.NONE,
        Exit2.USER,
        json_honoured=False,
        handler_types=NO_MODEL,
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
        handler_types=NO_MODEL,
    ),
)

# The rest of Claude Code 2.1.330's events (its hook input schemas and matcher switch, read
# in the binary; the hooks reference for what each answer does). Where the CLI departs
# from the reference, the table follows the CLI and says so.
_MORE_EVENTS: Final = (
    DialectEvent(
        "Setup",  # claude --init-only, or -p --init / --maintenance
        Kind.SETUP,
        ("trigger",),  # init | maintenance
        "trigger",
        Decision.CONTEXT,
        Exit2.USER,
        specific_fields=("additionalContext",),  # plain stdout goes to the debug log only
        handler_types=NO_HTTP,
    ),
    DialectEvent(
        "InstructionsLoaded",  # a CLAUDE.md or .claude/rules/*.md file entered the context
        Kind.INSTRUCTIONS,
        (
            "file_path",
            "memory_type",
            "load_reason",
            "globs",
            "trigger_file_path",
            "parent_file_path",
        ),
        "load_reason",
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "UserPromptExpansion",  # a typed /command expands into a prompt
        Kind.PROMPT_EXPANSION,
        ("expansion_type", "command_name", "command_args", "command_source", "prompt"),
        "command_name",
        Decision.BLOCK,
        Exit2.BLOCK,  # the block message (reason or stderr) is shown to the user
        specific_fields=("additionalContext", "suppressOriginalPrompt"),
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "MessageDisplay",  # assistant text on screen (-p: once per message, final)
        Kind.MESSAGE_DISPLAY,
        ("turn_id", "message_id", "index", "final", "delta"),
        None,
        Decision.DISPLAY,
        Exit2.IGNORED,  # a failure displays the original text
        specific_fields=("displayContent",),
        shows_system_message=False,  # systemMessage and continue are discarded
        default_timeout_s=10.0,
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "PermissionDenied",  # auto mode denied a call (never a hook's or a rule's deny)
        Kind.PERMISSION_DENIED,
        ("tool_name", "tool_input", "tool_use_id", "reason", "mcp_server"),
        "tool_name",
        Decision.RETRY,
        Exit2.IGNORED,  # the denial already happened
        specific_fields=("retry",),
        stop_supported=False,
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "PostToolBatch",  # once per batch of tool calls, before the next model request
        Kind.TOOL_BATCH,
        ("tool_calls",),
        None,
        Decision.BLOCK,
        Exit2.BLOCK,  # stops the agentic loop before the next model call
        specific_fields=("additionalContext",),
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "TaskCreated",
        Kind.TASK_CREATED,
        ("task_id", "task_subject", "task_description", "teammate_name", "team_name"),
        None,
        Decision.BLOCK,  # the task is deleted; the reason is the tool's error
        Exit2.BLOCK,
        stop_supported=False,  # continue:false is ignored, Claude keeps working
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "TaskCompleted",
        Kind.TASK_COMPLETED,
        ("task_id", "task_subject", "task_description", "teammate_name", "team_name"),
        None,
        Decision.NONE,  # exit 2 or continue:false, not a JSON decision
        Exit2.CONTINUE,  # not marked completed; stderr is the model's feedback
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "StopFailure",  # the turn ended on an API error
        Kind.STOP_FAILURE,
        ("error", "error_details", "last_assistant_message"),
        "error",
        Decision.NONE,
        Exit2.IGNORED,
        json_honoured=False,  # output and exit code ignored (terminalSequence aside)
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "TeammateIdle",
        Kind.TEAMMATE_IDLE,
        ("teammate_name", "team_name"),
        None,
        Decision.NONE,
        Exit2.CONTINUE,  # the teammate goes on working with stderr as feedback
        handler_types=ALL_HANDLERS,
    ),
    DialectEvent(
        "ConfigChange",  # a settings file (or skills) changed during the session
        Kind.CONFIG_CHANGE,
        ("source", "file_path"),
        "source",
        Decision.BLOCK,  # the change is not applied; policy_settings cannot be blocked
        Exit2.BLOCK,  # nothing is shown to anyone: a debug-log line only
        block_reason_shown=False,
        shows_system_message=False,  # systemMessage and continue are discarded
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "CwdChanged",
        Kind.CWD_CHANGED,
        ("old_cwd", "new_cwd"),
        None,
        Decision.NONE,
        Exit2.USER,
        specific_fields=("watchPaths",),
        stop_supported=False,  # continue is discarded; systemMessage is a notice
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "DirectoryAdded",  # /add-dir, or the SDK's register_repo_root
        Kind.DIRECTORY_ADDED,
        ("directory", "source"),
        "source",
        Decision.NONE,
        Exit2.IGNORED,  # stderr goes to the debug log; the directory is already added
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "FileChanged",  # a watched file changed on disk
        Kind.FILE_CHANGED,
        ("file_path", "event"),
        "file_path",
        Decision.NONE,
        Exit2.USER,
        specific_fields=("watchPaths",),
        matcher_basename=True,  # the matcher names files: compared with the basename
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "WorktreeCreate",  # replaces git's worktree creation: the hook answers the path
        Kind.WORKTREE_CREATE,
        ("name",),
        None,
        Decision.PATH,
        Exit2.BLOCK,  # any failure, or no path, fails the creation
        specific_fields=("worktreePath",),  # http hooks; command hooks print the path
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "WorktreeRemove",
        Kind.WORKTREE_REMOVE,
        ("worktree_path",),
        None,
        Decision.NONE,
        Exit2.IGNORED,  # failures reach the debug log only
        json_honoured=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "Elicitation",  # an MCP server asks the user for input during a tool call
        Kind.ELICITATION,
        (
            "mcp_server_name",
            "message",
            "mode",
            "url",
            "elicitation_id",
            "requested_schema",
        ),
        "mcp_server_name",
        Decision.ELICITATION,
        Exit2.BLOCK,  # denies (declines) the elicitation; stderr is shown nowhere
        specific_fields=("action", "content"),
        block_reason_shown=False,
        shows_system_message=False,  # systemMessage and continue are discarded
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
    DialectEvent(
        "ElicitationResult",  # the user answered; before the answer goes to the server
        Kind.ELICITATION_RESULT,
        ("mcp_server_name", "elicitation_id", "mode", "action", "content"),
        "mcp_server_name",
        Decision.ELICITATION,
        Exit2.BLOCK,  # the answer becomes decline
        specific_fields=("action", "content"),
        block_reason_shown=False,  # as Elicitation: the server gets a decline, nobody reads why
        shows_system_message=False,
        stop_supported=False,
        handler_types=NO_MODEL,
    ),
)

# Events of Claude Code 2.1.330 that its hooks reference does not document (its binary
# has them: the model switch, with a PreToolUse-like answer); hookwise does not run them.
UNDOCUMENTED_EVENTS: Final = ("PreModelSwitch", "PostModelSwitch")

# The headers of an http hook's request besides Content-Type and the handler's own
# (recorded on 2.1.330: tests/e2e/fixtures/claude-events/http-deny.json).
HTTP_HOOK_HEADERS: Final = {
    "Accept": "application/json, text/plain, */*",
    "User-Agent": "axios/1.15.2",
}

# An http hook's header values (2.1.330's bundle; recorded: claude-events/http-allowlists):
# ``$NAME``/``${NAME}`` with an upper-case NAME is replaced (``$lower`` stays as written);
# by the empty string unless NAME is in the handler's ``allowedEnvVars`` (intersected with
# the settings' ``httpHookAllowedEnvVars`` when set) and is no Claude Code credential; then
# CR, LF and NUL are removed from the value.
HTTP_HOOK_VAR: Final = r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)"
HTTP_HOOK_STRIPPED: Final = "\r\n\0"
# Never put into a header, whatever the lists say: Claude Code's own credentials (the names
# its bundle lists, each also with an ``INPUT_`` prefix) and ``ANTHROPIC_API_KEY``
# (recorded: blank although both lists allowed it).
_CREDENTIALS: Final = (
    "ANTHROPIC_API_KEY",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CODE_SESSIONS_OAUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN_FILE_DESCRIPTOR",
    "CLAUDE_CODE_GATEWAY_TOKEN_FILE_DESCRIPTOR",
    "CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR",
    "CLAUDE_CODE_WEBSOCKET_AUTH_FILE_DESCRIPTOR",
    "CCR_AGENT_PROXY_TOKEN_FILE_DESCRIPTOR",
    "CLAUDE_CODE_ARTIFACTS_API_TOKEN",
    "CLAUDE_CODE_SLACK_TAG_TOKEN",
    "CLAUDE_CODE_HFI_BEARER_TOKEN",
    "CLAUDE_BRIDGE_OAUTH_TOKEN",
    "CLAUDE_TRUSTED_DEVICE_TOKEN",
    "AGENT_PROXY_AUTH_TOKEN",
    "CLAUDE_CODE_MCP_SERVE_AUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
    "CLAUDE_SESSION_INGRESS_TOKEN_FILE",
    "CLAUDE_CODE_HOST_CREDS_FILE",
    "CLAUDE_CODE_MESSAGING_TOKEN",
    "MCP_CLIENT_SECRET",
    "MCP_XAA_IDP_CLIENT_SECRET",
)
HTTP_HOOK_CREDENTIALS: Final = frozenset(
    name for base in _CREDENTIALS for name in (base, f"INPUT_{base}")
)
# The settings keys that limit http hooks (config/claude/http_limits.py).
HTTP_HOOK_URL_SETTING: Final = "allowedHttpHookUrls"
HTTP_HOOK_ENV_SETTING: Final = "httpHookAllowedEnvVars"
# What an http hook whose URL no pattern allows gets instead of being sent (a non-blocking
# error; recorded: the tool ran and the server saw no request).
HTTP_HOOK_URL_BLOCKED: Final = (
    "HTTP hook blocked: {url} does not match any pattern in allowedHttpHookUrls"
)

# Handlers that ask a model have their own default timeout, whatever the event's.
MODEL_HANDLER_TIMEOUT_S: Final = {"prompt": 30.0, "agent": 60.0}

# What a prompt or agent hook's ``{"ok": false, "reason": R}`` becomes, per event, as the
# answer a command hook would give ("Response schema"): (the prompt hook's default, with
# ``continueOnBlock: true`` or from an agent hook). deny: permissionDecision deny + R;
# deny_stop: that and continue:false (the turn ends); block: decision block + R; stop:
# continue:false + stopReason R; exit2: exit 2 with R on stderr; none: no effect.
MODEL_BLOCK_FORMS: Final = {
    "PreToolUse": ("deny_stop", "deny"),
    "Stop": ("block", "block"),
    "SubagentStop": ("block", "block"),
    "PostToolUse": ("stop", "block"),
    "PostToolBatch": ("block", "block"),
    "UserPromptSubmit": ("block", "block"),
    "UserPromptExpansion": ("block", "block"),
    "PostToolUseFailure": ("exit2", "exit2"),
    "TaskCreated": ("block", "block"),
    "TaskCompleted": ("exit2", "exit2"),
    "TeammateIdle": ("stop", "exit2"),
    "PermissionRequest": ("none", "none"),
    "PermissionDenied": ("none", "none"),
}
# Events where a prompt hook's ``impossible: true`` lets the stop happen after all.
MODEL_IMPOSSIBLE_ALLOWS: Final = frozenset({"Stop", "SubagentStop"})

# An Elicitation hook's (or ElicitationResult's) answer to the MCP server.
ELICITATION_ACTIONS: Final = ("accept", "decline", "cancel")

# Setup's ``trigger``: ``--init``/``--init-only`` and ``--maintenance``.
SETUP_TRIGGERS: Final = ("init", "maintenance")
# StopFailure's ``error`` (its matcher values); an HTTP 400 without a known type is
# ``unknown`` (recorded: claude-handlers/stop-failure.json).
STOP_FAILURE_ERRORS: Final = (
    "rate_limit",
    "authentication_failed",
    "billing_error",
    "invalid_request",
    "server_error",
    "max_output_tokens",
    "unknown",
)
# what StopFailure's ``last_assistant_message`` is on an API error: this, then the message
API_ERROR_PREFIX: Final = "API Error: "
# UserPromptExpansion of a typed /command (recorded: claude-events/events.json)
SLASH_EXPANSION: Final = "slash_command"

# Which ConfigChange source no hook can block (enterprise-managed settings always apply).
UNBLOCKABLE_CONFIG_SOURCE: Final = "policy_settings"

# PermissionDenied ``reason``s of a denial auto mode made with no classifier verdict: the CLI
# ignores a hook's ``retry`` then (the 2.1.330 binary's ``noVerdict``; recorded:
# claude-offline/permission-denied-retry.json, the classifier unreachable offline).
NO_VERDICT_DENIALS: Final = ("Classifier unavailable",)

# ``type: "mcp_tool"`` handlers (hooks reference, "MCP tool hook fields"): every placeholder
# becomes text (a missing path the empty string); ``onFailure: "block"`` (read by 2.1.330,
# not documented) makes a failure block.
MCP_HOOK: Final = McpHookRules(
    typed_placeholders=False,
    missing_placeholder_fails=False,
    text_join="",
    on_failure_key="onFailure",
)

CLAUDE: Final = DialectSpec(
    "claude",
    {e.name: e for e in (*_EVENTS, *_MORE_EVENTS)},
    COMMON_INPUT,
    {"permission_mode": "default"},
    session_input=SESSION_INPUT,
    mcp_hook=MCP_HOOK,
    # recorded (tests/e2e/fixtures/claude-async): an async command hook is not waited for,
    # its deny, block, exit 2 and reason reach neither the call nor the model; its
    # additionalContext joins the next model request when it has finished by then (a
    # system message after the tool result: async-pre-quick); still running when the
    # session ends, it is ended (async-pre, async-post never finished)
    async_commands_detached=True,
    async_context_joins_next_request=True,
)
EVENT_NAMES: Final = tuple(CLAUDE.events)
# The common fields an event's input leaves out (protocol.hosts.common_input reads it).
COMMON_LEFT_OUT: Final = {
    name: tuple(
        field
        for field, present in (
            ("permission_mode", name in _WITH_PERMISSION_MODE),
            ("effort", name in _WITH_EFFORT),
        )
        if not present
    )
    for name in EVENT_NAMES
}

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
# key of its servers); a project's file relative to it. The user's servers (``claude mcp add
# --scope user``) are ``mcpServers`` of ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json when
# that is set: ``~/`` is hosts.home_file), the local ones (``--scope local``, the default)
# ``projects["<abs path>"].mcpServers`` there, every project's (a ``*`` in the key's path is
# every member). Claude Code rewrites that file as it runs: only the entries' ``command`` and
# ``args`` values are edited, the rest keeps the host's bytes (red team s35 F4).
# The project settings (hooks, MCP servers) are read in the directory the host is started in
# only, not in the repository root above it (Claude Code 2.1.330: a hook in the root's settings does
# not run for a session started in a subdirectory; red team s28 F6, recorded in
# tests/e2e/fixtures/start-dirs.md): a project-scope install guards sessions started there.
PROJECT_SETTINGS_AT_START: Final = True
MCP_FILES: Final = {
    "project": ((".mcp.json", "mcpServers"),),
    "user": (("~/.claude.json", "mcpServers"), ("~/.claude.json", "projects/*/mcpServers")),
}
# A server of the project's own record there (``projects["<the project>"].mcpServers``, the
# local scope) replaces the project's ``.mcp.json`` entry of its name (Claude Code: local over
# project over user; `claude mcp list` says "defined in multiple scopes", red team s35 F7):
# (scope, key whose ``*`` is the project) of the entries that shadow the project's.
MCP_SHADOWING: Final = ("user", "projects/*/mcpServers")
# Read in every directory above the start directory too, up to ``/`` (2.1.330: servers of
# ``~/.mcp.json`` start in every project under HOME, the nearer file's entry winning; red
# team s28 F7, recorded in tests/e2e/fixtures/start-dirs.md).
MCP_FILES_ABOVE: Final = ((".mcp.json", "mcpServers"),)

# The model a session of this host names in its payloads where the simulator is told none
# (sim/dialect.py).
EXAMPLE_MODEL: Final = "claude-sonnet-4-5"

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
