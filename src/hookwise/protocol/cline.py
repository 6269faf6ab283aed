"""Cline's hook protocol as data (docs.cline.bot/features/hooks/hook-reference; observed with
the Cline CLI 3.0.65, tests/e2e/fixtures/more-hosts/cline.jsonl; the rest read in that CLI's
bundled JavaScript, ``strings`` of its Bun binary: the file-hook runtime
``core.hook_config_files``).

A hook is a script file named after its event, in any of four directories, every one read
(``HOOK_DIRS``: ``~/Documents/Cline/Hooks``, ``$CLINE_DIR/hooks`` (``~/.cline/hooks``),
``.clinerules/hooks`` and ``.cline/hooks`` of the workspace): no settings file, no matcher, no
timeout field. A file counts when it is a regular file (a symbolic link does not) whose name,
less a known suffix (``SCRIPT_SUFFIXES``), is an event's name in any case; the hooks of one
event run one after another in the order of their paths. Cline does not exec the file: it
runs the interpreter its ``#!`` line names, else the one its suffix names (``INTERPRETERS``),
so a file needs no execute bit. stdin is one JSON object with ``hookName``; 3.x names the
events by its agent loop (``HOOK_NAMES``). The pre-tool payload carries the tool twice:
``tool_call {id, name, input}`` and ``preToolUse {toolName, parameters}`` whose values are
JSON-encoded strings.

The answer: stdout, trimmed; when lines start with ``HOOK_CONTROL\t`` the last one's rest,
else the whole; JSON that does not parse, and every exit code, are ignored (observed). Of
the object: ``{"cancel": true}`` stops the call and **aborts the whole run** (observed: the
tool does not run, no further model request, the model never reads ``errorMessage``);
without a cancel, ``context`` (else ``contextModification``, else ``errorMessage``) reaches
the model (observed: ``contextModification`` and a bare ``errorMessage``), cut at
``CONTEXT_LIMIT``; ``overrideInput`` replaces the tool's input. Several hooks: any cancel
cancels, the texts are joined by newlines, the last ``overrideInput`` wins. Only the tool
events wait for their hooks (``BLOCKING``), up to 120 s each, then kill it and go on as if
it said nothing; the others are started and not waited for, their answers never read.
There is no ask and no allow.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

COMMON_INPUT: Final = ("clineVersion", "hookName", "timestamp", "taskId", "workspaceRoots")

# What Cline reads of an answer object (the bundle's control reader; ``review`` is read and
# then dropped by the tool hook)
ANSWER_FIELDS: Final = ("cancel", "contextModification", "context", "errorMessage", "overrideInput")

# The events whose hooks Cline waits for, and how long (``toolCallTimeoutMs ?? 120000``);
# the others are started detached and their answers never read.
BLOCKING_TIMEOUT_S: Final = 120.0
# How long a detached hook is watched (``detachedObservationMs``); the runtime bounds such a
# hook by it, where Cline stops watching and lets it run on.
DETACHED_WATCH_S: Final = 30.0
# A context longer than this is cut, with a note saying so.
CONTEXT_LIMIT: Final = 50_000
CONTEXT_CUT_NOTE: Final = "\n[hook context truncated: exceeded 50000 characters]"
# The line prefix that marks the answer in a stdout holding other lines too.
CONTROL_PREFIX: Final = "HOOK_CONTROL\t"


def _event(
    name: str,
    kind: Kind,
    fields: tuple[str, ...],
    blocking: bool,
    *,
    env: tuple[tuple[str, str], ...] = (),
) -> DialectEvent:
    return DialectEvent(
        name,
        kind,
        fields,
        None,
        Decision.CANCEL if blocking else Decision.NONE,
        Exit2.IGNORED,
        specific_fields=ANSWER_FIELDS if blocking else (),
        common_fields=(),
        default_timeout_s=BLOCKING_TIMEOUT_S if blocking else DETACHED_WATCH_S,
        stop_supported=False,
        decision_values=(),
        env=env,
    )


# Claude Code's tool fields a caller of the runtime may give instead (the simulator does):
# the stdin gets them in Cline's shape (tool_fields), never as they are.
CLAUDE_FIELDS: Final = ("tool_name", "tool_input", "tool_use_id")


def _stringify(value: Any) -> str:
    """``JSON.stringify``: no blanks between items, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def tool_fields(event: str, args: dict[str, Any]) -> dict[str, Any]:
    """Cline's tool fields for Claude Code's (``tool_name``, ``tool_input``,
    ``tool_use_id``, ``tool_response``): the call as ``tool_call``/``tool_result`` and again
    as ``preToolUse``/``postToolUse`` with each parameter JSON-encoded as a string."""
    name, raw = args.get("tool_name"), args.get("tool_input")
    tool_input = raw if isinstance(raw, dict) else {}
    params = {k: v if isinstance(v, str) else _stringify(v) for k, v in tool_input.items()}
    call = {"id": args.get("tool_use_id") or "call_hookwise", "name": name, "input": tool_input}
    if event == "PreToolUse":
        return {"tool_call": call, "preToolUse": {"toolName": name, "parameters": params}}
    response = args.get("tool_response")
    output = response if isinstance(response, str) else _stringify(response)
    return {
        "tool_result": {**call, "output": response},
        "postToolUse": {"toolName": name, "parameters": params, "result": output},
    }


