"""parse-output calls in the console's "Recent hook executions", on SQLite and PostgreSQL.

The calls are kept off the request path (api/storage/call_log.py): a worker buffers them and its
housekeeping loop writes them once a second. These tests send real parse-output requests
and check what the database keeps (what a person needs, never the hook's raw output or the
tool input), the buffer's bound, the pruning, and what a real browser shows, live, with
two server workers writing.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hookwise.api.processing.hook_output import parse_output
from hookwise.api.processing.output_config import OutputConfig
from hookwise.api.storage.call_log import (
    KEEP_ROWS,
    MAX_BLOCK_CHARS,
    CallLog,
    ParseCall,
    parse_call,
    parse_row,
)
from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.storage.tables import executions
from tests.api.conftest import TOKEN, LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

WAIT_MS = 10_000
SECRET = "sk-live-DO-NOT-STORE-0123456789"
HOSTILE = '<img src=x onerror="window.__pwned=1">'


def session() -> dict[str, str]:
    return {"X-Session-Id": f"parse-{uuid.uuid4().hex[:12]}"}


def parse(
    client: TestClient | httpx.Client,
    event: str,
    exit_code: int,
    stdout: str = "",
    stderr: str = "",
    tool: str | None = None,
    tool_input: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "exitCode": exit_code,
        "stdout": stdout,
        "stderr": stderr,
        "hookEvent": event,
        "executionTime": 7.5,
    }
    if tool is not None:
        body["toolName"] = tool
    if tool_input is not None:
        body["toolInput"] = tool_input
    response = client.post("/internal/hook/parse-output", json=body, headers=headers or session())
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def console_rows(client: TestClient | httpx.Client) -> list[dict[str, Any]]:
    response = client.get("/api/console/executions")
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["executions"]
    return rows


def stored(url: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [dict(r) for r in conn.execute(sa.select(executions)).mappings()]
    finally:
        engine.dispose()


DENY_JSON = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "force-push to main",
        }
    }
)


def test_parse_output_calls_are_listed_with_what_a_person_needs(
    client: TestClient, database_url: str
) -> None:
    headers = {"X-Session-Id": "agent-session-7"}
    blocked = parse(
        client,
        "PreToolUse",
        2,
        stderr="rm -rf outside the project",
        tool="Bash",
        tool_input={"command": "rm -rf /", "env": SECRET},
        headers=headers,
    )
    assert blocked["hookSpecificData"]["permissionDecision"] == "deny"
    allowed = parse(client, "BeforeTool", 0, stdout=json.dumps({"decision": "allow"}))
    assert allowed["source"] == "json"
    stopped = parse(client, "Stop", 0, stdout=json.dumps({"continue": False, "stopReason": "done"}))
    assert stopped["continue"] is False

    rows = console_rows(client)
    assert [r["hookEvent"] for r in rows] == ["Stop", "BeforeTool", "PreToolUse"]
    assert all(r["kind"] == "parse" and r["command"] == "" for r in rows)
    denied = rows[2]
    assert denied["host"] == "claude"
    assert denied["hostTitle"] == "Claude Code"
    assert denied["decision"] == "deny"
    assert denied["source"] == "exitcode"
    assert denied["exitCode"] == 2
    assert denied["shouldContinue"] is False  # the tool call does not go ahead
    assert denied["toolName"] == "Bash"
    assert denied["sessionId"] == "agent-session-7"
    assert denied["executionTime"] == 7.5
    assert [b["content"] for b in denied["messageBlocks"]] == [
        b["content"] for b in blocked["messageBlocks"]
    ]
    assert all("metadata" not in b for b in denied["messageBlocks"])
    assert (rows[1]["host"], rows[1]["hostTitle"], rows[1]["decision"]) == (
        "gemini",
        "Gemini CLI",
        "allow",
    )
    assert rows[1]["shouldContinue"] is True
    assert (rows[0]["decision"], rows[0]["shouldContinue"]) == ("none", False)

    # Nothing of the tool input (nor the raw streams) reaches the database.
    dumped = json.dumps(stored(database_url), default=str)
    assert SECRET not in dumped
    assert "rm -rf /" not in dumped.replace("rm -rf outside", "")


def test_an_ask_links_its_permission_request(client: TestClient) -> None:
    ask = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "permissionDecisionReason": "deploys to production",
            }
        }
    )
    answer = parse(client, "PreToolUse", 0, stdout=ask, tool="Bash", tool_input={"cmd": "x"})
    row = console_rows(client)[0]
    assert row["decision"] == "ask"
    assert row["permissionId"] == answer["permissionRequest"]["id"]


def test_the_feed_and_the_stream_see_a_call_without_a_console_request(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    """With the background loops on, the housekeeping tick writes the row on its own."""
    import time

    client = make_client()
    parse(client, "PreToolUse", 0, stdout=DENY_JSON, tool="Bash")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not stored(database_url):
        time.sleep(0.1)
    rows = stored(database_url)
    assert [(r["kind"], r["decision"], r["host"]) for r in rows] == [("parse", "deny", "claude")]


def test_long_blocks_are_cut_and_say_so(client: TestClient) -> None:
    message = "x" * (MAX_BLOCK_CHARS + 500)
    parse(client, "PostToolUse", 0, stdout=json.dumps({"systemMessage": message}))
    content = console_rows(client)[0]["messageBlocks"][0]["content"]
    assert content == f"{'x' * MAX_BLOCK_CHARS}… (500 more characters)"


def test_a_rejected_request_is_not_listed(client: TestClient) -> None:
    response = client.post(
        "/internal/hook/parse-output",
        json={"exitCode": 0, "stdout": "", "stderr": "", "hookEvent": "Nope", "executionTime": 1},
    )
    assert response.status_code == 400
    bad_token = client.post(
        "/internal/hook/parse-output",
        json={"exitCode": 0, "stdout": "", "stderr": "", "hookEvent": "Stop", "executionTime": 1},
        headers={"Authorization": "Bearer wrong"},
    )
    assert bad_token.status_code == 401
    assert console_rows(client) == []


# --- the buffer and the pruning -----------------------------------------------------------


def _call(at: int) -> ParseCall:
    parsed = parse_output(0, "", "", "Stop", 1.0, OutputConfig())
    return parse_call(parsed, "Stop", None, 0, 1.0, "s", None, at)


def _ids(engine: sa.Engine) -> list[int]:
    """The rows' times, in id order (which is the order they were noted in)."""
    with engine.connect() as conn:
        query = sa.select(executions.c.created_at).order_by(executions.c.id)
        return list(conn.execute(query).scalars())


