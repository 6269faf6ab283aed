"""parse-output calls as rows of the console's "Recent hook executions", off the request path.

parse-output is the service's hottest route (thousands of calls a second from every
agent): a database write per call would cost more than the parse itself. So each worker
keeps the newest calls in a bounded buffer and the housekeeping loop writes them once a
second in one statement, as ``Metrics`` does with its figures; the console sees a call
within about a second, on any worker. Past ``BUFFER_ROWS`` calls in one second the oldest
are not kept (the console shows the newest) and the flush logs how many; each minute the
parse rows beyond the newest ``KEEP_ROWS`` are pruned, so the table cannot grow without
bound under that load. Rows written by execute-with-output are not touched.

A row keeps what a person needs to read the call: which host's rules read it, the event
and tool, the decision, what decided (JSON or exit code), the exit code, the session,
when, and the message blocks the answer carried, each cut at ``MAX_BLOCK_CHARS``. Never
the hook's raw stdout and stderr, the tool input, or any request header but the session.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import deque
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.processing.hook_output import ParsedOutput
from hookwise.api.storage.tables import PARSE, executions

log = logging.getLogger("hookwise.api")

BUFFER_ROWS: Final = 2_000  # per worker, per flush (about one second)
KEEP_ROWS: Final = 10_000  # parse rows kept in the table; older ones are pruned
MAX_BLOCK_CHARS: Final = 2_000


def _cut(text: str) -> str:
    if len(text) <= MAX_BLOCK_CHARS:
        return text
    return f"{text[:MAX_BLOCK_CHARS]}… ({len(text) - MAX_BLOCK_CHARS} more characters)"


class ParseCall(NamedTuple):
    """One parse-output call as noted on the request path: plain values only (no dicts,
    no reference to the parse's objects, so that a full buffer costs the garbage
    collector little); the row is built at flush time, off the request path."""

    at: int  # ms since the epoch, when the call was answered
    host: str
    session_id: str
    hook_event: str
    tool_name: str | None
    exit_code: int
    execution_time: float
    should_continue: bool
    source: str
    decision: str
    blocks: tuple[tuple[object, object, object], ...]  # (type, hookEvent, content)
    permission_id: str | None


def parse_call(  # noqa: PLR0917 - the call's own fields
    parsed: ParsedOutput,
    hook_event: str,
    tool_name: str | None,
    exit_code: int,
    execution_time: float,
    session_id: str,
    permission_id: str | None,
    at: int,
) -> ParseCall:
    """What the console keeps of one parse-output call."""
    return ParseCall(
        at,
        parsed.dialect,
        session_id,
        hook_event,
        tool_name,
        exit_code,
        execution_time,
        parsed.proceed and parsed.continue_,
        parsed.source,
        parsed.decision,
        tuple(
            [(b.get("type"), b.get("hookEvent"), b.get("content")) for b in parsed.message_blocks]
        ),
        permission_id,
    )


def _block(kind: object, hook_event: object, content: object) -> dict[str, Any]:
    """A block as the console shows it: type, event and (cut) content; no metadata,
    which repeats the row's own fields and carries the hook's whole stderr."""
    block: dict[str, Any] = {"type": kind}
    if hook_event is not None:
        block["hookEvent"] = hook_event
    block["content"] = _cut(content) if isinstance(content, str) else content
    return block


def parse_row(call: ParseCall, seq: int, worker: str) -> dict[str, Any]:
    """The ``executions`` row of one parse-output call; ``seq`` orders a worker's calls
    within one millisecond (ids break ties), ``worker`` keeps ids apart across workers."""
    return {
        "id": f"parse_{call.at}_{seq % 10**9:09d}_{worker}",
        "kind": PARSE,
        "host": call.host,
        "session_id": call.session_id,
        "hook_event": call.hook_event,
        "tool_name": call.tool_name,
        "command": "",  # the client ran the hook; the service never saw its command
        "exit_code": call.exit_code,
        "execution_time": call.execution_time,
        "should_continue": call.should_continue,
        "source": call.source,
        "decision": call.decision,
        "message_blocks": [_block(*block) for block in call.blocks],
        "permission_id": call.permission_id,
        "created_at": call.at,
    }


class CallLog:
    """The worker's buffer of parse-output calls; ``note`` is cheap, ``flush`` writes."""

    def __init__(self, capacity: int = BUFFER_ROWS) -> None:
        self._lock = threading.Lock()
        self._calls: deque[tuple[int, ParseCall]] = deque(maxlen=capacity)
        self._dropped = 0
        self._seq = 0
        self._worker = secrets.token_hex(6)  # one per process: each worker builds its own

    def note(self, call: ParseCall) -> None:
        with self._lock:
            if len(self._calls) == self._calls.maxlen:
                self._dropped += 1
            self._seq += 1
            self._calls.append((self._seq, call))

    def flush(self, engine: Engine) -> int:
        """Write the buffered rows in one statement; how many were written.

        On a database error the rows go back to the buffer (its bound still holds) and
        the error propagates to the caller's loop, which tries again next tick."""
        with self._lock:
            calls, self._calls = list(self._calls), deque(maxlen=self._calls.maxlen)
            dropped, self._dropped = self._dropped, 0
        if dropped:
            log.warning(
                "%d parse-output calls were not kept for the console: more than %d arrived "
                "in this worker between two writes; the newest are kept",
                dropped,
                self._calls.maxlen,
            )
        if not calls:
            return 0
        rows = [parse_row(call, seq, self._worker) for seq, call in calls]
        try:
            with engine.begin() as conn:
                conn.execute(executions.insert(), rows)
        except Exception:
            with self._lock:  # the newest calls win the buffer's room
                self._calls = deque([*calls, *self._calls], maxlen=self._calls.maxlen)
            raise
        return len(rows)

    @staticmethod
    def prune(engine: Engine, keep: int = KEEP_ROWS) -> None:
        """Delete parse rows older than the newest ``keep`` (execute rows stay)."""
        is_parse = executions.c.kind == PARSE
        with engine.begin() as conn:
            cutoff = conn.execute(
                sa.select(executions.c.created_at)
                .where(is_parse)
                .order_by(executions.c.created_at.desc())
                .offset(keep)
                .limit(1)
            ).scalar()
            if cutoff is not None:
                conn.execute(
                    executions.delete().where(is_parse & (executions.c.created_at <= cutoff))
                )