# A resumed session (``cline --id SESSION``): 3.0.65 sets this in its own environment before
# the run, so every hook of that process gets it, and its loop then sends TaskResume
# (``hookName: "agent_resume"``) where a new task sends TaskStart (the bundle's beforeRun:
# ``CLINE_HOOK_AGENT_RESUME === "1"``). Read in the bundle, not observed: offline, a session
# resumed in the TUI (``--id`` always starts it) ran no hook at all here.
RESUMED: Final = ("CLINE_HOOK_AGENT_RESUME", "1")

# What Cline's loop puts in these events' payloads (3.0.65's beforeRun, read in the bundle;
# TaskStart's observed): the runtime sends them where the caller gives nothing of its own.
# The docs' richer ``taskMetadata`` and ``previousState`` (message counts, the last message's
# time) are the VS Code extension's; the CLI sends them empty.
EVENT_INPUT: Final[dict[str, dict[str, Any]]] = {
    "TaskStart": {"taskStart": {"taskMetadata": {}}},
    "TaskResume": {"taskResume": {"taskMetadata": {}, "previousState": {}}},
}

# (PostToolUse's cancel and context, from the bundle: not run here)
_EVENTS: Final = (
    _event("TaskStart", Kind.SESSION_START, ("taskStart",), False),
    _event("TaskResume", Kind.SESSION_START, ("taskResume",), False, env=(RESUMED,)),
    _event("UserPromptSubmit", Kind.PROMPT, ("userPromptSubmit",), False),
    _event("PreToolUse", Kind.TOOL_BEFORE, ("preToolUse", "tool_call", *CLAUDE_FIELDS), True),
    _event(
        "PostToolUse",
        Kind.TOOL_AFTER,
        ("postToolUse", "tool_result", *CLAUDE_FIELDS, "tool_response"),
        True,
    ),
    _event("TaskCancel", Kind.SESSION_END, ("taskCancel",), False),
    _event("TaskComplete", Kind.STOP, ("taskComplete",), False),
    _event("TaskError", Kind.SESSION_END, ("error",), False),
    _event("SessionShutdown", Kind.SESSION_END, ("reason",), False),
    _event("PreCompact", Kind.COMPACT_BEFORE, ("preCompact",), False),
)

# (either shape of the tool fields may be given, so none is required)
CLINE: Final = DialectSpec(
    "cline", {e.name: e for e in _EVENTS}, COMMON_INPUT, {}, required_input=()
)
EVENT_NAMES: Final = tuple(CLINE.events)

# The event (the file's name) -> the ``hookName`` the 3.x CLI sends; None: a file of that
# name is found and never run (PreCompact has no hook in 3.0.65's loop). TaskResume's runs
# only in a resumed session (``RESUMED``), in place of TaskStart's.
SENT_AS: Final[dict[str, str | None]] = {
    "TaskStart": "agent_start",
    "TaskResume": "agent_resume",
    "TaskCancel": "agent_abort",
    "TaskComplete": "agent_end",
    "TaskError": "agent_error",
    "PreToolUse": "tool_call",
    "PostToolUse": "tool_result",
    "UserPromptSubmit": "prompt_submit",
    "PreCompact": None,
    "SessionShutdown": "session_shutdown",
}

# Cline's event at each point of Claude Code's loop (the simulator plays that loop): a
# task's start, the prompt, the tool events, its completion, the end of the session.
CLAUDE_EVENTS: Final = {
    "SessionStart": ("TaskStart",),
    "UserPromptSubmit": ("UserPromptSubmit",),
    "PreToolUse": ("PreToolUse",),
    "PostToolUse": ("PostToolUse",),
    "Stop": ("TaskComplete",),
    "PreCompact": ("PreCompact",),
    "SessionEnd": ("SessionShutdown",),
}

# ``hookName`` as the 3.x CLI sends it (observed) -> the event (the file's name)
HOOK_NAMES: Final = {
    **{hook: event for event, hook in SENT_AS.items() if hook is not None},
    **{name: name for name in EVENT_NAMES},
}

