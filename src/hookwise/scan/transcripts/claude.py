"""Claude Code session transcripts: ``~/.claude/projects/<slug>/<session>.jsonl``.

Observed with Claude Code 2.1.330 (tests/scan/fixtures/coverage/README.md). One JSON object
per line; the lines that matter here:

* ``{"type": "assistant", "message": {"content": [{"type": "tool_use", "id", "name",
  "input"}]}, "sessionId", "cwd", "timestamp", "isSidechain", "agentId"?}``: the model's
  tool calls (one message can be split over several lines; a call is counted once by id);
* ``{"type": "attachment", "attachment": {"type": "hook_non_blocking_error" |
  "hook_error_during_execution" | "hook_failed" | "hook_cancelled", "toolUseID",
  "hookEvent", "command", "timedOut"?, "stderr"?, "exitCode"?}}``: a hook that failed or
  timed out on that call.

A subagent's transcript is ``<slug>/<session>/subagents/[...]/agent-<id>.jsonl``; its lines
carry the parent's ``sessionId`` (which is also what the subagent's hooks get) and its
``agentId``. ``server_tool_use`` blocks run on Anthropic's side and fire no hook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import (
    Warnings,
    json_lines,
    normal_time,
    text,
)
from hookwise.scan.transcripts.model import (
    HookTrouble,
    SessionRecord,
    ToolCall,
)

HOST = "claude"
# Attachment types that say a hook did not give its answer (hook_blocking_error is an
# answer: exit 2 blocked the call).
FAILED = ("hook_non_blocking_error", "hook_error_during_execution", "hook_failed")
CANCELLED = "hook_cancelled"


def _subagent_of(path: Path) -> str | None:
    if "subagents" in path.parts and path.name.startswith("agent-"):
        return path.name[len("agent-") : -len(".jsonl")] or None
    return None


def read_transcript(path: Path, warn: Warnings) -> list[SessionRecord]:
    agent = _subagent_of(path)
    record = SessionRecord(HOST, path.stem if agent is None else "", str(path), agent=agent)
    seen: set[str] = set()
    for number, line in json_lines(path, warn):
        if not isinstance(line, dict):
            warn.add("a transcript line must be a JSON object; skipped", number)
            continue
        _session_fields(record, line)
        kind = line.get("type")
        if kind == "assistant":
            _tool_uses(record, line, number, seen, warn)
        elif kind == "attachment":
            _hook_trouble(record, line, number)
    if agent is not None:
        # a subagent's hooks get the parent session's id, which its lines carry
        record.parent_session = record.session or path.parent.parent.name
        record.session = record.parent_session
        for call in record.calls:
            call.session = record.session
            call.parent_session = record.parent_session
    if not record.session:
        record.session = path.stem
    return [record]


def _session_fields(record: SessionRecord, line: dict[str, Any]) -> None:
    session = text(line.get("sessionId"))
    if session and not record.session:
        record.session = session
    cwd = text(line.get("cwd"))
    if cwd and record.cwd is None:
        record.cwd = cwd
    when = normal_time(line.get("timestamp"))
    if when and (record.started is None or when < record.started):
        record.started = when
    version = text(line.get("version"))
    if version and record.cli_version is None:
        record.cli_version = version
    agent = text(line.get("agentId"))
    if agent and record.agent is not None and record.agent != agent:
        record.agent = agent


def _tool_uses(
    record: SessionRecord, line: dict[str, Any], number: int, seen: set[str], warn: Warnings
) -> None:
    message = line.get("message")
    if not isinstance(message, dict):
        warn.add("an assistant line without a message object; skipped", number)
        return
    content = message.get("content")
    if not isinstance(content, list):
        return  # plain text answer
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        name = text(block.get("name"))
        if name is None:
            warn.add("a tool_use block without a name; skipped", number)
            continue
        call_id = text(block.get("id"))
        if call_id is not None:
            if call_id in seen:
                continue
            seen.add(call_id)
        tool_input = block.get("input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        record.calls.append(
            ToolCall(
                host=HOST,
                session=record.session or text(line.get("sessionId")) or "",
                tool=name,
                recorded_tool=name,
                call_id=call_id,
                input=tool_input,
                command=command if isinstance(command, str) else None,
                time=normal_time(line.get("timestamp")),
                cwd=text(line.get("cwd")) or record.cwd,
                file=record.file,
                line=number,
                agent=record.agent,
            )
        )


def _hook_trouble(record: SessionRecord, line: dict[str, Any], number: int) -> None:
    attachment = line.get("attachment")
    if not isinstance(attachment, dict):
        return
    kind = attachment.get("type")
    if kind not in (*FAILED, CANCELLED):
        return
    timed_out = attachment.get("timedOut") is True
    if kind == CANCELLED and not timed_out:
        trouble, detail = "failed", "cancelled"
    elif timed_out:
        limit = attachment.get("timeoutMs")
        trouble = "timeout"
        detail = f"timed out after {limit} ms" if isinstance(limit, int | float) else "timed out"
    else:
        trouble = "failed"
        code = attachment.get("exitCode")
        stderr = text(attachment.get("stderr")) or text(attachment.get("error")) or ""
        detail = (f"exit {code}" if isinstance(code, int) else str(kind)) + (
            f": {stderr[:300]}" if stderr else ""
        )
    record.troubles.append(
        HookTrouble(
            call_id=text(attachment.get("toolUseID")),
            event=text(attachment.get("hookEvent")) or "",
            command=text(attachment.get("command")) or "",
            kind=trouble,
            detail=detail,
            time=normal_time(line.get("timestamp")),
            line=number,
        )
    )
