"""Claude Code's limits on http hooks (``allowedHttpHookUrls``, ``httpHookAllowedEnvVars``)
in the host runtime: the records of Claude Code 2.1.330 (tests/e2e/fixtures/claude-events/
http-allowlists*.json, ``tests.e2e.record_events``) replayed through hookwise's loader and
http handler against a real server, plus the hostile inputs the handler takes (URLs,
patterns, header values)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.claude.http_limits import http_hook_limits
from hookwise.config.claude.settings import ClaudeScope, ClaudeSettingsFile
from hookwise.host.handlers.http import interpolate, normalize_url, request_headers, url_allowed
from hookwise.host.loading import load_hook_system

FIXTURES = Path(__file__).parents[1] / "e2e" / "fixtures" / "claude-events"
CALL = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}
COMPARED = ("content-type", "x-token", "x-other", "x-key", "x-refresh", "x-crlf", "x-lower")


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            seen.append(
                {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}}
            )
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("name", ["http-allowlists", "http-allowlists-project"])
def test_the_recorded_allowlists_are_predicted(
    name: str, server: tuple[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    record = json.loads((FIXTURES / f"{name}.json").read_text())
    assert record["cli_version"] == "2.1.330"
    origin, seen = server
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    (proj / ".claude").mkdir(parents=True)
    user = json.loads(json.dumps(record["user_settings"]).replace("$ORIGIN", origin))
    (home / ".claude" / "settings.json").write_text(json.dumps(user))
    handlers = json.loads(json.dumps(record["handlers"]).replace("$ORIGIN", origin))
    project: dict[str, Any] = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}}
    if record["project_widens"]:
        project["allowedHttpHookUrls"] = [f"{origin}/other"]
    (proj / ".claude" / "settings.json").write_text(json.dumps(project))
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(proj.resolve()): {"hasTrustDialogAccepted": True}}})
    )
    env = {"PATH": "/usr/bin:/bin", "ANTHROPIC_API_KEY": "dummy", **record["env"]}
    with load_hook_system(proj, home=home, env=env, dialect="claude") as hs:
        result = hs.fire_sync("PreToolUse", CALL)
    assert result.effect.outcome.proceed is record["tool_ran"]
    assert sorted(r["path"] for r in seen) == sorted(r["path"] for r in record["hook_requests"])
    for got in seen:
        (want,) = [r for r in record["hook_requests"] if r["path"] == got["path"]]
        for header in COMPARED:
            assert got["headers"].get(header) == want["headers"][header], (got["path"], header)
    if not record["project_widens"]:  # the hook that was not sent says why
        (blocked,) = [r for r in result.runs if "does not match" in (r.stderr or "")]
        assert "allowedHttpHookUrls" in (blocked.stderr or "")


def _file(scope: ClaudeScope, settings: dict[str, Any]) -> ClaudeSettingsFile:
    return ClaudeSettingsFile(scope, f"/{scope.value}/settings.json", True, settings)


def test_lists_merge_and_a_broken_list_closes() -> None:
    limits = http_hook_limits(
        [
            _file(ClaudeScope.USER, {"allowedHttpHookUrls": ["https://a/*"]}),
            _file(ClaudeScope.PROJECT, {"allowedHttpHookUrls": ["https://b/*"]}),
            _file(ClaudeScope.LOCAL, {"httpHookAllowedEnvVars": "TOKEN"}),
        ]
    )
    assert limits.urls == ("https://a/*", "https://b/*")
    assert limits.env_vars == ()  # not an array: no variable at all
    assert "/local/settings.json: httpHookAllowedEnvVars must be an array" in limits.warnings[0]
    assert http_hook_limits([_file(ClaudeScope.USER, {"allowedHttpHookUrls": [1]})]).urls == ()


def test_managed_hooks_answer_to_managed_lists_only() -> None:
    limits = http_hook_limits([_file(ClaudeScope.USER, {"allowedHttpHookUrls": ["https://a/*"]})])
    assert limits.for_scope("user") == (("https://a/*",), None)
    assert limits.for_scope("managed") == (None, None)
    limits = http_hook_limits(
        [
            _file(ClaudeScope.MANAGED, {"allowedHttpHookUrls": ["https://m/*"]}),
            _file(ClaudeScope.USER, {"allowedHttpHookUrls": ["https://a/*"]}),
        ]
    )
    assert limits.for_scope("managed")[0] == ("https://m/*",)
    assert limits.for_scope("project")[0] == ("https://m/*", "https://a/*")


@pytest.mark.parametrize(
    ("url", "pattern", "allowed"),
    [
        ("http://127.0.0.1:5/allowed/one", "http://127.0.0.1:5/allowed/*", True),
        ("http://127.0.0.1:5/allowed/../other", "http://127.0.0.1:5/allowed/*", False),
        ("http://127.0.0.1:5/allowed/%2E%2e/other", "http://127.0.0.1:5/allowed/*", False),
        ("http://127.0.0.1:6/allowed/x", "http://127.0.0.1:5/allowed/*", False),
        ("http://127.0.0.1:6/allowed/x", "http://127.0.0.1:*/allowed/*", True),
        ("https://evil.test/hooks.example.com/", "https://hooks.example.com/*", False),
        ("https://hooks.example.com@evil.test/", "https://hooks.example.com/*", False),
        ("https://a.example.com/x", "https://*.example.com", True),
        ("https://example.com:8443/x", "https://example.com", False),
        ("https://EXAMPLE.com/x", "https://example.com", True),
        ("http://example.com/x", "https://example.com", False),
        ("https://example.com/x", "*", True),
    ],
)
def test_url_patterns(url: str, pattern: str, allowed: bool) -> None:
    normalized = normalize_url(url)
    assert normalized is not None
    assert url_allowed(normalized, pattern) is allowed


@pytest.mark.parametrize(
    "url", ["http://evil.test\\@allowed.test/", "http://a b/", "http://a/\r\nX: 1", "http:///x"]
)
def test_urls_parsers_disagree_on_are_not_sent(url: str) -> None:
    assert normalize_url(url) is None


@given(st.text(max_size=40), st.text(max_size=40))
def test_matching_any_text_never_raises(url: str, pattern: str) -> None:
    normalized = normalize_url("http://" + url)
    if normalized is not None:
        url_allowed(normalized, pattern)
        path = normalized.split("?")[0].split("://", 1)[1]
        assert "/../" not in path + "/" and "/./" not in path + "/"


@given(
    st.text(max_size=30), st.dictionaries(st.sampled_from(["A", "B", "lower"]), st.text(max_size=8))
)
def test_a_header_value_never_holds_a_line_break(template: str, env: dict[str, str]) -> None:
    value = interpolate(template, frozenset(env), env)
    assert not any(c in value for c in "\r\n\0")


def test_a_header_name_that_cannot_be_sent_refuses_the_request() -> None:
    with pytest.raises(ValueError, match="cannot be sent"):
        request_headers({"headers": {"X-A\r\nInjected": "1"}}, {})
    headers = request_headers(
        {"headers": {"X-A": "$A $B"}, "allowedEnvVars": ["A", "B"]}, {"A": "1", "B": "2"}, ["A"]
    )
    assert headers["X-A"] == "1 "  # B: allowed by the hook, not by the settings
