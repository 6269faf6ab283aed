"""The session's MCP connection (host/handlers/mcp_client.py) against hostile servers: any
lines a server prints before its answer, a server that closes, one that asks hookwise
something, one that never answers. A call ends with the answer meant for it, or with a
clear error, within its timeout."""

from __future__ import annotations

import json
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.config.mcp_servers import McpServer
from hookwise.host.handlers.mcp_client import McpCallError, McpConnection, McpSessions

# reads one request line, prints LINES (JSON list of strings, one per line), then serves
# nothing more (stays until killed)
SERVER = (
    "import json, os, sys, time\n"
    "sys.stdin.readline()\n"
    "for line in json.loads(os.environ['LINES']):\n"
    "    sys.stdout.write(line + '\\n')\n"
    "sys.stdout.flush()\n"
    "time.sleep(60)\n"
)
GOOD = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}})


def connect(lines: list[str]) -> McpConnection:
    server = McpServer("t", sys.executable, ("-c", SERVER), (("LINES", json.dumps(lines)),))
    return McpConnection(server, {"PATH": "/usr/bin:/bin"}, "/")


def _parsed(line: str) -> object:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _answers_one(message: object) -> bool:
    if not isinstance(message, dict) or "method" in message:
        return False
    ident = message.get("id")
    return ident == 1 and not isinstance(ident, bool)


_LINE = st.one_of(
    st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t),
    st.builds(
        lambda ident, body: json.dumps({"jsonrpc": "2.0", "id": ident, **body}),
        st.one_of(st.integers(0, 3), st.booleans(), st.text(max_size=3), st.none()),
        st.sampled_from(
            [{"result": 1}, {"result": {}}, {"error": {"message": "no"}}, {"method": "ping"}, {}]
        ),
    ),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, max_size=4), st.booleans())
def test_a_call_gets_its_own_answer_or_a_clear_error(noise: list[str], answer: bool) -> None:
    lines = [*noise, GOOD] if answer else noise
    connection = connect(lines)
    try:
        connection.start(timeout_s=3.0)
    except (McpCallError, TimeoutError):
        outcome = "error"
    else:
        outcome = "answered"
    finally:
        connection.close()
    # the first line that is an answer to id 1 (not a bool, not a request) decides
    first = next((m for m in map(_parsed, lines) if _answers_one(m)), None)
    if first is None:
        assert outcome == "error"
    else:
        assert isinstance(first, dict)
        good = isinstance(first.get("result"), dict) and first.get("error") is None
        assert outcome == ("answered" if good else "error")


def test_a_server_that_closes_fails_the_call_at_once() -> None:
    server = McpServer("t", sys.executable, ("-c", "import sys; sys.stdin.readline()"))
    connection = McpConnection(server, {"PATH": "/usr/bin:/bin"}, "/")
    started = time.monotonic()
    with pytest.raises(McpCallError, match="closed its output"):
        connection.start(timeout_s=20.0)
    assert time.monotonic() - started < 10
    connection.close()


def test_a_dead_server_is_started_again_for_the_next_call() -> None:
    sessions = McpSessions()
    server = McpServer("t", sys.executable, ("-c", SERVER), (("LINES", json.dumps([GOOD])),))
    first = sessions.connection(server, {"PATH": "/usr/bin:/bin"}, "/", 5.0)
    assert sessions.connection(server, {"PATH": "/usr/bin:/bin"}, "/", 5.0) is first
    first.process.kill()
    first.process.wait()
    time.sleep(0.2)
    second = sessions.connection(server, {"PATH": "/usr/bin:/bin"}, "/", 5.0)
    assert second is not first and sessions.started() == 1
    sessions.close()
    assert sessions.started() == 0
