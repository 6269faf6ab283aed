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


def _claude_project(
    tmp_path: Path, handlers: list[dict[str, object]], **settings: object
) -> tuple[Path, Path]:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks, **settings}))
    home = tmp_path / "home"
    home.mkdir()
    record = {
        "projects": {str(project): {"hasTrustDialogAccepted": True}},
        "mcpServers": {"fs": {"command": "true"}},
    }
    (home / ".claude.json").write_text(json.dumps(record))
    return project, home


def test_every_claude_handler_type_is_listed_by_what_it_is_and_what_stops_it(
    tmp_path: Path,
) -> None:
    """http, mcp_tool, prompt and agent hooks are named by their URL, server and tool, or
    prompt (not "unknown-hook"), with why the host will not run one as written."""
    handlers: list[dict[str, object]] = [
        {"type": "http", "url": "https://hooks.example.com/pre"},
        {"type": "http", "url": "http://127.0.0.1:9/other"},
        {"type": "mcp_tool", "server": "fs", "tool": "read_file"},
        {"type": "mcp_tool", "server": "gone", "tool": "read_file"},
        {"type": "prompt", "prompt": "Is this\nsafe? $ARGUMENTS"},
        {"type": "agent", "prompt": "Check the call"},
    ]
    project, home = _claude_project(
        tmp_path, handlers, allowedHttpHookUrls=["https://hooks.example.com/*"]
    )
    argv = ["hooks", "list", "--settings", str(project), "--home", str(home), "--host", "claude"]
    result = CliRunner().invoke(cli, [*argv, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["hooks"]
    assert [(r["type"], r["name"]) for r in rows] == [
        ("http", "http https://hooks.example.com/pre"),
        ("http", "http http://127.0.0.1:9/other"),
        ("mcp_tool", "mcp_tool fs/read_file"),
        ("mcp_tool", "mcp_tool gone/read_file"),
        ("prompt", "prompt: Is this safe? $ARGUMENTS"),
        ("agent", "agent: Check the call"),
    ]
    notes = [r["note"] or "" for r in rows]
    assert notes[0] == "" and notes[2] == ""
    assert notes[1].startswith("never sent: no allowedHttpHookUrls pattern")
    assert "MCP server 'gone' is not connected" in notes[3]
    assert "needs a model" in notes[4] and "needs a model" in notes[5]
    text = CliRunner().invoke(cli, argv)
    assert text.exit_code == 0
    assert "hooks/1: never sent" in text.stderr and "hooks/3: fails" in text.stderr
    assert "hooks/0:" not in text.stderr and "hooks/4:" not in text.stderr  # info stays in JSON


def test_doctor_names_the_handlers_the_host_will_not_run(tmp_path: Path) -> None:
    handlers: list[dict[str, object]] = [
        {"type": "http", "url": "http://127.0.0.1:9/other"},
        {"type": "mcp_tool", "server": "gone", "tool": "read_file"},
        {"type": "mcp_tool", "server": "fs", "tool": "read_file"},
        {"type": "prompt", "prompt": "ok?"},
    ]
    project, home = _claude_project(tmp_path, handlers, allowedHttpHookUrls=[])
    from hookwise.policy.install.doctor import _handler_checks

    found = _handler_checks("claude", project, {"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert [line.split(": ", 1)[0].rsplit("/", 1)[-1] for line in found] == ["0", "1"]
    assert "no allowedHttpHookUrls pattern (an empty list)" in found[0]
    assert "'gone' is not connected" in found[1]
