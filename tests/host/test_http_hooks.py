"""Claude Code's ``type: "http"`` hooks against a real HTTP server on 127.0.0.1: the request
(body, headers, allowedEnvVars), the answer classes of "HTTP response handling", timeouts
and hostile servers (redirects to elsewhere, huge bodies, header injection)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.host.handlers.http import interpolate, request_headers
from hookwise.host.system import HookSystem

BASH = {"tool_name": "Bash", "tool_input": {"command": "echo hi"}}
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "from the server",
    }
}


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Server:
    url: str
    reply: Reply = field(default_factory=Reply)
    seen: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state.seen.append(
                {"path": self.path, "headers": dict(self.headers.items()), "body": body}
            )
            time.sleep(state.reply.delay_s)
            self.send_response(state.reply.status)
            for key, value in state.reply.headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(state.reply.body)))
            self.end_headers()
            self.wfile.write(state.reply.body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


def fire(
    tmp_path: Path,
    handler: dict[str, Any],
    event: str = "PreToolUse",
    args: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "http", **handler}]}
    hs = HookSystem.from_hooks({event: [group]}, dialect="claude", cwd=str(tmp_path))
    hs.execution.base_env = {"PATH": "/usr/bin:/bin", **(env or {})}
    result = hs.fire_sync(event, BASH if args is None else args)
    out = result.effect.to_json()
    out["runs"] = [
        {"success": r.success, "error": r.error, "exit_code": r.exit_code} for r in result.runs
    ]
    return out


def test_the_input_is_posted_as_json_and_a_json_answer_decides(
    server: Server, tmp_path: Path
) -> None:
    server.reply = Reply(body=json.dumps(DENY).encode())
    out = fire(tmp_path, {"url": server.url + "/hooks/pre"})
    assert out["decision"] == "deny"
    assert out["outcome"]["reason_for_model"] == "from the server"
    (request,) = server.seen
    assert request["path"] == "/hooks/pre"
    assert request["headers"]["Content-Type"] == "application/json"
    sent = json.loads(request["body"])
    assert sent["hook_event_name"] == "PreToolUse" and sent["tool_input"] == BASH["tool_input"]


def test_only_allowed_variables_reach_the_headers(server: Server, tmp_path: Path) -> None:
    env = {"MY_TOKEN": "t0k", "SECRET": "s3cret"}
    handler = {
        "url": server.url,
        "headers": {
            "Authorization": "Bearer $MY_TOKEN",
            "X-Other": "${SECRET}-x",
            "Content-Length": "999",
        },
        "allowedEnvVars": ["MY_TOKEN"],
    }
    out = fire(tmp_path, handler, env=env)
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    headers = server.seen[0]["headers"]
    assert headers["Authorization"] == "Bearer t0k"
    assert headers["X-Other"] == "-x"  # SECRET not allowed: the empty string
    assert headers["Content-Length"] == str(len(server.seen[0]["body"]))  # not the header's


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(body=b""), "none"),
        (Reply(body=b"  \n"), "none"),
        (Reply(body=b"plain text the model must not read"), "error"),
        (Reply(body=b"[1, 2]"), "error"),
        (Reply(status=500, body=json.dumps(DENY).encode()), "error"),
        (Reply(status=403, body=b""), "error"),
        (Reply(status=302, headers={"Location": "http://10.0.0.1/"}, body=b""), "error"),
    ],
)
def test_what_is_not_a_json_object_on_2xx_is_a_non_blocking_error(
    server: Server, tmp_path: Path, reply: Reply, kind: str
) -> None:
    server.reply = reply
    out = fire(tmp_path, {"url": server.url})
    assert out["outcome"]["proceed"] is True  # an HTTP hook never blocks by status alone
    assert out["decision"] == "none"
    assert out["outcome"]["reason_for_model"] is None
    (run,) = out["runs"]
    assert run["success"] is (kind == "none")
    assert len(server.seen) == 1  # the redirect was not followed


def test_a_schema_invalid_body_is_ignored(server: Server, tmp_path: Path) -> None:
    server.reply = Reply(body=b'{"decision": "deny", "systemMessage": 3}')
    out = fire(tmp_path, {"url": server.url})
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    assert any("validation failed" in d for d in out["diagnostics"])


def test_a_timeout_renders_no_decision(server: Server, tmp_path: Path) -> None:
    server.reply = Reply(body=json.dumps(DENY).encode(), delay_s=3)
    started = time.monotonic()
    out = fire(tmp_path, {"url": server.url, "timeout": 1})
    assert time.monotonic() - started < 2.8
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    assert "timed out" in (out["runs"][0]["error"] or "")


def test_a_refused_connection_is_a_non_blocking_error(tmp_path: Path) -> None:
    out = fire(tmp_path, {"url": "http://127.0.0.1:9/"})
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    assert out["runs"][0]["success"] is False


def test_a_body_past_the_cap_is_dropped(server: Server, tmp_path: Path) -> None:
    server.reply = Reply(body=b'{"decision": "block", "reason": "' + b"x" * 2_000_000 + b'"}')
    out = fire(
        tmp_path,
        {"url": server.url},
        event="Stop",
        args={"stop_hook_active": False, "last_assistant_message": ""},
    )
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True


def test_worktree_create_takes_the_path_from_the_http_answer(
    server: Server, tmp_path: Path
) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/w/1"}}
    server.reply = Reply(body=json.dumps(answer).encode())
    out = fire(tmp_path, {"url": server.url}, event="WorktreeCreate", args={"name": "n"})
    assert out["output"] == {"worktreePath": "/w/1"} and out["outcome"]["proceed"] is True
    server.reply = Reply(status=500)
    out = fire(tmp_path, {"url": server.url}, event="WorktreeCreate", args={"name": "n"})
    assert out["outcome"]["proceed"] is False and "output" not in out


def test_a_header_line_break_is_removed_so_nothing_is_injected(
    server: Server, tmp_path: Path
) -> None:
    """Claude Code 2.1.330 removes CR, LF and NUL from an interpolated value and sends the
    rest (recorded: claude-events/http-allowlists.json, ``x-crlf``)."""
    handler = {
        "url": server.url,
        "headers": {"X-A": "$V"},
        "allowedEnvVars": ["V"],
    }
    fire(tmp_path, handler, env={"V": "a\r\nX-Injected: 1"})
    (sent,) = server.seen
    headers = {k.lower(): v for k, v in sent["headers"].items()}
    assert headers["x-a"] == "aX-Injected: 1" and "x-injected" not in headers


@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.dictionaries(st.from_regex(r"[A-Z_]{1,6}", fullmatch=True), st.text(max_size=8)),
)
def test_interpolation_reads_only_allowed_names(template: str, env: dict[str, str]) -> None:
    assert interpolate(template, frozenset(), env) == interpolate(template, frozenset(), {})
    allowed = frozenset(env)
    rendered = interpolate(template, allowed, env)
    if "$" not in template:
        assert rendered == template.translate({ord(c): None for c in "\r\n\0"})


@given(st.dictionaries(st.text(max_size=6), st.text(max_size=12), max_size=4))
def test_headers_never_carry_a_line_break(headers: dict[str, str]) -> None:
    try:
        sent = request_headers({"headers": headers}, {})
    except ValueError:
        return
    assert all("\n" not in k + v and "\r" not in k + v for k, v in sent.items())
