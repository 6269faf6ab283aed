"""Codex 0.169.0's own switches for an MCP server's tools, with no hook and no proxy: which of
``[mcp_servers.NAME]``'s ``disabled_tools``, ``enabled_tools`` and ``enabled = false``
keeps a call from reaching the server (issue 28, session 26: whether hookwise's ``mcp:``
deny rules can be exported there).

The server is tests/mcp_proxy/fake_server.py (``echo``), started by Codex directly; it logs
every line it receives (``FAKE_SERVER_LOG``). The fake model calls ``write_file`` of the
namespace ``mcp__fs``, then ``greet``. Each case says which calls must reach the server.
Recorded: ``fixtures/codex-mcp-tools.jsonl`` (``HOOKWISE_E2E_RECORD``; Codex 0.169.0,
2026-11-28).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, namespaced, tool_results
from tests.e2e.runner import run_bounded
from tests.e2e.test_policy_install import hookwise, require
from tests.mcp_proxy import fake_server

SERVER = Path(fake_server.__file__)
# case -> (the entry's extra lines, the tools that must reach the server)
CASES = {
    "control": ("", {"write_file", "greet"}),
    "disabled_tools": ('disabled_tools = ["write_file"]', {"greet"}),
    "enabled_tools": ('enabled_tools = ["greet"]', {"greet"}),
    "server_disabled": ("enabled = false", set()),
    # what `hookwise install --native --host codex` writes for a policy denying write_file
    "installed": ("", {"greet"}),
}
POLICY = """\
version: 1
rules:
  - id: no-fs-write
    match: {mcp: {server: fs, tool: write_file}}
    action: deny
"""


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(CASES))
def test_codex_s_own_tool_switches(case: str, tmp_path: Path) -> None:
    require("codex")
    extra, reach = CASES[case]
    layout = clis.Layout(tmp_path)
    layout.create()
    log = tmp_path / "server.jsonl"
    with FakeModel() as fake:
        entry = (
            f"\n[mcp_servers.fs]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps([str(SERVER), 'echo'])}\n"
            f"env = {{ FAKE_SERVER_LOG = {json.dumps(str(log))} }}\n"
            f"{'required = true' if case != 'server_disabled' else ''}\n{extra}\n"
        )
        codex_home = layout.home / ".codex"
        codex_home.mkdir(exist_ok=True)
        (codex_home / "config.toml").write_text(
            clis.codex_config(fake.url, layout.proj) + entry, encoding="utf-8"
        )
        env = clis.environment("codex", layout, fake.url)
        if case == "installed":
            policy = layout.home / ".config" / "hookwise" / "policy.yaml"
            policy.parent.mkdir(parents=True, exist_ok=True)
            policy.write_text(POLICY, encoding="utf-8")
            done = hookwise(["install", "--native", "--host", "codex", "--json"], env, layout.proj)
            assert done.returncode == 0, done.stdout + done.stderr
            written = (codex_home / "config.toml").read_text("utf-8")
            assert 'disabled_tools = ["write_file"]' in written, written
        fake.script = Script(
            [
                namespaced("mcp__fs", "write_file", {"path": "x.txt", "content": "pwned"}),
                namespaced("mcp__fs", "greet", {"name": "codex"}),
            ]
        )
        argv = [str(clis.binary("codex")), "exec", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", "--json", clis.PROMPT]  # fmt: skip
        _, stderr, code, timed_out = run_bounded(argv, layout.proj, env, 150.0)
        results = [text for r in fake.requests for text in tool_results(r["body"])]
        first = fake.requests[0]["body"] if fake.requests else {}
    offered = [
        [m.get("name") for m in t.get("tools") or []]
        for t in first.get("tools") or []
        if isinstance(t, dict) and t.get("name") == "mcp__fs"
    ]
    lines = log.read_text("utf-8").splitlines() if log.exists() else []
    calls = [json.loads(x) for x in lines if '"tools/call"' in x]
    reached = {c["params"]["name"] for c in calls}
    why = (f"exit {code} timed out {timed_out}\noffered {offered}\nresults {results}\n"
           f"stderr {stderr.decode(errors='replace')[-1500:]}")  # fmt: skip
    record = os.environ.get("HOOKWISE_E2E_RECORD")
    if record:
        line = {"case": case, "entry": extra, "offered": offered, "reached": sorted(reached),
                "results": [r[:160] for r in results]}  # fmt: skip
        with Path(record, "codex-mcp-tools.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    assert not timed_out, why
    assert reached == reach, why
