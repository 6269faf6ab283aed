"""Red team s35 (MCP) F8: ``install --mcp`` then ``uninstall --mcp`` turned every CRLF of a
settings file into LF (the file was read with universal newlines): issue 28 asks that
uninstall restore the bytes. Each host file kind (JSON, JSONC, TOML) is round-tripped with
CRLF line ends, a BOM, multi-line arrays and no final newline, by the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.policy.install.test_install_mcp_s25 import user

__all__ = ["user"]  # (the fixture, shared)


def _hookwise(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *argv], env={**os.environ, **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


JSON_CRLF = (
    b'{\r\n  // the project\'s servers\r\n  "mcpServers": {\r\n    "fs": {\r\n'
    b'      "command": "python3",\r\n      "args": [\r\n        "/tmp/x.py",\r\n'
    b'        "--root"\r\n      ]\r\n    },\r\n'
    b'    "other": {"command": "npx", "args": ["srv"]}\r\n  }\r\n}'
)


@pytest.mark.parametrize(
    ("host", "relative", "data"),
    [
        ("claude", ".mcp.json", JSON_CRLF + b"\r\n"),
        ("claude", ".mcp.json", b"\xef\xbb\xbf" + JSON_CRLF),
        ("gemini", ".gemini/settings.json", JSON_CRLF + b"\r\n"),
        ("gemini", ".gemini/settings.json", JSON_CRLF.replace(b"\r\n", b"\n") + b"\r\n"),
    ],
)
def test_project_settings_bytes_come_back(
    user: dict[str, str], tmp_path: Path, host: str, relative: str, data: bytes
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir()
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)

    done = _hookwise(user, "install", host, "--mcp", "--project", str(project))
    assert done.returncode == 0, done.stderr
    wrapped = path.read_bytes()
    assert b"mcp" in wrapped and b"wrap" in wrapped, wrapped
    if b"\r\n  //" in data:  # the lines install did not change keep their own ends
        assert b"\r\n  // the project's servers\r\n" in wrapped, wrapped
        assert b"\n" not in wrapped.replace(b"\r\n", b""), wrapped
    done = _hookwise(user, "uninstall", host, "--mcp", "--project", str(project))
    assert done.returncode == 0, done.stderr
    assert path.read_bytes() == data


def test_codex_toml_bytes_come_back(user: dict[str, str], tmp_path: Path) -> None:
    config = Path(user["CODEX_HOME"]) / "config.toml"
    config.parent.mkdir(parents=True)
    data = (
        b'model = "o3"\r\n\r\n[mcp_servers.fs]\r\ncommand = "python3"\r\n'
        b'args = [\r\n  "/tmp/x.py",\r\n]\r\n\r\n[profiles.x]\r\nmodel = "o4"'
    )
    config.write_bytes(data)
    project = tmp_path / "proj"
    done = _hookwise(
        user, "install", "codex", "--mcp", "--scope", "user", "--project", str(project)
    )
    assert done.returncode == 0, done.stderr
    assert b"wrap" in config.read_bytes() and b'model = "o3"\r\n' in config.read_bytes()
    done = _hookwise(
        user, "uninstall", "codex", "--mcp", "--scope", "user", "--project", str(project)
    )
    assert done.returncode == 0, done.stderr
    assert config.read_bytes() == data
