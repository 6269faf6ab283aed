"""The records of ``tests.e2e.record_claude_handlers`` (Claude Code 2.1.330, offline)
replayed through hookwise, no CLI needed: prompt and agent hooks through a model callback
that answers what the fake model answered, the mcp_tool hook through the same filesystem
MCP server, and StopFailure's input against the Claude table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.handlers.model import ModelRequest
from hookwise.host.loading import load_hook_system
from hookwise.host.system import HookSystem
from hookwise.protocol.claude import CLAUDE
from tests.e2e import clis
from tests.e2e.fake_model import API_ERROR_TEXT
from tests.e2e.record_claude_handlers import MCP_REASON, PROMPT, REASON, _deny_answer

FIXTURES = Path(__file__).parent / "fixtures" / "claude-handlers"
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))}
CALL = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}
VERDICTS = {
    "prompt-deny": {"ok": False, "reason": REASON},
    "prompt-allow": {"ok": True},
    "agent-deny": {"ok": False, "reason": REASON},
}


def test_the_records_are_of_the_pinned_cli() -> None:
    assert set(RECORDS) == {*VERDICTS, "mcp-deny", "stop-failure", "stop-failure-term"}
    assert all(r["cli_version"] == "2.1.330" for r in RECORDS.values())


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_a_model_hook_is_predicted(name: str, tmp_path: Path) -> None:
    record = RECORDS[name]
    assert record["hook_model_requests"] == 1
    asked: list[ModelRequest] = []

    def model(request: ModelRequest) -> str:
        asked.append(request)
        return json.dumps(VERDICTS[name])

    hs = HookSystem.from_hooks(record["hooks"], dialect="claude", cwd=str(tmp_path))
    hs.execution.model = model
    with hs:
        outcome = hs.fire_sync("PreToolUse", CALL).effect.outcome
    (request,) = asked
    assert request.kind == name.split("-", maxsplit=1)[0]
    # the prompt the CLI sent: $ARGUMENTS became the hook's JSON input
    assert record["hook_prompt"].startswith(PROMPT.replace(" $ARGUMENTS", " {"))
    assert request.prompt.startswith(PROMPT.replace(" $ARGUMENTS", " {"))
    assert outcome.proceed is record["tool_ran"]
    said = f"{outcome.reason_for_model} {outcome.message_for_user}"
    # the reason reached the model only where the CLI asked the model again
    continued = record["model_requests_after_the_call"] > 0
    assert outcome.stop_session is (not continued)
    if record["model_read"]["reason"]:
        assert REASON in said


def test_the_mcp_tool_hook_is_predicted(tmp_path: Path) -> None:
    record = RECORDS["mcp-deny"]
    binary = clis.mcp_server("mcp-server-filesystem")
    if binary is None:
        pytest.skip("the reference filesystem MCP server is not installed: make e2e-install")
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    (proj / ".claude").mkdir(parents=True)
    (proj / "answer.json").write_text(json.dumps(_deny_answer()))
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": record["hooks"]}))
    server = {"type": "stdio", "command": str(binary), "args": [str(proj)]}
    (home / ".claude.json").write_text(
        json.dumps(
            {
                "mcpServers": {"fs": server},
                "projects": {str(proj.resolve()): {"hasTrustDialogAccepted": True}},
            }
        )
    )
    env = {"PATH": clis.search_path()}
    with load_hook_system(proj, home=home, env=env, dialect="claude") as hs:
        outcome = hs.fire_sync("PreToolUse", CALL).effect.outcome
    assert outcome.proceed is record["tool_ran"] is False
    assert record["model_read"]["mcp_reason"] and MCP_REASON in (outcome.reason_for_model or "")


def test_stop_failure_fires_with_the_tables_input() -> None:
    record = RECORDS["stop-failure"]
    assert record["tool_ran"] and record["exit_code"] == 1
    events = [f["event"] for f in record["fired"]]
    assert events == ["StopFailure"]  # and no Stop: the turn ended on the API error
    sent = record["fired"][0]["input"]
    event = CLAUDE.event("StopFailure")
    own = set(sent) - set(CLAUDE.common_input) - {"prompt_id", "effort"}
    assert own <= set(event.input_fields), own - set(event.input_fields)
    assert sent["error"] == "unknown" and API_ERROR_TEXT in sent["last_assistant_message"]


def test_hookwise_fires_stop_failure_with_the_recorded_arguments(tmp_path: Path) -> None:
    sent: dict[str, Any] = RECORDS["stop-failure"]["fired"][0]["input"]
    log = tmp_path / "got.json"
    hooks = {"StopFailure": [{"hooks": [{"type": "command", "command": f"cat > {log}"}]}]}
    args = {k: sent[k] for k in ("error", "last_assistant_message")}
    with HookSystem.from_hooks(hooks, dialect="claude", cwd=str(tmp_path)) as hs:
        result = hs.fire_sync("StopFailure", args)
    assert result.runs and result.runs[0].success
    got = json.loads(log.read_text())
    assert {k: got[k] for k in args} == args and got["hook_event_name"] == "StopFailure"


def test_claude_ends_stop_failure_hooks_as_it_exits_and_the_policy_hook_outlives_that() -> None:
    """Recorded: the CLI sends SIGTERM to a StopFailure hook well within a second of
    starting it (its ``-p`` run ends) and nothing harder follows (the trapping probe went on
    to finish). hookwise's hook holds SIGTERM for an event whose answer the host discards
    (policy/hook.py), which the compiled host table says StopFailure is."""
    probe = RECORDS["stop-failure-term"]["probe"]
    assert probe["started"] and probe["finished_after_sigterm"]
    assert probe["sigterm_within_s"] is not None and probe["sigterm_within_s"] <= 1.0
    from hookwise.policy.adapters.hosts import host_tables

    tables = host_tables()
    assert tables["claude"]["events"]["StopFailure"]["honoured"] is False
    assert tables["claude"]["events"]["PreToolUse"]["honoured"] is True
