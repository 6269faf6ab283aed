"""GET /internal/hook/health: each component exercised for real, figures measured.

The parser, validator and block converter each run a known case and must give the known
answer; the permission store must answer a query. Timings and the error rate come from
every worker's traffic over the last minutes (metrics.py).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Depends

from hookwise.api.edge.ratelimit import limited
from hookwise.api.permissions import count_pending
from hookwise.api.processing.blocks import convert_hook_blocks, create_warn_block
from hookwise.api.processing.hook_output import parse_output
from hookwise.api.processing.json_validation import validate_json
from hookwise.api.schemas import HealthResponse
from hookwise.api.state import ServiceState, service
from hookwise.api.storage.db import now_ms

log = logging.getLogger("hookwise.api")

router = APIRouter(tags=["health"], dependencies=[Depends(limited("health"))])

DEGRADED_SERVER_ERROR_SHARE = 0.01


def _parser_ok(state: ServiceState) -> bool:
    parsed = parse_output(2, "", "blocked", "PreToolUse", 1.0, state.config.get())
    return parsed.continue_ is True and parsed.proceed is False and parsed.source == "exitcode"


def _validation_ok() -> bool:
    answer = validate_json('{"continue": false, "stopReason": "x"}', "Stop", "strict")
    broken = validate_json('{"continue": "no"}', "Stop", "strict")
    return bool(answer["valid"]) and not broken["valid"]


def _blocks_ok() -> bool:
    parts = convert_hook_blocks([create_warn_block("ok")])
    return parts == [{"type": "text", "text": "[Warning] ok"}]


def _check(name: str, probe: Any) -> str:
    try:
        return "healthy" if probe() else "error"
    except Exception:
        log.exception("health: %s check failed", name)
        return "error"


@router.get("/internal/hook/health", response_model=HealthResponse)
def health(state: ServiceState = Depends(service)) -> dict[str, Any]:  # noqa: B008
    pending: list[int] = []

    def permissions_ok() -> bool:
        pending.append(count_pending(state.engine, state.config.get().permissionFallback))
        return True

    components = {
        "parser": _check("parser", lambda: _parser_ok(state)),
        "validation": _check("validation", _validation_ok),
        "messageBlocks": _check("messageBlocks", _blocks_ok),
        "permissions": _check("permissions", permissions_ok),
    }
    try:
        figures = state.metrics.window(state.engine)
    except Exception:
        log.exception("health: metrics unavailable")
        figures = {}
    requests = figures.get("requests")
    total = requests.count if requests else 0
    errors = figures["errors"].count if "errors" in figures else 0
    server_errors = figures["server_errors"].count if "server_errors" in figures else 0
    if components["permissions"] == "error" or components["parser"] == "error":
        status = "error"
    elif "error" in components.values() or (
        total and server_errors / total > DEGRADED_SERVER_ERROR_SHARE
    ):
        status = "degraded"
    else:
        status = "healthy"
    parse = figures.get("parse")
    validate = figures.get("validate")
    return {
        "status": status,
        "components": components,
        "metrics": {
            "avgParsingTime": parse.average if parse else 0.0,
            "avgValidationTime": validate.average if validate else 0.0,
            "pendingPermissions": pending[0] if pending else 0,
            "errorRate": errors / total if total else 0.0,
        },
        "timestamp": now_ms(),
    }
