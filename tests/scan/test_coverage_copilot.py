"""``hookwise coverage`` on GitHub Copilot CLI's session record, recorded from a real run.

The fixture (tests/scan/fixtures/coverage/README.md, "GitHub Copilot CLI") is the record,
audit log, hook file and policy of a tests/e2e/test_hosts_live.py run: `hookwise install
copilot`, one `bash` call the policy allowed. Laid out again in a temporary HOME and joined
without the CLI; then the causes Copilot's record and row give (trust, no registration),
and hostile records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.scan.transcripts.files import Warnings
from hookwise.scan.transcripts.records import read_records, record_files
from tests.scan.test_coverage import causes, lay_out, report_of


def test_the_real_session_is_all_guarded(tmp_path: Path, monkeypatch: Any) -> None:
    env = lay_out("copilot-complete", tmp_path, monkeypatch)
    report = report_of("copilot", env)
    assert report["hosts"]["copilot"] == {
        "title": "GitHub Copilot CLI",
        "sessions": 1,
        "calls": 1,
        "guarded": 1,
        "unguarded": 0,
        "outside_hooks": 0,
        "denied_by_host": 0,
        "causes": {},
    }
    assert report["warnings"] == []
    (session,) = report["sessions"]
    assert session["cli_version"] == "1.0.102" and session["cwd"] == str(tmp_path / "proj")


def test_the_record_s_bash_is_the_hook_s_bash(tmp_path: Path, monkeypatch: Any) -> None:
    env = lay_out("copilot-complete", tmp_path, monkeypatch)
    (path,) = record_files("copilot", env)
    assert path.name == "events.jsonl" and path.parent.parent.name == "session-state"
    warnings: list[str] = []
    (record,) = read_records("copilot", path, warnings)
    (call,) = record.calls
    assert (call.tool, call.recorded_tool) == ("Bash", "bash")
    assert call.command is not None and call.command.startswith("echo hi > ")
    assert call.session == record.session == path.parent.name and warnings == []


def test_without_a_decision_the_trust_of_repository_hooks_says_why(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Copilot runs repository hooks only in a trusted folder (its row's project_trust):
    without COPILOT_ALLOW_ALL the written hook is reported as not run; with it, registered
    and matching (a flat file has no matchers), so the cause is unknown."""
    env = lay_out("copilot-complete", tmp_path, monkeypatch)
    (tmp_path / "home/.local/state/hookwise/audit.jsonl").unlink()
    report = report_of("copilot", env)
    assert causes(report) == [("Bash", "no-registration")]
    assert "written but not run" in report["unguarded"][0]["detail"]
    assert "trusted folder" in report["unguarded"][0]["detail"]
    monkeypatch.setenv("COPILOT_ALLOW_ALL", "true")
    report = report_of("copilot", {**env, "COPILOT_ALLOW_ALL": "true"})
    assert causes(report) == [("Bash", "unknown")]
    (tmp_path / "proj/.github/hooks/hookwise.json").unlink()
    report = report_of("copilot", {**env, "COPILOT_ALLOW_ALL": "true"})
    assert causes(report) == [("Bash", "no-registration")]


_LINES = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda kind, data: json.dumps({"type": kind, "data": data, "timestamp": "x"}),
        st.sampled_from(["session.start", "tool.execution_start", "hook.start", "other"]),
        st.one_of(
            st.none(),
            st.integers(),
            st.dictionaries(
                st.sampled_from(["toolName", "arguments", "sessionId", "context", "toolCallId"]),
                st.one_of(st.none(), st.integers(), st.text(max_size=8), st.just({"cwd": 1})),
                max_size=5,
            ),
        ),
    ),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(_LINES, max_size=12))
def test_a_hostile_record_gives_warnings_never_an_exception(
    lines: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "session-state" / "s1" / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    warnings: list[str] = []
    (record,) = read_records("copilot", path, warnings)
    assert record.session  # the directory's name stands in when no session.start says it
    for call in record.calls:
        assert isinstance(call.tool, str) and call.tool
    assert all(isinstance(w, str) for w in warnings)
    Warnings(str(path), warnings).close()
