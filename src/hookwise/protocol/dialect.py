"""What every hook dialect's event table says about an event, in one shape.

Claude Code and Codex differ from Gemini CLI and from each other in how an answer is read
(exit codes, which JSON fields count, whether plain stdout is context) and in what a
decision does. The host pipeline reads these tables; it has no per-host special cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final


class Decision(Enum):
    """How an event's answer decides (the "Decision control" patterns)."""

    PERMISSION = "permission"  # hookSpecificOutput.permissionDecision (PreToolUse)
    PERMISSION_REQUEST = "permission_request"  # hookSpecificOutput.decision.behavior
    BLOCK = "block"  # top-level decision: "block" + reason
    CONTEXT = "context"  # additionalContext only
    NONE = "none"  # side effects only; the answer is discarded
    # GitHub Copilot CLI's own (camelCase) forms, at the top level of the answer
    TOP_PERMISSION = "top_permission"  # permissionDecision, permissionDecisionReason, modifiedArgs
    TOP_BEHAVIOR = "top_behavior"  # behavior allow/deny, message, interrupt
    CANCEL = "cancel"  # Cline: {"cancel": true} stops the call (and the run)
    EXIT2 = "exit2"  # exit 2 + stderr is the only deny (Windsurf, Kiro, Augment)
    CURSOR = "cursor"  # Cursor: top-level permission allow/deny/ask + user/agent_message
    # Claude Code's events with their own answer (hooks reference, "Decision control")
    RETRY = "retry"  # hookSpecificOutput.retry: the model may retry a denied call
    DISPLAY = "display"  # hookSpecificOutput.displayContent replaces text on screen only
    ELICITATION = "elicitation"  # hookSpecificOutput.action (+ content) answers the server
    PATH = "path"  # the hook creates something and answers its path (WorktreeCreate)


class Exit2(Enum):
    """What exit code 2 does on an event."""

    BLOCK = "block"  # the action does not happen; stderr is the reason
    FEEDBACK = "feedback"  # the action already happened / continues; stderr goes to the model
    CONTINUE = "continue"  # Stop-like: the agent is sent back with stderr as the prompt
    USER = "user"  # stderr is shown to the user, nothing is blocked
    IGNORED = "ignored"


class Kind(Enum):
    """The family an event belongs to, for the cross-dialect outcome."""

    TOOL_BEFORE = "tool_before"
    PERMISSION = "permission"
    TOOL_AFTER = "tool_after"
    TOOL_FAILURE = "tool_failure"
    PROMPT = "prompt"
    STOP = "stop"
    SESSION_START = "session_start"
    SESSION_END = "session_end"
    NOTIFICATION = "notification"
    COMPACT_BEFORE = "compact_before"
    COMPACT_AFTER = "compact_after"
    SUBAGENT_START = "subagent_start"
    INTERRUPT = "interrupt"  # the user interrupted the turn (Codex Interrupt; advisory)
    MODEL_BEFORE = "model_before"  # a model request goes out (Codex PreModelRequest; advisory)
    # Claude Code's other events (each its own family: no other host has them)
    SETUP = "setup"
    INSTRUCTIONS = "instructions"
    PROMPT_EXPANSION = "prompt_expansion"
    MESSAGE_DISPLAY = "message_display"
    PERMISSION_DENIED = "permission_denied"
    TOOL_BATCH = "tool_batch"
    TASK_CREATED = "task_created"
    TASK_COMPLETED = "task_completed"
    STOP_FAILURE = "stop_failure"
    TEAMMATE_IDLE = "teammate_idle"
    CONFIG_CHANGE = "config_change"
    CWD_CHANGED = "cwd_changed"
    DIRECTORY_ADDED = "directory_added"
    FILE_CHANGED = "file_changed"
    WORKTREE_CREATE = "worktree_create"
    WORKTREE_REMOVE = "worktree_remove"
    ELICITATION = "elicitation"
    ELICITATION_RESULT = "elicitation_result"


# A block on these is shown to the user, not the model (the prompt never reaches it).
PROMPT_KINDS: Final = frozenset({Kind.PROMPT, Kind.PROMPT_EXPANSION})
# Stop-like: continue:false ends the agent (or teammate); a block sends it back to work.
STOP_KINDS: Final = frozenset({Kind.STOP, Kind.TASK_COMPLETED, Kind.TEAMMATE_IDLE})


