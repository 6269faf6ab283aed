"""The recorded answer matrix of OpenCode and Kilo, replayed (tests/e2e/plugin-hosts/matrix.json).

Each cell was recorded on the real host (tests/e2e/plugin_matrix.py): hookwise's plugin ran a
canned hook command (deny, allow, no decision, rewrite, ask, garbage, another event's answer,
a crash, exit 2, a timeout, a slow answer) and the host ran the tool, ran it rewritten, or
blocked it with a message the model read. Replayed here without the host:

- the plugin under node, given the same hook command, does what the host was seen doing, and
  its thrown message is exactly what the model read;
- the doctor's reading of the answer (plugin_doctor.plugin_reading) blocks exactly the cells
  the host blocked; the registry row's failure semantics match the crash and timeout cells,
  and its protocol's "no host timeout" matches the slow cell;
- hookwise's own answer for a policy with that verdict is the recorded answer itself, so
  what the host did with it is what it does with hookwise.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.install.plugin_doctor import plugin_reading
from hookwise.policy.install.plugin_files import no_host_timeout
from hookwise.policy.pipeline import decide
from hookwise.protocol.hosts import host as host_info
from tests.e2e.plugin_matrix import CELLS, COMMAND, EVENT, REWRITTEN, hook_command
from tests.policy.conftest import compile_text
from tests.policy.install.test_plugin_hosts_plugin import run_plugin

MATRIX = Path(__file__).resolve().parents[2] / "e2e" / "plugin-hosts" / "matrix.json"
RECORDED = json.loads(MATRIX.read_text(encoding="utf-8"))["cells"]
IDS = [f"{c['host']}-{c['cell']}" for c in RECORDED]


def test_every_host_and_cell_was_recorded() -> None:
    assert sorted(IDS) == sorted(f"{h}-{c}" for h in ("opencode", "kilo") for c in CELLS)
    for cell in RECORDED:
        assert not cell["host_timed_out"], cell
        assert cell["version"] == {"opencode": "1.18.33", "kilo": "7.7.9"}[cell["host"]]


@pytest.mark.skipif(shutil.which("node") is None, reason="node not found")
@pytest.mark.parametrize("cell", RECORDED, ids=IDS)
def test_the_plugin_does_what_the_host_did(cell: dict[str, Any], tmp_path: Path) -> None:
    if cell["cell"] == "slow":
        pytest.skip("the slow cell is about the host's wait (below), not the plugin")
    timeout_ms = cell["hook"]["plugin_timeout_ms"]
    result = run_plugin(
        tmp_path,
        hook_command(cell["cell"]),
        args={"command": COMMAND, "description": "run it"},
        timeout_ms=timeout_ms,
    )
    if cell["ran"] or cell["ran_rewritten"]:
        assert result["ok"], result
        expected = REWRITTEN if cell["ran_rewritten"] else COMMAND
        assert result["args"]["command"] == expected
        assert cell["ran"] != cell["ran_rewritten"], cell
    else:
        assert not result["ok"], result
        assert cell["model_read"] == [result["message"]], (cell, result)


@pytest.mark.parametrize("cell", RECORDED, ids=IDS)
def test_the_doctor_and_the_registry_read_the_cell_as_the_host_did(cell: dict[str, Any]) -> None:
    ran = cell["ran"] or cell["ran_rewritten"]
    hook = cell["hook"]
    failure = host_info(cell["host"]).failure
    if cell["cell"] in ("crash", "timeout"):
        assert failure[cell["cell"]] == ("runs" if ran else "blocked"), cell
    if cell["cell"] == "timeout":
        assert (
            not ran and f"no answer within {hook['plugin_timeout_ms']} ms" in cell["model_read"][0]
        )
        return
    problem = plugin_reading(EVENT, hook["stdout"] + "\n", hook["exit_code"])
    # an answer the plugin applies: the tool ran, or it was a deny, whose reason the model read
    denied = (
        problem is None
        and json.loads(hook["stdout"])["hookSpecificOutput"].get("permissionDecision") == "deny"
    )
    assert (problem is None) == (ran or denied), (cell, problem)
    if denied:
        reason = json.loads(hook["stdout"])["hookSpecificOutput"]["permissionDecisionReason"]
        assert not ran and cell["model_read"] == [reason]
    if cell["cell"] == "slow":  # the host waited the whole sleep: it has no timeout of its own
        assert ran and cell["seconds"] >= hook["sleeps_s"]
        assert no_host_timeout(cell["host"])


POLICY = compile_text(
    """\
    version: 1
    rules:
      - {id: d, match: {command: "touch deny"}, action: deny, reason: "MATRIX-DENY: not here"}
      - {id: a, match: {command: "touch allow"}, action: allow}
      - id: r
        match: {command: "touch marker"}
        action: rewrite
        rewrite: {replace: [{arg: command, find: "touch marker", with: "touch marker-rewritten"}]}
    """
)
# the command that makes the policy give each cell's verdict
VERDICTS = {"deny": "touch deny", "allow": "touch allow", "no-decision": "ls", "rewrite": COMMAND}


@pytest.mark.parametrize(
    "cell", [c for c in RECORDED if c["cell"] in VERDICTS], ids=lambda c: f"{c['host']}-{c['cell']}"
)
def test_hookwise_answers_what_was_recorded(cell: dict[str, Any]) -> None:
    assert POLICY["errors"] == []
    payload = {
        "hook_event_name": EVENT,
        "session_id": "ses_1",
        "tool_use_id": "call_1",
        "cwd": "/p",
        "tool_name": "bash",
        "tool_input": {"command": VERDICTS[cell["cell"]], "description": "run it"},
    }
    answer = decide(payload, POLICY, cell["host"], {"HOME": "/h"}, now=0.0).answer
    assert answer.exit_code == cell["hook"]["exit_code"] == 0
    assert json.loads(answer.stdout) == json.loads(cell["hook"]["stdout"])
