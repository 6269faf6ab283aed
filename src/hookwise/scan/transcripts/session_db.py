"""OpenCode's session database (and Kilo's, its fork): one SQLite file for every session.

Observed with OpenCode 1.18.33 (``$XDG_DATA_HOME/opencode/opencode.db``) and Kilo 7.7.9
(``kilo/kilo.db``), the tables read here being the same in both:

- ``session``: ``id`` (the ``sessionID`` hookwise's plugin sends), ``parent_id`` (a subagent's
  session), ``directory`` (its working directory), ``version`` (the CLI's), ``time_created``
  (ms since the epoch);
- ``part``: ``session_id``, ``data``: JSON; a tool call is ``{"type": "tool", "tool", "callID",
  "state": {"status", "input", "error"?, "time": {"start"}}}``. ``callID`` is the
  ``tool_use_id`` the plugin sends, so calls join the audit log by id.

A call the plugin itself blocked because its hook failed (its error says the plugin fails
closed) did not run: it is no tool call here, and the count of them is said in a warning.

The file is untrusted: it is opened read-only, with no function but SQLite's built-in ones
and no extension loading, only tables (never views) are read, every statement is bounded in
steps, and a row too big or
of the wrong shape gives a warning, never an exception.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

from hookwise.scan.transcripts.files import MAX_FILE_BYTES, MAX_LINE_BYTES, Warnings, loads, text
from hookwise.scan.transcripts.model import SessionRecord, ToolCall

# The error text of a call hookwise's plugin blocked on a failure of its own
# (policy/install/plugin/hookwise.js: ``closed``).
PLUGIN_FAILED = "(the hookwise plugin fails closed: this tool call is blocked)"
# SQLite virtual-machine steps one read may take (a hostile file cannot make it spin).
MAX_STEPS = 50_000_000
_TABLES = ("session", "part")


def _iso(value: Any) -> str | None:
    """Milliseconds since the epoch as the audit log writes times."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        moment = dt.datetime.fromtimestamp(value / 1000, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"


def _open(path: Path, warn: Warnings) -> sqlite3.Connection | None:
    try:
        info = os.stat(path)
    except OSError as exc:
        warn.add(f"cannot read: {exc.strerror or exc}")
        return None
    if not stat.S_ISREG(info.st_mode):
        warn.add("not a regular file")
        return None
    if info.st_size > MAX_FILE_BYTES:
        warn.add(f"larger than {MAX_FILE_BYTES} bytes; not read")
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
        # (trusted_schema stays on: Kilo's own schema indexes with json_extract, which it
        # refuses; only SQLite's built-in functions exist here, extension loading is off)
        steps = [0]

        def bound() -> int:
            steps[0] += 1
            return 1 if steps[0] > MAX_STEPS // 1000 else 0

        db.set_progress_handler(bound, 1000)
        kinds = dict(
            db.execute("SELECT name, type FROM sqlite_master WHERE name IN (?, ?)", _TABLES)
        )
    except sqlite3.Error as exc:
        warn.add(f"not a session database this hookwise can read ({exc})")
        return None
    if any(kinds.get(name) != "table" for name in _TABLES):
        db.close()
        warn.add("not a session database: no session and part tables")
        return None
    return db


def read_session_db(host: str, shell_tool: str, path: Path, warn: Warnings) -> list[SessionRecord]:
    """Every session in the database, with its tool calls in order."""
    db = _open(path, warn)
    if db is None:
        return []
    try:
        return _read(db, host, shell_tool, str(path), warn)
    except sqlite3.Error as exc:
        warn.add(f"stopped reading ({exc})")
        return []
    finally:
        db.close()


def _read(
    db: sqlite3.Connection, host: str, shell_tool: str, file: str, warn: Warnings
) -> list[SessionRecord]:
    sessions: dict[str, SessionRecord] = {}
    rows = db.execute(
        "SELECT rowid, id, parent_id, directory, version, time_created FROM session "
        "ORDER BY time_created, rowid"
    )
    for rowid, sid, parent, directory, version, created in rows:
        if not isinstance(sid, str) or not sid:
            warn.add("a session without an id", rowid)
            continue
        sessions[sid] = SessionRecord(
            host,
            sid,
            file,
            cwd=text(directory),
            started=_iso(created),
            parent_session=text(parent),
            cli_version=text(version),
        )
    blocked = 0
    parts = db.execute(
        "SELECT rowid, session_id, CASE WHEN length(data) <= ? THEN data END FROM part "
        "ORDER BY time_created, rowid",
        (MAX_LINE_BYTES,),
    )
    for rowid, sid, raw in parts:
        record = sessions.get(sid) if isinstance(sid, str) else None
        if record is None:
            warn.add("a part of no recorded session", rowid)
            continue
        if not isinstance(raw, str):
            warn.add(f"a part larger than {MAX_LINE_BYTES} bytes or not text; skipped", rowid)
            continue
        value, why = loads(raw)
        if why is not None or not isinstance(value, dict):
            warn.add(why or "a part that is not a JSON object", rowid)
            continue
        call = _call(value, record, shell_tool, rowid, warn)
        if isinstance(call, ToolCall):
            record.calls.append(call)
        elif call == "blocked":
            blocked += 1
    if blocked:
        warn.add(
            f"{blocked} tool call(s) were blocked by hookwise's plugin because its hook "
            "failed (it fails closed): they did not run"
        )
    return list(sessions.values())


def _call(
    part: dict[str, Any], record: SessionRecord, shell_tool: str, rowid: int, warn: Warnings
) -> ToolCall | str | None:
    if part.get("type") != "tool":
        return None
    tool, state = text(part.get("tool")), part.get("state")
    if tool is None or not isinstance(state, dict):
        warn.add("a tool part without a tool name or state", rowid)
        return None
    error = state.get("error")
    if isinstance(error, str) and PLUGIN_FAILED in error:
        return "blocked"
    tool_input = state.get("input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    times = state.get("time")
    return ToolCall(
        host=record.host,
        session=record.session,
        tool=tool,
        recorded_tool=tool,
        call_id=text(part.get("callID")),
        input=tool_input,
        command=command if tool == shell_tool and isinstance(command, str) else None,
        time=_iso(times.get("start")) if isinstance(times, dict) else None,
        cwd=record.cwd,
        file=record.file,
        line=rowid,
        parent_session=record.parent_session,
    )


__all__ = ["PLUGIN_FAILED", "read_session_db"]
