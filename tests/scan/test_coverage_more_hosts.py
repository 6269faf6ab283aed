"""``hookwise coverage`` on Factory Droid's and Cline's session records, recorded from real runs.

The fixtures (tests/scan/fixtures/coverage/README.md, "Factory Droid and Cline") are the
records, audit log, hook settings and policy of tests/e2e/test_more_hosts_live.py runs:
``hookwise install droid`` with five Execute calls (denied, asked, rewritten, context, run),
and ``hookwise install cline`` with ``ls`` run and ``echo hi > marker`` cancelled. Laid out
again in a temporary HOME and joined without the CLIs; then the causes the settings give,
and hostile records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.scan.transcripts.files import Warnings
from hookwise.scan.transcripts.records import read_records, record_files
from tests.scan.test_coverage import causes, lay_out, report_of

AUDIT = "home/.local/state/hookwise/audit.jsonl"


@pytest.mark.parametrize(("host", "calls"), [("droid", 5), ("cline", 2)])
def test_the_real_session_is_all_guarded(
    host: str, calls: int, tmp_path: Path, monkeypatch: Any
) -> None:
    env = lay_out(f"{host}-complete", tmp_path, monkeypatch)
    report = report_of(host, env)
    totals = report["hosts"][host]
    assert (totals["sessions"], totals["calls"], totals["guarded"]) == (1, calls, calls)
    assert totals["unguarded"] == 0 and report["warnings"] == []
    (session,) = report["sessions"]
    assert session["cwd"] == str(tmp_path / "proj")


def test_droid_calls_are_its_execute_calls_joined_by_session_and_command(
    tmp_path: Path, monkeypatch: Any
) -> None:
    env = lay_out("droid-complete", tmp_path, monkeypatch)
    (path,) = record_files("droid", env)
    assert path.parent.name == "-RUN-proj" and path.suffix == ".jsonl"
    warnings: list[str] = []
    (record,) = read_records("droid", path, warnings)
    assert [c.command for c in record.calls] == [
        "echo hi > marker",
        "rm -f absent",
        "touch marker",
        "ls",
        "touch allowed",
    ]
    assert {c.tool for c in record.calls} == {"Execute"} and warnings == []
    assert record.session == path.stem  # the session_start id, the hook's session_id


def test_cline_calls_are_joined_by_the_call_id(tmp_path: Path, monkeypatch: Any) -> None:
    env = lay_out("cline-complete", tmp_path, monkeypatch)
    (path,) = record_files("cline", env)
    warnings: list[str] = []
    (record,) = read_records("cline", path, warnings)
    assert record.cli_version == "3.0.65" and warnings == []
    assert [(c.tool, c.command) for c in record.calls] == [
        ("run_commands", "ls"),
        ("run_commands", "echo hi > marker"),
    ]
    logged = [json.loads(line) for line in (tmp_path / AUDIT).read_text().splitlines()]
    assert [c.call_id for c in record.calls] == [r["tool_use_id"] for r in logged]
    # the hook's session (Cline's taskId) is not the record's: only the id joins them
    assert {r["session"] for r in logged} != {record.session}


@pytest.mark.parametrize(
    ("host", "hook_file", "tool"),
    [
        ("droid", "proj/.factory/hooks.json", "Execute"),
        ("cline", "proj/.clinerules/hooks/PreToolUse", "run_commands"),
    ],
)
def test_without_decisions_the_settings_say_why(
    host: str, hook_file: str, tool: str, tmp_path: Path, monkeypatch: Any
) -> None:
    """The hook install wrote is registered and matches every call: no decision is
    ``unknown``; without it, or with a hook file that is not hookwise's, ``no-registration``."""
    env = lay_out(f"{host}-complete", tmp_path, monkeypatch)
    (tmp_path / AUDIT).unlink()
    report = report_of(host, env)
    assert {cause for _, cause in causes(report)} == {"unknown"}
    assert {t for t, _ in causes(report)} == {tool}
    path = tmp_path / hook_file
    if host == "cline":  # a foreign hook file of the same name
        path.write_text("#!/bin/sh\necho '{}'\n", encoding="utf-8")
    else:
        path.unlink()
    report = report_of(host, env)
    assert {cause for _, cause in causes(report)} == {"no-registration"}


def test_a_cline_record_elsewhere_than_its_own_directory_is_no_record(
    tmp_path: Path, monkeypatch: Any
) -> None:
    env = lay_out("cline-complete", tmp_path, monkeypatch)
    (path,) = record_files("cline", env)
    path.rename(path.with_name("other.messages.json"))
    assert record_files("cline", env) == []


_VALUES = st.one_of(
    st.none(), st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=2)
)
_BLOCKS = st.lists(
    st.one_of(
        _VALUES,
        st.fixed_dictionaries(
            {"type": st.sampled_from(["tool_use", "text"])},
            optional={"id": _VALUES, "name": _VALUES, "input": st.one_of(_VALUES, st.just({}))},
        ),
    ),
    max_size=3,
)
_MESSAGES = st.one_of(
    _VALUES,
    st.fixed_dictionaries(
        {"role": st.sampled_from(["assistant", "user"])},
        optional={"content": st.one_of(_VALUES, _BLOCKS), "ts": _VALUES},
    ),
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=30),
            st.builds(
                lambda kind, message, when: json.dumps(
                    {"type": kind, "id": "s", "message": message, "timestamp": when}
                ),
                st.sampled_from(["session_start", "message", "other"]),
                _MESSAGES,
                _VALUES,
            ),
        ),
        max_size=10,
    )
)
def test_a_hostile_droid_record_gives_warnings_never_an_exception(
    lines: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "sessions" / "-p" / "s1.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    warnings: list[str] = []
    (record,) = read_records("droid", path, warnings)
    assert record.session
    assert all(isinstance(c.tool, str) and c.tool for c in record.calls)
    Warnings(str(path), warnings).close()


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    document=st.one_of(
        _VALUES,
        st.fixed_dictionaries(
            {},
            optional={
                "sessionId": _VALUES,
                "origin": st.one_of(_VALUES, st.fixed_dictionaries({"version": _VALUES})),
                "messages": st.one_of(_VALUES, st.lists(_MESSAGES, max_size=4)),
            },
        ),
    ),
    meta=st.one_of(
        st.none(), _VALUES, st.fixed_dictionaries({"cwd": _VALUES, "started_at": _VALUES})
    ),
)
def test_a_hostile_cline_record_gives_warnings_never_an_exception(
    document: Any, meta: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "data" / "sessions" / "s1"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "s1.messages.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    if meta is not None:
        (folder / "s1.json").write_text(json.dumps(meta), encoding="utf-8")
    warnings: list[str] = []
    (record,) = read_records("cline", path, warnings)
    assert record.session
    assert all(isinstance(c.tool, str) and c.tool for c in record.calls)
    assert all(c.time is None or c.time.endswith("Z") for c in record.calls)
