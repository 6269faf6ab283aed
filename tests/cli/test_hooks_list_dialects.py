"""`hookwise hooks list` for Claude Code and Codex projects."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hookwise.cli.app import cli


def test_lists_claude_hooks_detected_from_the_project(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [{"type": "command", "command": "guard.sh", "timeout": 5}],
                        }
                    ]
                }
            }
        )
    )
    home = tmp_path / "home"
    home.mkdir()
    trusted = {"projects": {str(project): {"hasTrustDialogAccepted": True}}}
    (home / ".claude.json").write_text(json.dumps(trusted))  # Claude Code's own record
    result = CliRunner().invoke(
        cli, ["hooks", "list", "--settings", str(project), "--home", str(home), "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["host"] == "claude"
    assert [(h["event"], h["command"], h["matcher"], h["timeout"]) for h in doc["hooks"]] == [
        ("PreToolUse", "guard.sh", "Bash", 5)
    ]
    text = CliRunner().invoke(
        cli, ["hooks", "list", "--settings", str(project), "--home", str(home)]
    )
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].startswith(
        f"Claude Code hooks (detected from the settings files; --host picks another) · project {project}"
    )
    assert lines[1].split("\t")[:4] == ["event", "name", "source/scope", "state"]
    assert lines[2].split("\t")[:4] == ["PreToolUse", "guard.sh", "project/project", "enabled"]


def test_lists_codex_hooks_with_the_dialect_given(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [{"hooks": [{"type": "command", "command": "check.sh"}]}],
                    "Nope": [],
                }
            }
        )
    )
    result = CliRunner().invoke(
        cli,
        [
            "hooks",
            "list",
            "--dialect",
            "codex",
            "--settings",
            str(tmp_path),
            "--home",
            str(home),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["host"] == "codex"
    assert any("Nope" in w for w in doc["warnings"])


def test_each_host_lists_its_own_hooks_not_codexs(tmp_path: Path) -> None:
    """`--host copilot` read Codex's settings (every host but Claude Code was taken for
    Codex): each host's listing comes from its own files."""
    project = tmp_path / "p"
    (project / ".github" / "hooks").mkdir(parents=True)
    (project / ".github" / "hooks" / "h.json").write_text(
        json.dumps({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "c.sh"}]}})
    )
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}})
    )
    home = tmp_path / "home"
    (home / ".copilot" / "hooks").mkdir(parents=True)
    (home / ".copilot" / "hooks" / "u.json").write_text(
        json.dumps({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "u.sh"}]}})
    )
    args = ["hooks", "list", "--settings", str(project), "--home", str(home), "--json"]
    result = CliRunner().invoke(cli, [*args, "--host", "copilot"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    origins = " ".join(str(h["origin"]) for h in doc["hooks"]) + " ".join(doc["warnings"])
    assert ".github/hooks" in origins or "u.json" in origins, doc
    assert ".codex" not in origins, doc
    commands = [h["command"] for h in doc["hooks"] if h["command"]]
    assert "x" not in commands and "u.sh" in commands, doc
