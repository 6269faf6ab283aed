"""The web console's server side: the page and its assets, the executions feed and the
change stream that lets the page avoid polling the rate-limited routes."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from hookwise.api.storage.db import make_engine, now_ms
from hookwise.api.storage.tables import executions
from tests.api.conftest import ONE_DATABASE, LiveServer


def insert_execution(url: str, **values: Any) -> dict[str, Any]:
    """A row as execute-with-output writes it, straight into the shared database."""
    row: dict[str, Any] = {
        "id": f"exec_{uuid.uuid4().hex}",
        "session_id": "sess-1",
        "hook_event": "PreToolUse",
        "tool_name": "Bash",
        "command": "./hooks/check.sh",
        "exit_code": 0,
        "execution_time": 12.5,
        "should_continue": True,
        "source": "exitcode",
        "message_blocks": [],
        "permission_id": None,
        "created_at": now_ms(),
        **values,
    }
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(executions.insert().values(**row))
    finally:
        engine.dispose()
    return row


def session() -> dict[str, str]:
    """A fresh X-Session-Id, so a test's own calls never meet the contract's limits."""
    return {"X-Session-Id": f"test-{uuid.uuid4().hex[:12]}"}


def snapshot(client: TestClient) -> dict[str, Any]:
    """The change token: without Accept: text/event-stream the stream is one event."""
    response = client.get("/api/console/events")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [block for block in response.text.split("\n\n") if "event: changed" in block]
    assert len(events) == 1, response.text
    data = next(line for line in events[0].splitlines() if line.startswith("data: "))
    token: dict[str, Any] = json.loads(data.removeprefix("data: "))
    return token


def create_permission(client: TestClient | httpx.Client, tool: str = "Bash") -> str:
    response = client.post(
        "/internal/hook/create-permission-request",
        json={"toolName": tool, "reason": "needs a look", "originalInput": {"command": "ls"}},
        headers=session(),
    )
    assert response.status_code == 200, response.text
    permission_id: str = response.json()["permissionId"]
    return permission_id


# --- the page and its assets --------------------------------------------------------------


class _PageAudit(HTMLParser):
    """Collects what a strict CSP page must not contain: inline scripts, handlers, styles."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline_script_text = ""
        self.handlers: list[str] = []
        self.inline_styles: list[str] = []
        self.links: list[dict[str, str | None]] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts.append(found)
            self._in_script = True
        if tag == "style" or "style" in found:
            self.inline_styles.append(tag)
        if tag == "link":
            self.links.append(found)
        self.handlers += [name for name in found if name.startswith("on")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline_script_text += data.strip()


def test_page_is_public_with_a_strict_csp(client: TestClient) -> None:
    response = client.get("/", headers={"Authorization": ""})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    csp = response.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"

    audit = _PageAudit()
    audit.feed(response.text)
    assert audit.scripts == [{"src": "/console/console.js", "defer": None}]
    assert audit.inline_script_text == ""
    assert audit.handlers == []
    assert audit.inline_styles == []
    for link in audit.links:  # no CDN, no external fonts
        assert str(link["href"]).startswith("/console/")

    head = client.head("/", headers={"Authorization": ""})
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["etag"] == response.headers["etag"]


@pytest.mark.parametrize(
    ("asset", "content_type"),
    [
        ("console.js", "text/javascript; charset=utf-8"),
        ("console.css", "text/css; charset=utf-8"),
        ("favicon.svg", "image/svg+xml"),
    ],
)
def test_assets_have_their_types_and_revalidate(
    client: TestClient, asset: str, content_type: str
) -> None:
    first = client.get(f"/console/{asset}", headers={"Authorization": ""})
    assert first.status_code == 200
    assert first.headers["content-type"] == content_type
    assert first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = client.get(f"/console/{asset}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    stale = client.get(f"/console/{asset}", headers={"If-None-Match": '"0000"'})
    assert stale.status_code == 200
    assert stale.content == first.content


def test_assets_reference_nothing_outside_the_origin(client: TestClient) -> None:
    for asset in ("console.js", "console.css"):
        text = client.get(f"/console/{asset}").text
        assert "http://" not in text
        assert "https://" not in text
        assert "@import" not in text
        assert "@font-face" not in text
    lines = client.get("/console/console.js").text.splitlines()
    script = "\n".join(line for line in lines if not line.strip().startswith("//"))
    assert "innerHTML" not in script
    assert "outerHTML" not in script
    assert "insertAdjacentHTML" not in script
    assert "document.write" not in script
    assert "eval(" not in script


@ONE_DATABASE
@pytest.mark.parametrize("asset", ["index.html", "nope.js", "..%2Fapp.py", "console.py"])
def test_unknown_assets_are_404(client: TestClient, asset: str) -> None:
    response = client.get(f"/console/{asset}")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_page_routes_stay_out_of_the_openapi_document_but_the_feed_is_in(
    client: TestClient,
) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/" not in paths
    assert not any(path.startswith("/console/") for path in paths)
    assert set(paths["/api/console/executions"]) == {"get"}
    events = paths["/api/console/events"]["get"]
    assert "text/event-stream" in events["responses"]["200"]["content"]


# --- the data routes need the token -------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/console/executions", "/api/console/events"])
def test_feed_needs_the_token(client: TestClient, path: str) -> None:
    anonymous = client.get(path, headers={"Authorization": ""})
    assert anonymous.status_code == 401
    wrong = client.get(path, headers={"Authorization": "Bearer wrong"})
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "unauthorized"


# --- executions ---------------------------------------------------------------------------


def test_executions_newest_first_with_every_field(client: TestClient, database_url: str) -> None:
    base = now_ms()
    old = insert_execution(database_url, created_at=base - 2000, exit_code=2, should_continue=False)
    blocks = [
        {"type": "warn", "content": "Hook Error: lint failed"},
        {"type": "hook", "hookEvent": "PostToolUse", "content": "Blocked execution: no"},
    ]
    new = insert_execution(
        database_url,
        created_at=base,
        hook_event="PostToolUse",
        tool_name=None,
        exit_code=None,
        execution_time=0.25,
        source="json",
        message_blocks=blocks,
        permission_id="perm_1",
    )
    response = client.get("/api/console/executions")
    assert response.status_code == 200
    rows = response.json()["executions"]
    assert [r["id"] for r in rows] == [new["id"], old["id"]]
    assert rows[0] == {
        "id": new["id"],
        "kind": "execute",  # the column's default: rows written before kinds existed
        "host": None,
        "hostTitle": None,
        "sessionId": "sess-1",
        "hookEvent": "PostToolUse",
        "toolName": None,
        "command": "./hooks/check.sh",
        "exitCode": None,
        "executionTime": 0.25,
        "shouldContinue": True,
        "source": "json",
        "decision": None,
        "messageBlocks": blocks,
        "permissionId": "perm_1",
        "timestamp": base,
    }
    assert rows[1]["exitCode"] == 2
    assert rows[1]["shouldContinue"] is False


def test_executions_limit_and_after(client: TestClient, database_url: str) -> None:
    base = now_ms() - 10_000
    made = [insert_execution(database_url, created_at=base + i) for i in range(5)]
    newest_first = [row["id"] for row in reversed(made)]

    limited = client.get("/api/console/executions", params={"limit": 2}).json()["executions"]
    assert [r["id"] for r in limited] == newest_first[:2]

    after = client.get("/api/console/executions", params={"after": base + 2}).json()
    assert [r["id"] for r in after["executions"]] == newest_first[:2]

    none = client.get("/api/console/executions", params={"after": base + 4}).json()
    assert none == {"executions": []}


@ONE_DATABASE
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 201}, "limit"),
        ({"limit": "many"}, "limit"),
        ({"after": -1}, "after"),
        ({"after": 2**53}, "after"),
    ],
)
def test_executions_reject_bad_parameters(
    client: TestClient, params: dict[str, Any], field: str
) -> None:
    response = client.get("/api/console/executions", params=params)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    assert [d["field"] for d in body["details"]] == [field]


