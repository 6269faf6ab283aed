"""Factory Droid session records: ``~/.factory/sessions/<cwd slug>/<session>.jsonl``.

Observed with Droid 0.225.2 (tests/scan/fixtures/coverage/README.md, "Factory Droid"): one
JSON object per line. ``session_start`` carries the session ``id`` (the hook payload's
``session_id``) and ``cwd``; ``message`` lines carry ``timestamp`` and a Claude-like
``message``: an assistant's ``tool_use`` blocks ``{id, name, input}`` are the calls the model
asked for, a denied one included. The hook payload carries no call id, so calls are matched
with the audit log by session, time and command.

Each run of an event's hooks is recorded as a ``message`` naming ``hookEventName``,
``hookToolCallId`` (the ``tool_use`` block's id), ``hookCommands`` (``{command, timeout}``),
``hookStatus`` (``completed``, or ``error`` when a hook exited non-zero), ``hookResults``
(``{exitCode, stdout, stderr}`` per command, in order), ``hookStartTime``/``hookEndTime``
(epoch ms). Recorded with 0.225.2 (tests/scan/test_coverage_more_hosts.py): exit 1 is
``error`` with the hook's stderr, and the tool ran; a hook past its timeout is killed and
recorded the same way, exit 1 with no output, the run lasting at least the timeout; exit 2
(a deny) is ``error`` too, and the tool did not run. So a hook trouble is a result the host
did not block on (the event table's exit codes) of a command: ``timeout`` when the run took
its whole timeout, else ``failed``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import Warnings, json_objects, normal_time, text
from hookwise.scan.transcripts.model import HookTrouble, SessionRecord, ToolCall

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
            _hook_trouble(record, line, number)
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
                # audit log keeps none: decisions join by session, time and command; the
                # id joins the host's record of that call's hooks (hookToolCallId)
                call_id=text(block.get("id")),
                input=tool_input,
                command=command if isinstance(command, str) else None,
                time=normal_time(line.get("timestamp")),
                cwd=None,
                file=record.file,
                line=number,
            )
        )


def _blocks(event: str, code: int) -> bool:
    """Whether Droid blocks the call on this exit code of ``event``'s hook (exit 2, and on
    an event whose other codes end the run, any but 1): then the call did not run."""
    from hookwise.protocol.droid import DROID

    spec = DROID.events.get(event)
    if spec is None:
        return code == 2
    return code == 2 or (code not in (0, 1) and spec.other_exit_blocks)


def _epoch_ms(value: Any) -> float | None:
    return None if isinstance(value, bool) or not isinstance(value, int | float) else value


def _hook_trouble(record: SessionRecord, line: dict[str, Any], number: int) -> None:
    message = line.get("message")
    if not isinstance(message, dict) or message.get("hookStatus") != "error":
        return
    event = text(message.get("hookEventName")) or ""
    commands, results = message.get("hookCommands"), message.get("hookResults")
    if not isinstance(commands, list) or not isinstance(results, list):
        return
    if len(commands) != len(results):
        return  # which command gave which result is not known: none is named
    start, end = _epoch_ms(message.get("hookStartTime")), _epoch_ms(message.get("hookEndTime"))
    took_ms = end - start if start is not None and end is not None else None
    for command, result in zip(commands, results, strict=True):
        if not isinstance(command, dict) or not isinstance(result, dict):
            continue
        code = result.get("exitCode")
        if isinstance(code, bool) or not isinstance(code, int):
            code = None  # killed without a code, or garbage: the host did not block on it
        elif code == 0 or _blocks(event, code):
            continue
        limit = command.get("timeout")
        if isinstance(limit, bool) or not isinstance(limit, int | float):
            limit = None
        if took_ms is not None and limit is not None and took_ms >= limit * 1000:
            kind, detail = "timeout", f"killed after its {limit:g} s timeout (ran {took_ms:g} ms)"
        else:
            stderr = text(result.get("stderr")) or ""
            kind = "failed"
            detail = ("no exit code" if code is None else f"exit {code}") + (
                f": {stderr.strip()[:300]}" if stderr.strip() else ""
            )
        record.troubles.append(
            HookTrouble(
                call_id=text(message.get("hookToolCallId")),
                event=event,
                command=text(command.get("command")) or "",
                kind=kind,
                detail=detail,
                time=normal_time(line.get("timestamp")),
                line=number,
            )
        )
