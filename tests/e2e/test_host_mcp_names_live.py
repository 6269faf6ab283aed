"""How the real Cline 3.0.65 and Factory Droid 0.225.2 name an MCP tool in their pre-tool
hook's payload (issue 28, session 32): what protocol/hosts.py ``mcp_names`` records, read in
their bundled code, checked on the real CLIs offline.

Each run: a stdio MCP server ``fs`` (tests/mcp_proxy/fake_server.py ``echo``, logging what it
receives) in the host's own MCP settings, a pre-tool hook that logs its input and lets the
call run (answer_hook.py), and the fake model calling the tool ``write_file`` of ``fs`` by
the name hookwise's table says the host gives it. The hook must see that name, and the server
the call: the name is the host's own. Then the same through ``hookwise hook``: a policy
denying ``mcp: {server: fs, tool: write_file}`` keeps the call from the server.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.protocol.hosts import HOSTS
from tests.e2e import clis, more_hosts
from tests.mcp_proxy import fake_server

SERVER = Path(fake_server.__file__)
ANSWER_HOOK = Path(__file__).with_name("answer_hook.py")
HOOKWISE = Path(sys.executable).parent / "hookwise"
POLICY = """\
version: 1
rules:
  - id: fs-no-write
    match: {mcp: {server: fs, tool: write_file}}
    action: deny
    reason: "POLICY-MCP-DENY: fs may not write"
"""


def _name(host: str) -> str:
    naming = HOSTS[host].mcp_names  # type: ignore[index]
    assert naming is not None
    return f"{naming[0]}fs{naming[1]}write_file"


def _servers(host: str, layout: clis.Layout, log: Path) -> None:
    entry = {
        "command": sys.executable,
        "args": [str(SERVER), "echo"],
        "env": {"FAKE_SERVER_LOG": str(log)},
    }
    if host == "droid":
        path = layout.home / ".factory" / "mcp.json"
        value: dict[str, Any] = {"mcpServers": {"fs": {"type": "stdio", **entry}}}
    else:
        path = layout.home / ".cline" / "data" / "settings" / "cline_mcp_settings.json"
        value = {"mcpServers": {"fs": entry}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value), encoding="utf-8")


def _hook(host: str, layout: clis.Layout, command: str) -> None:
    if host == "droid":  # every tool: the matcher "*"
        path = layout.proj / ".factory" / "hooks.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = {"type": "command", "command": command, "timeout": 60}
        path.write_text(json.dumps({"PreToolUse": [{"matcher": "*", "hooks": [handler]}]}))
    else:
        more_hosts.write_raw_hook(host, layout, command)


def _reached(log: Path) -> list[str]:
    names = []
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("method") == "tools/call":
            names.append(str(message.get("params", {}).get("name")))
    return names


@pytest.mark.e2e
@pytest.mark.parametrize("host", ["cline", "droid"])
@pytest.mark.parametrize("through", ["tap", "hookwise"])
def test_the_host_names_an_mcp_tool_as_its_table_says(
    host: str, through: str, tmp_path: Path
) -> None:
    reason = more_hosts.skip_reason(host)
    if reason:
        pytest.skip(reason)
    problem = more_hosts.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    more_hosts.prepare(host, layout)
    log = tmp_path / "server.jsonl"
    _servers(host, layout, log)
    home = layout.home
    env = {
        **more_hosts.environment(host, layout),
        "PATH": os.environ["PATH"],
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    if through == "tap":
        _hook(host, layout, f"{sys.executable} {ANSWER_HOOK} '{{\"exit\": 0}}'")
    else:
        policy = home / ".config" / "hookwise" / "policy.yaml"
        policy.parent.mkdir(parents=True, exist_ok=True)
        policy.write_text(POLICY, encoding="utf-8")
        _hook(host, layout, f"{HOOKWISE} hook --host {host}")
    host_env = {k: v for k, v in env.items() if k.startswith("XDG_")}
    args = {"path": "x.txt", "content": "pwned"}
    result = more_hosts.run_host(host, tmp_path, [], env=host_env, calls=[(_name(host), args)])
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    seen = result["tool_results"]
    why = f"\n  results: {seen}\n  {stderr[-1500:]}"
    assert not result["timed_out"], why
    if through == "tap":
        calls = [json.loads(line) for line in layout.hook_log.read_text().splitlines()]
        given = [c.get("input", c) for c in calls]
        text = json.dumps(given)
        assert _name(host) in text, f"the hook saw {text[:1500]}{why}"
        assert _reached(log) == ["write_file"], f"server: {_reached(log)}{why}"
    else:
        assert _reached(log) == [], f"the denied call reached the server{why}"
        if host == "droid":  # (a Cline cancel ends the run: its model reads nothing more)
            assert "POLICY-MCP-DENY" in json.dumps(seen), f"the reason did not reach{why}"
