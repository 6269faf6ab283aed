"""Session 29 (issue 28's open items): ``install --mcp --json`` fails as the text mode does
when a stdio server is left outside the proxy, and names each one, its file and why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.policy.install.test_install_mcp_s25 import user

__all__ = ["user"]  # (the fixture, shared)


def _run(project: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    """``hookwise install claude --mcp`` as a process of its own: its real exit status."""
    argv = [sys.executable, "-m", "hookwise", "install", "claude", "--mcp", *extra]
    return subprocess.run(  # noqa: S603 (this interpreter, fixed arguments)
        [*argv, "--project", str(project)], env={**os.environ, **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_json_install_with_a_skipped_server_exits_1_and_names_it(
    user: dict[str, str], tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    servers = {
        "loads": {"command": "npx", "args": ["srv"], "env": {"LD_PRELOAD": "./x.so"}},
        "remote": {"command": "npx", "args": ["srv"], "url": "http://127.0.0.1:9/mcp"},
        "fine": {"command": "npx", "args": ["srv"]},
    }
    settings = project / ".mcp.json"
    settings.write_text(json.dumps({"mcpServers": servers}), "utf-8")

    done = _run(project, user, "--json")
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    report = json.loads(done.stdout)
    left = {c["server"]: c for c in report["left_unwrapped"]}
    assert sorted(left) == ["loads", "remote"], report
    assert all(c["file"] == str(settings) for c in left.values()), report
    assert "LD_PRELOAD" in left["loads"]["why"] and "URL" in left["remote"]["why"], report
    wrapped = json.loads(settings.read_text("utf-8"))["mcpServers"]
    assert "mcp" in wrapped["fine"]["args"] and wrapped["loads"] == servers["loads"]

    text = _run(project, user)  # the text mode: the same status
    assert text.returncode == 1 and "left unwrapped: loads, remote" in text.stderr, text.stderr
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / ".mcp.json").write_text(json.dumps({"mcpServers": {"fine": servers["fine"]}}))
    ok = _run(clean, user, "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["left_unwrapped"] == [], ok.stdout
