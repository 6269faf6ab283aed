"""parse-output, validate-json and classify-error: the host runtime's reading over HTTP.

parse-output reads a run exactly as the event's host would (hookwise.api.processing.hook_output,
built on host/), under the live configuration; a PreToolUse "ask" opens a pending
permission request, every parse is reported to ``hook_output_processed`` subscribers and
noted for the console's recent executions (api/storage/call_log.py, written in batches).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from hookwise.api.edge.ratelimit import limited, session_key
from hookwise.api.permissions import create_permission
from hookwise.api.processing.error_classes import classify_error
from hookwise.api.processing.hook_json import read_hook_stdout
from hookwise.api.processing.hook_output import ParsedOutput, parse_output
from hookwise.api.processing.json_validation import INVALID_JSON, ROOT, validate_json
from hookwise.api.processing.output_config import OutputConfig
from hookwise.api.schemas import (
    ClassifyErrorRequest,
    ClassifyErrorResponse,
    ParseOutputRequest,
    ParseOutputResponse,
    ValidateJsonRequest,
    ValidateJsonResponse,
)
from hookwise.api.state import ServiceState, service
from hookwise.api.storage.call_log import parse_call
from hookwise.api.storage.db import now_ms
from hookwise.api.webhooks.outbox import enqueue

router = APIRouter(tags=["hook output"])

_SESSION = Header(default=None, description="The agent session this output belongs to")


@router.post("/internal/hook/parse-output", response_model=ParseOutputResponse)
async def parse_output_route(
    body: ParseOutputRequest,
    state: ServiceState = Depends(service),  # noqa: B008
    x_session_id: str | None = _SESSION,
) -> JSONResponse:
    """Classify one hook run (JSON answer or exit code) as its host would.

    Requests normally take the fast path (api/edge/fastpath.py), which calls ``answer_parse``
    too; this route documents the endpoint and serves it when the fast path is off."""
    return JSONResponse(await answer_parse(state, body, x_session_id))


async def answer_parse(
    state: ServiceState, body: ParseOutputRequest, x_session_id: str | None
) -> dict[str, Any]:
    """The parse-output answer; storage only when there is something to store."""
    config = state.config.get()
    started = time.perf_counter()
    parsed = parse_output(
        body.exitCode, body.stdout, body.stderr, body.hookEvent, body.executionTime, config
    )
    state.metrics.timing("parse", (time.perf_counter() - started) * 1000.0)
    session = session_key(x_session_id)
    permission: dict[str, Any] | None = None
    if parsed.ask is not None or state.subscribers.wanted("hook_output_processed"):
        permission = await run_in_threadpool(_record, state, body, parsed, session, config)
    state.calls.note(
        parse_call(
            parsed,
            body.hookEvent,
            body.toolName,
            body.exitCode,
            body.executionTime,
            session,
            permission["id"] if permission else None,
            now_ms(),
        )
    )
    return parsed.response(permission)


def _record(
    state: ServiceState,
    body: ParseOutputRequest,
    parsed: ParsedOutput,
    session: str,
    config: OutputConfig,
) -> dict[str, Any] | None:
    """The "ask" permission and the webhook event, in one transaction."""
    permission: dict[str, Any] | None = None
    with state.engine.begin() as conn:
        if parsed.ask is not None:
            permission = create_permission(
                conn,
                body.toolName or "unknown",
                parsed.ask.reason or "The hook asked for the user's permission",
                body.toolInput or {},
                parsed.ask.updated_input,
                session,
                config,
                state.subscribers.wanted,
            )
        event = parsed.processed_event(body.hookEvent, body.toolName, session, now_ms())
        enqueue(conn, "hook_output_processed", event, state.subscribers.wanted)
    return permission


@router.post(
    "/internal/hook/validate-json",
    response_model=ValidateJsonResponse,
    response_model_exclude_none=True,
    dependencies=[Depends(limited("validation"))],
)
def validate_json_route(
    body: ValidateJsonRequest,
    state: ServiceState = Depends(service),  # noqa: B008
) -> dict[str, Any]:
    """Check a hook's JSON answer against what its host honours (validationLevel)."""
    level = state.config.get().validationLevel
    started = time.perf_counter()
    read = read_hook_stdout(body.jsonString, "jsonString")
    if read.unread:
        error = {"field": ROOT, "message": read.unread, "code": INVALID_JSON}
        answer: dict[str, Any] = {"valid": False, "errors": [error], "warnings": []}
    else:
        answer = validate_json(read.text, body.hookEvent, level)
        answer["warnings"] = [
            *({"field": n.partition(":")[0], "message": n} for n in read.notes),
            *answer["warnings"],
        ]
    state.metrics.timing("validate", (time.perf_counter() - started) * 1000.0)
    return answer


@router.post("/internal/hook/classify-error", response_model=ClassifyErrorResponse)
async def classify_error_route(body: ClassifyErrorRequest) -> dict[str, Any]:
    """Name what went wrong with a hook run and what to do about it."""
    return classify_error(body.exitCode, body.stderr, body.hookEvent, body.hookCommand)
