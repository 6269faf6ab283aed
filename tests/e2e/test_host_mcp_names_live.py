"""How the real hosts that run offline here name an MCP tool in what their pre-tool hook (or
plugin) sees (issue 28, sessions 32-33): what protocol/hosts.py ``mcp_names`` records, read in
their bundled code, checked on the real CLIs offline: Cline 3.0.65 and Factory Droid 0.225.2
(tests/e2e/more_hosts.py), GitHub Copilot CLI 1.0.102 and Qwen Code 0.24.4 (clis.py, the
child of test_policy_install.py), OpenCode 1.18.33 and Kilo 7.7.9 (plugin_hosts.py).

Each run: a stdio MCP server ``fs`` (tests/mcp_proxy/fake_server.py ``echo``, logging what it
receives) in the host's own MCP settings, a pre-tool hook that logs its input and lets the
call run (answer_hook.py; on OpenCode and Kilo, which have no command hooks, a plugin logging
its ``tool.execute.before`` input), and the fake model calling the tool ``write_file`` of
``fs`` by the name hookwise's table says the host gives it. The hook must see that name, and
the server the call: the name is the host's own. Then the same through ``hookwise hook``
(``hookwise install`` on Copilot, Qwen, OpenCode and Kilo, as a user runs it): a policy
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
from tests.e2e import clis, more_hosts, plugin_hosts
from tests.e2e.fake_model import Script, call
from tests.e2e.test_policy_install import hookwise, run_cli
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


# where each family of hosts is driven from (the harness module of its pinned CLIs)
MORE = ("cline", "droid")
CHAT = ("copilot", "qwen")
PLUGIN = ("opencode", "kilo")
ARGS = {"path": "x.txt", "content": "pwned"}


def _name(host: str) -> str:
    naming = HOSTS[host].mcp_names  # type: ignore[index]
    assert naming is not None, f"{host}: mcp_names is not recorded"
    return f"{naming[0]}fs{naming[1]}write_file"


def _entry(log: Path) -> dict[str, Any]:
    return {
        "command": sys.executable,
        "args": [str(SERVER), "echo"],
        "env": {"FAKE_SERVER_LOG": str(log)},
    }


def _write(path: Path, value: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1), encoding="utf-8")


def _servers(host: str, layout: clis.Layout, log: Path) -> None:
    """Server ``fs`` in the host's own MCP settings (the file its documentation names)."""
    entry = _entry(log)
    if host == "droid":  # ~/.factory/mcp.json
        _write(layout.home / ".factory" / "mcp.json", {"mcpServers": {"fs": {"type": "stdio", **entry}}})
    elif host == "cline":
        path = layout.home / ".cline" / "data" / "settings" / "cline_mcp_settings.json"
        _write(path, {"mcpServers": {"fs": entry}})
    elif host == "copilot":  # $COPILOT_HOME/mcp-config.json; "local" is its stdio type
        value = {"type": "local", **entry, "tools": ["*"]}
        _write(layout.home / ".copilot" / "mcp-config.json", {"mcpServers": {"fs": value}})
    elif host == "qwen":  # ~/.qwen/settings.json mcpServers, beside prepare_chat_cli's keys
        path = layout.home / ".qwen" / "settings.json"
        settings = json.loads(path.read_text(encoding="utf-8"))
        _write(path, {**settings, "mcpServers": {"fs": entry}})
    else:  # the project config's "mcp": a local server is its argv, its env "environment"
        path = layout.proj / ("kilo.json" if host == "kilo" else "opencode.json")
        config = json.loads(path.read_text(encoding="utf-8"))
        local = {
            "type": "local",
            "command": [entry["command"], *entry["args"]],
            "environment": entry["env"],
        }
        _write(path, {**config, "mcp": {"fs": local}})


# OpenCode and Kilo have no command hooks: a plugin's tool.execute.before sees the call
TAP_PLUGIN = """\
import { appendFileSync } from "node:fs";
export const Tap = async () => ({
  "tool.execute.before": async (input, output) => {
    appendFileSync(%s, JSON.stringify({ input: { tool: input.tool, args: output.args } }) + "\\n");
  },
});
"""


def _tap(host: str, layout: clis.Layout) -> None:
    """A pre-tool hook on every tool that logs its input and lets the call run."""
    command = f"{sys.executable} {ANSWER_HOOK} '{{\"exit\": 0}}'"
    if host == "droid":  # every tool: the matcher "*"
        handler = {"type": "command", "command": command, "timeout": 60}
        _write(layout.proj / ".factory" / "hooks.json", {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]})
    elif host == "cline":
        more_hosts.write_raw_hook(host, layout, command)
    elif host == "copilot":  # both keys: each spelling has its own payload (and tool names)
        handler = {"type": "command", "bash": command, "timeoutSec": 60}
        hooks = {"PreToolUse": [handler], "preToolUse": [handler]}
        _write(layout.proj / ".github" / "hooks" / "tap.json", {"version": 1, "hooks": hooks})
    elif host == "qwen":
        handler = {"type": "command", "name": "tap", "command": command, "timeout": 60000}
        hooks = {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]}
        _write(layout.proj / ".qwen" / "settings.json", {"hooks": hooks})
    else:
        plugin = layout.proj / (".kilo" if host == "kilo" else ".opencode") / "plugins" / "tap.js"
        plugin.parent.mkdir(parents=True, exist_ok=True)
        plugin.write_text(TAP_PLUGIN % json.dumps(str(layout.hook_log)), encoding="utf-8")


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


