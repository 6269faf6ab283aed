"""Trust gates per host: who runs each source's hooks, and after which prompt."""

from __future__ import annotations

import json
from pathlib import Path

from hookwise.scan.model import Gate
from hookwise.scan.report import scan_project
from tests.scan.support import claude_project, context

HOOK = {
    "hooks": {
        "SessionStart": [
            {"hooks": [{"type": "command", "command": "curl -s https://x.invalid/a -o a.txt"}]}
        ]
    }
}


def test_claude_untrusted_folder_runs_without_prompt_and_raises(tmp_path: Path) -> None:
    project, home = claude_project(tmp_path, HOOK)
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.kind == "hook"]
    assert hook.gate is Gate.NO_PROMPT
    rules = {f.rule: f.severity.value for f in report.findings}
    assert rules["session-start-network"] == "high"  # medium, raised one level
    assert rules["runs-before-trust"] == "low"


def test_claude_trusted_folder_is_not_raised(tmp_path: Path) -> None:
    project, home = claude_project(tmp_path, HOOK)
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    )
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.kind == "hook"]
    assert hook.gate is Gate.TRUSTED
    rules = {f.rule: f.severity.value for f in report.findings}
    assert rules == {"session-start-network": "medium"}


def test_claude_disable_all_hooks_marks_hooks_off(tmp_path: Path) -> None:
    project, home = claude_project(tmp_path, {**HOOK, "disableAllHooks": True})
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.kind == "hook"]
    assert hook.gate is Gate.OFF


def test_codex_project_hooks_wait_for_trust(tmp_path: Path) -> None:
    project, home = (tmp_path / "repo").resolve(), (tmp_path / "home").resolve()
    (project / ".codex").mkdir(parents=True)
    (project / ".git").mkdir()
    (home / ".codex").mkdir(parents=True)
    (project / ".codex" / "hooks.json").write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}})
    )
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.host == "codex"]
    assert hook.gate is Gate.AFTER_TRUST
    (home / ".codex" / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n'
    )
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.host == "codex"]
    assert hook.gate is Gate.AFTER_TRUST  # the project is trusted, the hook's hash is not


def test_gemini_untrusted_folder_runs_project_hooks_only_after_trust(tmp_path: Path) -> None:
    project, home = (tmp_path / "repo").resolve(), (tmp_path / "home").resolve()
    (project / ".gemini").mkdir(parents=True)
    home.mkdir()
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}
        )
    )
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.host == "gemini"]
    assert hook.gate is Gate.AFTER_TRUST
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"folderTrust": {"enabled": False}}})
    )
    report = scan_project(context(project, home))
    (hook,) = [r for r in report.runnables if r.host == "gemini"]
    assert hook.gate is Gate.NO_PROMPT  # folder trust switched off: no prompt at all


def test_copilot_and_qwen_hooks_and_mcp_servers(tmp_path: Path) -> None:
    """Copilot runs a repository's hooks once the folder is trusted; Qwen (folder trust off
    by default) without a prompt; both hosts' MCP servers are read from their files."""
    project, home = (tmp_path / "repo").resolve(), (tmp_path / "home").resolve()
    hooks_dir = project / ".github" / "hooks"
    hooks_dir.mkdir(parents=True)
    (home / ".copilot").mkdir(parents=True)
    (project / ".qwen").mkdir(parents=True)
    fetch = "curl -s https://x.invalid/a -o a.txt"
    (hooks_dir / "team.json").write_text(
        json.dumps({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": fetch}]}})
    )
    (home / ".copilot" / "mcp-config.json").write_text(
        json.dumps({"mcpServers": {"tools": {"command": "npx", "args": ["some-server"]}}})
    )
    (project / ".qwen" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": fetch}]}]},
                "mcpServers": {"remote": {"httpUrl": "https://mcp.example.invalid/x"}},
            }
        )
    )
    report = scan_project(context(project, home))
    by_host = {(r.host, r.kind): r for r in report.runnables}
    copilot = by_host[("copilot", "hook")]
    assert copilot.gate is Gate.AFTER_TRUST and copilot.command == fetch
    assert copilot.file.endswith(".github/hooks/team.json")
    assert by_host[("qwen", "hook")].gate is Gate.NO_PROMPT
    assert by_host[("copilot", "mcp-server")].gate is Gate.USER
    remote = by_host[("qwen", "mcp-remote")]
    assert remote.url == "https://mcp.example.invalid/x" and remote.gate is Gate.NO_PROMPT
    assert "remote-mcp" in {f.rule for f in report.findings}
