"""Issue 28 part B: with no hook registered, each real CLI refuses a command that the rules
``hookwise install --native`` wrote into its own permission system deny, and
``hookwise uninstall --native`` gives the files back byte for byte.

One offline run a CLI (tests/e2e/test_policy_install.py's session, the fake model asking
for ``touch native-denied``). Claude Code: ``install --native --scope project`` (the
project's ``permissions.deny`` beside its ``allow: [Bash]``, from the project policy);
Gemini CLI (run with ``--yolo``) and Codex (approvals and sandbox bypassed): the user
policy, ``install --native`` at user scope (``~/.gemini/policies/hookwise.toml``,
``~/.codex/rules/hookwise.rules``). The file is never made, no hook was called, and what
the CLI told the model is kept in the report. A control run without the rules runs it.
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
    env = user_env(cli, layout)
    scope = "project" if cli == "claude" else "user"
    if scope == "user":  # rules every project has: the user policy
        policy = layout.home / ".config" / "hookwise" / "policy.yaml"
        policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(POLICY, encoding="utf-8")
    tree = _snapshot(layout.root)
    installed = None
    if case == "native":
        args = ["install", "--native", "--host", cli, "--scope", scope, "--json"]
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, done.stderr
        installed = json.loads(done.stdout)[0]
        assert [c["status"] for c in installed["coverage"]] == ["partial"], installed
        assert installed["added"], installed
        again = hookwise(args, env, layout.proj)  # the same policy: no byte changes
        assert again.returncode == 0 and not json.loads(again.stdout)[0]["changed"], again
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
    assert installed is not None
    undone = hookwise(["uninstall", "--native", "--host", cli, "--scope", scope], env, layout.proj)
    assert undone.returncode == 0, undone.stderr
    after = _snapshot(layout.root)
    # every file install --native wrote is back as it was (the CLI's own state aside)
    for name in (installed["file"], *installed["written"]):
        relative = str(Path(name).relative_to(layout.root))
        assert after.get(relative) == tree.get(relative), f"{relative} not restored"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
