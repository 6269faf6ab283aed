"""GitHub Copilot CLI and Qwen Code, for real (issue 25, item 5).

Two parts, both marker ``e2e`` (the pinned CLIs of tests/e2e/hosts/, `make e2e-install`):

* the live sample of their answer matrix (host_matrix.SAMPLE): each run must give its
  recorded fixture again (the rest of the matrix replays from the fixtures in
  test_replay.py, through ``hookwise fire --host copilot|qwen``);
* policy scenarios through ``hookwise install <cli> --scope project``, with a *trusted*
  policy (the user's own ``~/.config/hookwise/policy.yaml``: a project policy would be read
  as untrusted until ``policy trust``): deny, ask in a headless run, allow, rewrite,
  context, and the failure path (a validator that outlives its own timeout: hookwise
  answers with a deny in the host's JSON before the host's timeout, which install wrote
  above every wait of hookwise). Each is judged by what ran (the marker files), what the
  model read (the requests the fake model received) and the audit log; for Qwen Code also
  by ``hookwise coverage``, which reads Qwen's own record of the call against that log.

What each CLI did, observed with Copilot CLI 1.0.102 and Qwen Code 0.24.4:

* deny: the command does not run; Copilot shows the model "Denied by preToolUse hook:
  <reason>", Qwen the bare reason;
* ask: headless, nobody to confirm: both deny, the reason reaches the model;
* allow: Copilot grants the permission outright (the run has no ``--allow-all-tools``);
  Qwen runs it (``--yolo``);
* rewrite: Copilot runs the rewritten command; Qwen cannot rewrite, so hookwise denies
  (running the original would break the rule) and says why;
* context: Copilot passes ``additionalContext`` to the model; Qwen drops it on PreToolUse,
  so the context rule is given on the prompt event, whose context Qwen passes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.protocol.hosts import hosts_with
from tests.e2e import clis, host_matrix
from tests.e2e.observe import find_segment, is_turn_request
from tests.e2e.record import load_fixtures, stable_view
from tests.e2e.runner import run_cell
from tests.e2e.test_policy_install import (
    _diagnostics,
    audit_records,
    hookwise,
    run_cli,
    user_env,
)

TOKEN = "POLICY-HOSTS"
DENY = f"""\
version: 1
rules:
  - id: no-marker
    match: {{tool: shell, command: {{program: [echo]}}}}
    action: deny
    reason: "{TOKEN}-DENY: writing the marker is not allowed here"
"""
ASK = f"""\
version: 1
rules:
  - id: ask-marker
    match: {{tool: shell, command: {{program: [echo]}}}}
    action: ask
    reason: "{TOKEN}-ASK: a person should confirm the marker"
"""
ALLOW = """\
version: 1
rules:
  - id: allow-echo
    match: {tool: shell, command: {program: [echo]}}
    action: allow
    reason: "echo is harmless"
"""
REWRITE = """\
version: 1
rules:
  - id: redirect-marker
    match: {tool: shell, command: {program: [echo]}}
    action: rewrite
    rewrite:
      replace: [{arg: command, find: "> marker", with: "> marker-rewritten"}]
"""
CONTEXT = f"""\
version: 1
rules:
  - id: marker-context
    match: {{tool: shell}}
    action: context
    context: "{TOKEN}-CONTEXT: the marker directory is scratch space"
  - id: prompt-context
    match: {{prompt: marker}}
    action: context
    context: "{TOKEN}-CONTEXT: the marker directory is scratch space"
"""
# the validator sleeps past its own timeout; install writes the hook's timeout above it
SLOW = f"""\
version: 1
rules:
  - id: slow-check
    match: {{tool: shell}}
    action: validate
    reason: "{TOKEN}-SLOW: the check did not finish"
    validator: {{command: "sleep 30", timeout: 3}}
