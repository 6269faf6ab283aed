"""``hookwise migrate`` for the hosts read through the registry (GitHub Copilot CLI, Qwen Code,
Factory Droid), on settings files of each host's own format (fixtures/migrate/README.md),
each result read back by the target host's own loader."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, cast

import pytest

from hookwise.config.detect import Dialect
from hookwise.config.host_hooks import load_host_hooks
from hookwise.config.migrate import Migration, plan_migration
from hookwise.config.migrate_hosts import migrate_host
from hookwise.protocol.hosts import HOSTS, hosts_with, table

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "migrate"


def lay_out(tmp_path: Path, *hosts: str) -> Path:
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    for name in hosts:
        shutil.copytree(FIXTURES / name, project, dirs_exist_ok=True)
    return project


def plan(project: Path, source: str, target: str, scope: str = "project") -> Migration:
    return plan_migration(
        cast(Dialect, source),
        cast(Dialect, target),
        project,
        scope=scope,
        home=project.parent / "home",
        env={},
    )


def written(migration: Migration) -> Any:
    assert migration.error is None, migration.error
    assert migration.write()
    return json.loads(migration.target_path.read_text(encoding="utf-8"))


def loaded(host: str, project: Path) -> list[tuple[str, str | None, str, Any]]:
    """(event, matcher, command, timeout) of every hook the host's own loader reads."""
    hooks = load_host_hooks(
        host, table(host), str(project), {"HOME": str(project.parent / "home")}, trusted=True
    )
    # (the fixture's own errorOccurred is an event hookwise's Copilot table does not carry)
    assert [w for w in hooks.warnings if "errorOccurred" not in w] == [], hooks.warnings
    return [
        (e.event, e.matcher, e.command, e.config.get("timeout")) for e in hooks.registry.entries
    ]


def test_copilot_to_claude(tmp_path: Path) -> None:
    project = lay_out(tmp_path, "copilot")
    migration = plan(project, "copilot", "claude")
    assert [p.name for p in migration.sources] == ["checks.json"]
    hooks = written(migration)["hooks"]
    assert hooks == {
        "PreToolUse": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": 'python3 "$CLAUDE_PROJECT_DIR/scripts/check_tool.py"',
                        "timeout": 30,
                    }
                ]
            }
        ],
        "SessionStart": [
            {"hooks": [{"type": "command", "command": "./scripts/session_banner.sh", "timeout": 5}]}
        ],
    }
    payload_notes = [n for n in migration.notes if "payload fields" in n]
    assert len(payload_notes) == 1 and "sessionStart" in payload_notes[0]
    # an event Claude Code has no counterpart of is reported, never dropped silently
    assert len(migration.unmapped) == 1 and "errorOccurred" in migration.unmapped[0]


def test_claude_to_copilot_writes_a_file_copilot_loads(tmp_path: Path) -> None:
    project = lay_out(tmp_path)
    own = project / ".github" / "hooks" / "hookwise.json"  # install's own file stays as it is
    own.parent.mkdir(parents=True)
    own.write_text('{"version": 1, "hooks": {}}\n', encoding="utf-8")
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "command": '"$CLAUDE_PROJECT_DIR"/check.sh',
                            "timeout": 20,
                            "statusMessage": "checking",
                        }
                    ],
                }
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}],
        }
    }
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    migration = plan(project, "claude", "copilot")
    assert migration.target_path == project / ".github" / "hooks" / "migrated.json"
    document = written(migration)
    assert document == {
        "version": 1,
        "hooks": {
            "PreToolUse": [
                {"type": "command", "bash": '"$COPILOT_PROJECT_DIR"/check.sh', "timeoutSec": 20}
            ],
            "agentStop": [{"type": "command", "bash": "./done.sh"}],
        },
    }
    assert any("ignores matchers on PreToolUse" in n for n in migration.notes)
    # agentStop gets Copilot's camelCase payload, PreToolUse (PascalCase) Claude's own
    payload_notes = [n for n in migration.notes if "payload fields" in n]
    assert len(payload_notes) == 1 and "agentStop" in payload_notes[0]
    assert any("statusMessage" in n for n in migration.notes)
    assert own.read_text(encoding="utf-8") == '{"version": 1, "hooks": {}}\n'
    assert loaded("copilot", project) == [
        ("PreToolUse", None, '"$COPILOT_PROJECT_DIR"/check.sh', 20),
        ("agentStop", None, "./done.sh", None),
    ]
    # a second run adds nothing
    again = plan(project, "claude", "copilot")
    assert again.added == 0 and again.duplicates == 2 and not again.changed


