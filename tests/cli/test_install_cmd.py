"""``hookwise install|uninstall|doctor`` through click: output, dry runs, errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hookwise.cli.app import cli
from hookwise.policy.install.launcher import hook_command

POLICY = """\
version: 1
rules:
  - id: ctx
    match: {prompt: secret}
    action: context
    context: Mind the secrets.
"""


class Env:
    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.home = root / "home"
        self.project = root / "proj"
        (self.project / ".hookwise").mkdir(parents=True)
        (self.project / ".hookwise" / "policy.yaml").write_text(POLICY)
        self.home.mkdir()
        monkeypatch.setenv("HOME", str(self.home))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(self.home / ".config"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(self.home / ".cache"))
        monkeypatch.setenv("HOOKWISE_MANAGED_POLICY", str(root / "managed.yaml"))
        for name in (
            "CODEX_HOME",
            "CLAUDE_CONFIG_DIR",
            "GEMINI_CLI_HOME",
            "HOOKWISE_POLICY",
            "HOOKWISE_USER_POLICY",
            "HOOKWISE_PROJECT_DIR",
        ):
            monkeypatch.delenv(name, raising=False)

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    return Env(tmp_path, monkeypatch)


def test_install_twice_then_uninstall(env: Env) -> None:
    settings = env.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "permissions": {"allow": ["Bash"]}\n}\n')
    first = env.run("install", "claude", "--project", str(env.project))
    assert first.exit_code == 0, first.output
    assert "+ UserPromptSubmit" in first.output and "+ PreToolUse (matcher '*')" in first.output
    assert f"wrote {settings}" in first.output
    assert hook_command("claude") in first.output
    data = json.loads(settings.read_text())
    assert data["permissions"] == {"allow": ["Bash"]}
    assert set(data["hooks"]) == {"PreToolUse", "UserPromptSubmit"}
    second = env.run("install", "claude", "--project", str(env.project))
    assert second.exit_code == 0 and "already installed; nothing to change" in second.output
    gone = env.run("uninstall", "claude", "--project", str(env.project))
    assert gone.exit_code == 0 and "- PreToolUse" in gone.output
    assert settings.read_text() == '{\n  "permissions": {"allow": ["Bash"]}\n}\n'
    again = env.run("uninstall", "claude", "--project", str(env.project))
    assert "not registered there; nothing to change" in again.output


def test_dry_run_prints_a_diff_and_writes_nothing(env: Env) -> None:
    result = env.run("install", "gemini", "--project", str(env.project), "--dry-run")
    assert result.exit_code == 0, result.output
    target = env.project / ".gemini" / "settings.json"
    assert f"+++ {target}" in result.output and '"timeout": 10000' in result.output
    assert not target.exists()


def test_user_scope_console_form_timeout_and_json(env: Env) -> None:
    result = env.run(
        "install",
        "codex",
        "--scope",
        "user",
        "--project",
        str(env.project),
        "--console",
        "--timeout",
        "30",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    hooks_json = env.home / ".codex" / "hooks.json"
    assert data["settings"] == str(hooks_json)
    assert data["command"] == hook_command("codex", console=True)
    assert data["added"] == ["UserPromptSubmit", "PreToolUse"]
    assert len(data["trusted"]) == 2 and data["notes"] == []
    handler = json.loads(hooks_json.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["timeout"] == 30 and handler["command"].endswith(
        "hookwise hook --platform codex"
    )
    assert "trusted_hash" in (env.home / ".codex" / "config.toml").read_text()


def test_codex_project_trust_note(env: Env) -> None:
    result = env.run("install", "codex", "--project", str(env.project))
    assert result.exit_code == 0
    assert f"note: Codex loads {env.project}/.codex only in a trusted project" in result.stderr


def test_a_broken_settings_file_is_an_error_naming_the_place(env: Env) -> None:
    settings = env.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "hooks": {\n    "PreToolUse": [}\n}\n')
    before = settings.read_text()
    result = env.run("install", "claude", "--project", str(env.project))
    assert result.exit_code == 2  # an input error: the file cannot be parsed
    assert f"Error: {settings}:3:20: invalid JSON" in result.output
    assert settings.read_text() == before


def test_unknown_host_is_a_usage_error(env: Env) -> None:
    result = env.run("install", "vim")
    assert result.exit_code == 2 and "'vim' is not one of" in result.output


def test_doctor_exit_codes_and_json(env: Env) -> None:
    asked = env.run("doctor", "--platform", "claude", "--project", str(env.project))
    assert asked.exit_code == 1 and "FAIL  registered: not installed" in asked.output
    overall = env.run("doctor", "--project", str(env.project), "--no-self-test")
    assert overall.exit_code == 0 and "all good" in overall.output
    assert env.run("install", "claude", "--project", str(env.project)).exit_code == 0
    report = env.run("doctor", "--platform", "claude", "--project", str(env.project), "--json")
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    assert data["ok"] and data["hosts"]["claude"]["installed"]
    checks = {c["name"]: c["status"] for c in data["hosts"]["claude"]["checks"]}
    assert checks["self-test"] == "ok" and checks["registered"] == "ok"
    (env.project / ".hookwise" / "policy.yaml").write_text("version: 2\nrules: []\n")
    broken = env.run("doctor", "--platform", "claude", "--project", str(env.project))
    assert broken.exit_code == 1 and "policy.yaml:1:" in broken.output
