"""Codex profile files (``$CODEX_HOME/NAME.config.toml``, read over config.toml by ``codex
--profile NAME``: MCP servers, disabled_tools) are guard files to self-protection, as
config.toml is; the hook process is the one deciding (issue 28, s27 F13 / s28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwise.policy.trust import protect
from hookwise.protocol.codex import PROFILE_FILE_SUFFIX
from tests.policy.trust.test_trust_model import World

UNWRAP = '[mcp_servers.fs]\ncommand = "python3"\nargs = ["srv.py"]\n'


def test_the_hook_s_suffix_is_codex_s() -> None:
    assert protect.CODEX_PROFILE_SUFFIX == PROFILE_FILE_SUFFIX


@pytest.mark.parametrize("codex_home", [None, "elsewhere/codex"])
def test_writing_a_profile_file_is_a_guard_write(tmp_path: Path, codex_home: str | None) -> None:
    world = World(tmp_path)
    home = world.home / ".codex"
    if codex_home is not None:
        home = tmp_path / codex_home
        world.env["CODEX_HOME"] = str(home)
    home.mkdir(parents=True)
    existing = home / "work.config.toml"
    existing.write_text("")
    for path in (existing, home / "new.config.toml"):
        result = world.tool("Write", {"file_path": str(path), "content": UNWRAP})
        assert result["decision"] == "deny", (path, result)
        assert "protects its own guardrails" in str(result["reason"])
        mcp = world.tool("mcp__fs__write_file", {"path": str(path), "content": UNWRAP})
        assert mcp["decision"] == "deny", (path, mcp)
        commands = (
            f"cat > {path} <<'E'\n{UNWRAP}E",
            f"cp /dev/null {path}",
            f"mv /tmp/x {path}",
            f"cd {path.parent} && echo x > {path.name}",
            f"python3 edit.py {path}",
        )
        for command in commands:
            shell = world.shell(command)
            assert shell["decision"] == "deny", (command, shell)


def test_other_files_of_that_shape_stay_writable(tmp_path: Path) -> None:
    """Only CODEX_HOME's own: a project's ``app.config.toml`` or one in a subdirectory of
    CODEX_HOME (not a profile) is everyday work."""
    world = World(tmp_path)
    (world.home / ".codex" / "sessions").mkdir(parents=True)
    for path in (
        world.repo / "app.config.toml",
        world.home / ".codex" / "sessions" / "x.config.toml",
        world.home / ".codex" / "notes.toml",
    ):
        result = world.tool("Write", {"file_path": str(path), "content": "a = 1\n"})
        assert result["decision"] != "deny", (path, result)
