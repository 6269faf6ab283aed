"""Where a host is started decides which MCP entries it runs (red team s28 F5, F7, F8): the
cases laid out for the real CLIs (tests/e2e/test_start_dirs_live.py records what each ran
in fixtures/start-dirs.json) and for hookwise against that record
(tests/policy/install/test_start_dirs_s28.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

# what `install --mcp` makes of `python3 srv.py` (its shape: mcp_proxy.wrapped)
WRAPPED = ["-I", "-m", "hookwise", "mcp", "wrap", "--pinned", "--name", "fs", "--",
           "python3", "srv.py"]  # fmt: skip
WRAPPED_COMMAND = "/usr/bin/python3"


def _git(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(directory)], check=True, capture_output=True)


def _toml_server(command: str | None, args: list[str]) -> str:
    head = f"command = {json.dumps(command)}\n" if command else ""
    return f"[mcp_servers.fs]\n{head}args = {json.dumps(args)}\n"


def _json_server(name: str, command: str, args: list[str]) -> str:
    return json.dumps({"mcpServers": {name: {"command": command, "args": args}}}) + "\n"


def _trust(proj: Path) -> str:
    return f'\n[projects."{proj}"]\ntrust_level = "trusted"\n'


def codex_args_only(root: Path) -> tuple[Path, Path]:
    """F8: the user's config.toml wraps ``fs``; the trusted project's layer sets its args
    only. (CODEX_HOME, the directory Codex runs in)."""
    home, proj = root / "home" / ".codex", root / "proj"
    home.mkdir(parents=True)
    _git(proj)
    (home / "config.toml").write_text(_toml_server(WRAPPED_COMMAND, WRAPPED) + _trust(proj))
    (proj / ".codex").mkdir()
    (proj / ".codex" / "config.toml").write_text(_toml_server(None, ["srv.py"]))
    return home, proj


def codex_subdir(root: Path) -> tuple[Path, Path]:
    """F5: the repository root's layer wraps ``fs``; ``pkg/.codex/config.toml`` has it bare."""
    home, proj = root / "home" / ".codex", root / "proj"
    home.mkdir(parents=True)
    _git(proj)
    (home / "config.toml").write_text(_trust(proj))
    (proj / ".codex").mkdir()
    (proj / ".codex" / "config.toml").write_text(_toml_server(WRAPPED_COMMAND, WRAPPED))
    (proj / "pkg" / ".codex").mkdir(parents=True)
    (proj / "pkg" / ".codex" / "config.toml").write_text(_toml_server("python3", ["srv.py"]))
    return home, proj / "pkg"


def _claude_home(root: Path, projects: list[Path]) -> Path:
    home = root / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{"enableAllProjectMcpServers": true}\n')
    record = {"hasCompletedOnboarding": True,
              "projects": {str(p): {"hasTrustDialogAccepted": True} for p in projects}}  # fmt: skip
    (home / ".claude.json").write_text(json.dumps(record) + "\n")
    return home


def claude_subdir(root: Path) -> tuple[Path, Path]:
    """F5: the root's ``.mcp.json`` wraps ``fs``; ``pkg/.mcp.json`` has it bare. (HOME, cwd)"""
    proj = root / "proj"
    _git(proj)
    (proj / ".mcp.json").write_text(_json_server("fs", WRAPPED_COMMAND, WRAPPED))
    (proj / "pkg").mkdir()
    (proj / "pkg" / ".mcp.json").write_text(_json_server("fs", "python3", ["srv.py"]))
    return _claude_home(root, [proj, proj / "pkg"]), proj / "pkg"


def claude_above(root: Path) -> tuple[Path, Path]:
    """F7: ``up/.mcp.json`` defines ``above``; the project is ``up/proj``. (HOME, cwd)"""
    proj = root / "up" / "proj"
    _git(proj)
    (root / "up" / ".mcp.json").write_text(_json_server("above", "python3", ["srv.py"]))
    return _claude_home(root, [proj]), proj
