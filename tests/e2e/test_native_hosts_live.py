"""Issue 28 part B: GitHub Copilot CLI 1.0.102 and Qwen Code 0.24.4 refuse a command the
policy denies with no hook registered, through their own permission rules only.

Qwen Code: ``hookwise install --native --host qwen`` writes ``permissions.deny`` into
``~/.qwen/settings.json`` (beside the provider settings the run needs, JSONC edited in
place), the run is ``--yolo``; ``uninstall --native`` gives the file back byte for byte.
Copilot CLI reads its tool permissions from its command line only: the run gets the
``--deny-tool`` arguments ``hookwise policy export --host copilot`` prints, beside
``--allow-all-tools`` (denial beats it). The fake model asks for ``touch native-denied``;
a control run without the rules must run it. What each CLI told the model is kept with
``HOOKWISE_E2E_KEEP_NATIVE``.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.observe import is_turn_request
from tests.e2e.test_policy_install import _diagnostics, hookwise, run_cli, user_env

POLICY = """\
version: 1
rules:
  - id: no-touch
    match: {command: touch}
    action: deny
    reason: "native rules refuse touch"
"""
COMMAND = "touch native-denied"


@pytest.mark.e2e
@pytest.mark.parametrize("case", ["native", "control"])
@pytest.mark.parametrize("cli", ["qwen", "copilot"])
def test_native_rules_refuse_without_a_hook(cli: str, case: str, tmp_path: Path) -> None:
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem(cli)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    layout.create()
    argv = clis.prepare_chat_cli(cli, layout)
    policy = layout.home / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True)
    policy.write_text(POLICY, encoding="utf-8")
    env = user_env(cli, layout)
    settings = layout.home / ".qwen" / "settings.json"
    before = settings.read_bytes() if settings.exists() else None
    if case == "native" and cli == "qwen":
        done = hookwise(["install", "--native", "--host", "qwen", "--json"], env, layout.proj)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)[0]
        assert report["added"] == ["Bash(touch:*)"], report
    elif case == "native":
        done = hookwise(["policy", "export", "--host", "copilot"], env, layout.proj)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "--deny-tool 'shell(touch:*)'", done.stdout
        argv += shlex.split(done.stdout)
    (tmp_path / "argv.json").write_text(json.dumps(argv), encoding="utf-8")
    (tmp_path / "command.txt").write_text(COMMAND, encoding="utf-8")

    result = run_cli(cli, tmp_path)
    turns = [r for r in result["requests"] if is_turn_request(cli, r)]
    why = _diagnostics(layout, result)
    told = _tool_result(turns[-1]) if turns else ""
    keep = os.environ.get("HOOKWISE_E2E_KEEP_NATIVE")
    if keep:
        summary = {"exit": result["exit_code"], "turns": len(turns), "told": told}
        Path(keep, f"{cli}-{case}.json").write_text(json.dumps(summary), encoding="utf-8")
    assert not result["timed_out"], why
    assert len(turns) >= 2, f"the CLI did not go on after its tool call{why}"
    ran = (layout.proj / "native-denied").exists()
    if case == "control":
        assert ran, f"the command did not run{why}"
        return
    assert not ran, f"the command ran{why}"
    assert not (layout.home / ".local" / "state" / "hookwise" / "audit.jsonl").exists(), why
    assert "native rules refuse touch" in told or "denied" in told.lower(), told
    if cli == "qwen":
        during = json.loads(settings.read_text(encoding="utf-8"))
        undone = hookwise(["uninstall", "--native", "--host", "qwen"], env, layout.proj)
        assert undone.returncode == 0, undone.stderr
        after = settings.read_bytes()
        if during == json.loads(before or b"{}") | {"permissions": {"deny": ["Bash(touch:*)"]}}:
            assert after == before, "uninstall did not give the settings back"
        else:  # Qwen rewrote its settings during the run (it does: "$version"): ours only go
            assert "only hookwise's entries were taken out" in undone.stderr, undone.stderr
            del during["permissions"]
            assert json.loads(after) == during, after


def _tool_result(request: dict[str, object]) -> str:
    """What the model was told about its call: the last ``tool`` message (Chat Completions)."""
    body = request.get("body")
    messages = body.get("messages") if isinstance(body, dict) else None
    results = [m for m in messages or [] if isinstance(m, dict) and m.get("role") == "tool"]
    return json.dumps(results[-1].get("content")) if results else ""
