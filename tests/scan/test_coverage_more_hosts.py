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


# The hook runs Factory Droid 0.225.2 recorded (../shared/e2e/run_droid.sh on 2026-11-28: a
# hook exiting 1, one sleeping 8 s past a 2 s timeout, one exiting 2), as (status, result,
# the run's duration in ms): a run is ``error`` for each, the tool ran after the first two.
_DROID_RUNS: dict[str, tuple[str, dict[str, Any], int]] = {
    "crash": ("error", {"exitCode": 1, "stdout": "", "stderr": "hook crashed (exit 1)\n"}, 110),
    "timeout": ("error", {"exitCode": 1, "stdout": "", "stderr": ""}, 3014),
    "exit2": ("error", {"exitCode": 2, "stdout": "", "stderr": "denied\n"}, 77),
}


def _droid_hook_run(tmp_path: Path, command: str, case: str) -> None:
    """The record's last call ('touch allowed') with its hook run as ``case`` recorded it,
    and no decision of hookwise for it in the audit log."""
    (path,) = tmp_path.glob("home/.factory/sessions/*/*.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    status, result, took = _DROID_RUNS[case]
    runs = [x for x in lines if "hookStatus" in (x.get("message") or {})]
    last = runs[-1]["message"]
    last.update(hookStatus=status, hookResults=[result], hookEndTime=last["hookStartTime"] + took)
    last["hookCommands"] = [{"type": "command", "command": command, "timeout": 2}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    audit = tmp_path / AUDIT
    kept = audit.read_text(encoding="utf-8").splitlines()[:-1]
    audit.write_text("".join(line + "\n" for line in kept), encoding="utf-8")


@pytest.mark.parametrize(
    ("case", "cause"),
    [("crash", "hook-failed"), ("timeout", "hook-timeout"), ("exit2", "unknown")],
)
def test_droid_s_record_of_a_failed_or_slow_hookwise_hook_is_the_cause(
    case: str, cause: str, tmp_path: Path, monkeypatch: Any
) -> None:
    env = lay_out("droid-complete", tmp_path, monkeypatch)
    installed = json.loads((tmp_path / "proj/.factory/hooks.json").read_text(encoding="utf-8"))
    command = installed["PreToolUse"][0]["hooks"][0]["command"]
    _droid_hook_run(tmp_path, command, case)
    report = report_of("droid", env)
    assert causes(report) == [("Execute", cause)]
    detail = report["unguarded"][0]["detail"]
    if case == "crash":
        assert detail == (
            "Factory Droid recorded the hookwise hook on PreToolUse: exit 1: hook crashed (exit 1)"
        )
    elif case == "timeout":
        assert "killed after its 2 s timeout (ran 3014 ms)" in detail
    else:  # exit 2 blocks the call: no trouble of a hook that let it run
        assert "recorded the hookwise hook" not in detail


def test_a_failing_hook_that_is_not_hookwise_is_no_cause(tmp_path: Path, monkeypatch: Any) -> None:
    env = lay_out("droid-complete", tmp_path, monkeypatch)
    _droid_hook_run(tmp_path, "python3 other-hook.py", "crash")
    (path,) = record_files("droid", env)
    (record,) = read_records("droid", path, [])
    assert [(t.kind, t.command) for t in record.troubles] == [("failed", "python3 other-hook.py")]
    assert record.troubles[0].call_id == record.calls[-1].call_id
    report = report_of("droid", env)
    assert causes(report) == [("Execute", "unknown")]


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
    # a Droid hook run, with anything in its fields
    st.fixed_dictionaries(
        {"hookStatus": st.sampled_from(["error", "completed"])},
        optional={
            "hookEventName": st.one_of(_VALUES, st.just("PreToolUse")),
            "hookToolCallId": _VALUES,
            "hookCommands": st.one_of(
                _VALUES,
                st.lists(
                    st.one_of(
                        _VALUES,
                        st.fixed_dictionaries(
                            {}, optional={"command": _VALUES, "timeout": _VALUES}
                        ),
                    ),
                    max_size=2,
                ),
            ),
            "hookResults": st.one_of(
                _VALUES,
                st.lists(
                    st.one_of(
                        _VALUES,
                        st.fixed_dictionaries(
                            {}, optional={"exitCode": _VALUES, "stderr": _VALUES}
                        ),
                    ),
                    max_size=2,
                ),
            ),
            "hookStartTime": _VALUES,
            "hookEndTime": _VALUES,
        },
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
    assert all(t.kind in ("failed", "timeout") for t in record.troubles)
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
