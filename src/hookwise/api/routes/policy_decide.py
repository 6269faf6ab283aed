"""POST /api/policy/decide: what ``hookwise hook`` would answer to one event, over HTTP.

Issue 4 wants one decision procedure for the hook, ``explain``, ``test`` and the service,
so this route only does the hook's glue: it loads the policy the way the hook does
(:func:`hookwise.policy.cache.load_policy` for the payload's ``cwd``, through the same
compiled-policy cache; an unreadable file becomes the hook's stand-in broken policy) and
calls :func:`hookwise.policy.pipeline.decide`, the function the hook, ``explain`` and
``test`` call. The per-rule explanation is ``explain``'s own ``rule_results``. A broken
policy, an unknown event or an internal error therefore gives the hook's fail-closed or
fail-open answer, never a 500.

Where the service must differ from an agent's hook process, it says so in
docs/service.md: the payload's ``cwd`` must be an existing absolute directory (the hook
would fall back to its own working directory, which the service does not share); the
service's secrets are not in the environment conditions see; validator commands never run
(the service runs no command its own configuration does not name), as with
``hookwise explain --no-validators``; retry counters are read but never written and
nothing goes to the audit log, so asking does not change what the real hook does next.
"""

# Field names are the wire names (camelCase), like the rest of the service.
# ruff: noqa: N815

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Literal

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field, StrictBool

from hookwise.api.edge.errors import invalid_request
from hookwise.api.edge.ratelimit import limited
from hookwise.api.execution import WITHHELD_ENV
from hookwise.api.processing.output_config import StrictModel
from hookwise.api.schemas import JsonObject, ResponseModel, _optional
from hookwise.policy import pipeline
from hookwise.policy.cache import cache_dir, load_policy
from hookwise.policy.hook import _broken_policy
from hookwise.policy.retry_state import FileRetryState
from hookwise.policy.tools.explain import rule_results
from hookwise.protocol.hosts import Host

log = logging.getLogger("hookwise.api")

router = APIRouter(tags=["policy"])

Platform = Host
Verdict = Literal["deny", "ask", "allow", "none"]

# load_policy writes the cache through "<file>.<pid>.tmp": threads of one process must not
# write it at the same time (workers are separate processes, with their own pid).
_CACHE_LOCK = threading.Lock()


class PolicyDecideRequest(StrictModel):
    payload: JsonObject = Field(
        description="The host's hook event JSON, as the agent writes it on the hook's "
        "stdin; its cwd (an existing absolute directory) chooses the policy"
    )
    platform: Platform | None = Field(
        default=None,
        description="The host; detected from the payload when absent, as `hookwise hook` does",
    )
    explain: StrictBool = Field(
        default=False, description="Add every rule's verdict and why (`hookwise explain`)"
    )


class PolicyAnswer(ResponseModel):
    """Byte for byte what ``hookwise hook`` writes and exits with."""

    exitCode: int
    stdout: str
    stderr: str


class MatchedRule(ResponseModel):
    """One matching rule, as the audit log records it."""

    id: str
    event: str = Field(description="the canonical event it matched on")
    action: str
    mode: str
    priority: int
    scope: str
    outcome: str | None = _optional()
    validator: str | None = _optional(description="pass | fail | error")


class TraceStep(ResponseModel):
    matcher: str
    ok: bool
    detail: str


class RuleResult(ResponseModel):
    event: str
    status: str = Field(
        description="matched | not matched | disabled | not for this event | only for ..."
    )
    trace: list[TraceStep]


class ExplainedRule(ResponseModel):
    id: str
    scope: str
    file: str
    line: int
    priority: int
    mode: str
    action: str
    results: list[RuleResult]
    outcome: str | None = _optional()


class PolicyDecideResponse(ResponseModel):
    platform: Platform | None = _optional(description="absent when the host is unknown")
    event: str | None = _optional(description="the host's event name, when the payload has one")
    canonicalEvents: list[str]
    decision: Verdict = Field(description="the policy's verdict (answer: what the host gets)")
    rule: str | None = _optional(description="the rule that decided")
    reason: str | None = _optional()
    rulesMatched: list[MatchedRule]
    answer: PolicyAnswer
    notes: list[str] = Field(description="what the host cannot do as the policy says")
    error: str | None = _optional(description="why the policy was not applied")
    explanation: list[ExplainedRule] | None = _optional()


