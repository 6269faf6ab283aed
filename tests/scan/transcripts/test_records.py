"""The record parsers against hostile and broken files: warnings naming file and line, never
an exception, never a hang (hypothesis for arbitrary bytes and arbitrary JSON)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.scan.transcripts import files
from hookwise.scan.transcripts.files import normal_time
from hookwise.scan.transcripts.records import read_records, record_files

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "coverage"
NAMES = {
    "claude": "home/.claude/projects/p/s1.jsonl",
    "codex": "home/.codex/sessions/2026/11/24/rollout-2026-11-24T06-47-27-01a2.jsonl",
    "gemini": "home/.gemini/tmp/proj/chats/session-2026-11-24T06-47-b2ceb7a4.jsonl",
}
HOSTS = list(NAMES)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
# shapes close to the real ones, with any value in any field
line_shapes = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(
            ["assistant", "attachment", "session_meta", "response_item", "user"]
        ),
        "message": st.fixed_dictionaries(
            {}, optional={"content": st.lists(json_values, max_size=3)}
        ),
        "payload": st.dictionaries(
            st.sampled_from(
                ["type", "name", "arguments", "call_id", "input", "id", "cwd", "source"]
            ),
            json_values,
        ),
        "attachment": st.dictionaries(
            st.sampled_from(["type", "toolUseID", "command", "timedOut", "hookEvent"]), json_values
        ),
        "toolCalls": st.lists(
            st.dictionaries(st.sampled_from(["id", "name", "args", "status"]), json_values),
            max_size=3,
        ),
        "id": json_values,
        "sessionId": json_values,
        "timestamp": json_values,
        "$set": json_values,
        "cwd": json_values,
    },
)


def _write(tmp: Path, host: str, data: bytes) -> Path:
    path = tmp / NAMES[host]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("host", HOSTS)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=400))
def test_any_bytes_never_crash(host: str, data: bytes, tmp_path: Path) -> None:
    warnings: list[str] = []
    for record in read_records(host, _write(tmp_path, host, data), warnings):
        assert isinstance(record.session, str) and record.session
    assert all(isinstance(w, str) for w in warnings)


@pytest.mark.parametrize("host", HOSTS)
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(line_shapes | json_values, max_size=6))
def test_any_json_lines_never_crash(host: str, lines: list[Any], tmp_path: Path) -> None:
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    warnings: list[str] = []
    for record in read_records(host, _write(tmp_path, host, data), warnings):
        for call in record.calls:
            assert isinstance(call.tool, str) and call.tool
            assert call.time is None or call.time.endswith("Z")


@pytest.mark.parametrize("host", HOSTS)
def test_a_truncated_recorded_file_keeps_what_it_can(host: str, tmp_path: Path) -> None:
    """A real record cut in the middle of its last line (a session still writing)."""
    if host == "gemini":
        source = next((FIXTURES / "gemini-gap/home/.gemini/tmp").rglob("*.jsonl"))
    elif host == "claude":
        source = next((FIXTURES / "claude-gap/home/.claude/projects").rglob("*.jsonl"))
    else:
        source = next((FIXTURES / "codex-gap/home/.codex/sessions").rglob("*.jsonl"))
    data = source.read_bytes()
    whole = read_records(host, _write(tmp_path, host, data), [])[0]
    assert len(whole.calls) == 2
    warnings: list[str] = []
    cut = read_records(host, _write(tmp_path, host, data[: len(data) - 40]), warnings)[0]
    assert len(cut.calls) <= 2
    assert any("truncated last line" in w and f":{len(data.splitlines())}:" in w for w in warnings)


@pytest.mark.parametrize("host", HOSTS)
def test_hostile_lines_are_named(host: str, tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    data = b"\xff\xfe not utf8\n" + deep.encode() + b"\n{not json}\n[1, 2]\n"
    warnings: list[str] = []
    read_records(host, _write(tmp_path, host, data), warnings)
    text = "\n".join(warnings)
    assert ":1: not UTF-8" in text
    assert ":2: JSON nested too deeply" in text
    assert ":3: not JSON" in text


def test_an_overlong_line_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_LINE_BYTES", 200)
    call = {
        "type": "assistant",
        "sessionId": "s",
        "message": {"content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
    }
    data = (json.dumps({"pad": "x" * 500}) + "\n" + json.dumps(call) + "\n").encode()
    warnings: list[str] = []
    record = read_records("claude", _write(tmp_path, "claude", data), warnings)[0]
    assert [c.call_id for c in record.calls] == ["t1"]
    assert any(":1: line longer than 200 bytes" in w for w in warnings)


def test_too_many_warnings_are_summed_up(tmp_path: Path) -> None:
    warnings: list[str] = []
    read_records("codex", _write(tmp_path, "codex", b"x\n" * 500), warnings)
    assert len(warnings) <= files.MAX_WARNINGS_PER_FILE + 2
    assert any("more problem(s) not shown" in w for w in warnings)


def test_a_fifo_or_a_directory_is_refused_not_read(tmp_path: Path) -> None:
    """A record swapped for a FIFO would block a reader forever; a device would never end."""
    fifo = tmp_path / NAMES["claude"]
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    warnings: list[str] = []
    assert read_records("claude", fifo, warnings)[0].calls == []
    assert any("not a regular file" in w for w in warnings)
    env = {"HOME": str(tmp_path / "home")}
    assert fifo not in record_files("claude", env)


def test_directory_links_are_not_followed(tmp_path: Path) -> None:
    projects = tmp_path / "home/.claude/projects"
    projects.mkdir(parents=True)
    (projects / "loop").symlink_to(projects)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "s.jsonl").write_text("{}\n", encoding="utf-8")
    (projects / "elsewhere").symlink_to(outside)
    assert record_files("claude", {"HOME": str(tmp_path / "home")}) == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-24T06:47:30.701Z", "2026-11-24T06:47:30.701Z"),
        ("2026-11-24T08:47:30.701+02:00", "2026-11-24T06:47:30.701Z"),
        ("2026-11-24T06:47:30", "2026-11-24T06:47:30.000Z"),
        ("yesterday", None),
        (12, None),
        ("9" * 100, None),
    ],
)
def test_times(value: Any, expected: str | None) -> None:
    assert normal_time(value) == expected


@given(st.text(max_size=40))
def test_any_time_text(value: str) -> None:
    result = normal_time(value)
    assert result is None or (len(result) == 24 and result.endswith("Z"))
