"""The console's sign-in for approvers: cookie flags, CSRF, who may sign in, revocation."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings
from hookwise.api.tokens import revoke_token
from tests.api.approval_helpers import Tokens, make_tokens, request_body
from tests.api.conftest import AUTH, TOKEN


@pytest.fixture
def browser_like(settings: ServiceSettings) -> Any:
    """A client without the admin header (a browser sends only cookies)."""
    with TestClient(create_app(settings)) as client:
        yield client


def sign_in(client: TestClient, token: str) -> Any:
    return client.post("/api/console/session", json={"token": token})


def test_an_approver_signs_in_once_and_decides_with_the_csrf_token(
    browser_like: TestClient,
) -> None:
    tokens = make_tokens(browser_like.app.state.service.engine)  # type: ignore[attr-defined]
    created = browser_like.post(
        "/api/approvals", json=request_body(), headers=Tokens.bearer(tokens.agent)
    ).json()
    signed = sign_in(browser_like, tokens.approver)
    assert signed.status_code == 200
    assert signed.json()["name"] == "alice" and signed.json()["role"] == "approver"
    csrf = signed.json()["csrf"]
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http on loopback
    assert tokens.approver not in cookie

    who = browser_like.get("/api/console/session")
    assert who.json() == {"name": "alice", "role": "approver", "csrf": csrf}
    assert browser_like.get(f"/api/approvals/{created['id']}").status_code == 200
    assert browser_like.get("/api/approvals").status_code == 200

    body = {"decision": "allow", "input_hash": created and request_body()["input_hash"]}
    url = f"/api/approvals/{created['id']}/decision"
    no_csrf = browser_like.post(url, json=body)
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["message"]
    wrong = browser_like.post(url, json=body, headers={"X-CSRF-Token": "nope"})
    assert wrong.status_code == 403
    cross = browser_like.post(
        url, json=body, headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"}
    )
    assert cross.status_code == 403
    done = browser_like.post(
        url, json=body, headers={"X-CSRF-Token": csrf, "Origin": "http://testserver"}
    )
    assert done.status_code == 200, done.text
    assert done.json()["decision"]["approver"] == "alice"


def test_the_cookie_opens_nothing_but_the_approval_routes(browser_like: TestClient) -> None:
    tokens = make_tokens(browser_like.app.state.service.engine)  # type: ignore[attr-defined]
    csrf = sign_in(browser_like, tokens.approver).json()["csrf"]
    for path in ("/api/hook/output-config", "/api/console/executions", "/api/webhooks"):
        assert browser_like.get(path).status_code == 401, path
    withdraw = browser_like.post("/api/approvals/apr_x/withdraw", headers={"X-CSRF-Token": csrf})
    assert withdraw.status_code == 403  # an approver may not withdraw


def test_agent_unknown_and_admin_sign_ins(browser_like: TestClient) -> None:
    tokens = make_tokens(browser_like.app.state.service.engine)  # type: ignore[attr-defined]
    agent = sign_in(browser_like, tokens.agent)
    assert agent.status_code == 403 and agent.json()["error"] == "forbidden"
    assert "set-cookie" not in agent.headers
    assert sign_in(browser_like, "hw_approver_guess").status_code == 401
    for bad in ({"token": ""}, {"token": 5}, {"token": "x" * 600}, {}, {"token": "a", "b": 1}):
        assert browser_like.post("/api/console/session", json=bad).status_code == 400, bad
    assert browser_like.get("/api/console/session").status_code == 401
    admin = sign_in(browser_like, TOKEN)
    assert admin.status_code == 200 and admin.json()["name"] == "admin"


def test_revoking_the_token_ends_its_sessions(browser_like: TestClient) -> None:
    engine = browser_like.app.state.service.engine  # type: ignore[attr-defined]
    tokens = make_tokens(engine)
    assert sign_in(browser_like, tokens.approver).status_code == 200
    assert browser_like.get("/api/approvals").status_code == 200
    revoke_token(engine, "alice")
    assert browser_like.get("/api/approvals").status_code == 401
    assert browser_like.get("/api/console/session").status_code == 401


def test_sign_out_needs_the_csrf_token(browser_like: TestClient) -> None:
    tokens = make_tokens(browser_like.app.state.service.engine)  # type: ignore[attr-defined]
    csrf = sign_in(browser_like, tokens.approver).json()["csrf"]
    assert browser_like.delete("/api/console/session").status_code == 403
    out = browser_like.delete("/api/console/session", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 204
    assert browser_like.get("/api/console/session").status_code == 401
    assert browser_like.get("/api/approvals").status_code == 401


def test_a_forged_or_huge_cookie_is_401(browser_like: TestClient) -> None:
    for value in ("forged", "x" * 4000, "%00%ff"):
        browser_like.cookies.set("hookwise_session", value)
        assert browser_like.get("/api/approvals").status_code == 401


def test_secure_cookie_behind_an_https_public_url(settings: ServiceSettings) -> None:
    from dataclasses import replace

    https = replace(settings, public_url="https://approvals.example.com")
    with TestClient(create_app(https)) as client:
        tokens = make_tokens(client.app.state.service.engine)  # type: ignore[attr-defined]
        cookie = sign_in(client, tokens.approver).headers["set-cookie"]
        assert "Secure" in cookie
        created = client.post("/api/approvals", json=request_body(), headers=AUTH).json()
        assert created["page_url"].startswith("https://approvals.example.com/console/approvals/")


def test_the_page_is_served_with_the_console_headers(browser_like: TestClient) -> None:
    for path in ("/console/approvals/apr_1", "/console/approvals"):
        page = browser_like.get(path)
        assert page.status_code == 200
        assert "default-src 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        assert "approval.js" in page.text
    assert browser_like.get("/console/approval.html").status_code == 404
    assert browser_like.get("/console/approval.js").status_code == 200