def _project_dir(payload: dict[str, Any]) -> str:
    """The payload's cwd, the directory the hook would run in (400 unless absolute).

    Whether it exists is not checked here: a 400 for a missing directory would let any
    client probe the service's file system. A path that is not a directory reads as one
    without policy files."""
    cwd = payload.get("cwd")
    problem: tuple[str, str] | None = None
    if "cwd" not in payload:
        problem = ("REQUIRED_FIELD", "required: the directory the agent works in")
    elif not isinstance(cwd, str):
        problem = ("INVALID_TYPE", "must be a string: the directory the agent works in")
    elif not os.path.isabs(cwd) or "\x00" in cwd:
        problem = ("INVALID_VALUE", f"{cwd!r} is not an absolute path")
    if problem is not None:
        code, message = problem
        raise invalid_request([{"field": "payload.cwd", "message": message, "code": code}])
    assert isinstance(cwd, str)
    return cwd


def _load(cwd: str, env: dict[str, str], fresh: bool) -> dict[str, Any]:
    """The hook's policy for ``cwd``; ``fresh`` compiles without the cache (for explain,
    which needs what the cache leaves out: a condition's source text)."""
    try:
        if fresh:
            return load_policy(cwd, env, use_cache=False).policy
        with _CACHE_LOCK:
            return load_policy(cwd, env).policy
    except OSError as exc:
        return _broken_policy(
            f"cannot read the policy: {exc}", getattr(exc, "filename", "") or "policy"
        )


def decide_request(body: PolicyDecideRequest) -> PolicyDecideResponse:
    """The whole answer; every step but the glue is the hook's own code."""
    payload = body.payload
    cwd = _project_dir(payload)
    now = time.time()
    env = {k: v for k, v in os.environ.items() if k not in WITHHELD_ENV}
    policy = _load(cwd, env, fresh=body.explain)
    state = FileRetryState(os.path.join(cache_dir(env), "state"))  # read, never saved
    try:
        outcome = pipeline.decide(
            payload, policy, body.platform, env, now=now, state=state, run_validators=False
        )
    except Exception as exc:  # the hook answers an internal error too: so does the service
        log.exception("policy decision failed")
        outcome = pipeline.Outcome()
        message = f"internal error: {type(exc).__name__}: {exc}"
        outcome.answer = pipeline.failure_answer(
            outcome, message, None, policy.get("settings", {}), env
        )
    decision = outcome.decision
    answer = outcome.answer
    explanation: list[dict[str, Any]] | None = None
    if body.explain:
        explained = outcome.events and not outcome.error
        explanation = rule_results(policy, outcome) if explained else []
    data: dict[str, Any] = {
        "platform": outcome.host,
        "event": outcome.host_event,
        "canonicalEvents": [e.name for e in outcome.events],
        "decision": (decision.decision if decision else None) or "none",
        "rule": decision.rule if decision else None,
        "reason": (decision.reason if decision else "") or None,
        "rulesMatched": decision.records if decision else [],
        "answer": {
            # the hook ends a non-empty answer with a newline
            "stdout": f"{answer.stdout}\n" if answer.stdout else "",
            "stderr": answer.stderr,
            "exitCode": answer.exit_code,
        },
        "notes": list(answer.notes),
        "error": outcome.error,
        "explanation": explanation,
    }
    return PolicyDecideResponse.model_validate(data)


@router.post(
    "/api/policy/decide",
    response_model=PolicyDecideResponse,
    dependencies=[Depends(limited("validation"))],
)
def decide_route(body: PolicyDecideRequest) -> JSONResponse:
    """Decide one hook event with the project's policy, answering as `hookwise hook` would.

    Rate group "validation": like validate-json it only reads and checks."""
    return JSONResponse(decide_request(body).model_dump(mode="json"))
