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

import itertools
import logging
import secrets
import threading
from collections import deque
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.hook_output import ParsedOutput
from hookwise.api.tables import PARSE, executions

log = logging.getLogger("hookwise.api")

BUFFER_ROWS: Final = 2_000  # per worker, per flush (about one second)
KEEP_ROWS: Final = 10_000  # parse rows kept in the table; older ones are pruned
MAX_BLOCK_CHARS: Final = 2_000
_BLOCK_KEYS: Final = ("type", "hookEvent", "content")
_SEQUENCE = itertools.count()


def _cut(text: str) -> str:
    if len(text) <= MAX_BLOCK_CHARS:
        return text
    return f"{text[:MAX_BLOCK_CHARS]}… ({len(text) - MAX_BLOCK_CHARS} more characters)"


def shown_blocks(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The blocks as the console shows them: type, event and (cut) content; no metadata,
    which repeats the row's own fields and carries the hook's whole stderr."""
    shown: list[dict[str, Any]] = []
    for block in blocks:
        kept: dict[str, Any] = {key: block[key] for key in _BLOCK_KEYS if key in block}
        if isinstance(kept.get("content"), str):
            kept["content"] = _cut(kept["content"])
        shown.append(kept)
    return shown


def parse_row(
    parsed: ParsedOutput,
    *,
    hook_event: str,
    tool_name: str | None,
    exit_code: int,
    execution_time: float,
    session_id: str,
    permission_id: str | None,
    now: int,
) -> dict[str, Any]:
    """The ``executions`` row of one parse-output call."""
    return {
        # within one millisecond the sequence keeps a worker's calls in order (ids break ties)
        "id": f"parse_{now}_{next(_SEQUENCE) % 10**9:09d}{secrets.token_hex(4)}",
        "kind": PARSE,
        "host": parsed.dialect,
        "session_id": session_id,
        "hook_event": hook_event,
        "tool_name": tool_name,
        "command": "",  # the client ran the hook; the service never saw its command
        "exit_code": exit_code,
        "execution_time": execution_time,
        "should_continue": parsed.proceed and parsed.continue_,
        "source": parsed.source,
        "decision": parsed.decision,
        "message_blocks": shown_blocks(parsed.message_blocks),
        "permission_id": permission_id,
        "created_at": now,
    }


class CallLog:
    """The worker's buffer of parse-output rows; ``note`` is cheap, ``flush`` writes."""

    def __init__(self, capacity: int = BUFFER_ROWS) -> None:
        self._lock = threading.Lock()
        self._rows: deque[dict[str, Any]] = deque(maxlen=capacity)
        self._dropped = 0

    def note(self, row: dict[str, Any]) -> None:
        with self._lock:
            if len(self._rows) == self._rows.maxlen:
                self._dropped += 1
            self._rows.append(row)

    def flush(self, engine: Engine) -> int:
        """Write the buffered rows in one statement; how many were written.

        On a database error the rows go back to the buffer (its bound still holds) and
        the error propagates to the caller's loop, which tries again next tick."""
        with self._lock:
            rows, self._rows = list(self._rows), deque(maxlen=self._rows.maxlen)
            dropped, self._dropped = self._dropped, 0
        if dropped:
            log.warning(
                "%d parse-output calls were not kept for the console: more than %d arrived "
                "in this worker between two writes; the newest are kept",
                dropped,
                self._rows.maxlen,
            )
        if not rows:
            return 0
        try:
            with engine.begin() as conn:
                conn.execute(executions.insert(), rows)
        except Exception:
            with self._lock:  # the newest rows win the buffer's room
                self._rows = deque([*rows, *self._rows], maxlen=self._rows.maxlen)
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
