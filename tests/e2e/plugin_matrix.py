"""Record what OpenCode and Kilo do with each answer of hookwise's plugin's hook.

    HOOKWISE_E2E_PLUGIN_CLIS=... .venv/bin/python -m tests.e2e.plugin_matrix \
        tests/e2e/plugin-hosts/matrix.json

For every cell: a fresh HOME and project (plugin_hosts.prepare), hookwise's plugin
(``plugin_files.plugin_text``, as install writes it) running a canned hook command instead
of hookwise, the real host offline against the fake model, which asks for one ``bash`` call
(``touch marker``). What is kept: whether the command ran (``marker``), ran rewritten
(``marker-rewritten``), what the model read as the tool's result, the host's exit code and
the run's length. tests/policy/install/test_plugin_hosts_matrix.py replays the record in
``make test``: the plugin under node and hookwise's own reading of the answer must give
what the host did.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hookwise.policy.install.plugin_files import plugin_text
from hookwise.protocol.hosts import host as host_info
from tests.e2e import clis, plugin_hosts

EVENT = "tool.execute.before"
COMMAND = "touch marker"
REWRITTEN = "touch marker-rewritten"


def hso(**fields: Any) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": EVENT, **fields}})


# cell -> (hook stdout, hook stderr, exit code, seconds the hook sleeps first, plugin timeout)
CELLS: dict[str, tuple[str, str, int, int, int]] = {
    "deny": (
        hso(permissionDecision="deny", permissionDecisionReason="MATRIX-DENY: not here"),
        "",
        0,
        0,
        10_000,
    ),
    "allow": (hso(permissionDecision="allow"), "", 0, 0, 10_000),
    "no-decision": (hso(), "", 0, 0, 10_000),
    "rewrite": (
        hso(updatedInput={"command": REWRITTEN, "description": "run it"}),
        "",
        0,
        0,
        10_000,
    ),
    "ask": (hso(permissionDecision="ask", permissionDecisionReason="MATRIX-ASK"), "", 0, 0, 10_000),
    "garbage": ("not json at all", "", 0, 0, 10_000),
    "wrong-event": (
        json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse"}}),
        "",
        0,
        0,
        10_000,
    ),
    "crash": ("", "MATRIX-CRASH", 1, 0, 10_000),
    "exit2": ("", "MATRIX-EXIT2", 2, 0, 10_000),
    "timeout": ("", "", 0, 30, 2_000),
    # the plugin's bound far away: does the host itself stop waiting for a slow plugin?
    "slow": (hso(permissionDecision="allow"), "", 0, 20, 120_000),
}


def hook_command(cell: str) -> str:
    stdout, stderr, code, sleep, _ = CELLS[cell]
    parts = ["cat >/dev/null"]
    if sleep:
        parts.append(f"sleep {sleep}")
    if stdout:
        parts.append(f"printf '%s\\n' {shlex.quote(stdout)}")
    if stderr:
        parts.append(f"echo {shlex.quote(stderr)} >&2")
    parts.append(f"exit {code}")
    return "; ".join(parts)


def record(host: str, cell: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"matrix-{host}-{cell}-") as name:
        root = Path(name)
        layout = clis.Layout(root)
        plugin_hosts.prepare(host, layout)
        plugin = layout.proj / host_info(host).install_files["project"]
        plugin.parent.mkdir(parents=True)
        timeout_ms = CELLS[cell][4]
        plugin.write_text(plugin_text(host, hook_command(cell), timeout_ms), encoding="utf-8")
        result = plugin_hosts.run_host(host, root, [COMMAND])
        seen = plugin_hosts.tool_messages(result["requests"])
        stdout, stderr, code, sleep, _ = CELLS[cell]
        return {
            "host": host,
            "version": plugin_hosts.pinned(host),
            "cell": cell,
            "hook": {
                "stdout": stdout,
                "stderr": stderr,
                "exit_code": code,
                "sleeps_s": sleep,
                "plugin_timeout_ms": timeout_ms,
            },
            "ran": (layout.proj / "marker").exists(),
            "ran_rewritten": (layout.proj / "marker-rewritten").exists(),
            "model_read": seen,
            "host_exit_code": result["exit_code"],
            "host_timed_out": result["timed_out"],
            "seconds": result["seconds"],
        }


def main(out: Path) -> int:
    jobs = [(h, c) for h in plugin_hosts.HOSTS for c in CELLS]
    for host in plugin_hosts.HOSTS:
        problem = plugin_hosts.install_problem(host)
        if problem:
            print(problem, file=sys.stderr)
            return 1
    with ThreadPoolExecutor(max_workers=2) as pool:
        cells = list(pool.map(lambda job: record(*job), jobs))
    data = {
        "origin": (
            "tests/e2e/plugin_matrix.py, the real CLIs of tests/e2e/plugin-hosts/package.json "
            "offline against tests/e2e/fake_model.py, hookwise's plugin running a canned hook "
            "command per cell; one bash call, `touch marker`"
        ),
        "recorded": dt.date.today().isoformat(),
        "cells": cells,
    }
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for cell in cells:
        print(cell["host"], cell["cell"], cell["ran"], cell["ran_rewritten"], cell["model_read"])
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
