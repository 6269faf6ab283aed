"""Qwen Code chat records: ``~/.qwen/projects/<cwd slug>/chats/<session>.jsonl``.

Observed with Qwen Code 0.24.4 (tests/scan/fixtures/qwen/README.md): one JSON object per
line, each with ``sessionId``, ``timestamp``, ``cwd``, ``version`` and a ``type``: ``user``,
``assistant`` (``message.parts[].functionCall {id, name, args}``: the calls the model asked
for), ``tool_result`` (``functionResponse`` and ``toolCallResult {callId, status,
errorType}``), ``system``. The hook payload's ``session_id`` is the record's ``sessionId``,
its ``tool_name`` the call's ``name`` and its ``tool_call_id`` the call's ``id`` (its
``tool_use_id``, which the audit log keeps, appears nowhere in the record). The records say
nothing of hooks that failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import Warnings, json_objects, normal_time, text
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "qwen"


def read_chat(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    for number, line in json_objects(path, warn, "a chat record line"):
        record.session = record.session or text(line.get("sessionId")) or ""
        record.cwd = record.cwd or text(line.get("cwd"))
        record.cli_version = record.cli_version or text(line.get("version"))
        record.started = record.started or normal_time(line.get("timestamp"))
        if line.get("type") == "assistant":
            _calls(record, line, number, warn)
    why = "no sessionId in the chat record; the file name stands in for it"
    record.settle(path.stem, why, warn)
    return [record]


def _calls(record: SessionRecord, line: dict[str, Any], number: int, warn: Warnings) -> None:
    message = line.get("message")
    parts = message.get("parts") if isinstance(message, dict) else None
    if not isinstance(parts, list):
        return
    for part in parts:
        call = part.get("functionCall") if isinstance(part, dict) else None
        if call is None:
            continue
        if not isinstance(call, dict) or text(call.get("name")) is None:
            warn.add("a function call without a name; skipped", number)
            continue
        name = str(call["name"])
        args = call.get("args")
        command = args.get("command") if isinstance(args, dict) else None
        record.calls.append(
            ToolCall(
                host=HOST,
                session=record.session,
                tool=name,
                recorded_tool=name,
                # the record's id is the payload's ``tool_call_id``; the hook's
                # ``tool_use_id`` (what the audit log keeps) is another, made for the hook
                # (observed): calls are matched by session, time and command instead
                call_id=None,
                input=args,
                command=command if isinstance(command, str) else None,
                time=normal_time(line.get("timestamp")),
                cwd=text(line.get("cwd")),
                file=record.file,
                line=number,
            )
        )
