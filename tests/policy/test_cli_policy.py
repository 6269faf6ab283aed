from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.rules.schema import SCHEMA
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.tools.starter import STARTER_POLICY


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def project(isolated: Path) -> Path:
    root = isolated / "proj"
    (root / ".hookwise").mkdir(parents=True)
    return root


def test_init_writes_a_starter_that_validates_cleanly(runner: CliRunner, project: Path) -> None:
    result = runner.invoke(cli, ["policy", "init", "--dir", str(project)])
    assert result.exit_code == 0, result.output
    assert (project / ".hookwise" / "policy.yaml").read_text() == STARTER_POLICY
    again = runner.invoke(cli, ["policy", "init", "--dir", str(project)])
    assert again.exit_code == 2 and "exists" in again.output  # a usage error: --force
    result = runner.invoke(cli, ["policy", "validate", "--cwd", str(project), "--strict"])
    assert result.exit_code == 0, result.output
    assert "valid: 0 errors, 0 warnings" in result.output


ONE_RULE = """\
version: 1
rules:
  - id: no-force-push
    match: {command: git push --force}
    action: deny
    reason: Force pushes rewrite shared history.
"""


def test_counts_take_the_singular_for_one(runner: CliRunner, project: Path) -> None:
    policy = project / ".hookwise" / "policy.yaml"
    policy.write_text(ONE_RULE, encoding="utf-8")
    result = runner.invoke(cli, ["policy", "validate", str(policy)])
    assert result.exit_code == 0, result.output
    assert f"{policy}: 1 rule (1 enabled)" in result.stdout
    assert "1 rules" not in result.output
    policy.write_text(ONE_RULE + ONE_RULE.split("rules:\n")[1].replace("no-force", "no-f"))
    result = runner.invoke(cli, ["policy", "validate", str(policy)])
    assert f"{policy}: 2 rules (2 enabled)" in result.stdout


def test_starter_rules_decide_as_documented() -> None:
    from hookwise.policy.pipeline import decide

    policy = compile_sources([("project", "p.yaml", STARTER_POLICY.encode())])
    cases = [
        ("git push --force origin main", "deny"),
        ("git push origin +main", "deny"),
        ("git push origin feature-fix", None),
        ("rm -rf ../elsewhere", "deny"),
        ("rm -rf build", "ask"),
        ("git reset --hard HEAD~1", "ask"),
    ]
    for command, expected in cases:
        payload = build_payload(
            "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd="/w/p"
        )
        outcome = decide(payload, policy, None, {"HOME": "/home/u"}, now=0.0)
        assert outcome.decision is not None and outcome.decision.decision == expected, command
    writes = [
        ({"file_path": "/w/p/.env", "content": "A=1"}, "deny"),
        ({"file_path": "/w/p/.env.example", "content": "A="}, None),
        ({"file_path": "/w/p/k.py", "content": "key = 'AKIAABCDEFGHIJKLMNOP'"}, "deny"),
        ({"file_path": "/w/p/k.py", "content": "print(1)"}, None),
    ]
    for tool_input, expected in writes:
        payload = build_payload(
            "gemini", "BeforeTool", tool="write_file", tool_input=tool_input, cwd="/w/p"
        )
        outcome = decide(payload, policy, None, {}, now=0.0)
        assert outcome.decision is not None and outcome.decision.decision == expected, tool_input


