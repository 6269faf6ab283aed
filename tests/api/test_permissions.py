"""The permission routes on SQLite and PostgreSQL: shapes, 404/409, expiry, webhooks, limits."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings
from hookwise.api.state import ServiceState
from hookwise.api.storage.tables import permissions, webhook_outbox, webhook_subscribers
from tests.api.conftest import AUTH, ONE_DATABASE

CREATE = "/internal/hook/create-permission-request"
PENDING = "/internal/hook/pending-permissions"
RESOLVE = "/internal/hook/resolve-permission/{}"
ASK = {
    "toolName": "Bash",
    "reason": "rm -rf needs a human",
    "originalInput": {"command": "rm -rf build"},
}


def state_of(client: TestClient) -> ServiceState:
    state: ServiceState = client.app.state.service  # type: ignore[attr-defined]
    return state


def set_permission_timeout(client: TestClient, ms: int, fallback: str | None = None) -> None:
    """Through the configuration API, as an operator would."""
    update: dict[str, Any] = {"timeoutMs": {"permissionRequest": ms}}
    if fallback is not None:
        update["permissionFallback"] = fallback
    response = client.put("/api/hook/output-config", json=update)
    assert response.status_code == 200, response.text
    assert response.json()["config"]["timeoutMs"]["permissionRequest"] == ms


def subscribe(client: TestClient, events: list[str]) -> str:
    """A subscriber row written straight into the table (no delivery is awaited here)."""
    sid = f"sub_{len(events)}_{time.time_ns()}"
    with state_of(client).engine.begin() as conn:
        conn.execute(
            webhook_subscribers.insert().values(
                id=sid,
                url="http://127.0.0.1:9/never",
                events=events,
                secret="s3cret",
                active=True,
                created_at=0,
            )
        )
    return sid


def outbox(client: TestClient, event_type: str) -> list[dict[str, Any]]:
    with state_of(client).engine.connect() as conn:
        rows = conn.execute(
            sa.select(webhook_outbox.c.payload, webhook_outbox.c.subscriber_id)
            .where(webhook_outbox.c.event_type == event_type)
            .order_by(webhook_outbox.c.id)
        ).all()
    return [{**row.payload, "_subscriber": row.subscriber_id} for row in rows]


def stored(client: TestClient, permission_id: str) -> Any:
    with state_of(client).engine.connect() as conn:
        return conn.execute(sa.select(permissions).where(permissions.c.id == permission_id)).one()


def create(
    client: TestClient, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Any:
    response = client.post(CREATE, json=body or ASK, headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()


def test_create_list_resolve_allow(client: TestClient) -> None:
    before = int(time.time() * 1000)
    body = {**ASK, "updatedInput": {"command": "rm -rf build/tmp"}}
    created = client.post(CREATE, json=body, headers={"X-Session-Id": "sess-1"}).json()
    pid = created["permissionId"]
    assert re.fullmatch(r"perm_\d{13}_[0-9a-f]{24}", pid)
    request = created["request"]
    assert request["id"] == pid
    assert request["toolName"] == "Bash"
    assert request["reason"] == ASK["reason"]
    assert request["originalInput"] == {"command": "rm -rf build"}
    assert request["updatedInput"] == {"command": "rm -rf build/tmp"}
    assert before <= request["timestamp"] <= int(time.time() * 1000)
    assert stored(client, pid).session_id == "sess-1"

    listed = client.get(PENDING).json()
    assert listed == {"permissions": [request]}

    resolved = client.post(RESOLVE.format(pid), json={"decision": "allow", "reason": "ok"})
    assert resolved.status_code == 200, resolved.text
    answer = resolved.json()
    assert answer["resolved"] is True
    assert answer["shouldProceed"] is True
    decision = answer["decision"]
    assert decision["decision"] == "allow"
    assert decision["shouldContinueRecursion"] is True
    assert decision["reason"] == "ok"
    assert decision["timestamp"] >= request["timestamp"]
    assert client.get(PENDING).json() == {"permissions": []}
    row = stored(client, pid)
    assert (row.status, row.decision, row.decision_reason) == ("allowed", "allow", "ok")


def test_deny_does_not_proceed_and_anonymous_session(client: TestClient) -> None:
    pid = create(client)["permissionId"]
    answer = client.post(RESOLVE.format(pid), json={"decision": "deny"}).json()
    assert answer["shouldProceed"] is False
    assert answer["decision"]["decision"] == "deny"
    assert answer["decision"]["shouldContinueRecursion"] is False
    assert "updatedInput" not in create(client)["request"]
    assert stored(client, pid).session_id == "anonymous"


def test_pending_is_oldest_first(client: TestClient) -> None:
    ids = [create(client, {**ASK, "toolName": f"T{i}"})["permissionId"] for i in range(4)]
    client.post(RESOLVE.format(ids[1]), json={"decision": "deny"})
    listed = [p["id"] for p in client.get(PENDING).json()["permissions"]]
    assert listed == [ids[0], ids[2], ids[3]]


def test_unknown_id_is_404(client: TestClient) -> None:
    response = client.post(RESOLVE.format("perm_1_nope"), json={"decision": "allow"})
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "not_found"
    assert "perm_1_nope" in body["message"]


def test_second_resolve_is_409_naming_the_decision(client: TestClient) -> None:
    pid = create(client)["permissionId"]
    assert client.post(RESOLVE.format(pid), json={"decision": "deny"}).status_code == 200
    again = client.post(RESOLVE.format(pid), json={"decision": "allow"})
    assert again.status_code == 409
    body = again.json()
    assert body["error"] == "conflict"
    assert "already resolved" in body["message"] and "deny" in body["message"]
    assert (body["status"], body["decision"]) == ("resolved", "deny")


@ONE_DATABASE
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"decision": "maybe"}, "decision"),
        ({}, "decision"),
        ({"decision": "allow", "reason": 5}, "reason"),
    ],
)
def test_bad_resolve_body_is_400(client: TestClient, body: dict[str, Any], field: str) -> None:
    pid = create(client)["permissionId"]
    response = client.post(RESOLVE.format(pid), json=body)
    assert response.status_code == 400
    details = response.json()["details"]
    assert [d["field"] for d in details] == [field]


def test_bad_create_body_names_each_field(client: TestClient) -> None:
    response = client.post(CREATE, json={"toolName": 3, "originalInput": []})
    assert response.status_code == 400
    fields = sorted(d["field"] for d in response.json()["details"])
    assert fields == ["originalInput", "reason", "toolName"]


@pytest.mark.parametrize("fallback", ["deny", "allow"])
def test_expiry_applies_the_fallback(client: TestClient, fallback: str) -> None:
    set_permission_timeout(client, 1500, fallback)  # (a loaded machine's create + list)
    subscribe(client, ["permission_resolved"])
    pid = create(client, headers={"X-Session-Id": "s-exp"})["permissionId"]
    assert [p["id"] for p in client.get(PENDING).json()["permissions"]] == [pid]
    time.sleep(1.65)
    assert client.get(PENDING).json() == {"permissions": []}
    late = client.post(RESOLVE.format(pid), json={"decision": "allow"})
    assert late.status_code == 409
    body = late.json()
    assert (body["status"], body["decision"]) == ("expired", fallback)
    assert "expired" in body["message"] and fallback in body["message"]
    row = stored(client, pid)
    assert (row.status, row.decision) == ("expired", fallback)
    events = [e for e in outbox(client, "permission_resolved") if e["permissionId"] == pid]
    assert len(events) == 1  # the loop and the lazy path never both report it
    event = events[0]
    assert event["decision"] == fallback
    assert event["sessionId"] == "s-exp"
    assert event["processingTime"] == 1500  # decided at the deadline
    assert event["timestamp"] >= row.created_at + 1500


def test_expiry_does_not_need_the_background_loop(settings: ServiceSettings) -> None:
    """With no loop running, a resolve after the deadline still sees 'expired'."""
    with TestClient(create_app(settings, run_background=False), headers=AUTH) as client:
        set_permission_timeout(client, 100)
        pid = create(client)["permissionId"]
        time.sleep(0.2)
        assert stored(client, pid).status == "pending"  # nobody marked it yet
        late = client.post(RESOLVE.format(pid), json={"decision": "allow"})
        assert late.status_code == 409
        assert late.json()["status"] == "expired"
        assert late.json()["decision"] == "deny"
        assert stored(client, pid).status == "expired"


def test_background_loop_expires_without_any_read(client: TestClient) -> None:
    set_permission_timeout(client, 100)
    subscribe(client, ["permission_resolved"])
    pid = create(client)["permissionId"]
    deadline = time.monotonic() + 5
    while stored(client, pid).status == "pending" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stored(client, pid).status == "expired"
    assert [e["permissionId"] for e in outbox(client, "permission_resolved")] == [pid]


def test_timeout_is_read_at_creation(client: TestClient) -> None:
    set_permission_timeout(client, 60_000)
    pid = create(client)["permissionId"]
    set_permission_timeout(client, 100)
    time.sleep(0.2)
    assert client.post(RESOLVE.format(pid), json={"decision": "allow"}).status_code == 200


def test_webhook_events_in_the_outbox(client: TestClient) -> None:
    first = subscribe(client, ["permission_requested", "permission_resolved"])
    second = subscribe(client, ["permission_requested"])
    created = create(client, headers={"X-Session-Id": "hook-sess"})
    pid = created["permissionId"]
    time.sleep(0.02)
    client.post(RESOLVE.format(pid), json={"decision": "allow"})

    requested = outbox(client, "permission_requested")
    assert sorted(e.pop("_subscriber") for e in requested) == sorted([first, second])
    assert (
        requested[0]
        == requested[1]
        == {
            "eventType": "permission_requested",
            "timestamp": created["request"]["timestamp"],
            "permissionId": pid,
            "toolName": "Bash",
            "reason": ASK["reason"],
            "sessionId": "hook-sess",
        }
    )
    (resolved,) = outbox(client, "permission_resolved")
    assert resolved.pop("_subscriber") == first
    assert set(resolved) == {
        "eventType",
        "timestamp",
        "permissionId",
        "decision",
        "processingTime",
        "sessionId",
    }
    assert resolved["eventType"] == "permission_resolved"
    assert resolved["permissionId"] == pid
    assert resolved["decision"] == "allow"
    assert resolved["sessionId"] == "hook-sess"
    assert resolved["processingTime"] == resolved["timestamp"] - created["request"]["timestamp"]
    assert resolved["processingTime"] >= 20


def test_no_subscriber_no_outbox_rows(client: TestClient) -> None:
    pid = create(client)["permissionId"]
    client.post(RESOLVE.format(pid), json={"decision": "deny"})
    assert outbox(client, "permission_requested") == []
    assert outbox(client, "permission_resolved") == []


def test_pending_permissions_survive_a_restart(settings: ServiceSettings) -> None:
    with TestClient(create_app(settings), headers=AUTH) as first:
        pid = create(first)["permissionId"]
    with TestClient(create_app(settings), headers=AUTH) as second:
        assert [p["id"] for p in second.get(PENDING).json()["permissions"]] == [pid]


@pytest.mark.usefixtures("one_window")
def test_the_51st_request_of_a_burst_is_429(client: TestClient) -> None:
    headers = {"X-Session-Id": "burst"}
    pid = create(client, headers=headers)["permissionId"]  # 1
    for i in range(49):  # 2..50, the three routes share the group
        if i % 2:
            response = client.get(PENDING, headers=headers)
        else:
            response = client.post(CREATE, json=ASK, headers=headers)
        assert response.status_code == 200, (i, response.text)
    refused = client.post(RESOLVE.format(pid), json={"decision": "allow"}, headers=headers)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    body = refused.json()
    assert body["error"] == "rate_limit_exceeded"
    assert (body["limit"], body["remaining"]) == (50, 0)
    assert body["retryAfter"] == int(refused.headers["Retry-After"])
    assert stored(client, pid).status == "pending"  # the refused resolve did nothing
    other = client.get(PENDING, headers={"X-Session-Id": "someone-else"})
    assert other.status_code == 200


def test_unauthenticated_is_401(client: TestClient) -> None:
    bare = TestClient(client.app)
    assert bare.get(PENDING).status_code == 401
    assert bare.post(CREATE, json=ASK).status_code == 401


def test_text_the_database_cannot_store_is_400(client: TestClient) -> None:
    body = {**ASK, "toolName": "Ba\x00sh", "reason": "lone \ud800 surrogate"}
    raw = json.dumps(body).encode()  # escapes the surrogate, which httpx cannot encode
    response = client.post(CREATE, content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    # Text no answer can carry (a lone surrogate) is refused before the route's own checks.
    assert [d["field"] for d in response.json()["details"]] == ["reason"]
    nul = client.post(CREATE, json={**ASK, "toolName": "Ba\x00sh", "reason": "a\x00"})
    assert nul.status_code == 400
    assert sorted(d["field"] for d in nul.json()["details"]) == ["reason", "toolName"]
    assert client.get(PENDING).json() == {"permissions": []}
    pid = create(client)["permissionId"]
    bad_reason = client.post(RESOLVE.format(pid), json={"decision": "deny", "reason": "a\x00"})
    assert bad_reason.status_code == 400
    assert stored(client, pid).status == "pending"


@pytest.mark.parametrize("permission_id", ["perm_" + "9" * 200, "perm_1_%00", "%F0%9F%98%80"])
def test_ids_that_cannot_exist_are_404(client: TestClient, permission_id: str) -> None:
    response = client.post(RESOLVE.format(permission_id), json={"decision": "allow"})
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
