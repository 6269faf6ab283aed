"""Property tests of the approval request parser: any JSON body is a 201 or a 4xx naming
a field, never a 500; an accepted input comes back identical, with the hash the hook
computed."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.api.app import create_app
from hookwise.api.approvals.schemas import canonical_hash
from hookwise.api.settings import ServiceSettings, sqlite_url
from tests.api.approval_helpers import request_body
from tests.api.conftest import AUTH, TOKEN
from tests.strategies import json_values

FIELDS = list(request_body())


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    data = Path(tempfile.mkdtemp(prefix="hookwise-approvals-fuzz-"))
    settings_ = ServiceSettings(data_dir=data, database_url=sqlite_url(data), api_token=TOKEN)
    with TestClient(create_app(settings_, run_background=False), headers=AUTH) as running:
        yield running


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.dictionaries(st.text(max_size=10), json_values, max_size=6))
def test_any_input_object_round_trips_with_its_hash(
    client: TestClient, tool_input: dict[str, Any]
) -> None:
    body = request_body(input=tool_input, input_hash=canonical_hash(tool_input))
    created = client.post("/api/approvals", json=body)
    if created.status_code == 400:  # text no database can hold (lone surrogates, NUL)
        fields = {d["field"] for d in created.json()["details"]}
        assert fields and all(f == "body" or f.startswith("input") for f in fields), fields
        return
    assert created.status_code == 201, created.text
    read = client.get(f"/api/approvals/{created.json()['id']}").json()
    assert read["input"] == tool_input
    assert canonical_hash(read["input"]) == body["input_hash"] == read["input_hash"]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(FIELDS), json_values)
def test_any_value_in_any_field_is_never_a_500(client: TestClient, name: str, value: Any) -> None:
    body = request_body()
    body[name] = value
    created = client.post(
        "/api/approvals",
        content=json.dumps(body, allow_nan=True).encode("utf-8", "surrogatepass"),
        headers={"Content-Type": "application/json"},
    )
    assert created.status_code in (201, 400), created.text
    if created.status_code == 400:
        details = created.json()["details"]
        assert details and all(d["field"] for d in details)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(json_values)
def test_any_decision_body_is_never_a_500(client: TestClient, value: Any) -> None:
    created = client.post("/api/approvals", json=request_body()).json()
    answer = client.post(
        f"/api/approvals/{created['id']}/decision",
        content=json.dumps(value).encode("utf-8", "surrogatepass"),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 400, answer.text