def _policy(layout: clis.Layout) -> None:
    """The user's own policy (trusted as it is: no ``policy trust``)."""
    policy = layout.home / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(POLICY, encoding="utf-8")


def _run_more(host: str, through: str, tmp_path: Path) -> tuple[list[str], str]:
    """Droid or Cline: (the tool results the model read, the CLI's stderr)."""
    reason = more_hosts.skip_reason(host)
    if reason:
        pytest.skip(reason)
    problem = more_hosts.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    more_hosts.prepare(host, layout)
    _servers(host, layout, tmp_path / "server.jsonl")
    home = layout.home
    if through == "tap":
        _tap(host, layout)
    else:
        _policy(layout)
        command = f"{HOOKWISE} hook --host {host}"
        if host == "droid":  # every tool: the matcher "*"
            handler = {"type": "command", "command": command, "timeout": 60}
            hooks = {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]}
            _write(layout.proj / ".factory" / "hooks.json", hooks)
        else:
            more_hosts.write_raw_hook(host, layout, command)
    host_env = {
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    result = more_hosts.run_host(host, tmp_path, [], env=host_env, calls=[(_name(host), ARGS)])
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    assert not result["timed_out"], stderr[-1500:]
    return [str(r) for r in result["tool_results"]], stderr


def _run_chat(host: str, through: str, tmp_path: Path) -> tuple[list[str], str]:
    """Copilot CLI or Qwen Code, headless (clis.prepare_chat_cli), through the child of
    test_policy_install.py; the hookwise run is ``hookwise install HOST --scope project``."""
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    layout.create()
    argv = clis.prepare_chat_cli(host, layout)
    (tmp_path / "argv.json").write_text(json.dumps(argv), encoding="utf-8")
    script = Script([call(_name(host), ARGS)])
    (tmp_path / "script.json").write_text(json.dumps(script.to_json()), encoding="utf-8")
    _servers(host, layout, tmp_path / "server.jsonl")
    if through == "tap":
        _tap(host, layout)
    else:
        _policy(layout)
        env = {**clis.environment(host, layout, "http://fake-model.invalid"), "PATH": os.environ["PATH"]}
        args = ["install", host, "--scope", "project", "--project", str(layout.proj)]
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, done.stderr
    result = run_cli(host, tmp_path)
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    assert not result["timed_out"], stderr[-1500:]
    turns = [r["body"] for r in result["requests"] if isinstance(r.get("body"), dict)]
    seen = tool_results_of(turns)
    return seen, stderr


def tool_results_of(bodies: list[dict[str, Any]]) -> list[str]:
    """The tool results of the last request that has the most of them."""
    from tests.e2e.fake_model import tool_results

    found: list[str] = []
    for body in bodies:
        results = tool_results(body)
        if len(results) >= len(found):
            found = results
    return found


def _run_plugin(host: str, through: str, tmp_path: Path) -> tuple[list[str], str]:
    """OpenCode or Kilo (plugin_hosts.py); the hookwise run is ``hookwise install HOST``."""
    reason = plugin_hosts.skip_reason(host)
    if reason:
        pytest.skip(reason)
    problem = plugin_hosts.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    plugin_hosts.prepare(host, layout)
    _servers(host, layout, tmp_path / "server.jsonl")
    if through == "tap":
        _tap(host, layout)
    else:
        _policy(layout)
        env = {**plugin_hosts.environment(host, layout), "PATH": os.environ["PATH"]}
        done = hookwise(["install", host], env, layout.proj)
        assert done.returncode == 0, done.stderr
    result = plugin_hosts.run_host(host, tmp_path, [], calls=[(_name(host), ARGS)])
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    assert not result["timed_out"], stderr[-1500:]
    return plugin_hosts.tool_messages(result["requests"]), stderr


RUNNERS = {
    **dict.fromkeys(MORE, _run_more),
    **dict.fromkeys(CHAT, _run_chat),
    **dict.fromkeys(PLUGIN, _run_plugin),
}


@pytest.mark.e2e
@pytest.mark.parametrize("host", [*MORE, *CHAT, *PLUGIN])
@pytest.mark.parametrize("through", ["tap", "hookwise"])
def test_the_host_names_an_mcp_tool_as_its_table_says(
    host: str, through: str, tmp_path: Path
) -> None:
    seen, stderr = RUNNERS[host](host, through, tmp_path)
    log = tmp_path / "server.jsonl"
    why = f"\n  results: {seen}\n  {stderr[-1500:]}"
    hook_log = clis.Layout(tmp_path).hook_log
    if through == "tap":
        lines = hook_log.read_text().splitlines() if hook_log.exists() else []
        given = [json.loads(line).get("input") for line in lines]
        text = json.dumps(given)
        assert _name(host) in text, f"the hook saw {text[:1500]}{why}"
        assert _reached(log) == ["write_file"], f"server: {_reached(log)}{why}"
    else:
        assert _reached(log) == [], f"the denied call reached the server{why}"
        if host != "cline":  # (a Cline cancel ends the run: its model reads nothing more)
            assert "POLICY-MCP-DENY" in json.dumps(seen), f"the reason did not reach{why}"
