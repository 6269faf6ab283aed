"""schemathesis against the service's own OpenAPI document: no 5xx, and every answer
(status code, content type, headers, body) is one the document declares."""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings, sqlite_url
from tests.api.conftest import TOKEN

_DATA = Path(tempfile.mkdtemp(prefix="hookwise-fuzz-"))
APP = create_app(
    ServiceSettings(data_dir=_DATA, database_url=sqlite_url(_DATA), api_token=TOKEN),
    run_background=False,
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(
    path="/api/console/events"  # a stream that never ends; tested in test_console_feed
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    # A session per case: the rate limits are tested elsewhere and would hide the rest.
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Session-Id": uuid.uuid4().hex}
    case.call_and_validate(headers=headers, checks=CHECKS)
