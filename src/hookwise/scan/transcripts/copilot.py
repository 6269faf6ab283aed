"""GitHub Copilot CLI session records: ``$COPILOT_HOME/session-state/<session>/events.jsonl``.

Observed with Copilot CLI 1.0.102 (tests/scan/fixtures/coverage/README.md): one JSON object
per line, ``{type, data, id, parentId, timestamp}``. ``session.start`` carries ``sessionId``,
``copilotVersion`` and ``context.cwd``; each call the host ran through its tool pipeline
(hooks included, a denied call too) is a ``tool.execution_start`` with ``toolCallId``,
``toolName`` and ``arguments``. The hook payload's ``session_id`` is the record's
``sessionId``; the PascalCase hook gets its own spelling of the tool name (``Bash`` where the
record says ``bash``: protocol/copilot.py ``PASCAL_TOOL_NAMES``) and no call id, so calls are
matched by session, time and command. ``hook.start``/``hook.end`` lines name no hook command,
and no failing hook was seen in a record: hook trouble is not read from them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.protocol.copilot import PASCAL_TOOL_NAMES
from hookwise.scan.transcripts.files import Warnings, json_objects, normal_time, text
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

HOST = "copilot"


def read_events(path: Path, warn: Warnings) -> list[SessionRecord]:
    record = SessionRecord(HOST, "", str(path))
    for number, line in json_objects(path, warn, "an events line"):
        data = line.get("data")
        if not isinstance(data, dict):
            continue
        kind = line.get("type")
        if kind == "session.start":
            _start(record, data, line)
        elif kind == "tool.execution_start":
            _call(record, data, line, number, warn)
    # the directory is named after the session
    why = "no session.start with a sessionId; the directory name stands in for it"
    record.settle(path.parent.name, why, warn)
    return [record]


def _start(record: SessionRecord, data: dict[str, Any], line: dict[str, Any]) -> None:
    record.session = record.session or text(data.get("sessionId")) or ""
    record.cli_version = record.cli_version or text(data.get("copilotVersion"))
    record.started = record.started or normal_time(line.get("timestamp"))
    context = data.get("context")
    if isinstance(context, dict):
        record.cwd = record.cwd or text(context.get("cwd"))


def _call(
    record: SessionRecord, data: dict[str, Any], line: dict[str, Any], number: int, warn: Warnings
) -> None:
    name = text(data.get("toolName"))
    if name is None:
        warn.add("a tool.execution_start without a toolName; skipped", number)
        return
    args = data.get("arguments")
    command = args.get("command") if isinstance(args, dict) else None
    record.calls.append(
        ToolCall(
            host=HOST,
            session=record.session,
            tool=PASCAL_TOOL_NAMES.get(name, name),
            recorded_tool=name,
            # the record's toolCallId reaches only the camelCase hook (toolCalls[].id); the
            # PascalCase one install registers gets none, so the audit log keeps none
            call_id=None,
            input=args,
            command=command if isinstance(command, str) else None,
            time=normal_time(line.get("timestamp")),
            cwd=None,
            file=record.file,
            line=number,
        )
    )
