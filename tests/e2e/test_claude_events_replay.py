"""The records of ``tests.e2e.record_events`` (Claude Code 2.1.330, offline) replayed
through hookwise, no CLI needed: the events that fire in ``-p`` with the inputs the real CLI
sent, against the Claude table; the http hook's request and its deny, against hookwise's
own http handler and its prediction (``fire``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.system import HookSystem
from hookwise.protocol.claude import CLAUDE

FIXTURES = Path(__file__).parent / "fixtures" / "claude-events"
EVENTS = json.loads((FIXTURES / "events.json").read_text())
HTTP = json.loads((FIXTURES / "http-deny.json").read_text())
# common fields the CLI adds inside a subagent (hookwise passes them through)
EXTRA_COMMON = {"agent_id", "agent_type"}
NEW_EVENTS = {
    "Setup",
    "InstructionsLoaded",
    "UserPromptExpansion",
    "MessageDisplay",
    "PermissionDenied",
    "PostToolBatch",
    "TaskCreated",
    "TaskCompleted",
    "StopFailure",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
}


def test_the_record_is_of_the_pinned_cli_with_every_event_hooked() -> None:
    assert EVENTS["cli_version"] == "2.1.330" and EVENTS["exit_code"] == 0
    assert set(EVENTS["hooked"]) >= NEW_EVENTS


def test_the_new_events_that_fire_offline_in_print_mode() -> None:
    fired = {f["event"] for f in EVENTS["fired"]}
    assert fired & NEW_EVENTS == {
        "Setup",
        "InstructionsLoaded",
        "UserPromptExpansion",
        "PostToolBatch",
        "MessageDisplay",
    }
    order = [f["event"] for f in EVENTS["fired"]]
    # Setup before SessionStart; the expansion after the prompt; the batch after the call
    assert order.index("Setup") < order.index("SessionStart")
    assert order.index("UserPromptSubmit") < order.index("UserPromptExpansion")
    assert order.index("PostToolUse") < order.index("PostToolBatch") < order.index("Stop")


def _every_recorded_input() -> list[dict[str, Any]]:
    """events.json, stop-failure.json and the claude-offline runs (CwdChanged, FileChanged,
    PermissionDenied, Elicitation, ElicitationResult and the events around them)."""
    handlers = json.loads((FIXTURES.parent / "claude-handlers" / "stop-failure.json").read_text())
    offline = sorted((FIXTURES.parent / "claude-offline").glob("*.json"))
    fired = [f for path in offline for f in json.loads(path.read_text())["fired"]]
    return [*EVENTS["fired"], *handlers["fired"], *fired]


@pytest.mark.parametrize(
    "record", _every_recorded_input(), ids=lambda f: f"{f['event']}-{len(f['input'])}"
)
def test_each_recorded_input_is_the_tables(record: dict[str, Any], tmp_path: Path) -> None:
    event = CLAUDE.event(record["event"])
    sent = record["input"]
    own = set(sent) - set(CLAUDE.common_input) - EXTRA_COMMON
    assert own <= set(event.input_fields), own - set(event.input_fields)
    if event.matcher_field is not None:
        assert event.matcher_field in sent
    # hookwise fires it with those arguments in a session that knows the prompt's id and
    # the effort, and its hook gets exactly the fields the CLI sent, in the CLI's order
    log = tmp_path / "got.json"
    hs = HookSystem.from_hooks(
        {event.name: [{"hooks": [{"type": "command", "command": f"cat > {log}"}]}]},
        dialect="claude",
        cwd=str(tmp_path),
        session_id=sent["session_id"],
        transcript_path=sent["transcript_path"],
    )
    # the session has an effort level throughout and a prompt id once a prompt was
    # submitted; the table says which events carry them
    hs.session_input["effort"] = {"level": "medium"}
    if "prompt_id" in sent:
        hs.session_input["prompt_id"] = sent["prompt_id"]
    args = {k: v for k, v in sent.items() if k in event.input_fields}
    result = hs.fire_sync(event.name, args)
    assert result.runs and result.runs[0].success
    got = json.loads(log.read_text())
    assert list(got) == list(sent)
    assert {k: got[k] for k in args} == args


@pytest.fixture
def hook_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []
    answer = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "the http hook says no",
            }
        }
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            seen.append({k.lower(): v for k, v in self.headers.items()})
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", seen
    finally:
        server.shutdown()
        server.server_close()


def test_the_http_hook_is_predicted(
    hook_server: tuple[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    url, seen = hook_server
    (recorded,) = HTTP["hook_requests"]
    handler = {**HTTP["handler"], "url": url}
    hs = HookSystem.from_hooks(
        {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]},
        dialect="claude",
        cwd=str(tmp_path),
    )
    hs.execution.base_env = {"HOOK_TOKEN": "t0ken", "OTHER": "must-not-leak"}
    body = recorded["body"]
    effect = hs.fire_sync(
        "PreToolUse", {k: body[k] for k in ("tool_name", "tool_input", "tool_use_id")}
    ).effect.to_json()
    outcome = effect["outcome"]
    assert outcome["proceed"] is HTTP["tool_ran"] is False  # the call did not run
    assert (outcome["reason_for_model"] == "the http hook says no") is HTTP["model_read_reason"]
    (sent,) = seen
    for name in ("content-type", "authorization", "x-other", "accept", "user-agent"):
        assert sent[name] == recorded["headers"][name], name


def test_the_matrix_records_common_fields_are_the_tables_per_event() -> None:
    """Every record of the answer matrix (claude.jsonl: PreToolUse, PermissionRequest,
    UserPromptSubmit, Stop, all after a prompt) got the common fields hookwise sends on that
    event, no more, no fewer."""
    from hookwise.host.claude_dialect import RUNTIME

    seen: dict[str, set[str]] = {}
    for line in (FIXTURES.parent / "claude.jsonl").read_text().splitlines():
        record = json.loads(line)
        keys = set(record["hook_input_keys"])
        seen.setdefault(record["event"], keys)
        assert keys == seen[record["event"]], record["cell"]
    assert len(seen) == 4
    for name, keys in seen.items():
        event = CLAUDE.event(name)
        assert keys - set(event.input_fields) == set(RUNTIME.event_common[name]), name
