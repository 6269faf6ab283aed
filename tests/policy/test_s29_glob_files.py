"""Red team s29 (MCP) F3: a pattern bash expands to a protected file, judged against a
relative `files:` glob (`**/.env`, `config/*.yml`). The pattern's expansion on disk was
matched only against anchored globs and bare names, so `cat .en?`, `cat ./.e*` and
`cat /tmp/x/*/.e*` passed a `files: **/.env` rule while bash printed the secret. Each
command first does its damage in real bash, then the hook must deny it; near misses that
expand to nothing protected get no decision."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
SECRET = "s29-f3-secret"
POLICY = """version: 1
rules:
  - id: no-env
    match: {files: "**/.env"}
    action: deny
  - id: no-config
    match: {files: "config/*.yml"}
    action: deny
"""


def _world(root: Path) -> tuple[Path, dict[str, str]]:
    home = root / "home"
    (home / ".config" / "hookwise").mkdir(parents=True)
    (home / ".config" / "hookwise" / "policy.yaml").write_text(POLICY)
    project = root / "work" / "proj"
    (project / "config").mkdir(parents=True)
    (project / ".env").write_text(f"TOKEN={SECRET}\n")
    (project / "config" / "db.yml").write_text(f"password: {SECRET}\n")
    (project / "README.md").write_text("# readme\n")
    (project / "config" / "README.md").write_text("# config\n")
    env = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOOKWISE_AUDIT": "0",
    }
    return project, env


def _decision(command: str, project: Path, env: dict[str, str]) -> str:
    payload = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "cwd": str(project),
    }
    done = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
        check=False,
    )
    if not done.stdout.strip():
        return "allow"
    return str(json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"])


@pytest.mark.parametrize(
    "command",
    [
        "cat .en?",
        "cat ./.e*",
        "cat .[e]nv",
        "grep -h . .e*",
        "head -c 999 ./.[a-z]nv",
        "cat ../proj/.en?",
        "cat {root}/work/*/.e*",
        "cat {root}/*/proj/.env",
        "cat config/*.y?l",
        "cat ./config/d*",
        "cat {root}/work/proj/c*/*.yml",
    ],
)
def test_a_pattern_that_expands_to_a_protected_file_is_denied(tmp_path: Path, command: str) -> None:
    project, env = _world(tmp_path)
    command = command.format(root=tmp_path)
    bash = subprocess.run(
        ["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True, check=False
    )
    assert SECRET in bash.stdout, (command, bash.stdout, bash.stderr)  # the damage is real
    assert _decision(command, project, env) == "deny", command


@pytest.mark.parametrize(
    "command",
    ["cat *.md", "cat config/*.md", "cat [.]env", "cat .e'*'", "ls config/R*"],
)
def test_a_pattern_that_expands_to_nothing_protected_is_allowed(
    tmp_path: Path, command: str
) -> None:
    project, env = _world(tmp_path)
    bash = subprocess.run(
        ["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True, check=False
    )
    assert SECRET not in bash.stdout, (command, bash.stdout)
    assert _decision(command, project, env) == "allow", command
