"""Every 400 names the object its route takes, and pydantic's own prefixes stay out of details."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hookwise.api.edge.errors import GENERIC_INVALID, invalid_message
from tests.api.conftest import ONE_DATABASE

CASES = [
    (
        "post",
        "/internal/hook/parse-output",
        {"exitCode": "x"},
        "Invalid hook output request format",
    ),
    ("post", "/internal/hook/parse-output", b"{", "Invalid hook output request format"),
    (
        "put",
        "/api/hook/output-config",
        {"validationLevel": "loose"},
        "Invalid output configuration",
    ),
    (
        "post",
        "/internal/hook/create-permission-request",
        {"toolName": 5},
        "Invalid permission request format",
    ),
    (
        "post",
        "/api/webhooks",
        {"url": "gopher://h/", "events": ["*"]},
        "Invalid webhook request format",
    ),
    ("post", "/internal/message/create-hook-block", {}, "Invalid message request format"),
]


@ONE_DATABASE
@pytest.mark.parametrize(("method", "path", "body", "message"), CASES)
def test_a_400_names_the_routes_object(
    client: TestClient, method: str, path: str, body: Any, message: str
) -> None:
    if isinstance(body, bytes):
        answer = client.request(
            method, path, content=body, headers={"Content-Type": "application/json"}
        )
    else:
        answer = client.request(method, path, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["error"] == "invalid_request"
    assert error["message"] == message
    assert error["details"]
    for detail in error["details"]:
        assert not detail["message"].startswith(("Value error", "Assertion failed")), detail


def test_a_validators_own_words_reach_the_details(client: TestClient) -> None:
    answer = client.post("/api/webhooks", json={"url": "https://a.test/x", "events": ["nope"]})
    assert answer.status_code == 400, answer.text
    [detail] = answer.json()["details"]
    assert detail["field"] == "events"
    assert detail["message"].startswith("unknown event type(s) 'nope'")


def test_paths_without_their_own_words_get_a_neutral_message() -> None:
    assert invalid_message("/elsewhere") == GENERIC_INVALID == "Invalid request format"
    assert invalid_message(None) == GENERIC_INVALID
    assert invalid_message("/internal/hook/resolve-permission/p1") == (
        "Invalid permission resolution format"
    )
