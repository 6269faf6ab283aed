"""The web console driven in Debian's headless Chromium against a real `hookwise serve`.

Everything the page shows arrives while it stays open: the test creates permission
requests and executions through the API (or the database) and watches them appear.
"""

from __future__ import annotations

import json
import math
import shlex
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import pytest

from hookwise.api.settings import sqlite_url
from tests.api.conftest import TOKEN, LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

WAIT_MS = 10_000
HOSTILE = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite is enough here: the stream's database polling is tested on both elsewhere."""
    return sqlite_url(tmp_path)


# The commands execute-with-output may run on the test server (its service.yaml allow-list).
# Hooks run as argv with no shell: each of these asks for one explicitly.
BLOCKING_HOOK = shlex.join(["sh", "-c", "echo 'rm -rf is not allowed here' >&2; exit 2"])
WARNING_HOOK = shlex.join(["sh", "-c", "echo '3 style warnings' >&2; exit 1"])
QUIET_HOOK = "true"
HOSTILE_HOOK = shlex.join(["sh", "-c", f"echo '{HOSTILE}' >&2; exit 1"])


@pytest.fixture
def server(browser: Browser, live_server: Callable[..., LiveServer], tmp_path: Path) -> LiveServer:
    data_dir = tmp_path / "server"
    data_dir.mkdir()
    allow = [BLOCKING_HOOK, WARNING_HOOK, QUIET_HOOK, HOSTILE_HOOK]
    service = {"execute": {"enabled": True, "allow": allow, "project_roots": [str(tmp_path)]}}
    (data_dir / "service.yaml").write_text(json.dumps(service), encoding="utf-8")
    return live_server(data_dir=data_dir)


