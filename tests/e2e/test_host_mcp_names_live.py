"""How the real hosts that run offline here name an MCP tool in what their pre-tool hook (or
plugin) sees (issue 28, sessions 32-33): what protocol/hosts.py ``mcp_names`` records, read in
their bundled code, checked on the real CLIs offline: Cline 3.0.65 and Factory Droid 0.225.2
(tests/e2e/more_hosts.py), GitHub Copilot CLI 1.0.102, Qwen Code 0.24.4, Claude Code, Gemini
CLI and Codex (clis.py, the child of test_policy_install.py), OpenCode 1.18.33 and Kilo 7.7.9
(plugin_hosts.py).

Each run: a stdio MCP server ``fs`` (tests/mcp_proxy/fake_server.py ``echo``, logging what it
receives) in the host's own MCP settings, a pre-tool hook on every tool that logs its input
and lets the call run (answer_hook.py; on OpenCode and Kilo, which have no command hooks, a
plugin logging its ``tool.execute.before`` input), and the fake model calling the tool
``write_file`` of ``fs`` by the name hookwise's table says the host gives it. The hook must
see that name, and the server the call: the name is the host's own. Copilot's run has five
more servers whose names or tools' names it changes (COPILOT_NAMES, COPILOT_TOOLS: the names
it offers the model). Then the
same through ``hookwise hook`` (``hookwise install`` where hookwise has it, as a user runs
it): a policy denying ``mcp: {server: fs, tool: write_file}`` keeps the call from the server,
and its reason reaches the model (Cline's cancel ends the run instead).
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
from tests.e2e.fake_model import Script, ToolCall, call, namespaced
from tests.e2e.test_policy_install import URL_PLACEHOLDER, hookwise, run_cli
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
NATIVE = ("claude", "gemini", "codex")  # (clis.py, the child of test_policy_install.py)
ARGS = {"path": "x.txt", "content": "pwned"}
# more servers in Copilot's tap run, and the name it offers the model for their write_file:
# each character outside [a-zA-Z0-9_-] "-", a non-ASCII name IDNA-encoded, cut to 64
COPILOT_NAMES = {
    "a..b": "a--b-write_file",
    "My.Srv": "My-Srv-write_file",
    "\u00e9": "xn--9ca-write_file",
    "x" * 60: ("x" * 60 + "-write_file")[:64],
}
# ... and server t's tools of these names (fake_server.py FAKE_SERVER_TOOLS): the same
COPILOT_TOOLS = {"a.b": "t-a-b", "x y": "t-x-y", "\u00e9": "t-xn--9ca"}


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
        _write(
            layout.home / ".factory" / "mcp.json",
            {"mcpServers": {"fs": {"type": "stdio", **entry}}},
        )
    elif host == "cline":
        path = layout.home / ".cline" / "data" / "settings" / "cline_mcp_settings.json"
        _write(path, {"mcpServers": {"fs": entry}})
    elif host == "copilot":  # $COPILOT_HOME/mcp-config.json; "local" is its stdio type
        value = {"type": "local", **entry, "tools": ["*"]}
        tools = {**entry["env"], "FAKE_SERVER_TOOLS": json.dumps(list(COPILOT_TOOLS))}
        servers = {"fs": value, **dict.fromkeys(COPILOT_NAMES, value), "t": {**value, "env": tools}}
        _write(layout.home / ".copilot" / "mcp-config.json", {"mcpServers": servers})
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


def _model_call(host: str) -> ToolCall:
    """The fake model's call of fs's write_file by the host's name for it: Codex offers an
    MCP server's tools as members of the Responses namespace ``mcp__<server>`` and runs
    only a call naming both (test_mcp_proxy_live.py)."""
    if host == "codex":
        return namespaced("mcp__fs", "write_file", ARGS)
    return call(_name(host), ARGS)


def _native(host: str, layout: clis.Layout, log: Path) -> list[str]:
    """Claude Code, Gemini CLI or Codex with server ``fs`` in its own MCP settings (Claude:
    a ``--mcp-config`` file, its tools allowed in the project's settings; Gemini: the user
    settings' ``mcpServers``; Codex: ``[mcp_servers.fs]`` of config.toml): its argv."""
    entry, proj = _entry(log), layout.proj
    binary = str(clis.binary(host))
    if host == "claude":
        trusted = {str(proj): {"hasTrustDialogAccepted": True}}
        _write(layout.home / ".claude.json", {"hasCompletedOnboarding": True, "projects": trusted})
        _write(proj / ".claude" / "settings.json", {"permissions": {"allow": ["mcp__fs"]}})
        config = layout.root / "mcp.json"
        _write(config, {"mcpServers": {"fs": entry}})
        return [binary, "-p", clis.PROMPT, "--output-format", "json",
                "--mcp-config", str(config), "--strict-mcp-config"]  # fmt: skip
    if host == "gemini":
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "mcpServers": {"fs": {**entry, "trust": True}},
        }
        _write(layout.home / ".gemini" / "settings.json", settings)
        return [binary, "-p", clis.PROMPT, "--yolo", "-o", "json", "-m", "gemini-2.5-flash"]
    server = (
        f"\n[mcp_servers.fs]\ncommand = {json.dumps(entry['command'])}\n"
        f"args = {json.dumps(entry['args'])}\n"
        f"env = {{ FAKE_SERVER_LOG = {json.dumps(str(log))} }}\nrequired = true\n"
    )
    config = layout.home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(clis.codex_config(URL_PLACEHOLDER, proj) + server, encoding="utf-8")
    return [binary, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox", "--json", clis.PROMPT]  # fmt: skip


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
    """A pre-tool hook on every tool that logs its input and lets the call run (OpenCode,
    Kilo: a plugin)."""
    if host in PLUGIN:
        plugin = layout.proj / (".kilo" if host == "kilo" else ".opencode") / "plugins" / "tap.js"
        plugin.parent.mkdir(parents=True, exist_ok=True)
        plugin.write_text(TAP_PLUGIN % json.dumps(str(layout.hook_log)), encoding="utf-8")
    else:
        _hook(host, layout, f"{sys.executable} {ANSWER_HOOK} '{{\"exit\": 0}}'")


def _hook(host: str, layout: clis.Layout, command: str) -> None:
    """A pre-tool hook on every tool running ``command``, where the host reads it."""
    if host == "droid":  # every tool: the matcher "*"
        handler = {"type": "command", "command": command, "timeout": 60}
        _write(
            layout.proj / ".factory" / "hooks.json",
            {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]},
        )
    elif host == "cline":
        more_hosts.write_raw_hook(host, layout, command)
    elif host == "copilot":  # both keys: each spelling has its own payload (and tool names)
        handler = {"type": "command", "bash": command, "timeoutSec": 60}
        hooks = {"PreToolUse": [handler], "preToolUse": [handler]}
        _write(layout.proj / ".github" / "hooks" / "tap.json", {"version": 1, "hooks": hooks})
    elif host in ("qwen", "gemini"):  # milliseconds
        handler = {"type": "command", "name": "tap", "command": command, "timeout": 60000}
        event = HOSTS[host].pre_tool_event  # type: ignore[index]
        hooks = {event: [{"matcher": "*", "hooks": [handler]}]}
        path = layout.proj / f".{host}" / "settings.json"
        _write(path, {"hooks": hooks})
    elif host in ("claude", "codex"):  # beside the settings written before
        handler = {"type": "command", "command": command, "timeout": 60}
        path = layout.proj / (".claude/settings.json" if host == "claude" else ".codex/hooks.json")
        settings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        hooks = {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]}
        _write(path, {**settings, "hooks": hooks})
    else:
        raise AssertionError(f"{host} has no command hooks")


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


