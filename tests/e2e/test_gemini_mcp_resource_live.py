"""Gemini CLI 0.61.0's ``read_mcp_resource`` against ``mcp:`` rules (red team s25: "names no
server"): what the real CLI sends, and what stops it.

The tool takes ``{"uri": "SERVER:URI"}``: ``ResourceRegistry.findResourceByUri`` splits the
identifier at its first colon into the server's name and the resource's URI, and reads only a
resource that server listed. So the server is known, and ``hookwise hook`` decides the call as
that server's ``resources/read`` (the name the MCP proxy gives it). The server here
(tests/mcp_proxy/fake_server.py ``resources``) lists one resource; the policy denies the
whole server ``fs``; the model reads the resource. Cases:

- ``hook``: ``hookwise hook`` on BeforeTool (no native rules): refused; the payload the hook
  got is recorded;
- ``native``: only what ``install --native`` wrote (no hook): refused by the
  ``read_mcp_resource`` entry the export writes for a server rule (``mcpName`` rules do not
  reach this built-in tool: Gemini gives it no server);
- ``control``: neither: the content reaches the model.

Recorded: ``fixtures/gemini-mcp-resource.jsonl`` (``HOOKWISE_E2E_RECORD``; Gemini CLI 0.61.0,
2026-11-28).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, call, tool_results
from tests.e2e.runner import run_bounded
from tests.e2e.test_policy_install import hookwise, require
from tests.mcp_proxy import fake_server

SERVER = Path(fake_server.__file__)
POLICY = """\
version: 1
rules:
  - id: no-fs
    match: {mcp: {server: fs}}
    action: deny
    reason: "no fs at all"
"""
HOOKWISE = Path(sys.executable).parent / "hookwise"


@pytest.mark.e2e
@pytest.mark.parametrize("case", ["hook", "native", "control"])
def test_read_mcp_resource_is_decided_as_the_server_it_names(case: str, tmp_path: Path) -> None:
    require("gemini")
    layout = clis.Layout(tmp_path)
    layout.create()
    home, proj = layout.home, layout.proj
    policy = home / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True)
    policy.write_text(POLICY, encoding="utf-8")
    payloads = tmp_path / "payloads.jsonl"
    settings: dict[str, object] = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "mcpServers": {
            "fs": {"command": sys.executable, "args": [str(SERVER), "resources"], "trust": True}
        },
    }
    if case == "hook":  # the payload recorded, then hookwise's answer
        tee = f"tee -a {payloads} | {HOOKWISE} hook --host gemini"
        settings["hooks"] = {
            "BeforeTool": [{"matcher": "read_mcp_resource", "hooks": [
                {"name": "hookwise", "type": "command", "command": tee, "timeout": 30000}
            ]}]
        }  # fmt: skip
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
    with FakeModel() as fake:
        env = clis.environment("gemini", layout, fake.url)
        env |= {
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
        }
        if case == "native":
            done = hookwise(["install", "--native", "--host", "gemini", "--json"], env, proj)
            assert done.returncode == 0, done.stderr
        fake.script = Script([call("read_mcp_resource", uri=f"fs:{fake_server.RESOURCE}")])
        argv = [str(clis.binary("gemini")), "-p", clis.PROMPT, "--yolo", "-o", "json",
                "-m", "gemini-2.5-flash"]  # fmt: skip
        _, stderr, code, timed_out = run_bounded(argv, proj, env, 150.0)
        results = [text for r in fake.requests for text in tool_results(r["body"])]
    why = f"exit {code}, results {results}, stderr {stderr.decode(errors='replace')[-1500:]}"
    assert not timed_out and results, why
    leaked = any(fake_server.RESOURCE_TEXT in r for r in results)
    seen = (
        [json.loads(line) for line in payloads.read_text().splitlines()] if case == "hook" else []
    )
    record = os.environ.get("HOOKWISE_E2E_RECORD")
    if record:
        line = {
            "case": case,
            "leaked": leaked,
            "result": results[-1][:300],
            "hook_saw": [{k: p.get(k) for k in ("tool_name", "tool_input", "mcp_context")}
                         for p in seen],
        }  # fmt: skip
        with Path(record, "gemini-mcp-resource.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    assert leaked == (case == "control"), why
    if case == "hook":
        assert [p["tool_name"] for p in seen] == ["read_mcp_resource"], seen
        assert seen[0]["tool_input"] == {"uri": f"fs:{fake_server.RESOURCE}"}, seen
