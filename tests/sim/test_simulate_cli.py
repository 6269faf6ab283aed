"""`hookwise simulate` from the command line: the bundled examples, JSON, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "scenarios"


def hookwise(*args: str, home: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.yaml")))
def test_bundled_examples_pass(tmp_path: Path, name: str) -> None:
    rollout = tmp_path / "rollout.jsonl"
    proc = hookwise(
        "simulate",
        str(EXAMPLES / f"{name}.yaml"),
        "--rollout",
        str(rollout),
        "--json",
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    result = json.loads(proc.stdout)
    assert result["passed"] is True
    hosts = {"claude-tour": "claude", "claude-init-commands": "claude", "codex-tour": "codex"}
    assert result["host"] == hosts.get(name, "gemini")
    assert result["expectations"] and all(e["passed"] for e in result["expectations"])
    assert result["rollout"] == str(rollout)
    recorded = [json.loads(line) for line in rollout.read_text().splitlines()]
    assert [r["type"] for r in recorded] == [e["type"] for e in result["events"]]


def test_transcript_and_rollout_show(tmp_path: Path) -> None:
    rollout = tmp_path / "r.jsonl"
    proc = hookwise(
        "simulate", str(EXAMPLES / "turn-hooks.yaml"), "--rollout", str(rollout), home=tmp_path
    )
    assert proc.returncode == 0, proc.stdout
    out = proc.stdout
    assert "Hook(TurnStart) $ " in out and "Hook(TurnEnd) $ python3 hooks/lint_gate.py" in out
    assert "HookInput: app.py:3: unused import os" in out
    assert "PASS line" in out and "all 12 expectation(s) passed" in out
    shown = hookwise("rollout", "show", str(rollout), home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "Hook(TurnStart)" in shown.stdout and "Hook(TurnEnd)" in shown.stdout
    assert "HookInput: Reminder: run the linter before you say you are done." in shown.stdout
    assert "HookInput: app.py:3: unused import os" in shown.stdout
    assert "BeforeAgent" in shown.stdout  # the simulator's own records render too


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_a_failing_expectation_exits_1(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        settings: none
        steps:
          - user: hi
            model: [{text: hello}]
        expect:
          - answer: hello
          - answer: goodbye
          - fired: BeforeTool
        """,
    )
    proc = hookwise("simulate", str(path), "--json", home=tmp_path)
    assert proc.returncode == 1
    result = json.loads(proc.stdout)
    verdicts = [(e["line"], e["passed"]) for e in result["expectations"]]
    assert verdicts == [(6, True), (7, False), (8, False)]
    assert result["expectations"][1]["message"] == "turn 1 answered 'hello'"
    assert "never fired" in result["expectations"][2]["message"]
    text = hookwise("simulate", str(path), home=tmp_path)
    assert text.returncode == 1
    assert "FAIL line 7: answer: 'goodbye'" in text.stdout
    assert "2 of 3 expectation(s) failed" in text.stdout


def test_a_bad_scenario_exits_2_with_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "steps:\n  - user: hi\n    modle: []\n")
    proc = hookwise("simulate", str(path), home=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"error: {path}:3: steps[0].modle: unknown key (expected one of: user, model,"
        " hook_turns, compress, interrupt); did you mean 'model'?"
    )
    assert proc.stdout == ""


def test_host_specific_checks(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "settings: none\nsteps: [{user: hi}]\nexpect:\n  - fired: PreToolUse\n",
    )
    proc = hookwise("simulate", str(path), home=tmp_path)
    assert proc.returncode == 2
    assert f"{path}:4: expect[0].fired: unknown Gemini hook event 'PreToolUse'" in proc.stderr
    path = write(tmp_path, "settings: none\nsession: {start: boot}\nsteps: [{user: hi}]\n")
    proc = hookwise("simulate", str(path), home=tmp_path)
    assert proc.returncode == 2 and f"{path}:2: session.start: must be one of" in proc.stderr
    path = write(tmp_path, "settings: none\nsteps: [{compress: sometimes}]\n")
    proc = hookwise("simulate", str(path), home=tmp_path)
    assert proc.returncode == 2 and "steps[0].compress: must be one of manual, auto" in proc.stderr