# Where Cline looks for hook files, every directory read: (base, path) with base "home"
# (relative to HOME), "config" (to the row's config_dir, ``$CLINE_DIR`` or ``~/.cline``) or
# "project" (to the workspace).
HOOK_DIRS: Final = (
    ("home", "Documents/Cline/Hooks"),
    ("config", "hooks"),
    ("project", ".clinerules/hooks"),
    ("project", ".cline/hooks"),
)

# A file is a hook when its suffix (lower-cased) is one of these ("": none).
SCRIPT_SUFFIXES: Final = (
    "",
    ".sh",
    ".bash",
    ".zsh",
    ".js",
    ".mjs",
    ".cjs",
    ".ts",
    ".mts",
    ".cts",
    ".py",
    ".ps1",
)

# The program a hook file without a ``#!`` line runs under, by suffix (any other: bash).
INTERPRETERS: Final = {
    ".sh": ("bash",),
    ".bash": ("bash",),
    ".zsh": ("bash",),
    ".js": ("node",),
    ".mjs": ("node",),
    ".cjs": ("node",),
    ".ts": ("bun", "run"),
    ".mts": ("bun", "run"),
    ".cts": ("bun", "run"),
    ".py": ("python3",),
    ".ps1": ("pwsh", "-File"),
}
# ``#!`` programs Cline runs by name (looked up on PATH), whatever directory the line gives;
# ``env`` is skipped to the program it names.
SHEBANG_BY_NAME: Final = ("bash", "sh", "zsh", "python3", "python")

# Where the host reads MCP servers (scan): scope -> (file, key holding the servers); "user"
# relative to the config dir, "project" to the project.
MCP_FILES: Final = {
    "user": (("data/settings/cline_mcp_settings.json", "mcpServers"),),
}

# Where the host keeps its session records (coverage): a format and the directories under
# its config directory (``$CLINE_DIR`` or ``~/.cline``). Observed with 3.0.65:
# ``data/sessions/<id>/<id>.messages.json`` (the messages, assistant ``tool_use`` blocks
# with the id the hook gets as ``tool_call.id``) beside ``<id>.json`` (``cwd``,
# ``started_at``); scan/transcripts/cline.py. Moved by ``MOVED_PATHS``.
SESSION_RECORDS: Final = ("cline-session", ("data/sessions",))

# Parts of the config directory a variable of Cline's own moves, the most specific first:
# (path under the config directory, the variable naming that path instead). Read in 3.0.65's
# core paths module (``resolveClineDataDir``: ``$CLINE_DATA_DIR`` else ``<CLINE_DIR>/data``;
# ``resolveSessionDataDir``: ``$CLINE_SESSION_DATA_DIR`` else ``<data>/sessions``;
# ``resolveMcpSettingsPath``: ``$CLINE_MCP_SETTINGS_PATH`` else
# ``<data>/settings/cline_mcp_settings.json``), each value trimmed, an empty one unset.
# Hooks are not moved by any of them: ``resolveHooksConfigSearchPaths`` reads
# ``<CLINE_DIR>/hooks`` (``HOOK_DIRS``), and the ``CLINE_HOOKS_DIR`` that ``--hooks-dir``
# sets is read by nothing in 3.0.65.
MOVED_PATHS: Final = (
    ("data/sessions", "CLINE_SESSION_DATA_DIR"),
    ("data/settings/cline_mcp_settings.json", "CLINE_MCP_SETTINGS_PATH"),
    ("data", "CLINE_DATA_DIR"),
)

# Sandbox mode (``CLINE_SANDBOX=1``, or ``--data-dir``, which hookwise cannot see): Cline
# sets ``CLINE_DATA_DIR`` to ``$CLINE_SANDBOX_DATA_DIR`` (resolved against its cwd), else
# ``<os.tmpdir()>/cline-sandbox``, and ``CLINE_SESSION_DATA_DIR`` to its ``sessions``,
# replacing what the environment said (3.0.65: the sandbox setup of its main command).
SANDBOX: Final = ("CLINE_SANDBOX", "1", "CLINE_SANDBOX_DATA_DIR", "cline-sandbox")


def path_env(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``MOVED_PATHS`` as Cline sees them once it has started: trimmed,
    empty ones dropped, and sandbox mode's own in place of the environment's."""
    import os

    out = {
        variable: env[variable].strip()
        for _path, variable in MOVED_PATHS
        if env.get(variable, "").strip()
    }
    switch, on, directory, default = SANDBOX
    if env.get(switch, "").strip() == on:
        temporary = (env.get("TMPDIR") or "").rstrip("/") or "/tmp"
        data = os.path.abspath(env.get(directory, "").strip() or os.path.join(temporary, default))
        out["CLINE_DATA_DIR"] = data
        out["CLINE_SESSION_DATA_DIR"] = os.path.join(data, "sessions")
    return out