# --- the change token ---------------------------------------------------------------------


def test_token_is_stable_while_nothing_changes(client: TestClient) -> None:
    first = snapshot(client)
    second = snapshot(client)
    assert set(first) == {
        "permissions",
        "executions",
        "config",
        "approvals",
        "decisions",
        "serverTime",
    }
    assert abs(first["serverTime"] - now_ms()) < 5000
    first.pop("serverTime")
    second.pop("serverTime")
    assert first == second


def test_token_moves_for_permissions_only_when_the_pending_set_changes(
    client: TestClient,
) -> None:
    before = snapshot(client)
    permission_id = create_permission(client)
    created = snapshot(client)
    assert created["permissions"] != before["permissions"]
    assert created["executions"] == before["executions"]
    assert created["config"] == before["config"]

    resolved = client.post(
        f"/internal/hook/resolve-permission/{permission_id}",
        json={"decision": "allow"},
        headers=session(),
    )
    assert resolved.status_code == 200
    after = snapshot(client)
    assert after["permissions"] != created["permissions"]
    assert after["permissions"] == before["permissions"]  # the same (empty) pending set


def test_token_moves_for_approval_requests(client: TestClient) -> None:
    from tests.api.approval_helpers import request_body

    before = snapshot(client)
    created = client.post("/api/approvals", json=request_body())
    assert created.status_code == 201
    opened = snapshot(client)
    assert opened["approvals"] != before["approvals"]
    assert opened["permissions"] == before["permissions"]
    decided = client.post(
        f"/api/approvals/{created.json()['id']}/decision",
        json={"decision": "deny", "input_hash": request_body()["input_hash"]},
    )
    assert decided.status_code == 200
    assert snapshot(client)["approvals"] == before["approvals"]  # nothing waits again


