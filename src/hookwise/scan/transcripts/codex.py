"""Codex rollouts: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl``.

Observed with Codex 0.169.0 (tests/scan/fixtures/coverage/README.md). One JSON object per
line, ``{"timestamp", "type", "payload"}``:

* ``session_meta``: ``payload.id`` (the thread, which hooks get as ``session_id``), ``cwd``,
  ``cli_version``, ``source`` (an object naming the parent thread for a subagent);
* ``turn_context``: ``payload.cwd`` of the turn;
* ``response_item`` with ``payload.type`` ``function_call`` (``name``, ``arguments`` as a
  JSON text, ``call_id``), ``custom_tool_call`` (``name``, ``input`` text, ``call_id``: the
  freeform ``apply_patch``) or ``local_shell_call`` (``action.command``): the model's calls.

Rollouts record nothing about hooks (a failed or timed-out hook leaves no trace), so
trouble with a hook can only come from the audit log. Which recorded tools fire a
PreToolUse hook, and under which name, is protocol data (``protocol/codex.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.protocol.codex import MCP_TOOL_PREFIX, ROLLOUT_HOOK_TOOLS
from hookwise.scan.transcripts.files import (
    Warnings,
    json_lines,
    loads,
    normal_time,
    text,
)
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "codex"
CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call")


def hook_tool(recorded: str) -> str | None:
    """The ``tool_name`` a PreToolUse hook gets for a recorded tool; None: no hook fires."""
    if recorded in ROLLOUT_HOOK_TOOLS:
        return ROLLOUT_HOOK_TOOLS[recorded]
    if recorded.startswith(MCP_TOOL_PREFIX):
        return recorded
    return None


def _parent_thread(source: Any, depth: int = 0) -> str | None:
    """The parent thread id a subagent's ``session_meta.source`` names, if any."""
    if depth > 8:
        return None
    if isinstance(source, dict):
        for key, value in source.items():
            if isinstance(key, str) and "parent" in key and key.endswith("id") and text(value):
                return str(value)
            found = _parent_thread(value, depth + 1)
            if found:
                return found
    return None


def _shell_command(value: Any) -> str | None:
    """The command line Codex gives a Bash hook: the script of ``bash -lc X``, else the words."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if (
            len(value) == 3
            and value[1] in ("-lc", "-c")
            and value[0].rsplit("/", 1)[-1]
            in (
                "bash",
                "sh",
                "zsh",
            )
        ):
            return str(value[2])
        return " ".join(value)
    return None


def read_rollout(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    cwd: str | None = None
    seen: set[str] = set()
    for number, line in json_lines(path, warn):
        if not isinstance(line, dict) or not isinstance(line.get("payload"), dict):
            warn.add("a rollout line must be an object with a 'payload' object; skipped", number)
            continue
        payload: dict[str, Any] = line["payload"]
        kind = line.get("type")
        if kind == "session_meta":
            record.session = record.session or text(payload.get("id")) or ""
            record.session = record.session or text(payload.get("session_id")) or ""
            cwd = text(payload.get("cwd")) or cwd
            record.cwd = record.cwd or cwd
            record.cli_version = record.cli_version or text(payload.get("cli_version"))
            record.started = record.started or normal_time(
                payload.get("timestamp") or line.get("timestamp")
            )
            parent = _parent_thread(payload.get("source"))
            if parent and parent != record.session:
                record.parent_session = parent
        elif kind == "turn_context":
            cwd = text(payload.get("cwd")) or cwd
        elif kind == "response_item" and payload.get("type") in CALL_ITEMS:
            call = _call(record, payload, line, number, cwd=cwd, warn=warn)
            if call is None:
                continue
            if call.call_id is not None:
                if call.call_id in seen:
                    continue
                seen.add(call.call_id)
            record.calls.append(call)
    if not record.session:
        # rollout-<date>T<time>-<thread id>.jsonl: the id is the last five dash groups
        parts = path.stem.split("-")
        record.session = "-".join(parts[-5:]) if len(parts) > 5 else path.stem
        warn.add("no session_meta line; the session id is taken from the file name")
    for call in record.calls:
        call.session = record.session
        call.parent_session = record.parent_session
    return [record]


def _call(
    record: SessionRecord,
    payload: dict[str, Any],
    line: dict[str, Any],
    number: int,
    *,
    cwd: str | None,
    warn: Warnings,
) -> ToolCall | None:
    item = payload.get("type")
    name = text(payload.get("name"))
    command: str | None = None
    tool_input: Any
    if item == "local_shell_call":
        name = "local_shell_call"
        action = payload.get("action")
        tool_input = action
        command = _shell_command(action.get("command")) if isinstance(action, dict) else None
    elif name is None:
        warn.add(f"a {item} item without a name; skipped", number)
        return None
    elif item == "custom_tool_call":
        tool_input = payload.get("input")
        if name == "apply_patch":
            command = tool_input if isinstance(tool_input, str) else None
    else:
        raw = payload.get("arguments")
        tool_input, problem = loads(raw) if isinstance(raw, str) else (raw, None)
        if problem is not None:
            tool_input = raw
        if isinstance(tool_input, dict):
            command = _shell_command(tool_input.get("cmd") or tool_input.get("command"))
    hooked = hook_tool(name)
    if hooked not in ("Bash", "apply_patch"):
        command = None
    return ToolCall(
        host=HOST,
        session=record.session,
        tool=hooked or name,
        recorded_tool=name,
        call_id=text(payload.get("call_id")) or text(payload.get("id")),
        input=tool_input,
        command=command,
        time=normal_time(line.get("timestamp")),
        cwd=cwd or record.cwd,
        file=record.file,
        line=number,
        hookable=hooked is not None,
    )
