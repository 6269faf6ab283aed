"""``hookwise mcp wrap`` as hosts start it: dispatched without the rest of the CLI, the
server started before the policy's modules load (hosts wait for a server's tools; Codex
0.169 leaves one that is not ready within 1 s out of its first model request), and the
policy still decides every call."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.mcp_proxy.conftest import DENY_TOKEN, FAKE_SERVER, Project, as_host


def test_wrap_skips_the_cli_and_starts_the_server_before_the_policy(project: Project) -> None:
    argv = [sys.executable, "-X", "importtime", "-m", "hookwise", "mcp", "wrap", "--name",
            "fake", "--", sys.executable, str(FAKE_SERVER), "echo"]  # fmt: skip
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    denied = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "write_file",
        "arguments": {"path": str(project.root / "protected" / "x"), "content": "x"}}}  # fmt: skip
    lines = "".join(json.dumps(m) + "\n" for m in (init, denied))
    done = subprocess.run(
        as_host(project.env, argv), input=lines.encode(), capture_output=True, cwd=project.root, env=project.env,
        timeout=120, check=False,
    )  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    refusal = next(a for a in answers if a.get("id") == 2)
    assert refusal["result"]["isError"] and DENY_TOKEN in json.dumps(refusal), answers
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.decode(errors="replace").splitlines()
        if line.startswith("import time:")
    ]
    assert "hookwise.mcp_proxy.decide" in imported
    assert "hookwise.cli.app" not in imported  # no other command's modules
    # the server is started (names and server modules only) before the decision's modules
    assert imported.index("hookwise.mcp_proxy.server") < imported.index("hookwise.mcp_proxy.decide")
    assert "write_file" not in project.server_log.read_text(encoding="utf-8")
