"""Hostile hook output through every route that reads it, on both databases.

A hook is untrusted: its stdout may hold lone surrogates, numbers JavaScript reads as
Infinity, integers of hundreds of digits, nesting deep enough to exhaust a stack, keys
given twice. Whatever it prints, every route answers without a 5xx, nothing it stored
breaks a list, and the rows written before this change (bad JSON, bad text) read back.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.api.processing.hook_json import dumps_stored, loads_stored, read_hook_stdout
from hookwise.api.state import ServiceState
from hookwise.protocol.jsvalue import js_json_parse
from tests.api.conftest import allow_commands

PARSE = "/internal/hook/parse-output"
VALIDATE = "/internal/hook/validate-json"
CLASSIFY = "/internal/hook/classify-error"
EXECUTE = "/internal/hook/execute-with-output"
LISTS = (
    "/internal/hook/pending-permissions",
    "/api/console/executions",
    "/api/webhooks",
)

# JSON source text, not values: json.dumps cannot write 1e999, a lone "\ud800" escape
# or a key twice, and those are what a hostile hook prints.
LEAVES = st.sampled_from(
    [
        '"\\ud800"',
        '"x\\udfff"',
        '"\\udc00\\ud800"',
        "1e999",
        "-1e400",
        "9" * 400,
        "123456789012345678901234567890",
        '"ok"',
        "true",
        "null",
        "0.5",
    ]
) | st.text(max_size=20).map(json.dumps)
KEYS = st.sampled_from(
    ["systemMessage", "reason", "decision", "updatedInput", "k", "\\ud800", "continue"]
)


def _object(pairs: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f'"{k}":{v}' for k, v in pairs) + "}"


JSON_TEXT = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]")
        | st.lists(st.tuples(KEYS, inner), max_size=4).map(_object)
    ),
    max_leaves=8,
)


def _answer(event: str, value: str, decision: str) -> str:
    specific = _object(
        [
            ("hookEventName", f'"{event}"'),
            ("permissionDecision", f'"{decision}"'),
            ("permissionDecisionReason", value),
            ("updatedInput", _object([("command", value), ("command", value)])),
            ("additionalContext", value),
        ]
    )
    return _object([("systemMessage", value), ("reason", value), ("hookSpecificOutput", specific)])


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


HOSTILE_STDOUT = st.one_of(
    st.builds(_answer, st.just("PreToolUse"), JSON_TEXT, st.sampled_from(["ask", "deny", "x"])),
    JSON_TEXT,
    st.sampled_from([_deep(70), _deep(5_000), "[" * 100_000, "plain \\ud800 text"]),
    st.sampled_from(["{", "{" + '"a":' * 3]),
)
EVENTS = st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "BeforeTool", "AfterAgent"])


def state_of(client: TestClient) -> ServiceState:
    state: ServiceState = client.app.state.service  # type: ignore[attr-defined]
    return state


def _post_raw(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    """Bodies carry hostile escapes as JSON text, which the client could not encode."""
    raw = json.dumps(body).encode()
    return client.post(path, content=raw, headers={"Content-Type": "application/json"})


def _lists_answer(client: TestClient) -> None:
    for path in LISTS:
        response = client.get(path, headers={"X-Session-Id": "lists"})
        assert response.status_code == 200, (path, response.text)
        json.loads(response.text)


@pytest.fixture
def echo_hook(tmp_path: Path) -> tuple[str, Path]:
    """A real hook that prints the text given in its input (its stdout is the attack)."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    path = hooks / "echo.py"
    path.write_text(
        "#!/usr/bin/env python3\nimport json, sys\n"
        "data = json.load(sys.stdin)\n"
        "sys.stdout.write(data['tool_input']['out'])\n"
        "sys.stderr.write(data['tool_input']['out'][:200])\n",
        encoding="utf-8",
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    project = tmp_path / "project"
    project.mkdir()
    return str(path), project


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stdout=HOSTILE_STDOUT, event=EVENTS, code=st.sampled_from([0, 1, 2]))
def test_hostile_output_never_5xx(
    make_client: Callable[..., TestClient],
    echo_hook: tuple[str, Path],
    stdout: str,
    event: str,
    code: int,
) -> None:
    command, project = echo_hook
    client = _client(make_client, command, project)
    parse = _post_raw(
        client,
        PARSE,
        {
            "exitCode": code,
            "stdout": stdout,
            "stderr": stdout[:300],
            "hookEvent": event,
            "executionTime": 1,
            "toolName": "Bash",
        },
    )
    assert parse.status_code == 200, parse.text
    answer = parse.json()
    json.dumps(answer, allow_nan=False).encode()  # the answer is clean data
    validate = _post_raw(client, VALIDATE, {"jsonString": stdout, "hookEvent": event})
    assert validate.status_code == 200, validate.text
    classify = _post_raw(
        client, CLASSIFY, {"exitCode": code, "stderr": stdout[:500], "hookEvent": event}
    )
    assert classify.status_code < 500, classify.text
    run = _post_raw(
        client,
        EXECUTE,
        {
            "hookConfig": {"command": command, "event": "PreToolUse", "matcher": "*", "timeout": 5},
            "input": {
                "session_id": "hostile",
                "transcript_path": str(project / "t.jsonl"),
                "cwd": str(project),
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"out": stdout},
            },
        },
    )
    assert run.status_code == 200, run.text
    _lists_answer(client)