@pytest.fixture
def api(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client(timeout=10) as client:
        yield client


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    """A fresh browser context; fails the test on a script error or a CSP violation."""
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    context = browser.new_context(base_url=server.url, viewport={"width": 1180, "height": 860})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert problems == []


def session() -> dict[str, str]:
    return {"X-Session-Id": f"test-{uuid.uuid4().hex[:12]}"}


def open_console(page: Page) -> None:
    from playwright.sync_api import expect

    page.goto(f"/#token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("body")).to_have_attribute("data-config-loaded", "true")


def create_permission(
    api: httpx.Client, tool: str, reason: str = "asks first", command: str = "rm -rf build"
) -> str:
    response = api.post(
        "/internal/hook/create-permission-request",
        json={"toolName": tool, "reason": reason, "originalInput": {"command": command}},
        headers=session(),
    )
    assert response.status_code == 200, response.text
    permission_id: str = response.json()["permissionId"]
    return permission_id


def pending_ids(api: httpx.Client) -> list[str]:
    response = api.get("/internal/hook/pending-permissions", headers=session())
    assert response.status_code == 200
    return [p["id"] for p in response.json()["permissions"]]


def outcome(api: httpx.Client, permission_id: str) -> tuple[str, str]:
    """How a request ended, as a second resolve's 409 tells it: (status, decision)."""
    response = api.post(
        f"/internal/hook/resolve-permission/{permission_id}",
        json={"decision": "allow"},
        headers=session(),
    )
    assert response.status_code == 409, response.text
    body = response.json()
    return body["status"], body["decision"]


def set_ui(api: httpx.Client, **ui: bool) -> None:
    response = api.put("/api/hook/output-config", json={"uiConfig": ui}, headers=session())
    assert response.status_code == 200, response.text


def permission(page: Page, permission_id: str) -> Locator:
    return page.locator(f'#perm-list [data-permission-id="{permission_id}"]')


def execution(page: Page, execution_id: str) -> Locator:
    return page.locator(f'#exec-list [data-execution-id="{execution_id}"]')


def run_hook(
    api: httpx.Client, command: str, event: str, tool: str | None, cwd: Path
) -> dict[str, Any]:
    """Run an allow-listed hook through execute-with-output; the row it recorded."""
    hook_input: dict[str, Any] = {
        "session_id": "browser-test",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "hook_event_name": event,
    }
    if tool is not None:
        hook_input |= {"tool_name": tool, "tool_input": {"command": "rm -rf build"}}
    else:
        hook_input["prompt"] = "tidy up"
    response = api.post(
        "/internal/hook/execute-with-output",
        json={
            "hookConfig": {"command": command, "event": event, "matcher": "*", "timeout": 10},
            "input": hook_input,
        },
        headers=session(),
    )
    assert response.status_code == 200, response.text
    newest = api.get("/api/console/executions", params={"limit": 1}).json()["executions"][0]
    assert newest["command"] == command
    assert newest["messageBlocks"] == response.json()["messageBlocks"]
    row: dict[str, Any] = newest
    return row


def shown_time(ms: float) -> str:
    """The page's rendering of an execution time (console.js executionTime)."""
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 1000:
        return f"{math.floor(ms + 0.5)} ms"
    return f"{ms / 1000:.2f} s"


def blocks_summary(blocks: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for block in blocks:
        counts[block["type"]] = counts.get(block["type"], 0) + 1
    kinds = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    noun = "message block" if len(blocks) == 1 else "message blocks"
    return f"{len(blocks)} {noun} ({kinds})"


def test_token_from_the_fragment_and_approve_with_the_mouse(page: Page, api: httpx.Client) -> None:
    from playwright.sync_api import Request, expect

    calls: list[Request] = []
    page.on("request", lambda request: calls.append(request))  # noqa: PLW0108 (needs a Python function)

    def fetched(path: str) -> int:
        return sum(1 for call in calls if urlsplit(call.url).path == path)

    open_console(page)
    assert "token" not in page.url  # removed from the address bar (and the history)
    assert page.evaluate("sessionStorage.getItem('hookwise.console.token')") == TOKEN
    expect(page.locator("#perm-empty")).to_be_visible()
    page.evaluate("window.__sameDocument = true")

    # Idle, the page asks the rate-limited routes nothing: it waits for the change stream.
    page.wait_for_timeout(3000)
    assert fetched("/internal/hook/pending-permissions") == 1
    assert fetched("/api/hook/output-config") == 1
    assert fetched("/api/console/events") == 1
    for call in calls:
        if urlsplit(call.url).path.startswith(("/api/", "/internal/")):
            assert call.headers["x-session-id"] == "console"
            assert call.headers["authorization"] == f"Bearer {TOKEN}"

    permission_id = create_permission(api, "Bash", "the hook wants a human", "rm -rf build")
    item = permission(page, permission_id)
    expect(item).to_be_visible()
    assert page.evaluate("window.__sameDocument") is True  # no reload
    assert fetched("/internal/hook/pending-permissions") == 2
    assert fetched("/api/hook/output-config") == 1
    expect(item.locator(".tool")).to_have_text("Bash")
    expect(item.locator(".reason")).to_have_text("the hook wants a human")
    expect(item.locator(".summary")).to_have_text("command: rm -rf build")
    expect(item.locator(".expiry-text")).to_contain_text("expires in")
    expect(item.locator(".age")).to_contain_text("ago")
    expect(page.locator("#perm-count")).to_have_text("1")

    item.get_by_role("button", name="Approve Bash").click()
    expect(item).to_have_count(0)
    expect(page.locator("#perm-empty")).to_be_visible()
    assert permission_id not in pending_ids(api)
    assert outcome(api, permission_id) == ("resolved", "allow")


def test_deny_with_the_keyboard(page: Page, api: httpx.Client) -> None:
    from playwright.sync_api import expect

    open_console(page)
    expect(page.locator("#keys-hint")).to_be_visible()
    first = create_permission(api, "Read")
    second = create_permission(api, "Write")
    expect(permission(page, first)).to_be_visible()
    expect(permission(page, second)).to_be_visible()

    permission(page, first).focus()
    page.keyboard.press("j")
    expect(permission(page, second)).to_have_attribute("aria-current", "true")
    page.keyboard.press("k")
    expect(permission(page, first)).to_have_attribute("aria-current", "true")
    expect(permission(page, first)).to_be_focused()

    page.keyboard.press("ArrowDown")
    expect(permission(page, second)).to_be_focused()
    page.keyboard.press("d")
    expect(permission(page, second)).to_have_count(0)
    assert outcome(api, second) == ("resolved", "deny")
    expect(permission(page, first)).to_be_focused()  # the selection moves to what is left

    details = permission(page, first).locator("details")
    page.keyboard.press("Enter")
    expect(details).to_have_attribute("open", "")
    expect(details.locator("pre").first).to_contain_text('"command": "rm -rf build"')
    page.keyboard.press("Escape")
    expect(details).not_to_have_attribute("open", "")
    page.keyboard.press("a")
    expect(permission(page, first)).to_have_count(0)
    assert outcome(api, first) == ("resolved", "allow")


def test_keys_do_nothing_when_keyboard_navigation_is_off(page: Page, api: httpx.Client) -> None:
    from playwright.sync_api import expect

    open_console(page)
    set_ui(api, keyboardNavigation=False)  # applied live, without a reload
    expect(page.locator("body")).to_have_attribute("data-keyboard", "off")
    expect(page.locator("#keys-hint")).to_be_hidden()
    first = create_permission(api, "Read")
    second = create_permission(api, "Edit")
    expect(permission(page, second)).to_be_visible()

    permission(page, first).focus()
    for key in ("ArrowDown", "j", "d", "a", "Enter"):
        page.keyboard.press(key)
    page.wait_for_timeout(1500)
    expect(permission(page, first)).to_be_focused()
    expect(permission(page, first)).to_have_attribute("aria-current", "true")
    expect(permission(page, first).locator("details")).not_to_have_attribute("open", "")
    assert set(pending_ids(api)) == {first, second}

    permission(page, second).get_by_role("button", name="Deny Edit").click()  # mouse still works
    expect(permission(page, second)).to_have_count(0)
    assert outcome(api, second) == ("resolved", "deny")


def test_executions_appear_live_and_follow_the_ui_config(
    page: Page, api: httpx.Client, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    open_console(page)
    expect(page.locator("#exec-empty")).to_be_visible()
    blocked = run_hook(api, BLOCKING_HOOK, "PreToolUse", "Bash", tmp_path)
    assert blocked["exitCode"] == 2
    assert blocked["shouldContinue"] is False
    assert blocked["messageBlocks"], "an exit-2 block always says why"
    row = execution(page, blocked["id"])
    expect(row).to_be_visible()
    expect(row.locator(".exit")).to_have_text("exit 2")
    expect(row.locator(".exit")).to_have_class("exit exit-blocking")
    expect(row.locator(".event")).to_have_text("PreToolUse")
    expect(row.locator(".tool")).to_have_text("Bash")
    expect(row.locator(".command")).to_have_text(BLOCKING_HOOK)
    assert blocked["source"] == "exitcode"
    expect(row.locator(".outcome")).to_have_text("denied (exit code 2)")
    expect(row.locator(".duration")).to_have_text(shown_time(blocked["executionTime"]))
    expect(row.locator(".duration")).to_be_visible()
    summary = blocks_summary(blocked["messageBlocks"])
    expect(row.locator("details.blocks summary")).to_have_text(summary)
    expect(row.locator("details.blocks")).not_to_have_attribute("open", "")
    expect(row.locator(".block-content").first).to_be_hidden()

    set_ui(api, showHookExecutionTime=False, autoExpandHookBlocks=True)  # live, no reload
    expect(row.locator(".duration")).to_be_hidden()
    expect(row.locator("details.blocks")).to_have_attribute("open", "")
    contents = [str(block["content"]) for block in blocked["messageBlocks"]]
    expect(row.locator(".block-content")).to_have_text(contents)
    expect(row.locator(".block-content", has_text="rm -rf is not allowed here")).not_to_have_count(
        0
    )

    warned = run_hook(api, WARNING_HOOK, "PostToolUse", "Write", tmp_path)
    assert warned["exitCode"] == 1
    newer = execution(page, warned["id"])
    expect(newer).to_be_visible()
    expect(page.locator("#exec-list > li").first).to_have_attribute(
        "data-execution-id", warned["id"]
    )
    expect(newer.locator(".exit")).to_have_class("exit exit-warning")
    assert warned["source"] == "exitcode"
    expect(newer.locator(".outcome")).to_have_text("continued (exit code 1)")
    expect(newer.locator(".duration")).to_be_hidden()
    expect(newer.locator("details.blocks")).to_have_attribute("open", "")
    expect(newer.locator(".block-warn .block-content")).to_contain_text(["3 style warnings"])

    quiet = run_hook(api, QUIET_HOOK, "UserPromptSubmit", None, tmp_path)
    expect(execution(page, quiet["id"]).locator(".exit")).to_have_class("exit exit-ok")
    expect(execution(page, quiet["id"]).locator(".tool")).to_be_hidden()

    set_ui(api, showHookExecutionTime=True)
    expect(newer.locator(".duration")).to_have_text(shown_time(warned["executionTime"]))
    create_permission(api, "Bash", "PreToolUse asked: deletes the build tree")
    expect(page.locator("#perm-list > li")).to_have_count(1)
    shot = tmp_path / "console.png"
    page.screenshot(path=str(shot), full_page=True, animations="disabled")
    assert shot.stat().st_size > 10_000


def test_hostile_hook_output_is_shown_as_text(
    page: Page, api: httpx.Client, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    open_console(page)
    permission_id = create_permission(api, HOSTILE, f"<b>bold</b> {HOSTILE}", HOSTILE)
    ran = run_hook(api, HOSTILE_HOOK, "PreToolUse", HOSTILE, tmp_path)
    item = permission(page, permission_id)
    expect(item.locator(".tool")).to_have_text(HOSTILE)
    expect(item.locator(".reason")).to_have_text(f"<b>bold</b> {HOSTILE}")
    expect(item.locator(".summary")).to_have_text(f"command: {HOSTILE}")
    row = execution(page, ran["id"])
    expect(row.locator(".tool")).to_have_text(HOSTILE)
    expect(row.locator(".command")).to_have_text(HOSTILE_HOOK)
    row.locator("details.blocks summary").click()
    expect(row.locator(".block-content", has_text=HOSTILE)).not_to_have_count(0)
    assert page.locator("main img, main b").count() == 0
    assert page.evaluate("window.__pwned") is None
    item.get_by_role("button", name=f"Deny {HOSTILE}").click()
    expect(item).to_have_count(0)


def test_conflict_is_shown_inline(page: Page, api: httpx.Client) -> None:
    """Someone else resolved the request before this page heard of it: 409, said inline."""
    from playwright.sync_api import Route, expect

    open_console(page)
    permission_id = create_permission(api, "Bash")
    item = permission(page, permission_id)
    expect(item).to_be_visible()
    stale = api.get("/internal/hook/pending-permissions", headers=session()).json()

    def serve_stale(route: Route) -> None:
        route.fulfill(status=200, json=stale)

    page.route("**/internal/hook/pending-permissions", serve_stale)
    resolved = api.post(
        f"/internal/hook/resolve-permission/{permission_id}",
        json={"decision": "deny"},
        headers=session(),
    )
    assert resolved.status_code == 200
    item.get_by_role("button", name="Approve Bash").click()
    error = item.locator(".item-error")
    expect(error).to_have_text("This request was already resolved by someone else (deny).")
    expect(error).to_have_attribute("role", "alert")
    expect(item.get_by_role("button", name="Approve Bash")).to_be_disabled()
    page.unroute("**/internal/hook/pending-permissions")
    expect(item).to_have_count(0, timeout=15_000)  # dropped once the message has been read
    assert outcome(api, permission_id) == ("resolved", "deny")


def test_wrong_token_shows_the_form(page: Page, api: httpx.Client) -> None:
    from playwright.sync_api import expect

    page.goto("/#token=not-the-token")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#login-error")).to_have_text("That token was not accepted. Sign in again.")
    expect(page.locator("#dashboard")).to_be_hidden()
    assert "token" not in page.url
    assert page.evaluate("sessionStorage.getItem('hookwise.console.token')") is None

    page.get_by_label("API token").fill(TOKEN)
    page.get_by_role("button", name="Open console").click()
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#dashboard")).to_be_visible()

    page.reload()  # the token is kept for the tab's session
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#login")).to_be_hidden()

    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#login")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('hookwise.console.token')") is None


def test_approval_requests_appear_live_with_a_link_to_their_page(
    page: Page, api: httpx.Client
) -> None:
    """The relay's requests show in the admin console as they open and go when decided."""
    from playwright.sync_api import expect

    from tests.api.approval_helpers import request_body

    open_console(page)
    expect(page.locator("#apr-empty")).to_be_visible()
    body = request_body(HOSTILE, reason=f"<b>bold</b> {HOSTILE}")
    created = api.post("/api/approvals", json=body)
    assert created.status_code == 201, created.text
    approval_id = created.json()["id"]
    item = page.locator(f'#apr-list li[data-approval-id="{approval_id}"]')
    expect(item).to_be_visible()
    expect(page.locator("#apr-count")).to_have_text("1")
    expect(item.locator('[data-field="summary"]')).to_have_text(HOSTILE)
    expect(item.locator('[data-field="reason"]')).to_have_text(f"<b>bold</b> {HOSTILE}")
    expect(item.locator('[data-field="left"]')).to_contain_text("expires in")
    expect(item.get_by_role("link")).to_have_attribute("href", f"/console/approvals/{approval_id}")
    assert page.locator("main img, main b").count() == 0
    assert page.evaluate("window.__pwned") is None
    decided = api.post(
        f"/api/approvals/{approval_id}/decision",
        json={"decision": "deny", "input_hash": body["input_hash"]},
    )
    assert decided.status_code == 200
    expect(item).to_have_count(0)
    expect(page.locator("#apr-empty")).to_be_visible()
