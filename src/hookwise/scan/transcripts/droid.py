"""Factory Droid session records: ``~/.factory/sessions/<cwd slug>/<session>.jsonl``.

Observed with Droid 0.225.2 (tests/scan/fixtures/coverage/README.md, "Factory Droid"): one
JSON object per line. ``session_start`` carries the session ``id`` (the hook payload's
``session_id``) and ``cwd``; ``message`` lines carry ``timestamp`` and a Claude-like
``message``: an assistant's ``tool_use`` blocks ``{id, name, input}`` are the calls the model
asked for, a denied one included. The hook payload carries no call id, so calls are matched
by session, time and command. Each hook run is recorded too (a ``message`` with
``hookEventName``, ``hookStatus`` and ``hookResults``), but only completed runs were seen, so
hook trouble is not read from them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import Warnings, json_objects, normal_time, text
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "droid"


def read_session(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    for number, line in json_objects(path, warn, "a session line"):
        kind = line.get("type")
        if kind == "session_start":
            record.session = record.session or text(line.get("id")) or ""
            record.cwd = record.cwd or text(line.get("cwd"))
        elif kind == "message":
            record.started = record.started or normal_time(line.get("timestamp"))
            _calls(record, line, number, warn)
    why = "no session_start with an id; the file name stands in for it"
    record.settle(path.stem, why, warn)
    return [record]


def _calls(record: SessionRecord, line: dict[str, Any], number: int, warn: Warnings) -> None:
    message = line.get("message")
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return
    content = message.get("content")
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        name = text(block.get("name"))
        if name is None:
            warn.add("a tool_use without a name; skipped", number)
            continue
        tool_input = block.get("input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        record.calls.append(
            ToolCall(
                host=HOST,
                session=record.session,
                tool=name,
                recorded_tool=name,
                # the record's id never reaches the hook (its payload has none), so the
                # audit log keeps none: matched by session, time and command
                call_id=None,
                input=tool_input,
                command=command if isinstance(command, str) else None,
                time=normal_time(line.get("timestamp")),
                cwd=None,
                file=record.file,
                line=number,
            )
        )
