"""Codex 0.169.0's ``mcp_tool`` hook handler and its ``async`` command hooks, recorded on the
real CLI offline.

    python -m tests.e2e.record_codex_handlers [--out tests/e2e/fixtures/codex-handlers]

Runs of ``codex exec`` against the fake model (in this process, 127.0.0.1 only; the CLI is
configured to contact only 127.0.0.1), each with one hook on the shell call:

* ``async-post``: an ``async: true`` PostToolUse command hook that sleeps, then answers a
  block with a reason and context (and exits 2 with the reason on stderr); it writes a file
  when it has run. The record keeps whether the hook ran, what the model read after the call
  and how long the run took.
* ``async-pre``: the same answer from an ``async: true`` PreToolUse hook (exit 2, reason):
  does the tool still run.
* ``mcp-deny``: a ``type: "mcp_tool"`` PreToolUse hook calling ``read_text_file`` of the
  reference filesystem MCP server (configured in ``[mcp_servers.fs]``) on a file holding a
  deny answer, with ``${cwd}`` in its input. The record keeps whether the tool ran and
  whether the deny reason reached the model.
* ``mcp-missing``: the same hook naming a server that is not configured; ``mcp-no-field``:
  its ``path`` a placeholder naming no field of the input; ``mcp-embedded``: such a
  placeholder inside a longer string.
* ``async-pre-quick``: ``async-pre`` with no sleep, done before the model's next request.

``tests/e2e/test_codex_handlers_replay.py`` replays the records through hookwise.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel
from tests.e2e.runner import record_runs, run_bounded

OUT = Path(__file__).parent / "fixtures" / "codex-handlers"
REASON = "ASYNC-HOOK-REASON"
CONTEXT = "ASYNC-HOOK-CONTEXT"
MCP_REASON = "MCP-HOOK-DENY-REASON"
SLEEP_S = 3


def _async_command(root: Path, event: str, sleep_s: int = SLEEP_S) -> str:
    answer = {
        "decision": "block",
        "reason": REASON,
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": CONTEXT},
    }
    done = root / "async-done"
    script = (
        f"cat > {root / 'async-input.json'}; sleep {sleep_s}; touch {done}; "
        f"echo '{json.dumps(answer)}'; echo {REASON} >&2; exit 2"
    )
    return script


def _mcp_answer() -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": MCP_REASON,
        }
    }


def mcp_handler(server: str, path: str = "${cwd}/answer.json") -> dict[str, Any]:
    return {
        "type": "mcp_tool",
        "server": server,
        "tool": "read_text_file",
        "input": {"path": path},
        "timeout": 30,
    }


def _run(root: Path, name: str, hooks: dict[str, Any], extra_config: str = "") -> dict[str, Any]:
    layout = clis.Layout(root)
    layout.create()
    (layout.proj / ".codex").mkdir(parents=True, exist_ok=True)
    (layout.proj / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}, indent=1))
    (layout.proj / "answer.json").write_text(json.dumps(_mcp_answer()))
    with FakeModel() as fake:
        codex_home = layout.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        config = clis.codex_config(fake.url, layout.proj) + extra_config
        (codex_home / "config.toml").write_text(config, encoding="utf-8")
        argv = [
            str(clis.binary("codex")),
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox",
            "--json",
            clis.PROMPT,
        ]
        env = clis.environment("codex", layout, fake.url)
        started = time.monotonic()
        stdout, _, code, timed_out = run_bounded(argv, layout.proj, env, 120)
        seconds = time.monotonic() - started
        requests = list(fake.requests)
    # the async hook may outlive the run: wait for it before looking
    time.sleep(SLEEP_S + 1)
    follow_up = [json.dumps(r.get("body")) for r in requests[1:]]
    events = [line for line in stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    hook_items = [e for e in events if '"hook' in e.lower()]
    return {
        "run": name,
        "cli": "codex",
        "cli_version": clis.installed_version("codex"),
        "hooks": json.loads(json.dumps(hooks).replace(str(root), "$RUN")),
        "tool_ran": (layout.proj / "marker").exists(),
        "async_hook_ran": (root / "async-done").exists(),
        "async_input_keys": sorted(json.loads((root / "async-input.json").read_text()))
        if (root / "async-input.json").exists()
        else None,
        "model_read": {
            "reason": any(REASON in t for t in follow_up),
            "context": any(CONTEXT in t for t in follow_up),
            "mcp_reason": any(MCP_REASON in t for t in follow_up),
        },
        "requests": len(requests),
        "hook_events": [h.replace(str(root), "$RUN") for h in hook_items][:20],
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
    }


def run_async(root: Path, event: str, name: str, sleep_s: int = SLEEP_S) -> dict[str, Any]:
    command = _async_command(root, event, sleep_s)
    group: dict[str, Any] = {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": command, "async": True, "timeout": 30}],
    }
    return _run(root, name, {event: [group]})


def run_mcp(root: Path, name: str, server: str, path: str = "${cwd}/answer.json") -> dict[str, Any]:
    binary = clis.mcp_server("mcp-server-filesystem")
    if binary is None:
        raise SystemExit("the reference filesystem MCP server is missing: make e2e-install")
    proj = root / "proj"
    extra = f"""
[mcp_servers.fs]
command = {json.dumps(str(binary))}
args = [{json.dumps(str(proj))}]
"""
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [mcp_handler(server, path)]}]}
    return _run(root, name, hooks, extra)


RUNS = {
    "async-post": lambda root: run_async(root, "PostToolUse", "async-post"),
    "async-pre": lambda root: run_async(root, "PreToolUse", "async-pre"),
    # done long before the model's next request: is its answer read then?
    "async-pre-quick": lambda root: run_async(root, "PreToolUse", "async-pre-quick", 0),
    "mcp-deny": lambda root: run_mcp(root, "mcp-deny", "fs"),
    "mcp-missing": lambda root: run_mcp(root, "mcp-missing", "nosuch"),
    # a placeholder naming nothing in the hook's input
    "mcp-no-field": lambda root: run_mcp(root, "mcp-no-field", "fs", "${tool_input.nosuch}"),
    # a placeholder in the middle of a string, and the answer file found through it
    "mcp-embedded": lambda root: run_mcp(
        root, "mcp-embedded", "fs", "${cwd}/answer.json${tool_input.nosuch}"
    ),
}


def main(argv: list[str] | None = None) -> int:
    return record_runs("codex", RUNS, description=__doc__.splitlines()[0], out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
