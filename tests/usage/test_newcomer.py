"""Issue 14's first-hour problems, each run as a user would: the real ``hookwise``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookwise.config.hookwise_command import portable_host
from tests.usage.conftest import User

RM_BUILD = {
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf build"},
    "session_id": "s1",
}


def _policy(user: User) -> None:
    user.run("policy", "init")


def test_migrate_points_hookwises_own_hook_at_the_target_host(user: User) -> None:
    _policy(user)
    user.run("install", "claude")
    dry = user.run("migrate", "--from", "claude", "--to", "gemini")
    assert "--platform gemini" in dry.stderr  # the dry run says what happens to it
    user.run("migrate", "--from", "claude", "--to", "gemini", "--write")
    settings = json.loads((user.project / ".gemini" / "settings.json").read_text())
    commands = [h["command"] for g in settings["hooks"]["BeforeTool"] for h in g["hooks"]]
    assert commands and all(portable_host(c) == "gemini" for c in commands)
    # the migrated hook answers Gemini CLI: a BeforeTool event is decided, not failed closed
    event = {
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"},
        "cwd": str(user.project),
        "session_id": "s",
    }
    answer = subprocess.run(  # noqa: PLW1510 (the exit code is the subject)
        commands[0],
        shell=True,
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=user.env,
        cwd=user.project,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
    assert "unknown" not in answer.stderr


def test_hook_is_in_the_help_and_runs_as_a_module(user: User) -> None:
    assert "  hook " in user.run("--help").stdout
    assert "--platform" in user.run("hook", "--help").stdout
    _policy(user)
    result = subprocess.run(  # noqa: PLW1510 (the exit code is the subject)
        [sys.executable, "-m", "hookwise", "hook", "--host", "claude"],
        input=json.dumps({**RM_BUILD, "tool_input": {"command": "ls"}}),
        capture_output=True,
        text=True,
        env=user.env,
        cwd=user.project,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_install_refuses_a_missing_project(user: User, tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent"
    result = user.run("install", "claude", "--project", str(missing), check=2)
    assert "does not exist" in result.stderr
    assert not missing.exists()


def test_logs_since_accepts_dates_and_ages_and_refuses_nonsense(user: User) -> None:
    _policy(user)
    user.run("hook", "--platform", "claude", stdin=json.dumps({**RM_BUILD, "cwd": "/tmp"}))
    for since in ("yesterday", "1h", "today", "2000-01-01"):
        assert "PreToolUse" in user.run("logs", "--since", since).stdout, since
    assert user.run("logs", "--since", "2999-01-01").stdout == ""
    bad = user.run("logs", "--since", "last tuesday", check=2)
    assert "--since" in bad.stderr and "1h" in bad.stderr


def test_a_payload_without_cwd_is_relative_to_the_hooks_directory(user: User) -> None:
    user.run("policy", "init", "--packs", "filesystem")
    payload = json.dumps(RM_BUILD)
    explained = user.run("explain", "--host", "claude", stdin=payload).stdout
    assert "paths: build\n" in explained  # relative to the project, not /build
    assert "outside the workspace" not in explained
    hook = user.run("hook", "--platform", "claude", stdin=payload, check=None)
    assert "outside the workspace" not in hook.stdout + hook.stderr


def test_simulate_blames_the_command_line_for_a_bad_profile(user: User) -> None:
    scenario = user.project / "s.yaml"
    scenario.write_text("host: gemini\nturns: []\n")
    result = user.run("simulate", str(scenario), "--profile", "bogus", check=2)
    assert "--profile" in result.stderr and "s.yaml" not in result.stderr


def test_uninstall_leaves_no_debris(user: User) -> None:
    _policy(user)
    before_home = {p for p in user.home.rglob("*")}
    for host in ("claude", "gemini", "codex"):
        user.run("install", host)
    for host in ("claude", "gemini", "codex"):
        user.run("uninstall", host)
    left = sorted(str(p.relative_to(user.project)) for p in user.project.rglob("*"))
    assert left == [".git", ".hookwise", ".hookwise/policy.yaml"]
    new_home = {p for p in user.home.rglob("*")} - before_home
    assert not [
        p
        for p in new_home
        if p.name == "config.toml"
        or (p.suffix == ".json" and p.parent.name in (".codex", ".gemini", ".claude"))
    ]


def test_install_and_doctor_from_a_subdirectory_use_the_project_root(user: User) -> None:
    _policy(user)
    sub = user.project / "src" / "deep"
    sub.mkdir(parents=True)
    result = user.run("install", "claude", cwd=sub)
    assert str(user.project / ".claude" / "settings.json") in result.stdout
    assert not (sub / ".claude").exists()
    # doctor in the subdirectory still finds the project root, but checks Claude Code as
    # started there: it reads project settings only from its start directory, so the
    # root's registration does not guard it (tests/e2e/fixtures/start-dirs.json): exit 1,
    # "not registered here"; `--project` checks the root, where it holds.
    here = user.run("doctor", "--host", "claude", "--no-self-test", "--json", cwd=sub, check=1)
    report = json.loads(here.stdout)
    assert report["project"] == str(user.project)
    assert "not registered here" in here.stdout
    args = ("doctor", "--host", "claude", "--no-self-test", "--json")
    root = json.loads(user.run(*args, "--project", str(user.project), cwd=sub).stdout)
    assert root["project"] == str(user.project) and root["ok"] is True


def test_install_gemini_says_the_folder_is_untrusted(user: User) -> None:
    _policy(user)
    result = user.run("install", "gemini")
    assert "not trusted" in result.stderr


def test_uninstall_reports_json(user: User) -> None:
    _policy(user)
    user.run("install", "claude")
    report = json.loads(user.run("uninstall", "claude", "--json").stdout)
    assert report["removed"] and report["host"] == "claude"
    assert report["deleted"] == [str(user.project / ".claude" / "settings.json")]
