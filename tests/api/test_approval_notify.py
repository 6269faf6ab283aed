"""Notifications of a new approval request (ntfy, Slack-compatible, signed webhook) through
the durable outbox, received by real HTTP servers on 127.0.0.1 (the tests' opt-in for
private targets), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.approvals.notify import header_value, message, notify_secret, slack_escape
from hookwise.api.webhooks.signing import verify
from tests.api.approval_helpers import Tokens, make_tokens, request_body

pytestmark = pytest.mark.private_webhooks  # receivers listen on 127.0.0.1


@dataclass(frozen=True)
class Hit:
    path: str
    headers: dict[str, str]
    body: bytes


class Inbox:
    """A receiver that records every POST and fails the first ``fail_first`` per path."""

    def __init__(self, fail_first: int = 0) -> None:
        self.hits: list[Hit] = []
        self.seen: dict[str, int] = {}
        self.fail_first = fail_first
        self.lock = threading.Lock()
        inbox = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with inbox.lock:
                    count = inbox.seen.get(self.path, 0) + 1
                    inbox.seen[self.path] = count
                    failing = count <= inbox.fail_first
                    if not failing:
                        inbox.hits.append(Hit(self.path, dict(self.headers.items()), body))
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, count: int, timeout: float = 20) -> list[Hit]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.hits) >= count:
                    return list(self.hits)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.hits)} of {count} notifications arrived")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    running = Inbox(fail_first=1)  # every target fails once: the retry must deliver
    yield running
    running.close()


HOSTILE = "rm -rf build <!channel> <https://evil.example|click> & more"


def test_ntfy_slack_and_webhook_notifications(fast: None, client: TestClient, inbox: Inbox) -> None:
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    tokens = make_tokens(engine)
    notify = [
        {"type": "ntfy", "url": f"{inbox.url}/hookwise-topic"},
        {"type": "slack", "url": f"{inbox.url}/slack"},
        {"type": "webhook", "url": f"{inbox.url}/hook"},
        {"type": "ntfy", "url": f"{inbox.url}/hookwise-topic"},  # listed twice: sent once
    ]
    body = request_body(HOSTILE, notify=notify)
    created = client.post("/api/approvals", json=body, headers=Tokens.bearer(tokens.agent))
    assert created.status_code == 201, created.text
    page_url = created.json()["page_url"]

    hits = {hit.path: hit for hit in inbox.wait_for(3)}
    time.sleep(0.5)
    assert sorted(inbox.seen.values()) == [2, 2, 2]  # one failure, one delivery each
    assert set(hits) == {"/hookwise-topic", "/slack", "/hook"}

    ntfy = hits["/hookwise-topic"]
    assert ntfy.headers["Title"] == "Approve Bash on claude?"
    assert ntfy.headers["Click"] == page_url
    assert ntfy.headers["Tags"] == "lock"
    text = ntfy.body.decode()
    assert HOSTILE in text and "cwd: /work/project" in text and "session: session-1" in text

    slack = json.loads(hits["/slack"].body)
    assert slack["text"].endswith(f"<{page_url}|Open>")
    assert "<!channel>" not in slack["text"] and "&lt;!channel&gt;" in slack["text"]
    assert "<https://evil.example|click>" not in slack["text"]
    assert slack["text"].count("<") == 1  # only the page link

    hook = hits["/hook"]
    with engine.begin() as conn:
        secret = notify_secret(conn)
    assert verify(
        secret,
        hook.body,
        hook.headers["X-Hookwise-Event-Id"],
        hook.headers["X-Hookwise-Timestamp"],
        hook.headers["X-Hookwise-Signature"],
    )
    event = json.loads(hook.body)
    assert event["eventType"] == "approval_requested"
    assert event["pageUrl"] == page_url
    assert event["inputHash"] == body["input_hash"]

    everything = b"".join(h.body + json.dumps(h.headers).encode() for h in hits.values())
    for token in (tokens.agent, tokens.approver, "test-token-0123456789"):
        assert token.encode() not in everything


def test_a_remembered_request_notifies_nobody(fast: None, client: TestClient, inbox: Inbox) -> None:
    tokens = make_tokens(client.app.state.service.engine)  # type: ignore[attr-defined]
    notify = [{"type": "ntfy", "url": f"{inbox.url}/t"}]
    first = client.post(
        "/api/approvals",
        json=request_body(remember_minutes=5, notify=notify),
        headers=Tokens.bearer(tokens.agent),
    ).json()
    client.post(
        f"/api/approvals/{first['id']}/decision",
        json={
            "decision": "allow",
            "input_hash": request_body()["input_hash"],
            "remember_minutes": 5,
        },
        headers=Tokens.bearer(tokens.approver),
    )
    inbox.wait_for(1)
    again = client.post(
        "/api/approvals",
        json=request_body(remember_minutes=5, notify=notify),
        headers=Tokens.bearer(tokens.agent),
    ).json()
    assert again["status"] == "allowed"
    time.sleep(1.0)
    assert len(inbox.hits) == 1


def test_without_the_opt_in_internal_targets_are_refused(client: TestClient) -> None:
    """The same SSRF rule as webhooks: without --webhook-allow-private, 127.0.0.1 is a 400."""
    from dataclasses import replace

    from hookwise.api.webhooks.targets import TargetPolicy

    state = client.app.state.service  # type: ignore[attr-defined]
    state.settings = replace(state.settings, webhook_targets=TargetPolicy())
    for url in ("http://127.0.0.1:9/x", "http://[::ffff:10.0.0.1]/", "http://2130706433/"):
        body = request_body(notify=[{"type": "webhook", "url": url}])
        refused = client.post("/api/approvals", json=body)
        assert refused.status_code == 400
        assert refused.json()["details"][0]["field"] == "notify.0.url"


@given(st.text())
def test_header_values_are_one_line_of_printable_ascii(text: str) -> None:
    value = header_value(text)
    assert len(value) <= 150
    assert all(" " <= c <= "~" for c in value)


@given(st.text())
def test_slack_text_can_form_no_link_or_mention(text: str) -> None:
    escaped = slack_escape(text)
    assert "<" not in escaped and ">" not in escaped
    assert escaped.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") == text


def test_the_message_says_what_and_where() -> None:
    row = {
        "tool": "Bash",
        "host": "codex",
        "input": {"command": "git push --force\norigin main"},
        "cwd": "/repo",
        "session_id": "s1",
        "rule_id": "ask-push",
        "reason": "Force push",
        "expires_at": time.time_ns() // 1_000_000 + 5 * 60_000 + 500,
    }
    assert message(row).splitlines() == [
        "Bash on codex asks for approval",
        "git push --force origin main",
        "cwd: /repo",
        "session: s1",
        "rule ask-push: Force push",
        "expires in 5 min",
    ]
    row["input"] = {"file_path": "x" * 1000}
    assert len(message(row).splitlines()[1]) == 300


def test_notifications_to_one_destination_are_capped_per_minute(
    fast: None, client: TestClient, inbox: Inbox
) -> None:
    """An agent token can open many requests; the approver's phone gets at most
    NOTIFY_PER_WINDOW pushes a minute from them. Every request is still made."""
    from hookwise.api.approvals.notify import NOTIFY_PER_WINDOW, target_id
    from hookwise.api.storage.tables import webhook_outbox

    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    tokens = make_tokens(engine)
    flood = {"type": "ntfy", "url": f"{inbox.url}/flooded"}
    other = {"type": "slack", "url": f"{inbox.url}/other"}
    made = 0
    for index in range(NOTIFY_PER_WINDOW + 5):
        notify = [flood, other] if index == NOTIFY_PER_WINDOW + 4 else [flood]
        body = request_body(f"echo {index}", notify=notify)
        created = client.post("/api/approvals", json=body, headers=Tokens.bearer(tokens.agent))
        assert created.status_code == 201, created.text
        made += 1
    assert made == NOTIFY_PER_WINDOW + 5
    with engine.begin() as conn:
        counts = {
            destination: conn.execute(
                sa.select(sa.func.count())
                .select_from(webhook_outbox)
                .where(webhook_outbox.c.subscriber_id == destination)
            ).scalar_one()
            for destination in (target_id("ntfy", flood["url"]), target_id("slack", other["url"]))
        }
    assert list(counts.values()) == [NOTIFY_PER_WINDOW, 1]  # the other destination unaffected