@dataclass(frozen=True)
class DialectEvent:
    name: str
    kind: Kind
    input_fields: tuple[str, ...]  # event-specific stdin fields (besides the common ones)
    matcher_field: str | None  # stdin field a matcher is compared with; None: ignored
    decision: Decision
    exit2: Exit2
    plain_stdout_is_context: bool = False
    json_honoured: bool = True  # False: the host discards the JSON answer
    specific_fields: tuple[str, ...] = ()  # hookSpecificOutput keys the host reads
    common_fields: tuple[str, ...] = ("continue", "stopReason", "systemMessage", "suppressOutput")
    default_timeout_s: float = 600.0
    json_required: bool = False  # exit 0 with plain text is an invalid answer (Codex Stop)
    stop_supported: bool = True  # continue:false ends the session
    shared_budget: bool = False  # the event's hooks share one time budget (Claude SessionEnd)
    # the top-level ``decision`` values the host's answer schema takes on this event; any
    # other value makes the whole answer invalid (Claude Code ignores it, Codex fails the
    # hook); empty: the key itself is not accepted
    decision_values: tuple[str, ...] = ("approve", "block")
    # what the model reads after an exit 2 whose JSON gives no reason (None: stderr);
    # GitHub Copilot CLI drops stderr and says only that the hook exited with code 2
    exit2_text: str | None = None
    # the JSON on stdout still counts after an exit 2 (Claude Code, Copilot's camelCase
    # keys); False: it is ignored (Copilot's PascalCase PreToolUse, Qwen Code)
    exit2_json: bool = True
    # an exit 2 with nothing on stderr blocks nothing (Qwen Code runs the tool)
    exit2_needs_stderr: bool = False
    # what the model reads when a hook that crashed or timed out blocks the call, on a host
    # whose row says that failure is "blocked" (HostInfo.failure)
    failure_text: str = ""
    # hookSpecificOutput fields the host also reads at the top level of the answer
    also_top_level: tuple[str, ...] = ()
    # permissionDecision values the host does not act on: the call goes on as if the hook had
    # said nothing (Factory Droid's ``ask`` falls through to its autonomy level)
    ignored_decisions: tuple[str, ...] = ()
    # the permissionDecision values the host reads on a PERMISSION event (Claude Code's
    # four; Codex: allow and deny, any other fails the hook)
    permission_values: tuple[str, ...] = ("allow", "ask", "defer", "deny")
    # top-level ``decision`` values of decision_values the host takes and does nothing with
    # (Codex's legacy ``approve`` on PreToolUse); on a PERMISSION event the others decide
    # (Claude Code: approve allows, block denies), on a BLOCK event only "block" does
    inert_decisions: tuple[str, ...] = ()
    # an exit code other than 0, 1 and 2 blocks the call (Factory Droid: exit 3 ends
    # ``droid exec`` at once without running the tool); False: it is a crash
    other_exit_blocks: bool = False
    # variables the host sets in a hook's environment on this event, beside its usual ones
    # (Cline's TaskResume: CLINE_HOOK_AGENT_RESUME=1)
    env: tuple[tuple[str, str], ...] = ()
    # the host applies a rewritten input that comes with no decision and then decides on
    # the call itself (its own permission rules): a rewrite needs no approval from the hook
    rewrites_alone: bool = False
    # a block's reason (JSON or exit 2 stderr) reaches someone (False: a debug-log line only)
    block_reason_shown: bool = True
    # the host shows the answer's systemMessage (False: it reads the key and drops it)
    shows_system_message: bool = True
    # the matcher is compared with the basename of the matcher field (FileChanged)
    matcher_basename: bool = False
    # the handler types the host runs on this event (Claude Code: up to five)
    handler_types: tuple[str, ...] = ("command",)
    # the host waits at most this long for the event's hooks whatever their timeout, then
    # kills them (Codex SessionEnd: its exit does not wait longer); None: their timeout
    wait_cap_s: float | None = None
    # input fields the host always sends with one value, whatever happened (Codex
    # SessionEnd's ``reason`` is always "other")
    fixed_input: tuple[tuple[str, str], ...] = ()
    # (field, on, values): in a headless run the host sends ``field`` only when the input's
    # ``on`` is one of ``values`` (Claude SessionStart's ``model``: ``claude -p`` passes it on
    # resume, fork and compact, not at startup; an interactive session always does). The
    # simulator, which plays a headless run, follows it; ``fire`` sends what it is given.
    headless_sent_only_when: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


