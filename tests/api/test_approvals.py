"""The approval routes, on SQLite and PostgreSQL: roles, validation, decide once, expiry,
withdrawal, remembered approvals and hostile bodies."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hookwise.api.app import create_app
from hookwise.api.approvals.schemas import canonical_hash
from hookwise.api.settings import ServiceSettings
from hookwise.api.storage.tables import approvals, webhook_outbox
from hookwise.api.tokens import revoke_token
from tests.api.approval_helpers import Tokens, make_tokens, now_ms, request_body
from tests.api.conftest import AUTH, ONE_DATABASE

NO_AUTH = {"Authorization": ""}


@pytest.fixture
def tokens(client: TestClient) -> Tokens:
    return make_tokens(client.app.state.service.engine)  # type: ignore[attr-defined]


def create(client: TestClient, token: str, **kwargs: Any) -> dict[str, Any]:
    response = client.post(
        "/api/approvals", json=request_body(**kwargs), headers=Tokens.bearer(token)
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def decide(
    client: TestClient, token: str, approval_id: str, decision: str = "allow", **body: Any
) -> Any:
    payload = {"decision": decision, "input_hash": canonical_hash({"command": "rm -rf build"})}
    payload.update(body)
    return client.post(
        f"/api/approvals/{approval_id}/decision", json=payload, headers=Tokens.bearer(token)
    )


def engine_of(client: TestClient) -> sa.Engine:
    engine: sa.Engine = client.app.state.service.engine  # type: ignore[attr-defined]
    return engine


# --- who may do what ----------------------------------------------------------------------


def test_agent_opens_reads_and_withdraws_but_never_decides(
    client: TestClient, tokens: Tokens
) -> None:
    created = create(client, tokens.agent)
    assert created["status"] == "pending"
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/console/approvals/apr_\w+", created["page_url"])
    assert "token" not in created["page_url"]
    approval_id = created["id"]
    agent = Tokens.bearer(tokens.agent)

    refused = decide(client, tokens.agent, approval_id)
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    assert client.get("/api/approvals", headers=agent).status_code == 403
    read = client.get(f"/api/approvals/{approval_id}", headers=agent)
    assert read.status_code == 200 and read.json()["status"] == "pending"
    # Still pending: the 403 changed nothing.
    withdrawn = client.post(f"/api/approvals/{approval_id}/withdraw", headers=agent)
    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "withdrawn"
    assert withdrawn.json()["decision"] is None


def test_agent_sees_only_its_own_requests(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.agent)["id"]
    other = Tokens.bearer(tokens.other_agent)
    assert client.get(f"/api/approvals/{approval_id}", headers=other).status_code == 404
    assert client.post(f"/api/approvals/{approval_id}/withdraw", headers=other).status_code == 404
    approver = Tokens.bearer(tokens.approver)
    assert client.get(f"/api/approvals/{approval_id}", headers=approver).status_code == 200


def test_approver_decides_but_cannot_withdraw(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.approver)["id"]  # an approver may open one too
    approver = Tokens.bearer(tokens.approver)
    assert (
        client.post(f"/api/approvals/{approval_id}/withdraw", headers=approver).status_code == 403
    )
    listed = client.get("/api/approvals?status=pending", headers=approver)
    assert [a["id"] for a in listed.json()["approvals"]] == [approval_id]
    answer = decide(client, tokens.approver, approval_id, note="looks fine")
    assert answer.status_code == 200, answer.text
    decision = answer.json()["decision"]
    assert decision["approver"] == "alice"
    assert decision["note"] == "looks fine"
    assert decision["remembered_from"] is None


def test_admin_token_does_everything_and_is_named_admin(client: TestClient) -> None:
    created = client.post("/api/approvals", json=request_body())
    assert created.status_code == 201
    approval_id = created.json()["id"]
    decided = decide(client, "test-token-0123456789", approval_id, "deny")
    assert decided.json()["decision"]["approver"] == "admin"
    assert client.get("/api/approvals").status_code == 200


def _every_admin_route(client: TestClient) -> list[tuple[str, str]]:
    paths = client.get("/openapi.json").json()["paths"]
    routes = []
    for template, operations in paths.items():
        if template.startswith("/api/approvals"):
            continue
        path = re.sub(r"\{[^}]+\}", "x", template)
        routes.extend((method.upper(), path) for method in operations)
    return routes


def test_named_tokens_get_403_on_every_other_route(client: TestClient, tokens: Tokens) -> None:
    routes = _every_admin_route(client)
    assert len(routes) >= 20
    for token in (tokens.agent, tokens.approver):
        for method, path in routes:
            response = client.request(method, path, json={}, headers=Tokens.bearer(token))
            assert response.status_code == 403, (method, path, response.text)
            assert response.json()["error"] == "forbidden"
        # The parse-output fast path answers the same.
        fast = client.post("/internal/hook/parse-output", json={}, headers=Tokens.bearer(token))
        assert fast.status_code == 403


def test_unknown_and_revoked_tokens_get_401(client: TestClient, tokens: Tokens) -> None:
    for bad in ("", "hw_agent_nope", "x" * 5000):
        headers = {"Authorization": f"Bearer {bad}"}
        assert (
            client.post("/api/approvals", json=request_body(), headers=headers).status_code == 401
        )
        assert client.get("/api/hook/output-config", headers=headers).status_code == 401
    assert client.get("/api/approvals/apr_x", headers=NO_AUTH).status_code == 401
    revoke_token(engine_of(client), "laptop-agent")
    response = client.post(
        "/api/approvals", json=request_body(), headers=Tokens.bearer(tokens.agent)
    )
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_the_admin_token_keeps_the_seed_contract(client: TestClient) -> None:
    """Named tokens change nothing for the admin token on the existing routes."""
    assert client.get("/api/hook/output-config").status_code == 200
    response = client.post(
        "/internal/hook/create-permission-request",
        json={"toolName": "Bash", "reason": "r", "originalInput": {}},
    )
    assert response.status_code == 200
    assert client.get("/api/hook/output-config", headers=NO_AUTH).status_code == 401


# --- creating ---------------------------------------------------------------------------


def _invalid(client: TestClient, token: str, body: Any) -> dict[str, Any]:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(
        "/api/approvals",
        content=content,
        headers={**Tokens.bearer(token), "Content-Type": "application/json"},
    )
    assert response.status_code == 400, response.text
    answer: dict[str, Any] = response.json()
    assert answer["error"] == "invalid_request"
    assert answer["message"] == "Invalid approval request format"
    return answer


def _fields(answer: dict[str, Any]) -> set[str]:
    return {d["field"] for d in answer["details"]}


def test_a_hash_that_does_not_match_the_input_is_refused(
    client: TestClient, tokens: Tokens
) -> None:
    body = request_body(input_hash=canonical_hash({"command": "ls"}))
    assert _fields(_invalid(client, tokens.agent, body)) == {"input_hash"}
    # Key order does not matter: the hash is of the canonical JSON.
    tool_input = {"b": [1, {"y": "é", "x": None}], "a": 1.5}
    reordered = request_body(input={"a": 1.5, "b": [1, {"x": None, "y": "é"}]})
    reordered["input_hash"] = canonical_hash(tool_input)
    ok = client.post("/api/approvals", json=reordered, headers=Tokens.bearer(tokens.agent))
    assert ok.status_code == 201, ok.text


@ONE_DATABASE
@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"expires_at": 1}, "expires_at"),
        ({"expires_at": now_ms() + 25 * 3_600_000}, "expires_at"),
        ({"nonce": "abc"}, "nonce"),
        ({"nonce": "Z" * 32}, "nonce"),
        ({"remember_minutes": 1441}, "remember_minutes"),
        ({"remember_minutes": -1}, "remember_minutes"),
        ({"remember_minutes": "5"}, "remember_minutes"),
        ({"host": ""}, "host"),
        ({"host": 7}, "host"),
        ({"session_id": "s" * 257}, "session_id"),
        ({"cwd": "/tmp/\x00"}, "cwd"),
        ({"input": "rm -rf /"}, "input"),
        ({"input": {"command": "x" * 70_000}}, "input"),
        ({"input_hash": "md5:00"}, "input_hash"),
        ({"notify": [{"type": "email", "url": "https://example.com"}]}, "notify.0.type"),
        ({"notify": [{"type": "ntfy", "url": "file:///etc/passwd"}]}, "notify.0.url"),
        ({"notify": [{"type": "ntfy", "url": "http://127.0.0.1:9/x"}]}, "notify.0.url"),
        ({"notify": [{"type": "slack", "url": "http://169.254.169.254/"}]}, "notify.0.url"),
        ({"notify": [{"type": "ntfy", "url": "https://example.com"}] * 9}, "notify"),
        ({"extra": 1}, "extra"),
        ({"expires_at": 1.5e12}, "expires_at"),
    ],
)
def test_bad_fields_are_named(
    client: TestClient, tokens: Tokens, override: dict[str, Any], field: str
) -> None:
    body = request_body(**override)
    if "input" in override and isinstance(override["input"], dict):
        body["input_hash"] = canonical_hash(override["input"])
    assert field in _fields(_invalid(client, tokens.agent, body))


@ONE_DATABASE
@pytest.mark.parametrize(
    "raw",
    [
        b'{"host": "\\ud800", "session_id": "s"}',
        b'{"expires_at": NaN}',
        b'{"expires_at": 1e999}',
        b"[1, 2, 3]",
        b"not json",
        b'"just a string"',
    ],
)
def test_hostile_bodies_are_a_400(client: TestClient, tokens: Tokens, raw: bytes) -> None:
    _invalid(client, tokens.agent, raw)
    with engine_of(client).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(approvals)).scalar_one() == 0


def test_a_huge_body_is_a_413(client: TestClient, tokens: Tokens) -> None:
    body = request_body(reason="r" * (2 * 1024 * 1024))
    response = client.post("/api/approvals", json=body, headers=Tokens.bearer(tokens.agent))
    assert response.status_code == 413


def test_bad_decision_bodies(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.agent, remember_minutes=5)["id"]
    for body in (
        {"decision": "maybe"},
        {"decision": "allow", "input_hash": "sha256:xyz"},
        {"decision": "allow", "note": "n" * 2001},
        {"decision": "allow", "note": 5},
        {"decision": "allow", "remember_minutes": 6},  # more than the request accepts
        {"decision": "allow", "remember_minutes": True},
    ):
        response = decide(client, tokens.approver, approval_id, **body)
        assert response.status_code == 400, (body, response.text)
    assert decide(client, tokens.approver, approval_id, remember_minutes=5).status_code == 200


# --- deciding ---------------------------------------------------------------------------


def test_hash_mismatch_conflict_and_unknown(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.agent)["id"]
    other = decide(
        client, tokens.approver, approval_id, input_hash=canonical_hash({"command": "ls"})
    )
    assert other.status_code == 409
    assert other.json()["error"] == "hash_mismatch"
    assert decide(client, tokens.approver, approval_id, "deny", note="no").status_code == 200
    again = decide(client, tokens.second_approver, approval_id)
    assert again.status_code == 409
    assert again.json()["error"] == "conflict"
    assert again.json()["status"] == "denied"
    read = client.get(f"/api/approvals/{approval_id}", headers=Tokens.bearer(tokens.agent)).json()
    assert read["status"] == "denied"
    assert read["decision"]["approver"] == "alice"
    assert read["decision"]["note"] == "no"
    missing = decide(client, tokens.approver, "apr_0_nothing")
    assert missing.status_code == 404
    assert decide(client, tokens.approver, "x" * 65).status_code in (400, 404)
    withdraw = client.post(
        f"/api/approvals/{approval_id}/withdraw", headers=Tokens.bearer(tokens.agent)
    )
    assert withdraw.status_code == 409
    assert withdraw.json()["status"] == "denied"


def test_expiry_without_a_loop(settings: ServiceSettings) -> None:
    with TestClient(create_app(settings, run_background=False), headers=AUTH) as client:
        _expire_by_reading(client)  # nothing but the reads expire it


def _expire_by_reading(client: TestClient) -> None:
    tokens = make_tokens(engine_of(client))
    approval_id = create(client, tokens.agent, expires_in_ms=1500)["id"]  # room for a slow create
    time.sleep(1.6)
    late = decide(client, tokens.approver, approval_id)
    assert late.status_code == 410
    assert late.json()["error"] == "expired"
    read = client.get(f"/api/approvals/{approval_id}", headers=Tokens.bearer(tokens.agent))
    assert read.json()["status"] == "expired"
    assert read.json()["decision"] is None
    with engine_of(client).connect() as conn:
        closed = conn.execute(
            sa.select(sa.func.count())
            .select_from(webhook_outbox)
            .where(webhook_outbox.c.event_type == "approval_closed")
        ).scalar_one()
    assert closed == 0  # no subscriber: nothing queued, but the state is right


def test_long_poll_answers_at_expiry(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.agent, expires_in_ms=1500)["id"]
    started = time.monotonic()
    read = client.get(f"/api/approvals/{approval_id}?wait=10", headers=Tokens.bearer(tokens.agent))
    assert read.json()["status"] == "expired"
    assert time.monotonic() - started < 4


def test_long_poll_returns_pending_after_wait(client: TestClient, tokens: Tokens) -> None:
    approval_id = create(client, tokens.agent)["id"]
    started = time.monotonic()
    read = client.get(f"/api/approvals/{approval_id}?wait=0.3", headers=Tokens.bearer(tokens.agent))
    assert read.json()["status"] == "pending"
    assert 0.25 <= time.monotonic() - started < 3
    for bad in ("61", "-1", "nan", "abc"):
        response = client.get(
            f"/api/approvals/{approval_id}?wait={bad}", headers=Tokens.bearer(tokens.agent)
        )
        assert response.status_code == 400, bad


# --- remembered approvals ---------------------------------------------------------------


def test_a_remembered_approval_covers_the_same_command_in_the_same_session_only(
    client: TestClient, tokens: Tokens
) -> None:
    first = create(client, tokens.agent, remember_minutes=10)["id"]
    assert decide(client, tokens.approver, first, remember_minutes=5).status_code == 200

    again = create(client, tokens.agent, remember_minutes=10)
    assert again["status"] == "allowed"
    assert again["decision"]["remembered_from"] == first
    assert again["decision"]["approver"] == "alice"
    read = client.get(f"/api/approvals/{again['id']}", headers=Tokens.bearer(tokens.agent)).json()
    assert read["decision"]["remembered_from"] == first

    # Another session, another command, another cwd, or a hook that accepts no window.
    assert create(client, tokens.agent, remember_minutes=10, session_id="s2")["status"] == "pending"
    assert create(client, tokens.agent, remember_minutes=10, command="rm -rf src")["status"] == (
        "pending"
    )
    assert (
        create(client, tokens.agent, remember_minutes=10, cwd="/elsewhere")["status"] == "pending"
    )
    assert create(client, tokens.agent, remember_minutes=0)["status"] == "pending"

    # Past the window (the decision moved 6 minutes back): asked again.
    with engine_of(client).begin() as conn:
        conn.execute(
            approvals.update()
            .where(approvals.c.id == first)
            .values(decided_at=now_ms() - 6 * 60_000)
        )
    assert create(client, tokens.agent, remember_minutes=10)["status"] == "pending"


def test_a_window_is_the_shorter_of_the_decision_and_the_request(
    client: TestClient, tokens: Tokens
) -> None:
    first = create(client, tokens.agent, remember_minutes=30)["id"]
    assert decide(client, tokens.approver, first, remember_minutes=30).status_code == 200
    with engine_of(client).begin() as conn:
        conn.execute(
            approvals.update().where(approvals.c.id == first).values(decided_at=now_ms() - 120_000)
        )
    # Two minutes ago: inside 30, outside the 1 minute this hook accepts.
    assert create(client, tokens.agent, remember_minutes=1)["status"] == "pending"
    assert create(client, tokens.agent, remember_minutes=3)["status"] == "allowed"


def test_a_deny_or_an_allow_without_window_is_never_remembered(
    client: TestClient, tokens: Tokens
) -> None:
    denied = create(client, tokens.agent, remember_minutes=10)["id"]
    assert decide(client, tokens.approver, denied, "deny").status_code == 200
    assert create(client, tokens.agent, remember_minutes=10)["status"] == "pending"
    allowed = create(client, tokens.agent, remember_minutes=10, session_id="s3")["id"]
    assert decide(client, tokens.approver, allowed).status_code == 200
    assert create(client, tokens.agent, remember_minutes=10, session_id="s3")["status"] == "pending"


# --- listing ----------------------------------------------------------------------------


def test_list_newest_first_with_status_and_limit(client: TestClient, tokens: Tokens) -> None:
    ids = [create(client, tokens.agent, session_id=f"s{i}")["id"] for i in range(3)]
    decide(client, tokens.approver, ids[0])
    approver = Tokens.bearer(tokens.approver)
    pending = client.get("/api/approvals?status=pending", headers=approver).json()["approvals"]
    assert [a["id"] for a in pending] == [ids[2], ids[1]]
    everything = client.get("/api/approvals?limit=2", headers=approver).json()["approvals"]
    assert [a["id"] for a in everything] == [ids[2], ids[1]]
    for bad in ("status=nope", "limit=0", "limit=201"):
        assert client.get(f"/api/approvals?{bad}", headers=approver).status_code == 400


def test_events_are_queued_with_the_change(client: TestClient, tokens: Tokens) -> None:
    created = client.post(
        "/api/webhooks",
        json={
            "url": "https://example.com/hook",
            "events": ["approval_requested", "approval_decided", "approval_closed"],
        },
        headers=AUTH,
    )
    assert created.status_code == 201, created.text
    first = create(client, tokens.agent)["id"]
    decide(client, tokens.approver, first, note="ok")
    second = create(client, tokens.agent, session_id="s9")["id"]
    client.post(f"/api/approvals/{second}/withdraw", headers=Tokens.bearer(tokens.agent))
    with engine_of(client).connect() as conn:
        rows = conn.execute(
            sa.select(webhook_outbox.c.event_type, webhook_outbox.c.payload).order_by(
                webhook_outbox.c.id
            )
        ).all()
    kinds = [(r.event_type, r.payload["approvalId"], r.payload["status"]) for r in rows]
    assert kinds == [
        ("approval_requested", first, "pending"),
        ("approval_decided", first, "allowed"),
        ("approval_requested", second, "pending"),
        ("approval_closed", second, "withdrawn"),
    ]
    decided = rows[1].payload
    assert (decided["approver"], decided["note"], decided["decision"]) == ("alice", "ok", "allow")
    assert all("hw_" not in json.dumps(r.payload) for r in rows)  # no token leaves
