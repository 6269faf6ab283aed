"""parse-output, validate-json, classify-error, blocks, config, health over HTTP, and the
cross-cutting contract: auth, 400/404/413/429/500 shapes, request ids, persistence."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings
from tests.api.conftest import AUTH, LiveServer

PARSE = "/internal/hook/parse-output"
CONFIG = "/api/hook/output-config"
HEALTH = "/internal/hook/health"


def run(
    exit_code: int, stdout: str = "", stderr: str = "", event: str = "PreToolUse"
) -> dict[str, Any]:
    return {
        "exitCode": exit_code,
        "stdout": stdout,
        "stderr": stderr,
        "hookEvent": event,
        "executionTime": 4.5,
    }


def answer(**specific: Any) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}})


def test_parse_output_json_deny(client: TestClient) -> None:
    body = client.post(
        PARSE,
        json=run(0, answer(permissionDecision="deny", permissionDecisionReason="no rm")),
    ).json()
    assert body["source"] == "json"
    assert body["hookSpecificData"]["permissionDecision"] == "deny"
    assert body["requiresUserInteraction"] is False
    assert any("no rm" in block["content"] for block in body["messageBlocks"])


def test_exit_2_blocks_with_the_stderr_text(client: TestClient) -> None:
    body = client.post(PARSE, json=run(2, "", "rm outside the workspace")).json()
    blocked = body["continue"] is False or (
        body.get("hookSpecificData", {}).get("permissionDecision") == "deny"
    )
    assert blocked
    assert "rm outside the workspace" in json.dumps(body)
    stop = client.post(PARSE, json=run(2, "", "keep going", event="Stop")).json()
    assert stop["continue"] is False or stop["hookSpecificData"]["decision"] == "block"


def test_exit_1_continues_with_a_warn_block(client: TestClient) -> None:
    body = client.post(PARSE, json=run(1, "", "lint crashed")).json()
    assert body["continue"] is True
    warns = [b for b in body["messageBlocks"] if b["type"] == "warn"]
    assert any("lint crashed" in b["content"] for b in warns)


def test_ask_opens_a_pending_permission(client: TestClient) -> None:
    body = client.post(
        PARSE,
        json=run(0, answer(permissionDecision="ask", permissionDecisionReason="sure?")),
        headers={"X-Session-Id": "s-ask"},
    ).json()
    assert body["requiresUserInteraction"] is True
    permission = body["permissionRequest"]
    pending = client.get("/internal/hook/pending-permissions").json()["permissions"]
    assert [p["id"] for p in pending] == [permission["id"]]
    assert pending[0]["sessionId"] == "s-ask"


@pytest.mark.parametrize("event", ["BeforeTool", "AfterAgent", "PermissionRequest", "SessionStart"])
def test_every_known_event_is_accepted(client: TestClient, event: str) -> None:
    response = client.post(PARSE, json=run(0, "{}", "", event))
    assert response.status_code == 200, response.text


def test_invalid_request_has_one_detail_per_field(client: TestClient) -> None:
    response = client.post(PARSE, json={"exitCode": "two", "stdout": 5, "hookEvent": "Nope"})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    fields = [d["field"] for d in body["details"]]
    assert sorted(fields) == sorted(set(fields))
    assert set(fields) == {"exitCode", "stdout", "stderr", "hookEvent", "executionTime"}
    assert all(d["message"] and d["code"] for d in body["details"])


def test_malformed_json_body_is_a_400(client: TestClient) -> None:
    response = client.post(
        PARSE, content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


def test_body_over_one_mebibyte_is_413(client: TestClient) -> None:
    big = run(0, "x" * (1024 * 1024 + 10))
    response = client.post(PARSE, json=big)
    assert response.status_code == 413
    assert response.json()["error"] == "payload_too_large"
    chunked = client.post(PARSE, content=iter([b"{" + b" " * (1024 * 1024) + b"}"]))
    assert chunked.status_code == 413


def test_token_is_required(client: TestClient) -> None:
    for headers in ({"Authorization": ""}, {"Authorization": "Bearer wrong"}):
        response = client.post(PARSE, json=run(0), headers=headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["error"] == "unauthorized"


def test_request_id_is_echoed(client: TestClient) -> None:
    response = client.post(PARSE, json=run(0), headers={"X-Request-Id": "abc-123"})
    assert response.headers["x-request-id"] == "abc-123"
    fresh = client.post(PARSE, json=run(0), headers={"X-Request-Id": "bad id\twith tab"})
    assert fresh.headers["x-request-id"] != "bad id\twith tab"
    assert len(fresh.headers["x-request-id"]) == 32


def test_unknown_route_is_404_json(client: TestClient) -> None:
    response = client.get("/internal/hook/nothing-here")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_internal_error_has_request_id_and_no_trace(settings: ServiceSettings) -> None:
    app = create_app(settings)
    boom = APIRouter()

    @boom.get("/internal/boom")
    def explode() -> None:
        raise RuntimeError("secret stack detail")

    app.include_router(boom)
    with TestClient(app, headers=AUTH, raise_server_exceptions=False) as client:
        response = client.get("/internal/boom", headers={"X-Request-Id": "req-500"})
    assert response.status_code == 500
    body = response.json()
    assert body["error"] == "internal_error"
    assert body["requestId"] == "req-500"
    assert isinstance(body["timestamp"], int)
    assert "secret stack detail" not in response.text
    assert "Traceback" not in response.text


def test_config_is_live_and_persists(
    settings: ServiceSettings, make_client: Callable[..., TestClient]
) -> None:
    client = make_client()
    assert client.get(CONFIG).json()["validationLevel"] == "strict"
    broken = json.dumps({"continue": "nope"})
    strict = client.post(
        "/internal/hook/validate-json", json={"jsonString": broken, "hookEvent": "Stop"}
    )
    assert strict.json()["valid"] is False
    updated = client.put(
        CONFIG, json={"validationLevel": "lenient", "exitCodeBehavior": {"3": "blocking_error"}}
    )
    assert updated.status_code == 200
    assert updated.json()["updated"] is True
    assert updated.json()["config"]["exitCodeBehavior"]["3"] == "blocking_error"
    lenient = client.post(
        "/internal/hook/validate-json", json={"jsonString": broken, "hookEvent": "Stop"}
    )
    assert lenient.json()["valid"] is True
    assert lenient.json()["warnings"]
    # exit 3 now blocks like exit 2
    body = client.post(PARSE, json=run(3, "", "custom block")).json()
    assert body["continue"] is False or body["hookSpecificData"]["permissionDecision"] == "deny"
    # a new process on the same database sees the stored configuration
    again = make_client()
    assert again.get(CONFIG).json()["validationLevel"] == "lenient"


def test_config_update_rejects_unknown_values(client: TestClient) -> None:
    response = client.put(CONFIG, json={"validationLevel": "loose", "bogus": 1})
    assert response.status_code == 400
    fields = {d["field"] for d in response.json()["details"]}
    assert {"validationLevel", "bogus"} <= fields


@pytest.mark.usefixtures("one_window")
def test_configuration_rate_limit_is_ten_per_minute(client: TestClient) -> None:
    headers = {"X-Session-Id": "cfg-burst"}
    codes = [client.get(CONFIG, headers=headers).status_code for _ in range(12)]
    assert codes[:10] == [200] * 10
    assert codes[10:] == [429, 429]
    refused = client.get(CONFIG, headers=headers)
    body = refused.json()
    assert body == {
        "error": "rate_limit_exceeded",
        "message": "Hook output API rate limit exceeded",
        "retryAfter": body["retryAfter"],
        "limit": 10,
        "remaining": 0,
    }
    assert 1 <= body["retryAfter"] <= 60
    assert refused.headers["retry-after"] == str(body["retryAfter"])
    # another session has its own budget
    assert client.get(CONFIG, headers={"X-Session-Id": "other"}).status_code == 200


def test_health_reports_measured_figures(client: TestClient) -> None:
    for _ in range(5):
        client.post(PARSE, json=run(0, answer(permissionDecision="allow")))
    client.post("/internal/hook/validate-json", json={"jsonString": "{}", "hookEvent": "Stop"})
    client.post(
        "/internal/hook/create-permission-request",
        json={"toolName": "Bash", "reason": "r", "originalInput": {}},
    )
    client.post(PARSE, json={"bad": True})
    body = client.get(HEALTH).json()
    assert body["status"] == "healthy"
    assert set(body["components"].values()) == {"healthy"}
    metrics = body["metrics"]
    assert metrics["avgParsingTime"] > 0
    assert metrics["avgValidationTime"] > 0
    pending = client.get("/internal/hook/pending-permissions").json()["permissions"]
    assert metrics["pendingPermissions"] == len(pending) == 1
    assert 0 < metrics["errorRate"] < 1


def test_blocks_and_conversion(client: TestClient) -> None:
    warn = client.post("/internal/message/create-warn-block", json={"content": "careful"}).json()
    assert warn == {"block": {"type": "warn", "content": "careful"}}
    hook = client.post(
        "/internal/message/create-hook-block",
        json={"hookEvent": "PostToolUse", "content": "ran lint", "metadata": {"k": 1}},
    ).json()["block"]
    assert hook == {
        "type": "hook",
        "hookEvent": "PostToolUse",
        "content": "ran lint",
        "metadata": {"k": 1},
    }
    parts = client.post(
        "/internal/message/convert-hook-blocks", json={"blocks": [warn["block"], hook]}
    ).json()["contentParts"]
    assert parts == [
        {"type": "text", "text": "[Warning] careful"},
        {"type": "text", "text": "[Hook:PostToolUse] ran lint"},
    ]
    message = client.post(
        "/internal/message/convert-message-for-api",
        json={
            "message": {"role": "assistant", "blocks": [{"type": "text", "content": "hi"}, hook]}
        },
    ).json()["apiMessage"]
    assert message == {"role": "assistant", "content": "hi\n[Hook:PostToolUse] ran lint"}


def test_classify_error(client: TestClient) -> None:
    body = client.post(
        "/internal/hook/classify-error",
        json={
            "exitCode": 124,
            "stderr": "timed out",
            "hookEvent": "PreToolUse",
            "hookCommand": "./slow.sh",
        },
    ).json()
    assert body["errorType"] == "timeout"
    assert set(body["recovery"]) == {"suggestion", "autoRetry", "fallbackBehavior"}


def test_rate_limits_are_shared_by_worker_processes(live_server: Callable[..., LiveServer]) -> None:
    server = live_server(workers=2)
    headers = {"X-Session-Id": "multi-worker"}
    # the limiter counts in fixed one-minute windows: fourteen requests that straddle a
    # window's end would count in two windows, so start well inside one
    if time.time() % 60 > 45:
        time.sleep(61 - time.time() % 60)
    with server.client() as http:
        codes = [http.get(CONFIG, headers=headers).status_code for _ in range(14)]
    assert codes.count(200) == 10
    assert codes[10:] == [429] * 4


def test_config_put_is_seen_by_every_worker(live_server: Callable[..., LiveServer]) -> None:
    server = live_server(workers=2)
    broken = json.dumps({"continue": "nope"})
    with server.client() as http:
        assert (
            http.put(
                CONFIG, json={"validationLevel": "lenient"}, headers={"X-Session-Id": "a"}
            ).status_code
            == 200
        )
        verdicts = {
            http.post(
                "/internal/hook/validate-json",
                json={"jsonString": broken, "hookEvent": "Stop"},
                headers={"Connection": "close"},
            ).json()["valid"]
            for _ in range(20)
        }
    assert verdicts == {True}


def test_ask_with_the_tool_named_opens_a_request_for_that_tool(client: TestClient) -> None:
    body = run(0, answer(permissionDecision="ask", permissionDecisionReason="force push?"))
    body.update(toolName="Bash", toolInput={"command": "git push -f"})
    permission = client.post(PARSE, json=body).json()["permissionRequest"]
    assert permission["toolName"] == "Bash"
    assert permission["originalInput"] == {"command": "git push -f"}


@pytest.mark.private_webhooks  # the subscriber names 127.0.0.1
def test_parse_output_reports_to_subscribers(client: TestClient) -> None:
    import sqlalchemy as sa

    from hookwise.api.storage.tables import webhook_outbox

    created = client.post(
        "/api/webhooks",
        json={"url": "http://127.0.0.1:9/hook", "events": ["hook_output_processed"]},
    )
    assert created.status_code == 201
    body = run(2, "", "blocked")
    body["toolName"] = "Bash"
    client.post(PARSE, json=body, headers={"X-Session-Id": "s-webhook"})
    client.post(PARSE, json=run(0, "{}", "", "Stop"), headers={"X-Session-Id": "s-webhook"})
    engine = client.app.state.service.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        payloads = [
            row.payload
            for row in conn.execute(sa.select(webhook_outbox).order_by(webhook_outbox.c.id))
        ]
    assert [p["hookEvent"] for p in payloads] == ["PreToolUse", "Stop"]
    first = payloads[0]
    assert set(first) == {"eventType", "timestamp", "hookEvent", "toolName", "result", "sessionId"}
    assert first["eventType"] == "hook_output_processed"
    assert first["toolName"] == "Bash"
    assert first["sessionId"] == "s-webhook"
    assert set(first["result"]) == {"source", "continue", "requiresUserInteraction"}
    assert "toolName" not in payloads[1]
