"""The parse-output fast path answers exactly as the FastAPI route it stands in for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.api.app import create_app
from hookwise.api.processing.hook_events import ACCEPTED_EVENTS
from hookwise.api.settings import ServiceSettings, sqlite_url
from tests.api.conftest import AUTH

PARSE = "/internal/hook/parse-output"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, TestClient]]:
    clients = []
    for fast in (True, False):
        data = Path(tmp_path_factory.mktemp("fast" if fast else "routed"))
        app = create_app(
            ServiceSettings(
                data_dir=data, database_url=sqlite_url(data), api_token=AUTH["Authorization"][7:]
            ),
            fast_paths=fast,
        )
        client = TestClient(app, headers=AUTH)
        client.__enter__()
        clients.append(client)
    yield clients[0], clients[1]
    for client in clients:
        client.__exit__(None, None, None)


answers = st.one_of(
    st.text(max_size=40),
    st.builds(
        json.dumps,
        st.fixed_dictionaries(
            {},
            optional={
                "continue": st.one_of(st.booleans(), st.integers(), st.text(max_size=5)),
                "stopReason": st.text(max_size=10),
                "systemMessage": st.text(max_size=10),
                "decision": st.sampled_from(["block", "approve", "allow", "nope"]),
                "hookSpecificOutput": st.fixed_dictionaries(
                    {"hookEventName": st.sampled_from(["PreToolUse", "Stop", "X"])},
                    optional={
                        "permissionDecision": st.sampled_from(["allow", "deny", "defer", "x"]),
                        "permissionDecisionReason": st.text(max_size=10),
                        "additionalContext": st.text(max_size=10),
                    },
                ),
            },
        ),
    ),
)

requests = st.fixed_dictionaries(
    {},
    optional={
        "exitCode": st.one_of(st.integers(-300, 300), st.text(max_size=3), st.none()),
        "stdout": answers,
        "stderr": st.text(max_size=20),
        "hookEvent": st.one_of(st.sampled_from(ACCEPTED_EVENTS), st.text(max_size=8)),
        "executionTime": st.one_of(st.floats(-5, 1e6), st.integers(0, 10**6), st.text(max_size=3)),
        "extra": st.integers(),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=requests)
def test_same_status_and_body(pair: tuple[TestClient, TestClient], body: dict[str, object]) -> None:
    fast, routed = pair
    a = fast.post(PARSE, json=body)
    b = routed.post(PARSE, json=body)
    assert a.status_code == b.status_code
    first, second = a.json(), b.json()
    if "permissionRequest" in first:  # ids and times differ between the two stores
        for answer in (first, second):
            answer["permissionRequest"] = {
                k: v
                for k, v in answer["permissionRequest"].items()
                if k not in {"id", "timestamp", "expiresAt"}
            }
    assert first == second


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"[]",
        b"null",
        b'{"exitCode": 1e999}',
        b"\xff\xfe",
        b'"text"',
        b"{" * 5000 + b"}" * 5000,
    ],
)
def test_same_answer_for_broken_bodies(pair: tuple[TestClient, TestClient], raw: bytes) -> None:
    fast, routed = pair
    headers = {"Content-Type": "application/json"}
    a = fast.post(PARSE, content=raw, headers=headers)
    b = routed.post(PARSE, content=raw, headers=headers)
    assert a.status_code == b.status_code == 400
    assert a.json()["error"] == b.json()["error"] == "invalid_request"
    assert [d["field"] for d in a.json()["details"]] == [d["field"] for d in b.json()["details"]]


def test_same_answer_without_token(pair: tuple[TestClient, TestClient]) -> None:
    fast, routed = pair
    for headers in (
        {"Authorization": "Bearer nope"},
        {"Authorization": "Basic abc"},
        {"Authorization": ""},
    ):
        a = fast.post(PARSE, json={}, headers=headers)
        b = routed.post(PARSE, json={}, headers=headers)
        assert a.status_code == b.status_code == 401
        assert a.json() == b.json()
        assert a.headers["www-authenticate"] == b.headers["www-authenticate"]