@pytest.fixture
def engine(database_url: str, tmp_path: Path) -> Iterator[sa.Engine]:
    made = make_engine(database_url)
    migrate(made, tmp_path)
    yield made
    made.dispose()


def test_the_buffer_keeps_the_newest_and_says_how_many_it_left_out(
    engine: sa.Engine, caplog: pytest.LogCaptureFixture
) -> None:
    calls = CallLog(capacity=5)
    for _ in range(8):
        calls.note(_call(1000))  # one millisecond: the ids still keep their order
    with caplog.at_level(logging.WARNING, logger="hookwise.api"):
        assert calls.flush(engine) == 5
    assert "3 parse-output calls were not kept for the console" in caplog.text
    with engine.connect() as conn:
        ids = list(conn.execute(sa.select(executions.c.id).order_by(executions.c.id)).scalars())
    assert [int(i.split("_")[2]) for i in ids] == [4, 5, 6, 7, 8]  # the newest five
    assert calls.flush(engine) == 0  # written once


def test_a_failed_write_keeps_the_rows_for_the_next_tick(engine: sa.Engine, tmp_path: Path) -> None:
    calls = CallLog(capacity=2)
    calls.note(_call(2000))
    calls.note(_call(2001))
    broken = make_engine(f"sqlite:///{tmp_path / 'missing' / 'nowhere.db'}")
    with pytest.raises(sa.exc.SQLAlchemyError):
        calls.flush(broken)
    calls.note(_call(2002))  # the buffer holds two: the oldest unwritten call gives way
    assert calls.flush(engine) == 2
    assert _ids(engine) == [2001, 2002]


def test_pruning_keeps_the_newest_parse_rows_and_every_execute_row(engine: sa.Engine) -> None:
    calls = CallLog(capacity=50)
    for i in range(12):
        calls.note(_call(5000 + i))
    calls.flush(engine)
    execute_row = {**parse_row(_call(1), 0, "w"), "id": "exec_old", "kind": "execute"}
    with engine.begin() as conn:
        conn.execute(executions.insert(), [execute_row])
    CallLog.prune(engine, keep=4)
    with engine.connect() as conn:
        left = conn.execute(
            sa.select(executions.c.kind, executions.c.created_at).order_by(executions.c.created_at)
        ).all()
    assert left == [("execute", 1), *(("parse", 5000 + i) for i in range(8, 12))]
    CallLog.prune(engine)  # fewer than KEEP_ROWS: nothing to do
    assert KEEP_ROWS > 12


