"""``POST /internal/hook/execute-with-output``: run an allow-listed hook command for real.

Order of checks: text the database cannot store (NUL, lone surrogates: 400); the
"execution" rate limit (session: X-Session-Id, else ``input.session_id``; refused
requests count too); the server's execute policy (403 ``execution_disabled`` /
``command_not_allowed``: nothing else ever runs); the request's own consistency (400 for
a ``cwd`` that is not a directory or an ``input.hook_event_name`` other than
``hookConfig.event``).

``hookConfig.matcher`` follows Claude Code: it is compared with the input field the
event matches on (``tool_name`` for tool events); when that field is present and the
matcher does not match, the hook is not run and the answer is a success with no output
(exit code 0, ``shouldContinue`` true) whose one hook block, with ``metadata.skipped``,
says why. Nothing is recorded for a hook that did not run.

``shouldContinue`` is true when the guarded action goes ahead and the session goes on:
false for a deny/block decision (exit 2 on a blocking event included), an "ask" (the
action waits for the permission request in ``permissionRequest``), a ``defer`` and a
``continue: false``. On Stop that means the agent does not stop.

The route is async and the process runs on the event loop through the host runtime's
asyncio process layer (one epoll fd per run, no thread held while a hook sleeps); the
database work runs in the thread pool. A slow hook therefore delays nobody else.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Header, Request
from starlette.concurrency import run_in_threadpool

from hookwise.api.allowlist import Argv, inside_roots
from hookwise.api.edge.errors import ApiError, invalid_request
from hookwise.api.edge.ratelimit import session_key
from hookwise.api.execution import conclude, run_hook, timeout_ms
from hookwise.api.permissions import text_details
from hookwise.api.processing.blocks import create_hook_block
from hookwise.api.processing.hook_events import hook_event
from hookwise.api.schemas import (
    ErrorResponse,
    ExecuteWithOutputRequest,
    ExecuteWithOutputResponse,
    HookConfig,
    RateLimitResponse,
)
from hookwise.api.state import ServiceState, state_of
from hookwise.host.runtimes import TABLE_RUNTIMES

router = APIRouter(tags=["execution"])


def _refuse(state: ServiceState, command: str) -> Argv:
    """The argv the allow-list resolves ``command`` to, else 403."""
    policy = state.settings.execute
    if not policy.enabled:
        raise ApiError(
            403,
            "execution_disabled",
            "execute-with-output is disabled on this server "
            "(enable it with execute.enabled in service.yaml)",
        )
    argv = policy.resolve(command)
    if argv is None:
        raise ApiError(
            403,
            "command_not_allowed",
            "hookConfig.command is not in this server's execute allow-list "
            "(execute.allow in service.yaml)",
        )
    return argv


def _check_text(body: ExecuteWithOutputRequest) -> None:
    """400 for text the database cannot store (it is recorded with the run)."""
    fields = {
        "hookConfig.command": body.hookConfig.command,
        "input.session_id": body.input.session_id,
        "input.tool_name": body.input.tool_name,
    }
    details = text_details(fields)
    if details:
        raise invalid_request(details)


def _matcher_subject(event: str, payload: dict[str, Any]) -> tuple[str, Any] | None:
    """(field, value) a matcher is compared with for ``event``, when the input has it."""
    spec = hook_event(event).spec
    field = spec.matcher_field
    if field is None or payload.get(field) is None:
        return None
    return field, payload[field]


def _skipped(config: HookConfig, field: str, value: Any) -> ExecuteWithOutputResponse:
    note = f"Hook not run: matcher {config.matcher!r} does not match {field} {value!r}"
    block = create_hook_block(
        config.event,
        note,
        {"skipped": True, "matcher": config.matcher, field: value},
    )
    return ExecuteWithOutputResponse.model_validate(
        {
            "raw": {
                "exitCode": 0,
                "stdout": "",
                "stderr": "",
                "executionTime": 0.0,
                "hookEvent": config.event,
            },
            "parsed": {"source": "exitcode", "continue": True, "errorMessages": []},
            "messageBlocks": [block],
            "requiresUserInteraction": False,
            "shouldContinue": True,
            "executionTime": 0.0,
        }
    )


def _matches(event: str, matcher: str, value: Any) -> bool:
    dialect = hook_event(event).dialect
    # a host without a table runtime (Gemini CLI) matches a regex on the tool name, as
    # Claude Code does
    runtime = TABLE_RUNTIMES.get(dialect) or TABLE_RUNTIMES["claude"]
    return runtime.matches(matcher, value)


@router.post(
    "/internal/hook/execute-with-output",
    response_model=ExecuteWithOutputResponse,
    responses={
        403: {
            "model": ErrorResponse,
            "description": "execute-with-output is disabled, or the command is not allowed",
        },
        429: {
            "model": RateLimitResponse,
            "description": "Rate limit exceeded (group execution)",
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
        503: {
            "model": ErrorResponse,
            "description": "Too many hooks running on this server (HOOKWISE_MAX_RUNNING_HOOKS)",
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
    },
)
async def execute_with_output(
    body: ExecuteWithOutputRequest,
    request: Request,
    x_session_id: str | None = Header(
        default=None,
        description="The session for the rate limit and the record; else input.session_id",
    ),
) -> ExecuteWithOutputResponse:
    """Run ``hookConfig.command`` with ``input`` on stdin and return raw, parsed, blocks
    and timing. ``hookConfig.timeout`` is in seconds (as in Claude Code), bounded by
    ``timeoutMs.hookExecution``; 0 means that bound. ``raw.executionTime`` is the
    process's run time, ``executionTime`` the whole processing (run, parse, record), in
    milliseconds."""
    state = state_of(request)
    _check_text(body)
    session = session_key(x_session_id or body.input.session_id)
    client = state.limiter.client_key(request)
    await run_in_threadpool(state.limiter.check, session, "execution", client)
    hook = body.hookConfig
    argv = _refuse(state, hook.command)
    payload = body.input.model_dump(exclude_unset=True)
    problems = []
    cwd = inside_roots(body.input.cwd, state.settings.execute.roots)
    if not os.path.isdir(body.input.cwd):
        problems.append(
            {
                "field": "input.cwd",
                "message": f"not an existing directory: {body.input.cwd!r}",
                "code": "INVALID_VALUE",
            }
        )
    elif cwd is None:
        roots = ", ".join(str(r) for r in state.settings.execute.roots)
        problems.append(
            {
                "field": "input.cwd",
                "message": f"must lie inside a configured project root ({roots}); "
                f"got {body.input.cwd!r}",
                "code": "INVALID_VALUE",
            }
        )
    if body.input.hook_event_name != hook.event:
        problems.append(
            {
                "field": "input.hook_event_name",
                "message": f"must be the hook's event {hook.event!r}",
                "code": "EVENT_MISMATCH",
            }
        )
    if problems:
        raise invalid_request(problems)
    subject = _matcher_subject(hook.event, payload)
    if subject is not None and not _matches(hook.event, hook.matcher, subject[1]):
        return _skipped(hook, *subject)

    if not state.hook_slots.take():
        raise ApiError(
            503,
            "busy",
            f"{state.hook_slots.capacity} hooks are already running on this server; retry",
            headers={"Retry-After": "1"},
        )
    try:
        return await _run(state, _Job(hook, argv, cwd or body.input.cwd, payload, session))
    finally:
        state.hook_slots.give()


@dataclass(frozen=True)
class _Job:
    """A request that passed every check: what runs, where, for whom."""

    hook: HookConfig
    argv: Argv
    cwd: str  # the real path inside a project root
    payload: dict[str, Any]
    session: str


async def _run(state: ServiceState, job: _Job) -> ExecuteWithOutputResponse:
    hook, payload, session = job.hook, job.payload, job.session
    started = time.perf_counter()
    config = await run_in_threadpool(state.config.get)
    limit = timeout_ms(hook.timeout, config.timeoutMs.hookExecution)
    spec = hook_event(hook.event)
    process = await run_hook(
        job.argv,
        dialect=spec.dialect,
        payload=payload,
        cwd=job.cwd,
        limit_ms=limit,
        passed_env=state.settings.execute.env,
    )
    done = await run_in_threadpool(
        lambda: conclude(
            state.engine,
            command=hook.command,
            event=hook.event,
            payload=payload,
            session_id=session,
            process=process,
            config=config,
        )
    )
    state.metrics.timing("parse", done.parse_ms)
    parsed = done.parsed
    answer: dict[str, Any] = {
        "raw": {
            "exitCode": process.exit_code,
            "stdout": process.stdout,
            "stderr": process.stderr,
            "executionTime": process.execution_time,
            "hookEvent": hook.event,
        },
        "parsed": parsed.parsed_hook_output(),
        "messageBlocks": parsed.message_blocks,
        "requiresUserInteraction": parsed.requires_user_interaction,
        "shouldContinue": done.should_continue,
        "executionTime": (time.perf_counter() - started) * 1000.0,
    }
    if done.permission is not None:
        answer["permissionRequest"] = done.permission
    return ExecuteWithOutputResponse.model_validate(answer)