def test_a_bad_hook_toml_exits_2_before_anything_runs(tmp_path: Path) -> None:
    (tmp_path / ".agent").mkdir()
    (tmp_path / ".agent" / "hook.toml").write_text('[turn_start]\ncommand = "sh"\nargz = []\n')
    marker = tmp_path / "ran"
    path = write(
        tmp_path,
        f"""\
        settings: none
        hooks:
          SessionStart: [{{hooks: [{{type: command, command: "touch {marker}"}}]}}]
        steps: [{{user: hi}}]
        """,
    )
    proc = hookwise("simulate", str(path), home=tmp_path)
    assert proc.returncode == 2
    assert f"{tmp_path}/.agent/hook.toml:3: turn_start.argz: unknown key" in proc.stderr
    assert not marker.exists()
    assert not (tmp_path / ".agent" / "rollouts").exists()


def test_choosing_the_host(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        settings: none
        hooks:
          Stop: [{hooks: [{type: command, command: "cat > stop.json"}]}]
        steps: [{user: hi, model: [{text: hello}]}]
        expect:
          - fired: Stop
        """,
    )
    for host in ("claude", "codex"):
        proc = hookwise("simulate", str(path), "--host", host, "--json", home=tmp_path)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
        assert json.loads(proc.stdout)["host"] == host
        assert json.loads((tmp_path / "stop.json").read_text())["last_assistant_message"] == "hello"
    proc = hookwise(
        "simulate", str(path), "--host", "claude", "--profile", "gemini-cli", home=tmp_path
    )
    assert proc.returncode == 2 and "profiles apply to the gemini host only" in proc.stderr
    path = write(tmp_path, "host: gemini\nsteps: [{user: hi}]\n")
    proc = hookwise("simulate", str(path), "--host", "codex", home=tmp_path)
    assert proc.returncode == 2
    assert "the scenario is written for 'gemini', not 'codex'" in proc.stderr


def test_workspace_override_and_default_rollout(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / ".agent").mkdir(parents=True)
    (workspace / ".agent" / "hook.toml").write_text(
        '[turn_start]\ncommand = "sh"\nargs = ["-c", "echo from-ws >&2"]\n'
    )
    path = write(
        tmp_path,
        """\
        settings: none
        steps: [{user: hi, model: [{text: ok}]}]
        expect:
          - request_contains: "HookInput (TurnStart): from-ws"
        """,
    )
    proc = hookwise("simulate", str(path), "--workspace", str(workspace), "--json", home=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:]
    rollout = Path(json.loads(proc.stdout)["rollout"])
    # outside the project: the user's state directory (issue 26)
    assert rollout.parent == tmp_path / ".local" / "state" / "hookwise" / "rollouts"
    assert rollout.exists() and not (workspace / ".agent" / "rollouts").exists()


def test_project_settings_are_loaded_like_gemini_does(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    (workspace / ".gemini").mkdir(parents=True)
    settings = {
        "hooks": {
            "BeforeTool": [
                {
                    "matcher": "run_shell_command",
                    "hooks": [{"type": "command", "command": "echo nope >&2; exit 2"}],
                }
            ]
        }
    }
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(settings))
    path = write(
        tmp_path,
        """\
        workspace: project
        steps:
          - user: go
            model:
              - calls: [{name: run_shell_command, args: {command: ls}}]
              - text: done
        expect:
          - tool_blocked: run_shell_command
            reason_contains: nope
        """,
    )
    env_home = tmp_path / "home"
    env_home.mkdir()
    trusted = subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", "simulate", str(path), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(env_home), "GEMINI_CLI_TRUST_WORKSPACE": "true"},
        timeout=300,
        check=False,
    )
    assert trusted.returncode == 0, trusted.stdout[-2000:] + trusted.stderr


def test_a_turn_end_hook_that_always_answers_stops_at_max_turns(tmp_path: Path) -> None:
    """A TurnEnd hook that always writes stderr starts turn after turn: the scenario's bound
    ends it and reports a failed expectation. Turn hooks and host hooks share the session id."""
    workspace = tmp_path / "ws"
    (workspace / ".agent").mkdir(parents=True)
    (workspace / ".agent" / "hook.toml").write_text(
        '[turn_end]\ncommand = "sh"\nargs = ["-c", "cat > turn.json; echo again >&2"]\n'
    )
    path = write(
        tmp_path,
        """\
        settings: none
        max_turns: 3
        hooks:
          BeforeAgent: [{hooks: [{type: command, command: "cat > host.json"}]}]
        steps: [{user: hi, model: [{text: ok}]}]
        expect:
          - answer: ok
        """,
    )
    proc = hookwise("simulate", str(path), "--workspace", str(workspace), "--json", home=tmp_path)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    failed = [e for e in result["expectations"] if not e["passed"]]
    assert [e["check"] for e in failed] == ["max_turns"]
    turn = json.loads((workspace / "turn.json").read_text())
    host = json.loads((workspace / "host.json").read_text())
    assert turn["session_id"] == host["session_id"]
