"""Gemini CLI's hook protocol as data: the 11 events, their fields, matchers and merges.

Every other package reads these tables instead of spelling event names or field lists
itself, so a change in the host (a new field, a new event) is a change in one place.
Source: the hooks reference (seed 002) and the real engine, @google/gemini-cli-core 0.61.0.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from hookwise.protocol.dialect import Kind


class MatcherKind(Enum):
    """What a definition's ``matcher`` is compared with, and how."""

    TOOL_REGEX = "tool_regex"  # unanchored JS regex on tool_name; invalid regex -> exact
    EXACT = "exact"  # exact string on a lifecycle field (source, reason, trigger)
    IGNORED = "ignored"  # the engine passes no context: every definition matches


class MergeStrategy(Enum):
    """How the answers of several hooks become one (hookAggregator.ts)."""

    OR_DECISION = "or_decision"
    FIELD_REPLACEMENT = "field_replacement"
    TOOL_SELECTION = "tool_selection"
    SIMPLE = "simple"


class Chain(Enum):
    """What a sequential hook's answer changes in the next hook's input."""

    NONE = "none"
    TOOL_INPUT = "tool_input"  # tool_input = {...tool_input, ...hso.tool_input}
    PROMPT = "prompt"  # prompt += "\n\n" + hso.additionalContext
    LLM_REQUEST = "llm_request"  # llm_request = {...llm_request, ...hso.llm_request}


@dataclass(frozen=True)
class Field:
    """One key of a hook's stdin object or of its answer."""

    name: str
    type: str  # JSON type name, or a protocol type such as "LLMRequest"
    required: bool = True
    values: tuple[str, ...] = ()  # allowed strings, when the spec lists them
    doc: str = ""


@dataclass(frozen=True)
class EventSpec:
    name: str
    family: str  # tool | agent | model | session | notification
    input_fields: tuple[Field, ...]
    answer_fields: tuple[Field, ...]  # hookSpecificOutput keys the host reads
    common_fields: tuple[str, ...]  # top-level answer fields the host honours
    matcher: MatcherKind
    matcher_field: str | None  # stdin field a matcher is compared with
    documented_matcher_field: str | None  # the same under the `documented` profile
    merge: MergeStrategy
    output_class: str
    chain: Chain
    flow_control: bool  # decision / continue change what the agent does
    kind: Kind | None = None  # its family across hosts (None: no other host has one)
    # a rewritten tool_input with no decision is applied, and the call then goes through
    # the CLI's own policy (observed with 0.61.0): a rewrite needs no approval from the hook
    rewrites_alone: bool = False


BASE_FIELDS: Final = (
    Field("session_id", "string", doc="Unique identifier for the current CLI session."),
    Field("transcript_path", "string", doc="Path to the session's JSON transcript ('' if none)."),
    Field("cwd", "string", doc="The current working directory."),
    Field("hook_event_name", "string", doc="The name of the firing event."),
    Field("timestamp", "string", doc="ISO 8601 timestamp of the event."),
)

COMMON_ANSWER_FIELDS: Final = (
    Field("decision", "string", False, ("allow", "deny", "block", "ask", "approve")),
    Field("reason", "string", False, doc="Shown to the agent when the decision blocks."),
    Field("systemMessage", "string", False, doc="Shown to the user."),
    Field("continue", "boolean", False, doc="false ends the agent loop."),
    Field("stopReason", "string", False, doc="Shown to the user when continue is false."),
    Field("suppressOutput", "boolean", False, doc="Hide the hook from the transcript."),
    Field("hookSpecificOutput", "object", False, doc="Event-specific answer."),
)

MCP_CONTEXT_FIELDS: Final = (
    Field("server_name", "string"),
    Field("tool_name", "string"),
    Field("command", "string", False),
    Field("args", "array", False),
    Field("cwd", "string", False),
    Field("url", "string", False),
    Field("tcp", "string", False),
)

_TOOL_INPUT: Final = (
    Field("tool_name", "string", doc="Internal tool name, e.g. run_shell_command."),
    Field("tool_input", "object", doc="The arguments the model generated."),
    Field("mcp_context", "object", False, doc="Server identity, MCP tools only."),
    Field("original_request_name", "string", False, doc="Tool name before a tail call."),
)
_FLOW: Final = ("decision", "reason", "systemMessage", "continue", "stopReason")
# AfterTool's tool_response is always an object: a tool's plain result is sent as its text
# in each of these keys (what the model reads, what the terminal shows)
TOOL_RESPONSE_TEXT: Final = ("llmContent", "returnDisplay")
_ADVISORY: Final = ("systemMessage", "suppressOutput")

