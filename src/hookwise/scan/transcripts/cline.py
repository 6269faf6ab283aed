"""Cline session records: ``~/.cline/data/sessions/<id>/<id>.messages.json``.

Observed with the Cline CLI 3.0.65 (tests/scan/fixtures/coverage/README.md, "Cline"): one
JSON document, ``{sessionId, origin: {version}, messages: [...]}``; an assistant message's
``tool_use`` blocks ``{id, name, input}`` are the calls the model asked for (a cancelled one
included: it has no result), ``ts`` in epoch milliseconds. Beside it, ``<id>.json`` holds the
session's ``cwd`` and ``started_at``. The hook gets the block's ``id`` as ``tool_call.id``
(the audit log's ``tool_use_id``), so calls are matched by it; its ``taskId`` (the audit
log's session) is another id than the record's, which names none. ``run_commands`` holds a
list of command lines, each decided by hookwise on its own under the one call id. Nothing
in the record says a hook failed.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import Warnings, json_document, normal_time, text
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "cline"
SUFFIX = ".messages.json"


def _epoch_ms(value: Any) -> str | None:
    """Epoch milliseconds as the audit log writes times, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        moment = dt.datetime.fromtimestamp(value / 1000.0, tz=dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"


def read_messages(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    document = json_document(path, warn)
    if document is not None and not isinstance(document, dict):
        warn.add("the messages file is not a JSON object; skipped")
        document = None
    data = document or {}
    record.session = text(data.get("sessionId")) or ""
    origin = data.get("origin")
    if isinstance(origin, dict):
        record.cli_version = text(origin.get("version"))
    _meta(record, path, warn)
    messages = data.get("messages")
    if messages is not None and not isinstance(messages, list):
        warn.add("messages is not a list; skipped")
        messages = None
    for number, message in enumerate(messages or [], 1):
        if isinstance(message, dict) and message.get("role") == "assistant":
            _calls(record, message, number, warn)
    why = "no sessionId in the messages file; the directory name stands in for it"
    record.settle(path.parent.name, why, warn)
    return [record]


def _meta(record: SessionRecord, path: Path, warn: Warnings) -> None:
    """The session's directory and start, from ``<id>.json`` beside the messages."""
    meta_path = path.with_name(path.name[: -len(SUFFIX)] + ".json")
    if not meta_path.exists():
        return
    meta_warn = Warnings(str(meta_path), warn.sink)
    meta = json_document(meta_path, meta_warn)
    meta_warn.close()
    if not isinstance(meta, dict):
        return
    record.cwd = text(meta.get("cwd"))
    record.started = normal_time(meta.get("started_at"))
    record.session = record.session or text(meta.get("session_id")) or ""


def _calls(record: SessionRecord, message: dict[str, Any], number: int, warn: Warnings) -> None:
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
        record.calls.append(
            ToolCall(
                host=HOST,
                session=record.session,
                tool=name,
                recorded_tool=name,
                call_id=text(block.get("id")),
                input=tool_input,
                command=_command(tool_input),
                time=_epoch_ms(message.get("ts")),
                cwd=None,
                file=record.file,
                line=number,
            )
        )


def _command(tool_input: Any) -> str | None:
    """The shell command of a call: ``command``, or the one line of ``run_commands``
    (several lines: None, the call id joins it)."""
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    if isinstance(command, str):
        return command
    lines = tool_input.get("commands")
    if isinstance(lines, list) and len(lines) == 1 and isinstance(lines[0], str):
        return lines[0]
    return None