_CLIENTS: dict[int, TestClient] = {}


def _client(make_client: Callable[..., TestClient], command: str, project: Path) -> TestClient:
    """One client per test run (hypothesis calls the body many times per fixture)."""
    key = id(make_client)
    if key not in _CLIENTS:
        _CLIENTS.clear()
        _CLIENTS[key] = make_client(execute=allow_commands(command, roots=(project,)))
    return _CLIENTS[key]


def test_an_ask_with_hostile_input_commits_a_listable_permission(client: TestClient) -> None:
    stdout = _answer("PreToolUse", '"\\ud800 1e999"', "ask").replace(
        '"command":"\\ud800 1e999"', '"command":1e999'
    )
    response = _post_raw(
        client,
        PARSE,
        {
            "exitCode": 0,
            "stdout": stdout,
            "stderr": "",
            "hookEvent": "PreToolUse",
            "executionTime": 1,
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["requiresUserInteraction"] is True
    assert body["permissionRequest"]["updatedInput"] == {"command": None}
    assert any("number out of range" in e for e in body["errors"])
    listed = client.get(LISTS[0]).json()["permissions"]
    assert [p["id"] for p in listed] == [body["permissionRequest"]["id"]]
    assert "\ufffd" in listed[0]["reason"]


def test_bad_rows_stored_earlier_do_not_break_the_lists(client: TestClient) -> None:
    """Rows as an older version (or a hand edit) left them: the lists still answer."""
    engine = state_of(client).engine
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL refuses such documents on insert; SQLite stores the text")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO permissions (id, session_id, tool_name, reason, original_input,"
                " updated_input, status, created_at, expires_at) VALUES"
                " ('perm_1_bad', 's', CAST(x'ff41' AS TEXT), 'r', '{\"x\": NaN}',"
                ' \'{"a": "\\ud800", "b": 1e999}\', \'pending\', 1, 99999999999999)'
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO executions (id, session_id, hook_event, command, execution_time,"
                " should_continue, source, message_blocks, created_at) VALUES"
                " ('exec_1_bad', 's', 'PreToolUse', 'c', 1, 1, 'json', 'not json', 1)"
            )
        )
    listed = client.get(LISTS[0])
    assert listed.status_code == 200, listed.text
    (row,) = listed.json()["permissions"]
    assert row["toolName"] == "\ufffdA"
    assert row["originalInput"] == {"x": None}
    assert row["updatedInput"] == {"a": "\ufffd", "b": None}
    executions = client.get(LISTS[1])
    assert executions.status_code == 200, executions.text
    assert [e["id"] for e in executions.json()["executions"]] == ["exec_1_bad"]


@given(JSON_TEXT)
def test_the_reader_gives_clean_json_the_host_reads_as_written(text: str) -> None:
    read = read_hook_stdout(text)
    read.text.encode("utf-8")
    if read.unread:
        assert read.text == ""
        return
    value = js_json_parse(read.text)
    json.dumps(value, allow_nan=False).encode("utf-8")
    if not read.notes:  # nothing to clean: the text is passed on untouched
        assert read.text == text
        assert loads_stored(dumps_stored(value)) == value


@given(st.text())
def test_plain_text_only_loses_lone_surrogates(text: str) -> None:
    read = read_hook_stdout(text)
    read.text.encode("utf-8")
    assert len(read.text) == len(text) or read.unread