"""
SCENARIOS = {
    "deny": DENY,
    "ask": ASK,
    "allow": ALLOW,
    "rewrite": REWRITE,
    "context": CONTEXT,
    "slow-validator": SLOW,
}


def _needs(cli: str) -> None:
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem(cli)
    assert problem is None, problem


@pytest.mark.e2e
@pytest.mark.parametrize(
    "cli,cell",
    [(cli, cell) for cli in host_matrix.HOST_CLIS for cell in host_matrix.sample(cli)],
    ids=lambda v: v if isinstance(v, str) else v.id,
)
def test_live_sample_gives_its_fixture(cli: str, cell: Any) -> None:
    _needs(cli)
    known = load_fixtures(cli).get(cell.id)
    assert known is not None, f"no fixture for {cli} {cell.id}: python -m tests.e2e.record"
    record = run_cell(cli, cell)
    assert record["cli_version"] == clis.pinned_versions()[cli]
    assert stable_view(record) == stable_view(known), json.dumps(record["observed"], indent=1)


def _session(cli: str, root: Path, policy: str, *, allow_all: bool) -> clis.Layout:
    """A fresh HOME and project with the user's policy, hookwise installed in the project."""
    _needs(cli)
    layout = clis.Layout(root)
    layout.create()
    argv = clis.prepare_chat_cli(cli, layout)
    if not allow_all and cli == "copilot":  # only the hook can grant the shell tool
        argv.remove("--allow-all-tools")
    (root / "argv.json").write_text(json.dumps(argv), encoding="utf-8")
    user_policy = layout.home / ".config" / "hookwise" / "policy.yaml"
    user_policy.parent.mkdir(parents=True)
    user_policy.write_text(policy, encoding="utf-8")
    env = user_env(cli, layout)
    done = hookwise(
        ["install", cli, "--scope", "project", "--project", str(layout.proj)], env, layout.proj
    )
    assert done.returncode == 0, done.stderr
    return layout


def _installed_timeout_s(cli: str, layout: clis.Layout) -> float:
    info_key = "timeoutSec" if cli == "copilot" else "timeout"
    path = {
        "copilot": layout.proj / ".github" / "hooks" / "hookwise.json",
        "qwen": layout.proj / ".qwen" / "settings.json",
    }[cli]
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    handlers = hooks.get("PreToolUse") or []
    handler = handlers[0]["hooks"][0] if "hooks" in handlers[0] else handlers[0]
    value = float(handler[info_key])
    return value / 1000.0 if cli == "qwen" else value


@pytest.mark.e2e
@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("cli", host_matrix.HOST_CLIS)
def test_policy_scenario_in_the_real_cli(cli: str, scenario: str, tmp_path: Path) -> None:
    layout = _session(cli, tmp_path, SCENARIOS[scenario], allow_all=scenario != "allow")
    result = run_cli(cli, tmp_path)
    turns = [r for r in result["requests"] if is_turn_request(cli, r)]
    why = _diagnostics(layout, result)
    assert not result["timed_out"], why
    assert len(turns) >= 2, f"the CLI did not go on after its tool call{why}"
    marker = (layout.proj / "marker").exists()
    rewritten = (layout.proj / "marker-rewritten").exists()
    decisions = [r.get("decision") for r in audit_records(layout) if r.get("event") == "PreToolUse"]
    after = turns[1:]

    if scenario == "deny":
        assert not marker, f"the denied command ran{why}"
        assert find_segment(after, f"{TOKEN}-DENY") is not None, f"no reason for the model{why}"
        assert decisions == ["deny"], why
    elif scenario == "ask":
        assert not marker, f"an ask ran headless, nobody having confirmed it{why}"
        assert find_segment(after, f"{TOKEN}-ASK") is not None, f"no reason for the model{why}"
        assert decisions == ["ask"], why
    elif scenario == "allow":
        assert marker, f"the allowed command did not run{why}"
        assert decisions == ["allow"], why
    elif scenario == "rewrite":
        assert not marker, f"the original command ran{why}"
        if cli == "copilot":
            assert rewritten, f"the rewritten command did not run{why}"
        else:  # Qwen Code cannot rewrite: hookwise denies and says why
            assert not rewritten, why
            reason = find_segment(after, "cannot rewrite")
            assert reason is not None, f"the model was not told why{why}"
    elif scenario == "context":
        assert marker, f"a context rule blocked the command{why}"
        assert find_segment(turns, f"{TOKEN}-CONTEXT") is not None, f"no context{why}"
    elif scenario == "slow-validator":
        assert not marker, f"the command ran although its check never finished{why}"
        assert find_segment(after, "timed out after 3 s") is not None, f"no reason{why}"
        records = [r for r in audit_records(layout) if r.get("event") == "PreToolUse"]
        assert [r.get("decision") for r in records] == ["deny"], why
        # hookwise answered well before the host would have given up on it
        latency_s = float(records[0]["latency_ms"]) / 1000.0
        assert latency_s < _installed_timeout_s(cli, layout) - 5, (latency_s, why)
    if cli in hosts_with("coverage"):
        # the host's own record of the call against the audit log: every call decided
        done = hookwise(["coverage", "--host", cli], user_env(cli, layout), layout.proj)
        assert done.returncode == 0, f"{done.stdout}{done.stderr}{why}"
        assert "1 tool call in 1 session: all guarded" in done.stdout, done.stdout
