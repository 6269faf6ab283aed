"""Issue 28 part B, item 3: with no hook registered, each real CLI refuses a command that
the rules ``hookwise policy export`` wrote into its own permission system deny.

One offline run a CLI (tests/e2e/test_policy_install.py's session, the fake model asking
for ``touch native-denied``): the exported entries go where the CLI reads them (Claude
Code: the project's ``permissions.deny`` beside its ``allow: [Bash]``; Gemini CLI:
``~/.gemini/policies/hookwise.toml``, run with ``--yolo``; Codex:
``~/.codex/rules/hookwise.rules``, run with approvals and sandbox bypassed). The file is
never made, no hook was called, and what the CLI told the model is kept in the report.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.test_policy_install import hookwise, run_cli, session, user_env

POLICY = """\
version: 1
rules:
  - id: no-touch
    match: {command: touch}
    action: deny
    reason: "native rules refuse touch"
"""
COMMAND = "touch native-denied"
# where each run's summary (exit, what the model was told) is written when this names a directory
KEEP_VARIABLE = "HOOKWISE_E2E_KEEP_NATIVE"


def _tool_results(requests: list[dict[str, object]]) -> str:
    """The last request's text about the tool call, as the model received it: around the
    last tool result (Anthropic ``tool_result``, OpenAI ``function_call_output``, Gemini
    ``functionResponse``)."""
    text = json.dumps(requests[-1]) if requests else ""
    at = max(text.rfind(k) for k in ("tool_result", "function_call_output", "functionResponse"))
    return text[at : at + 700] if at >= 0 else text[-700:]


@pytest.mark.e2e
@pytest.mark.parametrize("case", ["native", "control"])
@pytest.mark.parametrize("cli", ["claude", "gemini", "codex"])
def test_exported_native_rules_refuse_without_a_hook(cli: str, case: str, tmp_path: Path) -> None:
    """``control``: the same run without the entries, where the command must run."""
    layout, policy = session(cli, tmp_path)
    policy.write_text(POLICY, encoding="utf-8")
    env = user_env(cli, layout)
    done = hookwise(["policy", "export", "--host", cli, "--json"], env, layout.proj)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [c["status"] for c in report["coverage"]] == ["partial"], report["coverage"]
    if case == "control":
        pass
    elif cli == "claude":
        settings = layout.proj / ".claude" / "settings.json"
        current = json.loads(settings.read_text(encoding="utf-8"))
        current["permissions"].update(json.loads(report["content"])["permissions"])
        settings.write_text(json.dumps(current, indent=2), encoding="utf-8")
    else:
        target = layout.home / report["target"].removeprefix("~/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(report["content"], encoding="utf-8")
    (tmp_path / "command.txt").write_text(COMMAND, encoding="utf-8")

    result = run_cli(cli, tmp_path)
    stderr = (layout.root / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")[-1500:]
    told = _tool_results(result["requests"])
    why = f"\n  exit {result['exit_code']} in {result['seconds']} s\n  stderr: {stderr}\n  model saw: {told}"
    keep = os.environ.get(KEEP_VARIABLE)
    if keep:
        summary = {"exit": result["exit_code"], "requests": len(result["requests"]), "told": told}
        Path(keep, f"{cli}-{case}.json").write_text(json.dumps(summary), encoding="utf-8")
    assert not result["timed_out"], why
    assert len(result["requests"]) >= 2, f"the model never heard back about the call{why}"
    if case == "control":
        assert (layout.proj / "native-denied").exists(), f"the command did not run{why}"
        return
    assert not (layout.proj / "native-denied").exists(), f"the command ran{why}"
    assert not (layout.home / ".local" / "state" / "hookwise" / "audit.jsonl").exists(), why
