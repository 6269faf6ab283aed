"""Qwen Code's chat records (scan/transcripts/qwen.py) on a real record, and on hostile ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.scan.transcripts.records import read_records, record_files

RECORD = next((Path(__file__).resolve().parents[1] / "fixtures" / "qwen").glob("*.jsonl"))


def test_the_recorded_call_with_its_session_and_place(tmp_path: Path) -> None:
    home = tmp_path / "home"
    chats = home / ".qwen" / "projects" / "-RUN-proj" / "chats"
    chats.mkdir(parents=True)
    target = chats / RECORD.name
    target.write_text(RECORD.read_text().replace("$RUN", str(tmp_path)))
    (chats / "notes.txt").write_text("not a record")
    assert record_files("qwen", {"HOME": str(home)}) == [target]
    warnings: list[str] = []
    (record,) = read_records("qwen", target, warnings)
    assert warnings == []
    assert record.session == RECORD.stem and record.cli_version == "0.24.4"
    assert record.cwd == f"{tmp_path}/proj"
    (call,) = record.calls
    assert (call.tool, call.command) == ("run_shell_command", "echo hi > marker")
    assert call.session == record.session and call.time and call.time.endswith("Z")


lines = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["assistant", "user", "tool_result", "system"]),
            "sessionId": st.none() | st.text(max_size=5) | st.integers(),
            "timestamp": st.none() | st.text(max_size=30) | st.integers(),
            "cwd": st.none() | st.text(max_size=5),
            "message": st.none()
            | st.integers()
            | st.fixed_dictionaries(
                {},
                optional={
                    "parts": st.lists(
                        st.none()
                        | st.fixed_dictionaries(
                            {},
                            optional={
                                "functionCall": st.none()
                                | st.text(max_size=3)
                                | st.dictionaries(
                                    st.sampled_from(["id", "name", "args"]),
                                    st.none() | st.text(max_size=5) | st.integers(),
                                )
                            },
                        ),
                        max_size=3,
                    )
                },
            ),
        },
    )
    | st.integers()
    | st.text(max_size=5),
    max_size=5,
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=lines)
def test_any_record_reads_with_warnings_never_an_exception(
    content: list[Any], tmp_path: Path
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in content))
    warnings: list[str] = []
    (record,) = read_records("qwen", path, warnings)
    assert record.session
    for call in record.calls:
        assert isinstance(call.tool, str) and call.tool
