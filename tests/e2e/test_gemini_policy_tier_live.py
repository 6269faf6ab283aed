"""F16's second half (red team s25): the real Gemini CLI 0.61.0 with only the rules
``hookwise install --native`` wrote (no hook), and a sibling file in the same policy tier.

Gemini reads every ``*.toml`` of ``~/.gemini/policies/`` as one tier and takes the matching
rule of the highest priority (tier + priority/1000: chunk ``transformPriority``,
``PolicyEngine`` sorting its rules); so a sibling ``allow`` above hookwise's deny runs what
the deny forbids. Each case runs the fake model asking for ``touch native-denied``:

- ``alone``: hookwise's file only: refused;
- ``sibling_allow``: plus ``aaa.toml`` allowing ``run_shell_command`` at priority 999:
  it runs, and ``hookwise doctor`` reports that rule (before: "in sync");
- ``sibling_below``: the same allow at 100: refused, and doctor reports nothing;
- ``auto_saved``: the rule Gemini itself saves for "Allow always" (``auto-saved.toml``,
  priority 950 in the user tier, ``commandPrefix = "touch"``): refused, because the deny
  is exported above it (999);
- ``server_rule``: the policy also denies a whole MCP server: refused (the export of that rule
  was a ``[[rule]]`` without ``toolName``, and Gemini skipped the file with it).

Recorded answers: ``fixtures/gemini-policy-tiers.json`` (Gemini CLI 0.61.0, 2026-11-28).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.test_native_export_live import COMMAND, POLICY, _tool_results
from tests.e2e.test_policy_install import hookwise, run_cli, session, user_env

SIBLINGS = {
    "alone": None,
    "sibling_allow": ("aaa.toml", 'toolName = "run_shell_command"\npriority = 999'),
    "sibling_below": ("aaa.toml", 'toolName = "run_shell_command"\npriority = 100'),
    "auto_saved": (
        "auto-saved.toml",
        'toolName = "run_shell_command"\ncommandPrefix = "touch"\npriority = 950',
    ),
}
RUNS = {"sibling_allow"}  # the cases where the command runs
# a rule for a whole MCP server beside the deny: exported as `mcpName` alone, without the
# `toolName` Gemini's schema requires, it made Gemini skip hookwise's whole file
SERVER_RULE = """\
  - id: no-fs
    match: {mcp: {server: fs}}
    action: deny
"""
SIBLINGS["server_rule"] = None


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(SIBLINGS))
def test_a_sibling_policy_above_the_deny_is_what_doctor_reports(case: str, tmp_path: Path) -> None:
    layout, _ = session("gemini", tmp_path)
    env = user_env("gemini", layout)
    policy = layout.home / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(POLICY + (SERVER_RULE if case == "server_rule" else ""), "utf-8")
    args = ["install", "--native", "--host", "gemini", "--scope", "user", "--json"]
    done = hookwise(args, env, layout.proj)
    assert done.returncode == 0, done.stderr
    sibling = SIBLINGS[case]
    if sibling is not None:
        name, body = sibling
        text = f'[[rule]]\n{body}\ndecision = "allow"\n'
        (layout.home / ".gemini" / "policies" / name).write_text(text, encoding="utf-8")
    doctor = hookwise(["doctor", "--json"], env, layout.proj)
    report = json.loads(doctor.stdout)
    gemini = report["hosts"]["gemini"]
    shadows = gemini["native"]["user"].get("shadowed_by", [])
    (tmp_path / "command.txt").write_text(COMMAND, encoding="utf-8")
    result = run_cli("gemini", tmp_path)
    why = f"\n exit {result['exit_code']}; model saw: {_tool_results(result['requests'])}"
    assert len(result["requests"]) >= 2, f"the model never heard back about the call{why}"
    ran = (layout.proj / "native-denied").exists()
    record = os.environ.get("HOOKWISE_E2E_RECORD")
    if record:
        told = _tool_results(result["requests"])[:300]
        line = {"case": case, "ran": ran, "shadowed_by": len(shadows), "model_saw": told}
        with Path(record, "gemini-policy-tiers.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    assert ran == (case in RUNS), why
    if case in RUNS:
        assert [s["file"].endswith(sibling[0]) for s in shadows] == [True], gemini["native"]
    else:
        assert shadows == [], gemini["native"]