EVENTS: Final[dict[str, EventSpec]] = {
    spec.name: spec
    for spec in (
        EventSpec(
            "BeforeTool",
            "tool",
            _TOOL_INPUT,
            (Field("tool_input", "object", False, doc="Rewritten tool arguments."),),
            (*_FLOW, "suppressOutput"),
            MatcherKind.TOOL_REGEX,
            "tool_name",
            "tool_name",
            MergeStrategy.OR_DECISION,
            "BeforeToolHookOutput",
            Chain.TOOL_INPUT,
            True,
            kind=Kind.TOOL_BEFORE,
            rewrites_alone=True,
        ),
        EventSpec(
            "AfterTool",
            "tool",
            (
                *_TOOL_INPUT[:2],
                Field("tool_response", "object", doc="{llmContent, returnDisplay, error?}"),
                *_TOOL_INPUT[2:],
            ),
            (
                Field("additionalContext", "string", False, doc="Appended to the tool result."),
                Field(
                    "tailToolCallRequest", "object", False, doc="{name, args}: a follow-up call."
                ),
            ),
            (*_FLOW, "suppressOutput"),
            MatcherKind.TOOL_REGEX,
            "tool_name",
            "tool_name",
            MergeStrategy.OR_DECISION,
            "DefaultHookOutput",
            Chain.NONE,
            True,
            kind=Kind.TOOL_AFTER,
        ),
        EventSpec(
            "BeforeAgent",
            "agent",
            (Field("prompt", "string", doc="The prompt the user submitted."),),
            (Field("additionalContext", "string", False, doc="Added to this turn's prompt."),),
            (*_FLOW, "suppressOutput"),
            MatcherKind.IGNORED,
            None,
            None,
            MergeStrategy.OR_DECISION,
            "DefaultHookOutput",
            Chain.PROMPT,
            True,
            kind=Kind.PROMPT,
        ),
        EventSpec(
            "AfterAgent",
            "agent",
            (
                Field("prompt", "string"),
                Field("prompt_response", "string", doc="The model's final answer text."),
                Field("stop_hook_active", "boolean", doc="True while a hook-driven retry runs."),
            ),
            (Field("clearContext", "boolean", False, doc="Clear the model's memory."),),
            (*_FLOW, "suppressOutput"),
            MatcherKind.IGNORED,
            None,
            None,
            MergeStrategy.OR_DECISION,
            "AfterAgentHookOutput",
            Chain.NONE,
            True,
            kind=Kind.STOP,
        ),
        EventSpec(
            "BeforeModel",
            "model",
            (Field("llm_request", "LLMRequest"),),
            (
                Field("llm_request", "LLMRequest", False, doc="Overrides parts of the request."),
                Field("llm_response", "LLMResponse", False, doc="A synthetic response."),
            ),
            (*_FLOW, "suppressOutput"),
            MatcherKind.IGNORED,
            None,
            None,
            MergeStrategy.FIELD_REPLACEMENT,
            "BeforeModelHookOutput",
            Chain.LLM_REQUEST,
            True,
        ),
        EventSpec(
            "AfterModel",
            "model",
            (Field("llm_request", "LLMRequest"), Field("llm_response", "LLMResponse")),
            (Field("llm_response", "LLMResponse", False, doc="Replaces this chunk."),),
            (*_FLOW, "suppressOutput"),
            MatcherKind.IGNORED,
            None,
            None,
            MergeStrategy.FIELD_REPLACEMENT,
            "AfterModelHookOutput",
            Chain.NONE,
            True,
        ),
        EventSpec(
            "BeforeToolSelection",
            "model",
            (Field("llm_request", "LLMRequest"),),
            (Field("toolConfig", "object", False, doc="{mode, allowedFunctionNames}"),),
            (),
            MatcherKind.IGNORED,
            None,
            None,
            MergeStrategy.TOOL_SELECTION,
            "BeforeToolSelectionHookOutput",
            Chain.NONE,
            False,
        ),
        EventSpec(
            "SessionStart",
            "session",
            (Field("source", "string", values=("startup", "resume", "clear")),),
            (Field("additionalContext", "string", False, doc="Initial context."),),
            _ADVISORY,
            MatcherKind.EXACT,
            "source",
            "source",
            MergeStrategy.OR_DECISION,
            "DefaultHookOutput",
            Chain.NONE,
            False,
            kind=Kind.SESSION_START,
        ),
        EventSpec(
            "SessionEnd",
            "session",
            (
                Field(
                    "reason",
                    "string",
                    values=("exit", "clear", "logout", "prompt_input_exit", "other"),
                ),
            ),
            (),
            _ADVISORY,
            MatcherKind.EXACT,
            "reason",
            "reason",
            MergeStrategy.SIMPLE,
            "DefaultHookOutput",
            Chain.NONE,
            False,
            kind=Kind.SESSION_END,
        ),
        EventSpec(
            "PreCompress",
            "session",
            (Field("trigger", "string", values=("manual", "auto")),),
            (),
            _ADVISORY,
            MatcherKind.EXACT,
            "trigger",
            "trigger",
            MergeStrategy.SIMPLE,
            "DefaultHookOutput",
            Chain.NONE,
            False,
            kind=Kind.COMPACT_BEFORE,
        ),
        EventSpec(
            "Notification",
            "notification",
            (
                Field("notification_type", "string", values=("ToolPermission",)),
                Field("message", "string"),
                Field("details", "object"),
            ),
            (),
            _ADVISORY,
            MatcherKind.IGNORED,
            None,
            "notification_type",
            MergeStrategy.SIMPLE,
            "DefaultHookOutput",
            Chain.NONE,
            False,
            kind=Kind.NOTIFICATION,
        ),
    )
}

