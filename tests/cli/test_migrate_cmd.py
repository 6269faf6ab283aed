"""``hookwise migrate`` through click: the dry-run diff, --write, --json, errors."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hookwise.cli.app import cli


class Project:
    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = root / "proj"
        self.home.mkdir(parents=True)
        self.project.mkdir(parents=True)

    def write(self, relative: str, content: Any, *, user: bool = False) -> Path:
        path = (self.home if user else self.project) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def run(self, *args: str) -> Result:
        base = ["migrate", "--project", str(self.project), "--home", str(self.home)]
        return CliRunner().invoke(cli, [*base, *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = Project(tmp_path)
    p.write(
        ".claude/settings.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [
                            {
                                "type": "command",
                                "command": '"$CLAUDE_PROJECT_DIR"/guard.sh',
                                "timeout": 30,
                            }
                        ],
                    }
                ],
                "SubagentStop": [{"hooks": [{"type": "command", "command": "x"}]}],
            }
        },
    )
    return p


def test_dry_run_prints_the_diff_and_writes_nothing(project: Project) -> None:
    result = project.run("--from", "claude", "--to", "gemini")
    assert result.exit_code == 0
    target = project.project / ".gemini" / "settings.json"
    assert result.stdout.startswith(f"--- /dev/null\n+++ b{target}\n")
    assert '"timeout": 30000' in result.stdout
    assert '"matcher": "run_shell_command"' in result.stdout
    assert "$GEMINI_PROJECT_DIR" in result.stdout
    assert "not migrated:" in result.stderr and "SubagentStop" in result.stderr
    assert "1 hook(s) to add" in result.stderr and "use --write" in result.stderr
    assert not target.exists()


def test_write_then_nothing_left_to_add(project: Project) -> None:
    target = project.write(".gemini/settings.json", {"ui": {"theme": "x"}})
    first = project.run("--from", "claude", "--to", "gemini", "--write")
    assert first.exit_code == 0 and first.stdout == ""
    assert f"wrote {target}: 1 hook(s) added" in first.stderr
    written = json.loads(target.read_text())
    assert written["ui"] == {"theme": "x"}
    assert written["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] == 30_000
    second = project.run("--from", "claude", "--to", "gemini", "--write")
    assert second.exit_code == 0
    assert "nothing to add" in second.stderr and "1 already there" in second.stderr
    assert json.loads(target.read_text()) == written


def test_json_output(project: Project) -> None:
    result = project.run("--from", "claude", "--to", "codex", "--json")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["to"] == "codex" and payload["added"] == 2 and payload["written"] is False
    assert payload["target"] == str(project.project / ".codex" / "hooks.json")
    assert '\\"$PWD\\"/guard.sh' in payload["diff"]
    assert '"timeout": 30' in payload["diff"]


def test_user_scope(project: Project) -> None:
    project.write(
        ".gemini/settings.json",
        {
            "hooks": {
                "AfterAgent": [{"hooks": [{"type": "command", "command": "u", "timeout": 5000}]}]
            }
        },
        user=True,
    )
    result = project.run("--from", "gemini", "--to", "claude", "--scope", "user", "--write")
    assert result.exit_code == 0, result.output
    written = json.loads((project.home / ".claude" / "settings.json").read_text())
    assert written["hooks"]["Stop"][0]["hooks"][0] == {
        "type": "command",
        "command": "u",
        "timeout": 5,
    }


def test_same_agent_is_a_usage_error(project: Project) -> None:
    result = project.run("--from", "codex", "--to", "codex")
    assert result.exit_code == 2
    assert "different agents" in result.stderr


def test_malformed_target_fails_and_is_not_touched(project: Project) -> None:
    target = project.write(".gemini/settings.json", '{"hooks": [')
    result = project.run("--from", "claude", "--to", "gemini", "--write")
    assert result.exit_code == 2  # an input error: the file cannot be parsed
    assert "error:" in result.stderr and str(target) in result.stderr
    assert target.read_text() == '{"hooks": ['


def test_no_source_settings(tmp_path: Path) -> None:
    empty = Project(tmp_path / "empty")
    result = empty.run("--from", "codex", "--to", "claude")
    assert result.exit_code == 0
    assert "no Codex settings found" in result.stderr


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs patch(1)")
def test_the_dry_run_diff_of_a_file_without_a_final_newline_applies(
    project: Project, tmp_path: Path
) -> None:
    """patch(1) applies the printed diff and gets what --write writes: the last line
    without its newline carries the ``\\ No newline at end of file`` marker."""
    target = project.write(".gemini/settings.json", '{\n  "theme": "dark"\n}')
    before = target.read_text()
    result = project.run("--from", "claude", "--to", "gemini")
    assert result.exit_code == 0
    assert "\\ No newline at end of file\n" in result.stdout
    copy = tmp_path / "settings.json"
    copy.write_text(before)
    applied = subprocess.run(
        ["patch", "--silent", str(copy)],
        input=result.stdout,
        capture_output=True,
        text=True,
        check=False,
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert project.run("--from", "claude", "--to", "gemini", "--write").exit_code == 0
    assert copy.read_text() == target.read_text()