def test_validate_reports_positions_and_fails(runner: CliRunner, project: Path) -> None:
    bad = project / ".hookwise" / "policy.yaml"
    bad.write_text(
        "version: 1\nrules:\n  - id: a\n    match: {tool: shell, comand: ls}\n    action: deny\n"
    )
    result = runner.invoke(cli, ["policy", "validate", "--cwd", str(project)])
    assert result.exit_code == 1
    assert (
        f"{bad}:4:26: error: match: unknown key 'comand'; did you mean 'command'?" in result.output
    )
    result = runner.invoke(cli, ["policy", "validate", str(bad), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["errors"][0]["line"] == 4


def test_validate_without_any_policy(runner: CliRunner, isolated: Path) -> None:
    result = runner.invoke(cli, ["policy", "validate", "--cwd", str(isolated)])
    assert result.exit_code == 2  # nothing to validate: an input error, not a failed check
    assert "no policy file found" in result.output
    assert "`hookwise policy init` writes one" in result.output


def test_show_gives_origins(runner: CliRunner, project: Path, isolated: Path) -> None:
    user = isolated / "home" / ".config" / "hookwise"
    user.mkdir(parents=True)
    (user / "policy.yaml").write_text(
        "version: 1\nrules:\n  - {id: a, match: {command: ls}, action: deny}\n"
    )
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - {id: a, match: {command: pwd}, action: deny, priority: 3}\n"
    )
    result = runner.invoke(cli, ["policy", "show", "--cwd", str(project)])
    assert "not trusted: restrictive only" in result.output
    assert f"origin: user {user / 'policy.yaml'}:3" in result.output  # not replaced
    assert "would replace the rule of the same id" in result.output
    trusted = runner.invoke(cli, ["policy", "trust", "--cwd", str(project)])
    assert trusted.exit_code == 0, trusted.output
    result = runner.invoke(cli, ["policy", "show", "--cwd", str(project)])
    assert result.exit_code == 0, result.output
    assert "[trusted]" in result.output
    assert "a: deny (enforce, priority 3)" in result.output
    assert f"origin: project {project / '.hookwise' / 'policy.yaml'}:3" in result.output
    assert f"replaces the rule of user ({user / 'policy.yaml'}:3)" in result.output
    as_json = json.loads(
        runner.invoke(cli, ["policy", "show", "--cwd", str(project), "--json"]).output
    )
    assert [r["id"] for r in as_json["rules"]] == ["a"]


def test_schema_is_json_and_matches_the_loader(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["policy", "schema"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema == json.loads(json.dumps(SCHEMA))
    assert schema["$defs"]["rule"]["additionalProperties"] is False
    assert "deny" in schema["$defs"]["rule"]["properties"]["action"]["enum"]


def test_explain(runner: CliRunner, project: Path, tmp_path: Path) -> None:
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n"
        "  - {id: fp, match: {tool: shell, command: git push --force}, action: deny, reason: nope}\n"
        "  - {id: env, match: {tool: write, files: .env}, action: deny}\n"
    )
    payload = tmp_path / "p.json"
    payload.write_text(
        json.dumps(
            build_payload(
                "claude",
                "PreToolUse",
                tool="Bash",
                tool_input={"command": "git push --force"},
                cwd=str(project),
            )
        )
    )
    result = runner.invoke(cli, ["explain", str(payload)])
    assert result.exit_code == 0, result.output
    assert "decision: deny by rule 'fp': nope" in result.output
    assert "MATCH fp" in result.output
    assert "tool.before: NO  tool: Bash (shell) is not listed" in result.output
    data = json.loads(runner.invoke(cli, ["explain", str(payload), "--json"]).output)
    assert data["decision"]["decision"] == "deny"
    assert [r["results"][0]["status"] for r in data["rules"]] == ["matched", "not matched"]
    stdin = runner.invoke(cli, ["explain", "-", "--json"], input=payload.read_text())
    assert json.loads(stdin.output)["answer"] == data["answer"]


def test_test_command(runner: CliRunner, tmp_path: Path, isolated: Path) -> None:
    (tmp_path / "policy.yaml").write_text(
        "version: 1\nrules:\n  - {id: fp, match: {tool: shell, command: git push --force}, action: deny, reason: no pushing}\n"
        "  - {id: late, match: {tool: shell}, when: 'time.hour >= 22', action: ask, reason: late}\n"
    )
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(
        """\
policy: policy.yaml
scenarios:
  - name: force push denied on Claude
    platform: claude
    event: PreToolUse
    tool: Bash
    input: {command: git push --force}
    expect:
      decision: deny
      rule: fp
      reason_contains: pushing
      exit_code: 0
      output: {hookSpecificOutput: {permissionDecision: deny}}
  - name: normal push passes on Gemini
    platform: gemini
    event: BeforeTool
    tool: run_shell_command
    input: {command: git push}
    time: "2026-01-05T10:00"
    expect: {decision: none, output: {}}
  - name: late work asks on Codex (falls back to deny)
    platform: codex
    event: PreToolUse
    tool: Bash
    input: {command: ls}
    time: "2026-01-05T23:00"
    expect: {decision: ask, output: {hookSpecificOutput: {permissionDecision: deny}}}
  - name: raw payload
    payload: {hook_event_name: BeforeTool, session_id: s, timestamp: t, tool_name: run_shell_command, tool_input: {command: git push --force}}
    expect: {decision: deny, output: {decision: deny}}
"""
    )
    result = runner.invoke(cli, ["test", str(scenarios)])
    assert result.exit_code == 0, result.output
    assert "4 passed, 0 failed" in result.output
    scenarios.write_text(
        scenarios.read_text().replace(
            "decision: deny\n      rule: fp", "decision: allow\n      rule: fp"
        )
    )
    result = runner.invoke(cli, ["test", str(scenarios)])
    assert result.exit_code == 1
    assert "FAIL force push denied on Claude" in result.output
    assert "decision: expected allow, got deny (no pushing)" in result.output
    scenarios.write_text(
        "scenarios:\n  - {name: x, platform: claude, event: PreToolUse, expcet: {}}\n"
    )
    result = runner.invoke(cli, ["test", str(scenarios)])
    assert result.exit_code == 2  # an invalid file is an input error, not a failed scenario
    assert "unknown key 'expcet'; did you mean 'expect'?" in result.output


def test_logs(runner: CliRunner, tmp_path: Path) -> None:
    from hookwise.policy import audit

    log = tmp_path / "audit.jsonl"
    for index, (decision, host) in enumerate(
        [("deny", "claude"), ("none", "gemini"), ("deny", "codex")]
    ):
        audit.append(
            str(log),
            {
                "time": f"2026-01-0{index + 1}T00:00:00.000Z",
                "host": host,
                "event": "PreToolUse",
                "decision": decision,
                "rule": "r" if decision == "deny" else None,
                "reason": "why",
                "rules": [{"id": "r"}] if decision == "deny" else [],
            },
            10**6,
            2,
        )
    with log.open("a") as handle:
        handle.write("garbage\n")
    result = runner.invoke(cli, ["logs", "--path", str(log), "--decision", "deny"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("2026")]
    assert lines == [
        "2026-01-01T00:00:00.000Z claude PreToolUse -> deny [r]: why",
        "2026-01-03T00:00:00.000Z codex PreToolUse -> deny [r]: why",
    ]
    assert "1 line(s) are not JSON records (first: line 4)" in result.output
    result = runner.invoke(
        cli, ["logs", "--path", str(log), "--json", "--host", "gemini", "--since", "2026-01-02"]
    )
    assert [
        json.loads(line)["decision"] for line in result.output.splitlines() if line.startswith("{")
    ] == ["none"]
    result = runner.invoke(cli, ["logs", "--path", str(log), "--rule", "r", "-n", "1"])
    assert [line for line in result.output.splitlines() if line.startswith("2026")] == [
        "2026-01-03T00:00:00.000Z codex PreToolUse -> deny [r]: why"
    ]


def test_hook_command(runner: CliRunner) -> None:
    import shlex
    import sys

    from hookwise.config.hookwise_command import DIRECT_PREFIX

    printed = runner.invoke(cli, ["policy", "hook-command", "--platform", "gemini"]).output
    assert printed.startswith(DIRECT_PREFIX)  # (the limits' check: s33)
    fast = shlex.split(printed.removeprefix(DIRECT_PREFIX))
    assert fast[:5] == [sys.executable, "-I", "-S", "-X", "utf8"]
    assert fast[5].endswith("hookwise/policy/run_hook.py")
    assert fast[6:] == ["--platform", "gemini"]
    printed = runner.invoke(cli, ["policy", "hook-command", "--console"]).output
    console = shlex.split(printed.removeprefix(DIRECT_PREFIX))
    assert console[0].endswith("hookwise") and console[1:] == ["hook"]
