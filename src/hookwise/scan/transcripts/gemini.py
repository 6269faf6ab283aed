"""Gemini CLI chat logs: ``~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl``.

Observed with Gemini CLI 0.61.0 (tests/scan/fixtures/coverage/README.md). ``<project>`` is
the short name ``~/.gemini/projects.json`` gives the project (older versions: a hash of its
path); ``<project>/.project_root`` holds the project's path. One JSON value per line:

* a metadata line ``{"sessionId", "projectHash", "startTime", "kind": "main" | "subagent"}``;
* messages ``{"id", "timestamp", "type": "user" | "gemini" | ..., "toolCalls"?: [{"id",
  "name", "args", "status", "timestamp"}]}``; a message is written again, whole, when it
  changes (its tool calls arrive that way), so the last copy of an id wins;
* ``{"$set": {...}}`` metadata updates (``messages`` replaces the list) and
  ``{"$rewindTo": id}``. A rewind hides messages from the conversation but the tools they
  called did run, so calls are kept.

Older versions wrote one JSON document, ``session-*.json``: the metadata with a
``messages`` array. A subagent's log is ``chats/<parent session>/<session>.jsonl``. Chat
logs say nothing about hooks (a failed hook is only printed to the terminal).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import (
    Warnings,
    json_document,
    json_lines,
    normal_time,
    small_text,
    text,
)
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "gemini"


def read_chat(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    subagent = [False]  # the metadata's kind says so
    calls: dict[str, ToolCall] = {}
    unnamed: list[ToolCall] = []
    if path.parent.name != "chats":  # chats/<parent session>/<session>.jsonl
        record.parent_session = path.parent.name
    if path.suffix == ".json":
        document = json_document(path, warn)
        if document is None:
            return []
        if not isinstance(document, dict):
            warn.add("a chat log must hold a JSON object; skipped")
            return []
        _metadata(record, document, subagent)
        messages = document.get("messages")
        if isinstance(messages, list):
            for message in messages:
                _message(record, message, 1, calls=calls, unnamed=unnamed, warn=warn)
    else:
        for number, line in json_lines(path, warn):
            if not isinstance(line, dict):
                warn.add("a chat log line must be a JSON object; skipped", number)
                continue
            if "$set" in line:
                update = line["$set"]
                if isinstance(update, dict):
                    _metadata(record, update, subagent)
                    messages = update.get("messages")
                    if isinstance(messages, list):
                        for message in messages:
                            _message(
                                record, message, number, calls=calls, unnamed=unnamed, warn=warn
                            )
            elif "$rewindTo" in line:
                continue
            elif isinstance(line.get("id"), str):
                _message(record, line, number, calls=calls, unnamed=unnamed, warn=warn)
            elif "sessionId" in line:
                _metadata(record, line, subagent)
    if not record.session:
        record.session = path.stem
        warn.add("no sessionId in the chat log; the file name stands in for it")
    if subagent[0] and record.parent_session is None:
        record.parent_session = path.parent.name
    root = small_text(path.parent.parent / ".project_root")
    if record.parent_session is not None:
        root = small_text(path.parent.parent.parent / ".project_root") or root
    record.cwd = record.cwd or root
    for call in [*calls.values(), *unnamed]:
        call.session = record.session
        call.parent_session = record.parent_session
        call.cwd = record.cwd
        record.calls.append(call)
    record.calls.sort(key=lambda c: (c.time or "", c.line))
    return [record]


def _metadata(record: SessionRecord, data: dict[str, Any], subagent: list[bool]) -> None:
    record.session = record.session or text(data.get("sessionId")) or ""
    record.started = record.started or normal_time(data.get("startTime"))
    if data.get("kind") == "subagent":
        subagent[0] = True
    directories = data.get("directories")
    if isinstance(directories, list) and directories and text(directories[0]):
        record.cwd = record.cwd or str(directories[0])


def _message(
    record: SessionRecord,
    message: Any,
    number: int,
    *,
    calls: dict[str, ToolCall],
    unnamed: list[ToolCall],
    warn: Warnings,
) -> None:
    if not isinstance(message, dict):
        warn.add("a message must be a JSON object; skipped", number)
        return
    tool_calls = message.get("toolCalls")
    if tool_calls is None:
        return
    if not isinstance(tool_calls, list):
        warn.add("'toolCalls' must be an array; skipped", number)
        return
    for entry in tool_calls:
        if not isinstance(entry, dict) or text(entry.get("name")) is None:
            warn.add("a tool call without a name; skipped", number)
            continue
        name = str(entry["name"])
        args = entry.get("args")
        command = args.get("command") if isinstance(args, dict) else None
        call_id = text(entry.get("id"))
        call = ToolCall(
            host=HOST,
            session=record.session,
            tool=name,
            recorded_tool=name,
            call_id=call_id,
            input=args,
            command=command if isinstance(command, str) else None,
            # the message's time is when the model asked; the call's own is when it ended
            time=normal_time(message.get("timestamp")) or normal_time(entry.get("timestamp")),
            cwd=None,
            file=record.file,
            line=number,
        )
        if call_id is None:
            unnamed.append(call)
        elif call_id in calls:
            first = calls[call_id]
            call.line = first.line
            call.time = first.time or call.time
            calls[call_id] = call
        else:
            calls[call_id] = call