def test_token_moves_when_a_permission_expires(client: TestClient) -> None:
    update = {"timeoutMs": {"permissionRequest": 1000}}
    assert client.put("/api/hook/output-config", json=update, headers=session()).status_code == 200
    empty = snapshot(client)["permissions"]
    create_permission(client)
    pending = snapshot(client)["permissions"]
    assert pending != empty
    deadline = time.monotonic() + 10
    while snapshot(client)["permissions"] == pending:  # the expiry loop marks it expired
        assert time.monotonic() < deadline, "the expired request never left the pending set"
        time.sleep(0.1)
    assert snapshot(client)["permissions"] == empty


def test_token_moves_for_executions_even_within_one_millisecond(
    client: TestClient, database_url: str
) -> None:
    before = snapshot(client)
    at = now_ms()
    insert_execution(database_url, created_at=at)
    one = snapshot(client)
    assert one["executions"] != before["executions"]
    insert_execution(database_url, created_at=at)  # same millisecond
    two = snapshot(client)
    assert two["executions"] != one["executions"]
    insert_execution(database_url, created_at=at - 500)  # committed late by another worker
    three = snapshot(client)
    assert three["executions"] != two["executions"]
    assert three["permissions"] == before["permissions"]
    assert three["config"] == before["config"]


def test_token_moves_when_the_configuration_changes(client: TestClient) -> None:
    before = snapshot(client)
    update = {"uiConfig": {"autoExpandHookBlocks": True}}
    assert client.put("/api/hook/output-config", json=update, headers=session()).status_code == 200
    after = snapshot(client)
    assert after["config"] == before["config"] + 1
    assert after["permissions"] == before["permissions"]


def test_the_feed_spends_none_of_the_consoles_rate_limits(client: TestClient) -> None:
    console = {"X-Session-Id": "console"}
    for _ in range(60):
        assert client.get("/api/console/executions", headers=console).status_code == 200
        assert client.get("/api/console/events", headers=console).status_code == 200
    assert client.get("/internal/hook/pending-permissions", headers=console).status_code == 200


# --- the live stream, on real servers -----------------------------------------------------


class EventReader:
    """Follows /api/console/events from a thread, as the page does.

    A raw HTTP/1.0 socket (the body is then the bare event stream, no chunking) with a
    short receive timeout, so closing it is prompt and the server sees the disconnect.
    """

    def __init__(self, server: LiveServer) -> None:
        self.events: list[dict[str, Any]] = []
        self.head = ""
        host, port = server.url.removeprefix("http://").split(":")
        self._sock = socket.create_connection((host, int(port)), timeout=10)
        self._sock.sendall(
            (
                "GET /api/console/events HTTP/1.0\r\n"
                f"Host: {host}:{port}\r\n"
                f"Authorization: Bearer {server.token}\r\n"
                "Accept: text/event-stream\r\n"
                "X-Session-Id: console\r\n\r\n"
            ).encode()
        )
        self._sock.settimeout(0.2)
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(15), "no response from the event stream"

    def _run(self) -> None:
        buffer = b""
        while not self._stop.is_set():
            try:
                chunk = self._sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            buffer += chunk
            if not self._ready.is_set() and b"\r\n\r\n" in buffer:
                head, buffer = buffer.split(b"\r\n\r\n", 1)
                self.head = head.decode("latin-1").lower()
                self._ready.set()
            while self._ready.is_set() and b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.decode().splitlines():
                    if line.startswith("data: "):
                        self.events.append(json.loads(line.removeprefix("data: ")))

    def wait_for(self, count: int, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while len(self.events) < count:
            assert time.monotonic() < deadline, f"only {len(self.events)} events: {self.events}"
            time.sleep(0.05)
        return self.events[count - 1]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._sock.close()


@pytest.fixture
def reader_factory() -> Iterator[Callable[[LiveServer], EventReader]]:
    readers: list[EventReader] = []

    def make(server: LiveServer) -> EventReader:
        reader = EventReader(server)
        readers.append(reader)
        return reader

    yield make
    for reader in readers:
        reader.close()


def test_stream_pushes_changes_from_another_server_process(
    live_server: Callable[..., LiveServer],
    reader_factory: Callable[[LiveServer], EventReader],
    tmp_path: Path,
) -> None:
    """Two `hookwise serve` processes on one database: a permission created through the
    second reaches a console following the first, because the stream reads the database."""
    first = live_server(data_dir=tmp_path / "one")
    second = live_server(data_dir=tmp_path / "two")
    reader = reader_factory(first)
    assert reader.head.startswith("http/1.1 200")
    assert "content-type: text/event-stream" in reader.head
    assert "cache-control: no-store" in reader.head
    initial = reader.wait_for(1)

    with second.client() as api:
        started = time.monotonic()
        permission_id = create_permission(api, tool="Write")
        changed = reader.wait_for(2)
        assert time.monotonic() - started < 3.0
        assert changed["permissions"] != initial["permissions"]
        assert changed["executions"] == initial["executions"]

        time.sleep(1.5)  # nothing happens: no event (keep-alives carry no data)
        assert len(reader.events) == 2

        resolved = api.post(
            f"/internal/hook/resolve-permission/{permission_id}",
            json={"decision": "deny"},
            headers=session(),
        )
        assert resolved.status_code == 200
        assert reader.wait_for(3)["permissions"] == initial["permissions"]
