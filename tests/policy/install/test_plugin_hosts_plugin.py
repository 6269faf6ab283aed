"""hookwise's OpenCode/Kilo plugin under real node, with stand-in hook commands.

The plugin (policy/install/plugin/hookwise.js, as install writes it) is imported by node
and its ``tool.execute.before`` called as the hosts call it (input {tool, sessionID,
callID}, output {args}); the hook command is a small shell script per case. What the
plugin must do with every answer: deny -> throw the reason, rewrite -> replace the args in
place, allow -> nothing, and throw (fail closed) on every failure: a missing hookwise, a
crash, a kill, its timeout, non-JSON, another event, an unknown decision, a bad
updatedInput. The real hosts are in tests/e2e/test_plugin_hosts_live.py.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.install.plugin_files import plugin_text
from hookwise.scan.transcripts.session_db import PLUGIN_FAILED

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node not found")

DRIVER = r"""
import { pathToFileURL } from "node:url";
const [plugin, tool, args, mcp] = process.argv.slice(2);
const mod = await import(pathToFileURL(plugin).href);
const hooks = await mod.HookwisePolicy({ directory: process.cwd() });
await hooks.config({ mcp: JSON.parse(mcp) });
const output = { args: JSON.parse(args) };
const same = output.args;
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "ses_1", callID: "call_1" }, output);
  console.log(JSON.stringify({ ok: true, args: output.args, inPlace: output.args === same }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, message: error.message }));
}
"""


def run_plugin(
    tmp_path: Path,
    hook: str,
    *,
    tool: str = "bash",
    args: dict[str, Any] | None = None,
    timeout_ms: int = 5000,
    mcp: dict[str, Any] | None = None,
) -> dict[str, Any]:
    plugin = tmp_path / "hookwise.js"
    plugin.write_text(plugin_text("opencode", hook, timeout_ms), encoding="utf-8")
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    argv = ["node", str(driver), str(plugin), tool, json.dumps(args or {"command": "ls"})]
    proc = subprocess.run(
        [*argv, json.dumps(mcp or {})],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def answer(tmp_path: Path, obj: Any, *, code: int = 0, stderr: str = "") -> str:
    """A hook command printing ``obj`` (as JSON unless a str) and exiting with ``code``."""
    text = obj if isinstance(obj, str) else json.dumps(obj)
    out = tmp_path / "answer.txt"
    out.write_text(text, encoding="utf-8")
    payload = tmp_path / "payload.json"
    err = f"echo {shlex.quote(stderr)} >&2; " if stderr else ""
    return f"cat > {shlex.quote(str(payload))}; cat {shlex.quote(str(out))}; {err}exit {code}"


def hso(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "tool.execute.before", **fields}}


def test_a_deny_throws_the_reason_and_the_payload_is_claude_shaped(tmp_path: Path) -> None:
    hook = answer(tmp_path, hso(permissionDecision="deny", permissionDecisionReason="R: no"))
    result = run_plugin(tmp_path, hook, args={"command": "rm -rf /", "description": "d"})
    assert result == {"ok": False, "message": "R: no"}
    payload = json.loads((tmp_path / "payload.json").read_text(encoding="utf-8"))
    assert payload == {
        "hook_event_name": "tool.execute.before",
        "session_id": "ses_1",
        "tool_use_id": "call_1",
        "cwd": str(tmp_path),
        "tool_name": "bash",
        "tool_input": {"command": "rm -rf /", "description": "d"},
    }


def test_a_rewrite_replaces_the_arguments_in_place(tmp_path: Path) -> None:
    hook = answer(tmp_path, hso(updatedInput={"command": "echo safe"}))
    result = run_plugin(tmp_path, hook, args={"command": "echo x", "description": "d"})
    assert result == {"ok": True, "args": {"command": "echo safe"}, "inPlace": True}


@pytest.mark.parametrize("decision", [None, "allow"])
def test_allow_and_no_decision_let_the_tool_run_unchanged(
    tmp_path: Path, decision: str | None
) -> None:
    fields = {"permissionDecision": decision} if decision else {}
    result = run_plugin(tmp_path, answer(tmp_path, hso(**fields)), args={"command": "ls"})
    assert result == {"ok": True, "args": {"command": "ls"}, "inPlace": True}


def test_mcp_tools_are_named_as_the_policy_names_them(tmp_path: Path) -> None:
    hook = answer(tmp_path, hso())
    servers = {"my.docs": {"type": "local"}, "my": {"type": "local"}}
    run_plugin(tmp_path, hook, tool="my_docs_search", mcp=servers)
    payload = json.loads((tmp_path / "payload.json").read_text(encoding="utf-8"))
    assert payload["tool_name"] == "mcp__my.docs__search"
    assert payload["host_tool_name"] == "my_docs_search"


FAILURES = {
    "missing": (
        "echo 'hookwise is not installed on this machine' >&2; exit 2",
        "hookwise is not installed on this machine",
    ),
    "crash": ("cat >/dev/null; echo boom >&2; exit 1", "hookwise: boom"),
    "exit-127": ("cat >/dev/null; exit 127", "exited with code 127"),
    "killed": ("cat >/dev/null; kill -9 $$", "killed by SIGKILL"),
    "timeout": ("sleep 30", "no answer within 300 ms"),
    "not-json": ("cat >/dev/null; echo allow", "not JSON"),
    "empty": ("cat >/dev/null", "not JSON"),
    "other-event": (
        'cat >/dev/null; echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}\'',
        "not one for tool.execute.before",
    ),
    "ask": (None, "cannot apply"),
    "bad-update": (None, "updatedInput is not an object"),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_every_failure_blocks_the_tool(tmp_path: Path, case: str) -> None:
    hook, expected = FAILURES[case]
    if case == "ask":
        hook = answer(tmp_path, hso(permissionDecision="ask"))
    elif case == "bad-update":
        hook = answer(tmp_path, hso(updatedInput=["rm", "-rf", "/"]))
    assert hook is not None
    result = run_plugin(tmp_path, hook, timeout_ms=300)
    assert result["ok"] is False, result
    assert expected in result["message"], result
    assert result["message"].endswith(PLUGIN_FAILED), result  # what coverage recognises


def test_a_timed_out_hook_is_killed_with_its_children(tmp_path: Path) -> None:
    marker = tmp_path / "late"
    hook = f"(sleep 2; touch {shlex.quote(str(marker))}) & sleep 30"
    result = run_plugin(tmp_path, hook, timeout_ms=300)
    assert result["ok"] is False
    subprocess.run(["sleep", "3"], check=True)
    assert not marker.exists(), "a child of the timed-out hook ran on"
