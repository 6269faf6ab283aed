"""Every command that reports has ``--json`` (issue 14, one vocabulary): real processes, a
fresh HOME, and the JSON checked against what the command did on disk."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HOOKWISE = str(Path(sys.executable).parent / "hookwise")

POLICY = """version: 1
rules:
  - id: no-rm
    match: {tool: shell, command: rm}
    action: deny
    reason: no rm here
"""

SCENARIOS = """policy: .hookwise/policy.yaml
scenarios:
  - name: rm is denied
    platform: claude
    event: PreToolUse
    tool: Bash
    input: {command: rm -rf build}
    expect: {decision: deny, rule: no-rm}
  - name: wrongly expected allow
    platform: claude
    event: PreToolUse
    tool: Bash
    input: {command: rm x}
    expect: {decision: allow}
"""


def run(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [HOOKWISE, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def as_json(done: subprocess.CompletedProcess[str]) -> Any:
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def test_policy_init_trust_and_untrust_report_as_json(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    init = run(["policy", "init", "--json"], project, home)
    assert init.returncode == 0, init.stderr
    report = as_json(init)
    policy = project / ".hookwise" / "policy.yaml"
    assert report["wrote"] == str(policy)
    assert report["trusted"]["sha256"] == hashlib.sha256(policy.read_bytes()).hexdigest()
    assert Path(report["trusted"]["store"]).is_file()

    untrusted = as_json(run(["policy", "untrust", "--json"], project, home))
    assert untrusted == {"untrusted": [{"path": str(policy), "was_trusted": True}]}
    again = as_json(run(["policy", "untrust", "--json"], project, home))
    assert again["untrusted"][0]["was_trusted"] is False

    policy.write_text(POLICY)
    trusted = as_json(run(["policy", "trust", "--json"], project, home))
    assert trusted["trusted"] == [
        {"path": str(policy.resolve()), "sha256": hashlib.sha256(POLICY.encode()).hexdigest()}
    ]


def test_hookwise_test_reports_each_scenario_as_json(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".hookwise").mkdir(parents=True)
    home.mkdir()
    (project / ".hookwise" / "policy.yaml").write_text(POLICY)
    (project / "scenarios.yaml").write_text(SCENARIOS)
    done = run(["test", "scenarios.yaml", "--json"], project, home)
    assert done.returncode == 1  # one scenario fails, as in the text form
    report = as_json(done)
    assert (report["passed"], report["failed"]) == (1, 1)
    first, second = report["scenarios"]
    assert first["name"] == "rm is denied" and first["passed"] is True
    assert "deny" in first["answer"]["stdout"]
    assert second["passed"] is False and second["failures"]


def test_hooks_disable_and_enable_report_as_json(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = {"name": "lint", "type": "command", "command": "echo {}"}
    settings.write_text(json.dumps({"hooks": {"BeforeTool": [{"hooks": [hook]}]}}))
    disabled = as_json(run(["hooks", "disable", "lint", "--json"], project, home))
    assert disabled == {"name": "lint", "disabled": True, "changed": [str(settings)]}
    assert json.loads(settings.read_text())["hooksConfig"]["disabled"] == ["lint"]
    again = as_json(run(["hooks", "disable", "lint", "--json"], project, home))
    assert again["changed"] == []
    enabled = as_json(run(["hooks", "enable", "lint", "--json"], project, home))
    assert enabled == {"name": "lint", "disabled": False, "changed": [str(settings)]}


def test_policy_fuzz_json_flag_is_the_json_format(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".hookwise").mkdir(parents=True)
    home.mkdir()
    policy = project / ".hookwise" / "policy.yaml"
    policy.write_text(POLICY)
    flag = run(["policy", "fuzz", "--policy", str(policy), "--json"], project, home)
    fmt = run(["policy", "fuzz", "--policy", str(policy), "--format", "json"], project, home)
    assert flag.returncode == fmt.returncode
    assert as_json(flag) == as_json(fmt)