Run = tuple[list[str], str, set[str]]


def _run_more(host: str, through: str, tmp_path: Path) -> Run:
    """Droid or Cline: (the tool results the model read, the CLI's stderr, the tools the
    model was offered: only where the test reads them)."""
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
        _policy(layout)  # (no `hookwise install` for Cline's script hooks here)
        _hook(host, layout, f"{HOOKWISE} hook --host {host}")
    host_env = {
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    result = more_hosts.run_host(host, tmp_path, [], env=host_env, calls=[(_name(host), ARGS)])
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    assert not result["timed_out"], stderr[-1500:]
    return [str(r) for r in result["tool_results"]], stderr, set()


def _run_chat(host: str, through: str, tmp_path: Path) -> Run:
    """Copilot CLI, Qwen Code (clis.prepare_chat_cli), Claude Code, Gemini CLI or Codex
    (_native), headless, through the child of test_policy_install.py; the hookwise run is
    ``hookwise install HOST --scope project``."""
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    layout.create()
    log = tmp_path / "server.jsonl"
    if host in NATIVE:
        argv = _native(host, layout, log)
    else:
        argv = clis.prepare_chat_cli(host, layout)
        _servers(host, layout, log)
    (tmp_path / "argv.json").write_text(json.dumps(argv), encoding="utf-8")
    script = Script([_model_call(host)])
    (tmp_path / "script.json").write_text(json.dumps(script.to_json()), encoding="utf-8")
    if through == "tap":
        _tap(host, layout)
    else:
        _policy(layout)
        env = {
            **clis.environment(host, layout, "http://fake-model.invalid"),
            "PATH": os.environ["PATH"],
        }
        args = ["install", host, "--scope", "project", "--project", str(layout.proj)]
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, done.stderr
    result = run_cli(host, tmp_path)
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    assert not result["timed_out"], stderr[-1500:]
    turns = [r["body"] for r in result["requests"] if isinstance(r.get("body"), dict)]
    offered = {
        str((t.get("function") or {}).get("name"))
        for body in turns
        for t in body.get("tools") or []
        if isinstance(t, dict)
    }
    return tool_results_of(turns), stderr, offered


def tool_results_of(bodies: list[dict[str, Any]]) -> list[str]:
    """The tool results of the last request that has the most of them."""
    from tests.e2e.fake_model import tool_results

    found: list[str] = []
    for body in bodies:
        results = tool_results(body)
        if len(results) >= len(found):
            found = results
    return found


def _run_plugin(host: str, through: str, tmp_path: Path) -> Run:
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
    return plugin_hosts.tool_messages(result["requests"]), stderr, set()


RUNNERS = {
    **dict.fromkeys(MORE, _run_more),
    **dict.fromkeys(CHAT, _run_chat),
    **dict.fromkeys(PLUGIN, _run_plugin),
    **dict.fromkeys(NATIVE, _run_chat),
}


@pytest.mark.e2e
@pytest.mark.parametrize("host", [*MORE, *CHAT, *PLUGIN, *NATIVE])
@pytest.mark.parametrize("through", ["tap", "hookwise"])
def test_the_host_names_an_mcp_tool_as_its_table_says(
    host: str, through: str, tmp_path: Path
) -> None:
    seen, stderr, offered = RUNNERS[host](host, through, tmp_path)
    log = tmp_path / "server.jsonl"
    why = f"\n  results: {seen}\n  {stderr[-1500:]}"
    hook_log = clis.Layout(tmp_path).hook_log
    if through == "tap":
        lines = hook_log.read_text().splitlines() if hook_log.exists() else []
        given = [json.loads(line).get("input") for line in lines]
        text = json.dumps(given)
        assert _name(host) in text, f"the hook saw {text[:1500]}{why}"
        assert _reached(log) == ["write_file"], f"server: {_reached(log)}{why}"
        if host == "copilot":
            wanted = {*COPILOT_NAMES.values(), *COPILOT_TOOLS.values()}
            assert wanted <= offered, f"offered {sorted(offered)}{why}"
    else:
        assert _reached(log) == [], f"the denied call reached the server{why}"
        if host != "cline":  # (a Cline cancel ends the run: its model reads nothing more)
            assert "POLICY-MCP-DENY" in json.dumps(seen), f"the reason did not reach{why}"
