"""Red team s26 F8 with the real Claude Code (2.1.330, tests/e2e/package.json): a project's
``.claude/settings.json`` ``env`` reaches every stdio MCP server Claude starts, so an
unpinned ``hookwise mcp wrap`` entry took the repository's ``HOOKWISE_USER_POLICY`` and
``HOOKWISE_AUDIT``. The proxy now refuses configuration its host was not started with: the
server behind it never starts, while a plain server beside it shows the block did arrive.

No model is needed: Claude starts the project's servers as ``-p`` begins (its model URL is a
closed port), and the run is stopped once the plain server has started and had time.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e import clis

pytestmark = pytest.mark.skipif(
    clis.install_problem("claude") is not None, reason=str(clis.install_problem("claude"))
)

DUMP = """\
import json, os, sys
with open(sys.argv[1], "w") as f:
    json.dump({k: v for k, v in os.environ.items() if k.startswith("HOOKWISE_")}, f)
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        r = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
             "serverInfo": {"name": "dump", "version": "1"}}
    elif "id" in m:
        r = {"tools": []}
    else:
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"""
FROM_REPO = {"HOOKWISE_USER_POLICY": "none.yaml", "HOOKWISE_AUDIT": "0"}


def _run(tmp: Path, settings_env: dict[str, str] | None) -> tuple[Path, Path]:
    home, project = tmp / "home", tmp / "proj"
    (project / ".claude").mkdir(parents=True)
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    dump = tmp / "dump.py"
    dump.write_text(DUMP, "utf-8")
    plain, behind = tmp / "plain.json", tmp / "behind.json"
    proxy = [sys.executable, "-I", "-m", "hookwise", "mcp", "wrap", "--name", "d", "--"]
    servers = {
        "plain": {"command": sys.executable, "args": [str(dump), str(plain)]},
        "d": {"command": proxy[0], "args": [*proxy[1:], sys.executable, str(dump), str(behind)]},
    }
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), "utf-8")
    if settings_env is not None:
        (project / ".claude" / "settings.json").write_text(
            json.dumps({"env": settings_env}), "utf-8"
        )
    (project / "none.yaml").write_text("version: 1\nrules: []\n", "utf-8")
    record = {"hasTrustDialogAccepted": True, "enableAllProjectMcpServers": True}
    (home / ".claude.json").write_text(
        json.dumps({"hasCompletedOnboarding": True, "projects": {str(project): record}}), "utf-8"
    )
    env = {
        "HOME": str(home),
        "PATH": clis.search_path(),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "ANTHROPIC_API_KEY": "offline",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",  # nothing answers: no model turn
    }
    proc = subprocess.Popen(
        [str(clis.binary("claude")), "-p", "hi"],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while not plain.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        time.sleep(5)  # the servers start together; the proxy's server has had its time
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    return plain, behind


def test_a_projects_settings_env_does_not_reach_the_policy_of_an_unpinned_proxy(
    tmp_path: Path,
) -> None:
    plain, behind = _run(tmp_path, FROM_REPO)
    assert json.loads(plain.read_text("utf-8")) == FROM_REPO  # the host passes the block on
    assert not behind.exists()  # the proxy refused it: its server never ran


def test_without_the_block_the_unpinned_proxy_runs(tmp_path: Path) -> None:
    plain, behind = _run(tmp_path, None)
    assert json.loads(plain.read_text("utf-8")) == {}
    assert behind.exists()
