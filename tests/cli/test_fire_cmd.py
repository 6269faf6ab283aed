"""`hookwise fire` and `hookwise conformance gemini` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gemini-project"


def run(*args: str, stdin: str | None = None, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GEMINI_CLI_TRUST_WORKSPACE": "true", "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_fire_json_on_the_example_blocks_rm_rf(tmp_path: Path) -> None:
    proc = run(
        "fire",
        "BeforeTool",
        "--settings",
        str(EXAMPLE),
        "--home",
        str(tmp_path),
        "--payload",
        str(EXAMPLE / "payloads" / "shell_rm_rf.json"),
        "--json",
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["plan"]["hooks"][0]["name"] == "block-dangerous-shell"
    assert out["runs"][0]["exit_code"] == 2
    assert out["effect"]["type"] == "ToolCallEffect"
    assert out["effect"]["action"] == "block"
    assert out["effect"]["error"].startswith(
        "Tool execution blocked: Refusing a destructive command"
    )


def test_fire_profiles_differ_on_exit_2_with_json(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".gemini").mkdir(parents=True)
    command = 'echo \'{"decision":"allow"}\'; echo no >&2; exit 2'
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": command}]}]}}
        )
    )
    payload = json.dumps({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
    actions = {}
    for profile in ("documented", "gemini-cli"):
        proc = run(
            "fire",
            "BeforeTool",
            "--settings",
            str(project),
            "--home",
            str(tmp_path),
            "--payload",
            "-",
            "--json",
            "--profile",
            profile,
            stdin=payload,
            home=tmp_path,
        )
        assert proc.returncode == 0, proc.stderr
        actions[profile] = json.loads(proc.stdout)["effect"]["action"]
    assert actions == {"documented": "block", "gemini-cli": "proceed"}


def test_fire_rich_output_shows_plan_runs_and_effect(tmp_path: Path) -> None:
    proc = run(
        "fire",
        "AfterTool",
        "--settings",
        str(EXAMPLE),
        "--home",
        str(tmp_path),
        "--payload",
        str(EXAMPLE / "payloads" / "read_key.json"),
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    for text in ("AfterTool plan", "redact-secrets", "aggregate", "effect", "Tool result blocked"):
        assert text in proc.stdout


def test_bad_payloads_are_clear_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["fire", "BeforeTool", "--payload", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "nope.json" in missing.output
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    bad = runner.invoke(cli, ["fire", "BeforeTool", "--payload", str(broken)])
    assert bad.exit_code == 2 and "broken.json is not JSON" in bad.output
    schema = runner.invoke(
        cli,
        [
            "fire",
            "BeforeTool",
            "--settings",
            str(tmp_path),
            "--home",
            str(tmp_path),
            "--payload",
            "-",
        ],
        input='{"tool_name": 1}',
    )
    assert schema.exit_code == 2  # a payload field of the wrong type: an input error
    assert (
        "field 'tool_name' must be string" in schema.output
        and "missing field 'tool_input'" in schema.output
    )


def test_fire_raw_sends_the_object_verbatim(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "Notification": [{"hooks": [{"type": "command", "command": "cat > seen.json"}]}]
                }
            }
        )
    )
    proc = run(
        "fire",
        "Notification",
        "--raw",
        "--settings",
        str(project),
        "--home",
        str(tmp_path),
        "--payload",
        "-",
        "--json",
        stdin='{"custom": [1, 2], "hook_event_name": "Notification"}',
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    # exactly the object given: no timestamp, session id or cwd added (the real CLIs'
    # payloads are replayed this way)
    seen = json.loads((project / "seen.json").read_text())
    assert seen == {"custom": [1, 2], "hook_event_name": "Notification"}


# stdin objects shaped as the real CLIs send them (keys from tests/e2e/fixtures), with a
# field hookwise does not know and values it would never build itself
RAW_INPUTS = {
    "claude": (
        ".claude/settings.json",
        {
            "session_id": "s-from-the-cli",
            "transcript_path": "/nowhere/t.jsonl",
            "cwd": "(the project)",
            "permission_mode": "acceptEdits",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "echo hi > marker", "description": "x"},
            "tool_use_id": "toolu_1",
            "effort": {"level": "high"},
            "prompt_id": "p-1",
            "zz_unknown": [1, {"b": None}],
        },
    ),
    "codex": (
        ".codex/hooks.json",
        {
            "session_id": "s-from-the-cli",
            "turn_id": "t-1",
            "transcript_path": None,
            "cwd": "(the project)",
            "hook_event_name": "PreToolUse",
            "model": "fake-model",
            "permission_mode": "bypassPermissions",
            "tool_name": "Bash",
            "tool_input": {"command": "echo hi > marker"},
            "tool_use_id": "call_1",
            "zz_unknown": 1.5,
        },
    ),
}


@pytest.mark.parametrize("host", sorted(RAW_INPUTS))
def test_fire_raw_sends_a_real_cli_stdin_verbatim_on_claude_and_codex(
    tmp_path: Path, host: str
) -> None:
    where, stdin = RAW_INPUTS[host]
    project = tmp_path / "proj"
    settings = project / where
    settings.parent.mkdir(parents=True)
    hook = {"type": "command", "command": f"cat > {tmp_path / 'seen.json'}"}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}
    settings.write_text(json.dumps({"hooks": hooks}))
    # the hook runs in the payload's cwd, as in the session it came from
    stdin = {**stdin, "cwd": str(project)}
    text = json.dumps(stdin)
    proc = run(
        "fire",
        "PreToolUse",
        "--raw",
        "--host",
        host,
        "--settings",
        str(project),
        "--home",
        str(tmp_path),
        "--trust-workspace",
        "--dangerously-bypass-hook-trust",
        "--payload",
        "-",
        "--json",
        stdin=text,
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    seen_text = (tmp_path / "seen.json").read_text()
    seen = json.loads(seen_text)
    # the same object, keys in the same order: nothing added, dropped or rebuilt
    assert seen == stdin and list(seen) == list(stdin)
    assert json.loads(proc.stdout)["outcome"]["proceed"] is True


def test_conformance_single_case_and_bad_case(tmp_path: Path) -> None:
    case = {
        "id": "x",
        "event": "BeforeTool",
        "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo hi"}]}]},
        "args": {"tool_name": "t", "tool_input": {}},
    }
    proc = run("conformance", "gemini", stdin=json.dumps(case, indent=2), home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["id"] == "x" and out["aggregated"]["finalOutput"]["systemMessage"] == "hi"
    assert out["implementation"]["profile"] == "gemini-cli"
    bad = run("conformance", "gemini", "--batch", stdin="{}\nnot json\n", home=tmp_path)
    assert bad.returncode == 2 and "line 2: not JSON" in bad.stderr  # an input error


def test_embedding_example_runs_a_whole_turn(tmp_path: Path) -> None:
    env = {**os.environ, "GEMINI_CLI_TRUST_WORKSPACE": "true", "HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "embed_loop.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "blocked: Tool execution blocked: Refusing a destructive command: rm -rf build",
        "retry: End your answer with a 'Summary:' line.",
        "answer: I could not delete build/.",
        "Summary: nothing was deleted.",
    ]