def test_qwen_to_gemini_and_claude(tmp_path: Path) -> None:
    project = lay_out(tmp_path, "qwen")
    to_gemini = plan(project, "qwen", "gemini")
    (group,) = written(to_gemini)["hooks"]["BeforeTool"]
    assert group == {
        "matcher": "run_shell_command|write_file",
        "hooks": [
            {
                "type": "command",
                "command": 'python3 "$GEMINI_PROJECT_DIR/scripts/check_tool.py"',
                "timeout": 30000,
            }
        ],
    }
    to_claude = plan(project, "qwen", "claude")
    (group,) = written(to_claude)["hooks"]["PreToolUse"]
    assert group["matcher"] == "Bash|Write"
    assert group["hooks"][0]["timeout"] == 30  # milliseconds became seconds
    assert group["hooks"][0]["command"] == 'python3 "$CLAUDE_PROJECT_DIR/scripts/check_tool.py"'
    assert any("dropped name" in n for n in to_claude.notes)


def test_claude_to_qwen_keeps_qwen_s_own_keys(tmp_path: Path) -> None:
    project = lay_out(tmp_path, "qwen")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Edit",
                            "hooks": [{"type": "command", "command": "x", "timeout": 2}],
                        }
                    ]
                }
            }
        ),
        encoding="utf-8",
    )
    document = written(plan(project, "claude", "qwen"))
    assert document["$version"] == 4  # what Qwen wrote stays
    assert document["hooks"]["PreToolUse"][-1] == {
        "matcher": "edit",
        "hooks": [{"type": "command", "command": "x", "timeout": 2000}],
    }
    assert ("PreToolUse", "edit", "x", 2000) in loaded("qwen", project)


def test_droid_and_claude_both_ways(tmp_path: Path) -> None:
    project = lay_out(tmp_path, "droid")
    to_claude = plan(project, "droid", "claude")
    (group,) = written(to_claude)["hooks"]["PreToolUse"]
    assert group == {
        "matcher": "Bash",
        "hooks": [
            {
                "type": "command",
                "command": 'python3 "$CLAUDE_PROJECT_DIR/scripts/check_tool.py"',
                "timeout": 30,
            }
        ],
    }
    # back into a fresh Droid file: the event keys at the top level, as Droid reads them
    (project / ".factory" / "hooks.json").unlink()
    back = written(plan(project, "claude", "droid"))
    assert set(back) == {"PreToolUse"} and "hooks" not in back
    assert loaded("droid", project) == [
        ("PreToolUse", "Execute", 'python3 "$FACTORY_PROJECT_DIR/scripts/check_tool.py"', 30)
    ]


def test_user_scope_reads_the_rows_user_files(tmp_path: Path) -> None:
    project = lay_out(tmp_path)
    home = tmp_path / "home"
    user = home / ".copilot" / "hooks"
    user.mkdir(parents=True)
    shutil.copy(FIXTURES / "copilot" / ".github" / "hooks" / "checks.json", user / "a.json")
    migration = plan(project, "copilot", "qwen", scope="user")
    assert migration.sources == [user / "a.json"]
    assert migration.target_path == home / ".qwen" / "settings.json"
    hooks = written(migration)["hooks"]
    assert hooks["PreToolUse"][0]["hooks"][0]["timeout"] == 30000
    assert hooks["SessionStart"][0]["hooks"][0]["timeout"] == 5000


@pytest.mark.parametrize("source", hosts_with("migrate"))
@pytest.mark.parametrize("target", hosts_with("migrate"))
def test_every_pair_of_fixture_files(source: str, target: str, tmp_path: Path) -> None:
    """Every pair converts the fixture files (and the project's own hooks) without failing,
    and what is written the target's own loader reads without a warning."""
    if source == target:
        return
    project = lay_out(tmp_path, "copilot", "qwen", "droid")
    migration = plan(project, source, target)
    assert migration.error is None
    if (
        migration.changed
        and HOSTS[target].table_name is not None
        and target in (hosts_with("runtime"))
    ):
        migration.write()
        assert loaded(target, project)


def test_a_host_without_migrate_support_is_refused(tmp_path: Path) -> None:
    unsupported = [h for h in HOSTS if "migrate" not in HOSTS[h].supports]
    assert unsupported
    with pytest.raises(ValueError, match="cannot migrate"):
        plan(tmp_path, "claude", unsupported[0])


def test_facts_come_from_the_tables() -> None:
    copilot = migrate_host("copilot")
    assert copilot.from_claude["PreToolUse"] == "PreToolUse"  # the PascalCase spelling
    assert copilot.to_claude["preToolUse"] == "PreToolUse"
    assert set(copilot.matcher_kinds.values()) == {"ignored"}  # a flat layout
    assert migrate_host("droid").tool_for("shell") == "Execute"
    assert migrate_host("codex").tool_for("read") is None  # view_image is not a file read
