"""Claude Code 2.1.330's other events and its http handler, recorded on the real CLI offline.

    python -m tests.e2e.record_events [--out tests/e2e/fixtures/claude-events]

Two runs of ``claude -p`` against the fake model (in this process, 127.0.0.1 only; no
network namespace, the CLI being configured to contact only 127.0.0.1):

* ``events``: ``claude -p --init /hello`` in a project with a CLAUDE.md, a ``/hello``
  command, and one logging command hook on every event of hookwise's Claude table (the
  original 13 and the 18 of issue 27). The record keeps, per event that fired, the input the
  hook got (run paths as ``$RUN``): what can fire offline in ``-p``.
* ``http-allowlists`` (and ``-project``): two http PreToolUse hooks, one under the URL
  pattern the user's ``allowedHttpHookUrls`` allows, one not, with header variables the
  user's ``httpHookAllowedEnvVars`` allows or not, a credential, a lower-case name and a
  value with a line break; ``-project``: the project's settings add the other URL.
* ``http-deny``: one ``type: "http"`` PreToolUse hook whose URL is a server in this process
  answering a deny; the header carries ``$HOOK_TOKEN`` (allowed) and ``$OTHER`` (not). The
  record keeps the request the server got and what the model read after the call.

``tests/e2e/test_claude_events_replay.py`` replays both through hookwise (no CLI needed).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel
from tests.e2e.observe import read_jsonl
from tests.e2e.runner import run_bounded

OUT = Path(__file__).parent / "fixtures" / "claude-events"
DENY_REASON = "the http hook says no"
HTTP_ANSWER = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": DENY_REASON,
    }
}


def _settings(layout: clis.Layout, hooks: dict[str, Any]) -> None:
    path = layout.proj / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, "permissions": {"allow": ["Bash"]}}, indent=1))
    trusted = {str(layout.proj): {"hasTrustDialogAccepted": True}}
    (layout.home / ".claude.json").write_text(
        json.dumps({"hasCompletedOnboarding": True, "projects": trusted})
    )


def _normalise(value: Any, root: Path) -> Any:
    return json.loads(json.dumps(value).replace(str(root), "$RUN"))


def run_events(root: Path) -> dict[str, Any]:
    """Every event of the table hooked with a logging command that answers nothing."""
    from hookwise.protocol.claude import CLAUDE

    layout = clis.Layout(root)
    layout.create()
    command = clis.hook_command({"exit": 0, "stdout": "", "stderr": ""})
    hooks = {name: [{"hooks": [{"type": "command", "command": command}]}] for name in CLAUDE.events}
    _settings(layout, hooks)
    (layout.proj / "CLAUDE.md").write_text("# Project notes\nThe marker is a plain file.\n")
    commands = layout.proj / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "hello.md").write_text("please write the marker\n")
    with FakeModel() as fake:
        argv = [str(clis.binary("claude")), "-p", "--init", "/hello", "--output-format", "json"]
        env = clis.environment("claude", layout, fake.url)
        started = time.monotonic()
        _, _, code, timed_out = run_bounded(argv, layout.proj, env, 120)
        seconds = time.monotonic() - started
    calls = read_jsonl(layout.hook_log)
    fired: list[dict[str, Any]] = []
    for call in calls:
        payload = call.get("input")
        if isinstance(payload, dict):
            fired.append({"event": payload.get("hook_event_name"), "input": payload})
    return {
        "run": "events",
        "cli": "claude",
        "cli_version": clis.installed_version("claude"),
        "argv": ["claude", "-p", "--init", "/hello", "--output-format", "json"],
        "hooked": list(CLAUDE.events),
        "fired": _normalise(fired, root),
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
    }


class _HookServer:
    """The http hook's endpoint: answers HTTP_ANSWER (or nothing, with ``quiet``), keeps
    each request."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.requests: list[dict[str, Any]] = []
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                seen.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": json.loads(body or b"null"),
                    }
                )
                data = b"" if quiet else json.dumps(HTTP_ANSWER).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> _HookServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


def http_handler(url: str) -> dict[str, Any]:
    return {
        "type": "http",
        "url": url,
        "timeout": 30,
        "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "[$OTHER]"},
        "allowedEnvVars": ["HOOK_TOKEN"],
    }


