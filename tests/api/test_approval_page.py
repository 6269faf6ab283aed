"""The approval page in Debian's headless Chromium at a phone's viewport (390x844, touch),
against a real `hookwise serve`: sign in once, approve, deny with a note, an expired
request, remembering, and an attack in the command that must show as text."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from hookwise.api.settings import sqlite_url
from hookwise.api.storage.db import make_engine
from hookwise.api.tokens import add_token
from tests.api.approval_helpers import request_body
from tests.api.conftest import LiveServer
from tests.approval_relay import sign_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 10_000
PHONE = {"width": 390, "height": 844}
HOSTILE = '<img src=x onerror="window.__pwned=1"></pre><script>window.__pwned=2</script>'


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite: the routes are tested on both databases elsewhere."""
    return sqlite_url(tmp_path)


class Relay:
    """The server with an agent token and an approver token, as the CLI makes them."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        engine = make_engine(server.env["HOOKWISE_DATABASE_URL"])
        try:
            self.agent = add_token(engine, "laptop", "agent")
            self.approver = add_token(engine, "alice", "approver")
        finally:
            engine.dispose()
        self.api = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {self.agent}"}, timeout=30
        )

    def open(self, **kwargs: Any) -> dict[str, Any]:
        body = request_body(**kwargs)
        created = self.api.post("/api/approvals", json=body)
        assert created.status_code == 201, created.text
        answer: dict[str, Any] = created.json()
        answer["body"] = body
        return answer

    def read(self, approval_id: str, wait: float = 0) -> dict[str, Any]:
        answer: dict[str, Any] = self.api.get(f"/api/approvals/{approval_id}?wait={wait}").json()
        return answer


@pytest.fixture
def relay(browser: Browser, live_server: Callable[..., LiveServer]) -> Iterator[Relay]:
    made = Relay(live_server())
    yield made
    made.api.close()


@pytest.fixture
def page(browser: Browser, relay: Relay) -> Iterator[Page]:
    """A phone-sized context; fails the test on a script error or a CSP violation."""
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    context = browser.new_context(
        base_url=relay.server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
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


def test_sign_in_once_and_approve_with_one_tap(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open(remember_minutes=0)
    page.goto(opened["page_url"].removeprefix(relay.server.url))
    expect(page.locator("#login")).to_be_visible()
    sign_in(page, relay.agent)  # the agent's own token cannot approve
    expect(page.locator("#login-error")).to_contain_text("agent token cannot sign in")
    sign_in(page, relay.approver)
    expect(page.locator("#request")).to_be_visible()
    expect(page.locator("#tool")).to_have_text("Bash")
    expect(page.locator("#command")).to_have_text("rm -rf build")
    expect(page.locator("#cwd")).to_have_text("/work/project")
    expect(page.locator("#host")).to_have_text("claude")
    expect(page.locator("#session")).to_have_text("session-1")
    expect(page.locator("#rule")).to_have_text("ask-rm")
    expect(page.locator("#reason")).to_have_text("Deletes files")
    expect(page.locator("#countdown")).to_contain_text(" min ")
    expect(page.locator("#remember-row")).to_be_hidden()  # the hook accepts no window
    cookies = page.context.cookies()
    (session,) = [c for c in cookies if c["name"] == "hookwise_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    assert relay.approver not in str(cookies)
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script reads it

    # The buttons are thumb-sized and inside the phone's width.
    box = page.locator("#approve").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
    page.locator("#approve").tap()
    expect(page.locator("#status")).to_have_text("Approved by alice")
    expect(page.locator("#outcome")).to_contain_text("Approved")
    read = relay.read(opened["id"])
    assert read["status"] == "allowed"
    assert read["decision"]["approver"] == "alice"

    # Once per device: another request opens without signing in again.
    second = relay.open(session_id="session-2")
    page.goto(second["page_url"].removeprefix(relay.server.url))
    expect(page.locator("#request")).to_be_visible()
    expect(page.locator("#login")).to_be_hidden()
    expect(page.locator("#who")).to_have_text("Signed in as alice")


def test_deny_with_a_note_reaches_the_waiting_hook(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open()
    answer: dict[str, Any] = {}
    waiter = threading.Thread(target=lambda: answer.update(relay.read(opened["id"], wait=20)))
    waiter.start()
    page.goto(f"/console/approvals/{opened['id']}")
    sign_in(page, relay.approver)
    page.locator("#note").fill("use make clean instead")
    page.locator("#deny").tap()
    expect(page.locator("#status")).to_have_text("Denied by alice: “use make clean instead”")
    expect(page.locator("#decide-form")).to_be_hidden()
    waiter.join(20)
    assert answer["status"] == "denied"
    assert answer["decision"]["note"] == "use make clean instead"
    assert answer["nonce"] == opened["body"]["nonce"]


def test_an_expired_request_cannot_be_approved(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open(expires_in_ms=4000)
    page.goto(f"/console/approvals/{opened['id']}")
    sign_in(page, relay.approver)
    expect(page.locator("#countdown")).to_contain_text("in ")
    # The page's long poll learns of the expiry without a reload.
    expect(page.locator("#status")).to_have_text("Expired: nobody decided in time")
    expect(page.locator("#decide-form")).to_be_hidden()
    assert relay.read(opened["id"])["status"] == "expired"


def test_a_decision_made_elsewhere_shows_at_once(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open()
    page.goto(f"/console/approvals/{opened['id']}")
    sign_in(page, relay.approver)
    expect(page.locator("#decide-form")).to_be_visible()
    admin = httpx.post(
        f"{relay.server.url}/api/approvals/{opened['id']}/decision",
        json={"decision": "deny", "input_hash": opened["body"]["input_hash"], "note": "no"},
        headers=relay.server.headers,
        timeout=10,
    )
    assert admin.status_code == 200
    expect(page.locator("#status")).to_have_text("Denied by admin: “no”")
    expect(page.locator("#decide-form")).to_be_hidden()


def test_remember_the_same_command_for_a_while(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open(remember_minutes=30)
    page.goto(f"/console/approvals/{opened['id']}")
    sign_in(page, relay.approver)
    expect(page.locator("#remember-row")).to_be_visible()
    options = page.locator("#remember-minutes option").all_text_contents()
    assert options == ["5", "15", "30"]
    page.locator("#remember").check()
    page.locator("#remember-minutes").select_option("5")
    page.locator("#approve").tap()
    expect(page.locator("#status")).to_have_text("Approved by alice")
    assert relay.read(opened["id"])["decision"]["remember_minutes"] == 5
    again = relay.open(remember_minutes=30)
    assert again["status"] == "allowed"
    page.goto(f"/console/approvals/{again['id']}")
    expect(page.locator("#status")).to_contain_text("remembered from an earlier approval")


def test_an_attack_in_the_request_is_shown_as_text(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    opened = relay.open(
        command=HOSTILE,
        reason=HOSTILE,
        rule_id="<b>rule</b>",
        cwd="/tmp/<svg onload=alert(1)>",
        session_id='"><img src=x onerror=alert(1)>',
    )
    page.goto(f"/console/approvals/{opened['id']}")
    sign_in(page, relay.approver)
    expect(page.locator("#command")).to_have_text(HOSTILE)
    expect(page.locator("#reason")).to_have_text(HOSTILE)
    expect(page.locator("#rule")).to_have_text("<b>rule</b>")
    expect(page.locator("#cwd")).to_have_text("/tmp/<svg onload=alert(1)>")
    assert page.locator("#request img, #request script, #request svg, #request b").count() == 0
    assert page.evaluate("window.__pwned") is None
    page.locator("#deny").tap()
    expect(page.locator("#status")).to_have_text("Denied by alice")
    assert page.evaluate("window.__pwned") is None


def test_the_pending_list_links_to_each_request(page: Page, relay: Relay) -> None:
    from playwright.sync_api import expect

    first = relay.open(command="make deploy")
    page.goto("/console/approvals")
    sign_in(page, relay.approver)
    link = page.locator("#list-items a")
    expect(link).to_have_count(1)
    expect(link).to_contain_text("make deploy")
    relay.open(command="git push --force", session_id="s2")
    expect(link).to_have_count(2)  # appears without a reload
    page.locator("#list-items a", has_text="make deploy").tap()
    expect(page).to_have_url(f"{relay.server.url}/console/approvals/{first['id']}")
    expect(page.locator("#command")).to_have_text("make deploy")