# --- the page -----------------------------------------------------------------------------


@pytest.fixture
def server(live_server: Callable[..., LiveServer], tmp_path: Path) -> LiveServer:
    data_dir = tmp_path / "server"
    data_dir.mkdir()
    service = {"execute": {"enabled": True, "allow": ["true"], "project_roots": [str(tmp_path)]}}
    (data_dir / "service.yaml").write_text(json.dumps(service), encoding="utf-8")
    return live_server(data_dir=data_dir, workers=2)


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    context = browser.new_context(base_url=server.url, viewport={"width": 1180, "height": 860})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    yield page
    context.close()
    assert problems == []


def row_of(page: Page, hook_event: str, tool: str | None = None) -> Locator:
    rows = page.locator("#exec-list > li", has=page.locator(".event", has_text=hook_event))
    if tool is not None:
        rows = rows.filter(has=page.locator(".tool", has_text=tool))
    return rows


def test_the_console_shows_parse_output_calls_live(
    page: Page, server: LiveServer, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page.goto(f"/#token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#exec-empty")).to_be_visible()
    with server.client(timeout=10) as api:
        parse(
            api,
            "PreToolUse",
            2,
            stderr="rm -rf outside the project",
            tool="Bash",
            tool_input={"command": "rm -rf /", "token": SECRET},
        )
        parse(api, "PreToolUse", 0, stdout=DENY_JSON, tool="GitPush")
        parse(api, "BeforeTool", 0, stdout=json.dumps({"decision": "allow"}), tool="shell")
        parse(
            api,
            "Stop",
            0,
            stdout=json.dumps({"continue": False, "systemMessage": HOSTILE}),
        )
        ran = api.post(
            "/internal/hook/execute-with-output",
            json={
                "hookConfig": {
                    "command": "true",
                    "event": "UserPromptSubmit",
                    "matcher": "*",
                    "timeout": 10,
                },
                "input": {
                    "session_id": "s",
                    "transcript_path": str(tmp_path / "t.jsonl"),
                    "cwd": str(tmp_path),
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": "tidy up",
                },
            },
            headers=session(),
        )
        assert ran.status_code == 200, ran.text

    # Nobody asked for the executions: the workers' housekeeping wrote the rows and the
    # change stream told the page.
    expect(page.locator("#exec-list > li")).to_have_count(5)

    exit2 = row_of(page, "PreToolUse", "Bash")
    expect(exit2.locator(".kind")).to_have_text("parse-output")
    expect(exit2.locator(".outcome")).to_have_text("denied (exit code 2)")
    expect(exit2.locator(".outcome")).to_have_class("outcome blocked")
    expect(exit2.locator(".host")).to_have_text("read as Claude Code")
    expect(exit2.locator(".exit")).to_have_text("exit 2")
    expect(exit2.locator(".command")).to_have_text(
        "output sent by the client; the service ran no command"
    )
    exit2.locator("details.blocks summary").click()
    expect(exit2.locator(".block-content").first).to_contain_text("rm -rf outside the project")

    json_deny = row_of(page, "PreToolUse", "GitPush")
    expect(json_deny.locator(".outcome")).to_have_text("denied (JSON output)")

    gemini = row_of(page, "BeforeTool", "shell")
    expect(gemini.locator(".outcome")).to_have_text("allowed (JSON output)")
    expect(gemini.locator(".host")).to_have_text("read as Gemini CLI")
    expect(gemini.locator(".outcome")).not_to_have_class("outcome blocked")

    stop = row_of(page, "Stop")
    expect(stop.locator(".outcome")).to_have_text("session stopped (JSON output)")
    stop.locator("details.blocks summary").click()
    expect(stop.locator(".block-content").first).to_have_text(HOSTILE)  # text, not markup
    assert page.evaluate("window.__pwned") is None

    executed = row_of(page, "UserPromptSubmit")
    expect(executed.locator(".kind")).to_have_text("execute-with-output")
    expect(executed.locator(".command")).to_have_text("true")
    expect(executed.locator(".outcome")).to_have_text("continued (exit code 0)")
    expect(page.locator("#exec-list > li").first).to_have_attribute(
        "aria-label", "execute-with-output, UserPromptSubmit, continued (exit code 0), exit 0"
    )

    assert SECRET not in json.dumps(stored(server.env["HOOKWISE_DATABASE_URL"]), default=str)