EVENT_NAMES: Final = tuple(EVENTS)

# Event keys of Gemini CLI's settings schema, in schema order (the order of the merged ``hooks``).
SCHEMA_EVENT_ORDER: Final[tuple[str, ...]] = (
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
)

# Keys of the settings ``hooks`` object that are configuration, not events (types.ts).
HOOKS_CONFIG_FIELDS: Final = ("enabled", "disabled", "notifications")

DEFAULT_TIMEOUT_MS: Final = 60_000

# The model a request falls back to when it names none (DEFAULT_GEMINI_FLASH_MODEL, 0.61.0).
DEFAULT_FLASH_MODEL: Final = "gemini-3.5-flash"


def event_spec(name: str) -> EventSpec:
    """The spec of a Gemini event, or KeyError naming the valid ones."""
    try:
        return EVENTS[name]
    except KeyError:
        raise KeyError(
            f"unknown Gemini hook event {name!r}; expected one of: {', '.join(EVENT_NAMES)}"
        ) from None


# Where Gemini CLI reads MCP servers (scope -> (file, key)): the project's file relative to
# it, the user's to GEMINI_CLI_HOME (the home directory). Extensions' servers are theirs.
# The project settings (hooks, MCP servers) are read in the directory the host is started in
# only, not in the repository root above it (Gemini CLI 0.61.0: a hook in the root's settings does
# not run for a session started in a subdirectory; red team s28 F6, recorded in
# tests/e2e/fixtures/start-dirs.md): a project-scope install guards sessions started there.
PROJECT_SETTINGS_AT_START: Final = True
MCP_FILES: Final = {
    "user": ((".gemini/settings.json", "mcpServers"),),
    "project": ((".gemini/settings.json", "mcpServers"),),
}
# The files of the machine (every user's sessions) whose mcpServers Gemini CLI merges too, as
# (settings scope, key of its servers): the system defaults under the user's settings and the
# system settings over every other file (0.61.0 getSystemDefaultsPath/getSystemSettingsPath,
# moved by GEMINI_CLI_SYSTEM_DEFAULTS_PATH/GEMINI_CLI_SYSTEM_SETTINGS_PATH; their places are
# config/gemini/paths.py's; recorded in tests/e2e/fixtures/gemini-system-mcp.json), with the
# words naming each.
MCP_SYSTEM_FILES: Final = (
    ("systemDefaults", "mcpServers", "system defaults"),
    ("system", "mcpServers", "system settings"),
)
# A stdio server outside mcpServers: (section, key, server name). ``mcp.serverCommand`` is a
# command line (shell-quote, ``$VAR`` from the environment) that 0.61.0 starts as a server
# named ``mcp``, replacing any ``mcpServers.mcp`` (``populateMcpServerCommand``; recorded in
# tests/e2e/fixtures/mcp-server-command.md; red team s27 F11).
MCP_SERVER_COMMAND: Final = ("mcp", "serverCommand", "mcp")

# Session records (scan/transcripts/records.py): (format, directories under the CLI's home,
# $GEMINI_CLI_HOME or HOME): chat logs, .gemini/tmp/<project>/chats/session-*.json[l].
SESSION_RECORDS: Final = ("gemini-chat", (".gemini/tmp",))

# The variables a hook's environment has (0.61.0): the project directory (first: its own;
# Claude Code's name too), and the others it sets.
PROJECT_ENV: Final = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
HOOK_ENV: Final = ("GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR")
# Of those, the ones naming the directory the hook runs in (the project's, for a settings hook).
CWD_ENV: Final = ("GEMINI_CWD",)
