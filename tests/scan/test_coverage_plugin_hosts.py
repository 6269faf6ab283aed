"""``hookwise coverage`` on OpenCode's and Kilo's session databases, recorded from real runs.

The fixtures (tests/scan/fixtures/coverage/README.md, "OpenCode and Kilo") are the SQLite
databases, audit logs, plugin files and policies of tests/e2e/test_plugin_hosts_live.py's
runs; here they are laid out in a temporary HOME and project and joined without any CLI.
Then hostile databases: never an exception, a warning naming the file.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.scan.coverage import build_report
from hookwise.scan.transcripts.files import Warnings
from hookwise.scan.transcripts.session_db import read_session_db

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "coverage"
DATABASES = {"opencode": "opencode/opencode.db", "kilo": "kilo/kilo.db"}
PLUGINS = {"opencode": ".opencode", "kilo": ".kilo"}


def lay_out(name: str, root: Path) -> dict[str, str]:
    """The fixture under ``root`` ($RUN put back, in the database too); its environment."""
    source = FIXTURES / name
    for path in source.rglob("*"):
        if not path.is_file():
            continue
        target = root / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".db":
            shutil.copyfile(path, target)
            with sqlite3.connect(target) as db:
                db.execute(
                    "UPDATE session SET directory = replace(directory, '$RUN', ?)", (str(root),)
                )
            continue
        target.write_text(path.read_text(encoding="utf-8").replace("$RUN", str(root)), "utf-8")
    home = root / "home"
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }


def report_of(host: str, env: dict[str, str], root: Path) -> dict[str, Any]:
    log = root / "home/.local/state/hookwise/audit.jsonl"
    result: dict[str, Any] = build_report(hosts=[host], env=env, audit_logs=[str(log)]).to_json()
    return result


@pytest.mark.parametrize("host", list(DATABASES))
def test_a_real_session_is_all_guarded(host: str, tmp_path: Path) -> None:
    report = report_of(host, lay_out(f"{host}-complete", tmp_path), tmp_path)
    totals = report["hosts"][host]
    assert (totals["sessions"], totals["calls"], totals["guarded"], totals["unguarded"]) == (
        1,
        3,
        3,
        0,
    )
    (session,) = report["sessions"]
    assert session["cwd"] == str(tmp_path / "proj")
    assert session["cli_version"] == {"opencode": "1.18.33", "kilo": "7.7.9"}[host]
    assert report["warnings"] == []


@pytest.mark.parametrize("host", list(DATABASES))
def test_without_decisions_the_calls_are_unguarded_and_said_why(host: str, tmp_path: Path) -> None:
    env = lay_out(f"{host}-complete", tmp_path)
    (tmp_path / "home/.local/state/hookwise/audit.jsonl").unlink()
    report = report_of(host, env, tmp_path)
    assert [u["cause"] for u in report["unguarded"]] == ["unknown"] * 3
    assert [u["command"] for u in report["unguarded"]] == [
        "echo hi > marker",
        "rm -f absent",
        "touch allowed",
    ]
    assert "registered on tool.execute.before" in report["unguarded"][0]["detail"]
    # the plugin gone too: nothing would have run hookwise
    (tmp_path / "proj" / PLUGINS[host] / "plugins" / "hookwise.js").unlink()
    report = report_of(host, env, tmp_path)
    assert [u["cause"] for u in report["unguarded"]] == ["no-registration"] * 3


def test_a_call_the_plugin_blocked_on_its_own_failure_did_not_run(tmp_path: Path) -> None:
    """hookwise was missing (the live test's ``missing`` case): the plugin blocked the call."""
    report = report_of("opencode", lay_out("opencode-missing", tmp_path), tmp_path)
    assert report["hosts"]["opencode"]["calls"] == 0
    assert any(
        "blocked by hookwise's plugin because its hook failed" in w for w in report["warnings"]
    )


# --------------------------------------------------------------------------- hostile files


def read(path: Path) -> tuple[list[Any], list[str]]:
    warnings: list[str] = []
    warn = Warnings(str(path), warnings)
    records = read_session_db("opencode", "bash", path, warn)
    warn.close()
    return records, warnings


def make_db(path: Path, parts: list[Any], *, session_id: Any = "ses_1") -> Path:
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE session (id, parent_id, directory, version, time_created, time_updated)"
        )
        db.execute("CREATE TABLE part (id, message_id, session_id, time_created, data)")
        db.execute("INSERT INTO session VALUES (?, NULL, '/w', '1.0', 0, 0)", (session_id,))
        for index, data in enumerate(parts):
            db.execute(
                "INSERT INTO part VALUES (?, 'm', 'ses_1', ?, ?)",
                (
                    f"p{index}",
                    index,
                    # (an int SQLite cannot hold as INTEGER is stored as the JSON text)
                    data
                    if isinstance(data, str | bytes)
                    or (isinstance(data, int) and -(2**63) <= data < 2**63)
                    else json.dumps(data),
                ),
            )
    return path


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=st.binary(max_size=300))
def test_any_bytes_are_a_warning(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "opencode.db"
    path.write_bytes(content)
    records, warnings = read(path)
    assert records == [] and warnings and all(w.startswith(str(path)) for w in warnings)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=15,
)
part_shapes = st.fixed_dictionaries(
    {"type": st.just("tool")},
    optional={
        "tool": json_values,
        "callID": json_values,
        "state": st.fixed_dictionaries(
            {},
            optional={
                "input": json_values,
                "time": json_values,
                "error": json_values,
                "status": json_values,
            },
        ),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(parts=st.lists(part_shapes | json_values | st.binary(max_size=20), max_size=5))
def test_any_parts_are_read_or_warned_about(tmp_path: Path, parts: list[Any]) -> None:
    path = make_db(tmp_path / f"{uuid.uuid4().hex}.db", parts)
    records, _ = read(path)
    (record,) = records
    for call in record.calls:
        assert isinstance(call.tool, str) and call.session == "ses_1"


def test_a_view_in_place_of_a_table_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "opencode.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE session (id, parent_id, directory, version, time_created)")
        # a view that would never end if it were read
        db.execute(
            "CREATE VIEW part AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
            "SELECT i AS rowid, 'ses_1' AS session_id, '{}' AS data, i AS time_created FROM n"
        )
    records, warnings = read(path)
    assert records == [] and "no session and part tables" in warnings[0]


def test_a_statement_that_runs_too_long_stops_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookwise.scan.transcripts import session_db

    monkeypatch.setattr(session_db, "MAX_STEPS", 10_000)
    path = make_db(tmp_path / "opencode.db", [{"type": "text", "text": "x" * 100}] * 3000)
    records, warnings = read(path)
    assert records == [] and any("stopped reading" in w for w in warnings)


def test_a_tool_part_becomes_a_call(tmp_path: Path) -> None:
    part = {
        "type": "tool",
        "tool": "bash",
        "callID": "call_1",
        "state": {
            "status": "completed",
            "input": {"command": "ls"},
            "time": {"start": 1795802000000},
        },
    }
    (record,) = read(make_db(tmp_path / "opencode.db", [part]))[0]
    (call,) = record.calls
    assert (call.call_id, call.command, call.time, call.cwd) == (
        "call_1",
        "ls",
        "2026-11-27T17:53:20.000Z",
        "/w",
    )