# JSON types of the answer fields of Claude Code and Codex ("any": not checked): top
# level, inside hookSpecificOutput, and a PermissionRequest's decision object.
ANSWER_TYPES: Final[dict[str, str]] = {
    "continue": "boolean",
    "stopReason": "string",
    "systemMessage": "string",
    "suppressOutput": "boolean",
    "decision": "string",
    "reason": "string",
    "hookSpecificOutput": "object",
}
SPECIFIC_ANSWER_TYPES: Final[dict[str, str]] = {
    "hookEventName": "string",
    "permissionDecision": "string",
    "permissionDecisionReason": "string",
    "updatedInput": "object",
    "additionalContext": "string",
    "updatedMCPToolOutput": "any",
    "decision": "object",  # PermissionRequest: {behavior, message, updatedInput, ...}
    "retry": "boolean",  # PermissionDenied
    "displayContent": "string",  # MessageDisplay
    "action": "string",  # Elicitation, ElicitationResult: accept | decline | cancel
    "content": "object",
    "worktreePath": "string",  # WorktreeCreate (http hooks; command hooks print the path)
    "watchPaths": "array",  # CwdChanged, FileChanged, SessionStart
    "suppressOriginalPrompt": "boolean",  # UserPromptExpansion
}
VERDICT_TYPES: Final[dict[str, str]] = {
    "behavior": "string",
    "message": "string",
    "updatedInput": "object",
    "updatedPermissions": "array",
    "interrupt": "boolean",
}

# The JSON types of the stdin fields Claude Code and Codex send (both use these names);
# a field not listed takes any type.
INPUT_TYPES: dict[str, tuple[type, ...]] = {
    "tool_name": (str,),
    "tool_input": (dict,),
    "tool_response": (dict, str, list),
    "prompt": (str,),
    "source": (str,),
    "reason": (str,),
    "trigger": (str,),
    "stop_hook_active": (bool,),
    "last_assistant_message": (str,),
    "message": (str,),
    "notification_type": (str,),
    "agent_id": (str,),
    "agent_type": (str,),
    "file_path": (str,),
    "memory_type": (str,),
    "load_reason": (str,),
    "expansion_type": (str,),
    "command_name": (str,),
    "command_args": (str,),
    "turn_id": (str,),
    "message_id": (str,),
    "index": (int,),
    "final": (bool,),
    "delta": (str,),
    "tool_calls": (list,),
    "task_id": (str,),
    "task_subject": (str,),
    "teammate_name": (str,),
    "error": (str,),
    "old_cwd": (str,),
    "new_cwd": (str,),
    "directory": (str,),
    "event": (str,),
    "name": (str,),
    "worktree_path": (str,),
    "mcp_server_name": (str,),
    "requested_schema": (dict,),
    "action": (str,),
    "content": (dict,),
}
# Fields an event that has them cannot do without (no default is invented for them).
REQUIRED_INPUT: tuple[str, ...] = ("tool_name", "tool_input", "prompt")


@dataclass(frozen=True)
class McpHookRules:
    """How a host runs an ``mcp_tool`` hook handler: ``${path}`` placeholders of its
    ``input`` filled from the hook's JSON input, the tool's text content read as a command
    hook's stdout."""

    # a string that is one whole placeholder takes the value with its JSON type (Codex);
    # False: every placeholder is replaced by text (a non-string: its JSON)
    typed_placeholders: bool
    # a placeholder naming no field fails the hook (Codex); False: it is the empty string
    missing_placeholder_fails: bool
    # what joins the text items of the tool's result
    text_join: str
    # the handler key that makes a failure block (Claude's ``onFailure: "block"``), if any
    on_failure_key: str | None


@dataclass(frozen=True)
class DialectSpec:
    name: str  # "claude" | "codex"
    events: dict[str, DialectEvent] = field(default_factory=dict)
    common_input: tuple[str, ...] = ()
    # common fields an event's arguments may set, and their value when they do not
    input_defaults: dict[str, str] = field(default_factory=dict)
    # common fields sent only when the session (or the event's arguments) has them; left
    # out otherwise, never sent empty (Claude Code's prompt_id and effort)
    session_input: tuple[str, ...] = ()
    input_types: dict[str, tuple[type, ...]] = field(default_factory=lambda: dict(INPUT_TYPES))
    required_input: tuple[str, ...] = REQUIRED_INPUT
    # an identical handler in several settings files runs once per event (Claude Code), or
    # once per file (Codex: observed, one call with hookwise in ~/.codex/hooks.json and the
    # project's .codex/hooks.json ran it twice)
    merges_identical_handlers: bool = True
    # ``async: true`` command handlers start in the background: the host neither waits for
    # them nor reads their answer, and ends them with the session (Codex; host/detached.py)
    async_commands_detached: bool = False
    # a background hook's ``additionalContext``, once it has finished, joins the next model
    # request (Claude Code; HookSystem.take_async_context); False: nothing of it is read
    async_context_joins_next_request: bool = False
    mcp_hook: McpHookRules | None = None  # how an mcp_tool handler runs (None: none)

    def event(self, name: str) -> DialectEvent:
        try:
            return self.events[name]
        except KeyError:
            raise KeyError(
                f"unknown {self.name} hook event {name!r}; expected one of: "
                + ", ".join(self.events)
            ) from None
