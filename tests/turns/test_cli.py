"""`hookwise turns check` and `hookwise rollout show`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.turns.session import Turn, TurnSession
from tests.turns.conftest import hook_section, write_hook_toml


def test_turns_check(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["turns", "check", str(tmp_path)])
    assert result.exit_code == 0 and "not found (no turn hooks)" in result.output
    write_hook_toml(tmp_path, hook_section("turn_end", "true", timeout_ms=100))
    result = runner.invoke(cli, ["turns", "check", str(tmp_path)])
    assert result.exit_code == 0
    assert json.loads(result.output)["turn_end"]["timeout_ms"] == 100.0
    write_hook_toml(tmp_path, "[turn_end]\nargs = 1\n")
    result = runner.invoke(cli, ["turns", "check", str(tmp_path)])
    assert result.exit_code == 1
    assert (
        f"{tmp_path}/.agent/hook.toml:1: turn_end: missing required key 'command'" in result.output
    )
    assert f"{tmp_path}/.agent/hook.toml:2: turn_end.args: must be an array" in result.output


def _recorded_session(tmp_path: Path) -> Path:
    write_hook_toml(
        tmp_path,
        hook_section("turn_start", "echo visible; echo 'from start' 1>&2")
        + hook_section(
            "turn_end", "[ -f .agent/once ] || { touch .agent/once; echo 'again please' 1>&2; }"
        ),
    )
    path = tmp_path / "r.jsonl"
    session = TurnSession(tmp_path, rollout_path=path)

    async def agent(turn: Turn) -> str:
        return f"answer to {turn.prompt()!r}"

    asyncio.run(session.submit("hello", agent))
    session.close()
    return path


def test_rollout_show(tmp_path: Path) -> None:
    path = _recorded_session(tmp_path)
    result = CliRunner().invoke(cli, ["rollout", "show", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Hook(TurnStart) $ sh -c") == 2 and out.count("Hook(TurnEnd) $ sh -c") == 2
    assert "visible" in out and "Hook(TurnStart): exit 0" in out
    assert "HookInput: from start  (TurnStart; joins this turn)" in out
    assert "HookInput: again please  (TurnEnd; starts a new turn)" in out
    assert "turn 2 (HookInput)" in out and "user: hello" in out
    as_json = CliRunner().invoke(cli, ["rollout", "show", str(path), "--json"])
    events = json.loads(as_json.output)
    assert events[0]["type"] == "session_configured"
    assert [e["type"] for e in events].count("hook_input") == 3


def test_rollout_show_reports_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"type": "turn_started", "turn_id": "t", "index": 1, "source": "user"}\nnope\n'
    )
    result = CliRunner().invoke(cli, ["rollout", "show", str(path)])
    assert result.exit_code == 2 and f"{path}:2: not JSON" in result.output  # input error
    path.write_text('{"type": "turn_started"}\n')
    result = CliRunner().invoke(cli, ["rollout", "show", str(path)])
    assert result.exit_code == 2 and f"{path}:1: turn_started event:" in result.output
    path.write_text('{"type": "from_the_future", "x": 1}\n')
    result = CliRunner().invoke(cli, ["rollout", "show", str(path)])
    assert result.exit_code == 0 and "unknown event 'from_the_future'" in result.output
    result = CliRunner().invoke(cli, ["rollout", "show", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "cannot read" in result.output
