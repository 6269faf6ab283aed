"""The README's Usage section, command by command, as a new user runs it.

A fresh project and HOME; every command must exit 0 without a traceback, and after
``uninstall`` the project holds only what the user asked for (the policy).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.usage.conftest import User

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_usage_section_names_the_commands_walked_here() -> None:
    """If the README's first block changes, this walkthrough must follow it."""
    usage = README.read_text().split("## Usage", 1)[1]
    block = usage.split("```bash", 1)[1].split("```", 1)[0]
    commands = [re.sub(r"\s+#.*", "", line).split()[1:3] for line in block.strip().splitlines()]
    assert [c[0] for c in commands] == [
        "policy",
        "policy",
        "policy",
        "install",
        "doctor",
        "explain",
        "test",
        "logs",
    ]


def test_walkthrough(user: User) -> None:
    p = user.project
    assert "wrote" in user.run("policy", "init").stdout
    user.run("policy", "trust")
    assert "valid" in user.run("policy", "validate").stdout
    assert "Rule packs" in user.run("policy", "docs").stdout
    for host in ("claude", "gemini", "codex"):
        user.run("install", host)
    user.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"  # the folder trust the install note asks for
    codex_config = user.home / ".codex" / "config.toml"
    codex_config.write_text(
        codex_config.read_text() + f'\n[projects.{json.dumps(str(p))}]\ntrust_level = "trusted"\n'
    )
    doctor = user.run("doctor", check=None)
    problems = [line for line in doctor.stdout.splitlines() if line.startswith("  FAIL")]
    assert doctor.returncode == 0 and "all good" in doctor.stdout, problems
    event = p / "event.json"
    event.write_text(
        json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "ls"},
                "cwd": str(p),
                "session_id": "s",
            }
        )
    )
    assert "decision:" in user.run("explain", str(event)).stdout
    scenarios = p / "scenarios.yaml"
    scenarios.write_text(
        "scenarios:\n"
        "  - name: ls is fine\n"
        "    platform: claude\n"
        "    event: PreToolUse\n"
        "    tool: Bash\n"
        "    input: {command: ls}\n"
        "    expect: {decision: none}\n"
    )
    assert "1 passed, 0 failed" in user.run("test", str(scenarios)).stdout
    user.run("hook", "--platform", "claude", stdin=event.read_text())
    assert "PreToolUse" in user.run("logs", "-n", "5").stdout
    user.run("migrate", "--from", "claude", "--to", "gemini")  # the dry run
    # fire and simulate run the hooks install registered, as Claude Code would
    payload = user.home / "payload.json"
    payload.write_text(json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
    before = len(user.run("logs", "-n", "100", "--json").stdout.splitlines())
    fired = user.run(
        "fire",
        "PreToolUse",
        "--host",
        "claude",
        "--project",
        str(p),
        "--payload",
        str(payload),
        "--trust-project",
    )
    assert '"proceed": true' in fired.stdout
    records = user.run("logs", "-n", "100", "--json").stdout.splitlines()
    assert len(records) == before + 1  # the registered hookwise hook decided it
    assert json.loads(records[-1])["source"] == "fire"  # labelled: no agent's call
    assert " claude [fire] PreToolUse Bash $ ls -> " in user.run("logs", "-n", "1").stdout
    scenario = user.home / "session.yaml"
    scenario.write_text(
        "name: walkthrough\nhost: claude\nsteps:\n  - user: list the files\n    model:\n"
        "      - calls:\n          - name: Bash\n            args: {command: ls}\n"
        "            result: x\n      - text: done\n"
    )
    simulated = user.run("simulate", str(scenario), "--project", str(p), "--trust-project")
    assert "expectation(s) passed" in simulated.stdout
    # the rollout is kept outside the project; the hooks' records say `simulate`
    rollouts = user.home / ".local" / "state" / "hookwise" / "rollouts"
    [rollout] = rollouts.iterdir()
    assert rollout.name.startswith("simulate-")
    assert f"rollout:{rollouts}" in "".join(simulated.stdout.split())  # (rich wraps it)
    last = json.loads(user.run("logs", "-n", "1", "--json").stdout)
    assert last["source"] == "simulate"
    for host in ("claude", "gemini", "codex"):
        user.run("uninstall", host)
    event.unlink()
    scenarios.unlink()
    left = sorted(str(f.relative_to(p)) for f in p.rglob("*"))
    assert left == [".git", ".hookwise", ".hookwise/policy.yaml"], left