def run_http(root: Path) -> dict[str, Any]:
    layout = clis.Layout(root)
    layout.create()
    with _HookServer() as hook_server, FakeModel() as fake:
        handler = http_handler(hook_server.url)
        _settings(layout, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]})
        argv = [str(clis.binary("claude")), "-p", clis.PROMPT, "--output-format", "json"]
        env = clis.environment("claude", layout, fake.url)
        env |= {"HOOK_TOKEN": "t0ken", "OTHER": "must-not-leak"}
        _, _, code, timed_out = run_bounded(argv, layout.proj, env, 120)
        requests = list(fake.requests)
        received = list(hook_server.requests)
    follow_up = [json.dumps(r.get("body")) for r in requests[1:]]
    for request in received:
        request["headers"].pop("host", None)
        request["headers"].pop("content-length", None)
    return {
        "run": "http-deny",
        "cli": "claude",
        "cli_version": clis.installed_version("claude"),
        "handler": {**handler, "url": "$HOOK_URL"},
        "hook_requests": _normalise(received, root),
        "tool_ran": (layout.proj / "marker").exists(),
        "model_read_reason": any(DENY_REASON in text for text in follow_up),
        "exit_code": code,
        "timed_out": timed_out,
    }


# The header variables of the allowlist runs: allowed by the user's httpHookAllowedEnvVars
# and by the handler, by the handler only, a credential, a lower-case name, a line break
ALLOWLIST_ENV = {
    "HOOK_TOKEN": "t0ken",
    "OTHER": "must-not-leak",
    "CLAUDE_CODE_OAUTH_REFRESH_TOKEN": "refresh-secret",
    "HOOK_CRLF": "x\r\nInjected: 1",
    "lower_var": "low",
}
ALLOWLIST_HEADERS = {
    "X-Token": "$HOOK_TOKEN",
    "X-Other": "[$OTHER]",
    "X-Key": "[${ANTHROPIC_API_KEY}]",
    "X-Refresh": "[$CLAUDE_CODE_OAUTH_REFRESH_TOKEN]",
    "X-Crlf": "[${HOOK_CRLF}]",
    "X-Lower": "[$lower_var]",
}


def run_allowlists(root: Path, *, project_widens: bool) -> dict[str, Any]:
    """Two http PreToolUse hooks, /allowed/one and /other; the user's settings allow URLs
    under /allowed/ and some header variables (``project_widens``: the project's settings
    list /other too)."""
    layout = clis.Layout(root)
    layout.create()
    with _HookServer(quiet=True) as hook_server, FakeModel() as fake:
        names = [*sorted(ALLOWLIST_ENV), "ANTHROPIC_API_KEY"]
        handlers = [
            {
                "type": "http",
                "url": f"{hook_server.origin}{path}",
                "timeout": 30,
                "headers": ALLOWLIST_HEADERS,
                "allowedEnvVars": names,
            }
            for path in ("/allowed/one", "/other")
        ]
        _settings(layout, {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]})
        user = {
            "allowedHttpHookUrls": [f"{hook_server.origin}/allowed/*"],
            "httpHookAllowedEnvVars": [n for n in names if n != "OTHER"],
        }
        (layout.home / ".claude").mkdir(parents=True, exist_ok=True)
        (layout.home / ".claude" / "settings.json").write_text(json.dumps(user, indent=1))
        if project_widens:
            path = layout.proj / ".claude" / "settings.json"
            project = json.loads(path.read_text())
            project["allowedHttpHookUrls"] = [f"{hook_server.origin}/other"]
            path.write_text(json.dumps(project, indent=1))
        argv = [str(clis.binary("claude")), "-p", clis.PROMPT, "--output-format", "json"]
        env = clis.environment("claude", layout, fake.url) | ALLOWLIST_ENV
        _, _, code, timed_out = run_bounded(argv, layout.proj, env, 120)
        received = list(hook_server.requests)
        origin = hook_server.origin
    for request in received:
        request.pop("body", None)
        for header in ("host", "content-length", "connection", "accept-encoding"):
            request["headers"].pop(header, None)
    return {
        "run": "http-allowlists-project" if project_widens else "http-allowlists",
        "cli": "claude",
        "cli_version": clis.installed_version("claude"),
        "env": ALLOWLIST_ENV,
        "user_settings": json.loads(json.dumps(user).replace(origin, "$ORIGIN")),
        "project_widens": project_widens,
        "handlers": json.loads(json.dumps(handlers).replace(origin, "$ORIGIN")),
        "hook_requests": received,
        "tool_ran": (layout.proj / "marker").exists(),
        "exit_code": code,
        "timed_out": timed_out,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--only", action="append", help="record only these runs")
    args = parser.parse_args(argv)
    problem = clis.install_problem("claude")
    if problem:
        raise SystemExit(problem)
    args.out.mkdir(parents=True, exist_ok=True)
    parser_runs = {
        "events": run_events,
        "http-deny": run_http,
        "http-allowlists": lambda root: run_allowlists(root, project_widens=False),
        "http-allowlists-project": lambda root: run_allowlists(root, project_widens=True),
    }
    for name, run in parser_runs.items():
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix=f"hookwise-{name}-") as tmp:
            record = run(Path(tmp))
        (args.out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(f"{name}: exit {record['exit_code']}, written to {args.out / (name + '.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
