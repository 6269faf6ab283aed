"""hookwise's plugin in the real OpenCode 1.18.33 and Kilo 7.7.9, installed by `hookwise install`.

Each case: a fresh HOME and project (plugin_hosts.prepare), a policy, `hookwise policy trust`
and `hookwise install HOST` as a user runs them, then the real host offline against the
fake model, whose script is a few ``bash`` calls. Judged by what ran (files in the project),
what the model read (the tool results of its last request) and the audit log:

* deny-ask-allow: ``echo hi > marker`` is denied (no marker; the rule's reason is the tool
  result), ``rm -f absent`` hits an ``ask`` rule, which the plugin hosts cannot ask, so
  ask_fallback (deny) answers with the reason, and ``touch allowed`` runs;
* rewrite: ``touch marker`` runs as ``touch marker-rewritten`` (the plugin replaced the args);
* missing: the launcher is gone and hookwise is not on the host's PATH (a teammate's
  machine): the call is blocked and the model reads "hookwise is not installed".

Six host runs: 206-301 s with ``-n 2`` on the loaded two-core machine (2026-11-27).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis, plugin_hosts

HOOKWISE = Path(sys.executable).parent / "hookwise"
DENY = "POLICY-PLUGIN-DENY"
ASK = "POLICY-PLUGIN-ASK"

POLICY = f"""\
version: 1
rules:
  - id: no-echo
    match: {{tool: shell, command: {{program: [echo]}}}}
    action: deny
    reason: "{DENY}: writing the marker is not allowed here"
  - id: ask-rm
    match: {{tool: shell, command: {{program: [rm]}}}}
    action: ask
    reason: "{ASK}: removing files needs a person"
  - id: redirect-marker
    match: {{tool: shell, command: {{program: [touch]}}}}
    action: rewrite
    rewrite:
      replace: [{{arg: command, find: "touch marker", with: "touch marker-rewritten"}}]
"""
CASES = {
    "deny-ask-allow": ["echo hi > marker", "rm -f absent", "touch allowed"],
    "rewrite": ["touch marker"],
    "missing": ["touch marker"],
}


def hookwise(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(HOOKWISE), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def audit(layout: clis.Layout) -> list[dict[str, Any]]:
    path = layout.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("host", plugin_hosts.HOSTS)
def test_the_plugin_in_the_real_host(host: str, case: str, tmp_path: Path) -> None:
    reason = plugin_hosts.skip_reason(host)
    if reason:
        pytest.skip(reason)
    problem = plugin_hosts.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    plugin_hosts.prepare(host, layout)
    policy = layout.proj / ".hookwise" / "policy.yaml"
    policy.parent.mkdir()
    policy.write_text(POLICY, encoding="utf-8")
    env = {**plugin_hosts.environment(host, layout), "PATH": os.environ["PATH"]}
    for args in (["policy", "trust"], ["install", host]):
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, (args, done.stderr)
    plugin = layout.proj / (".kilo" if host == "kilo" else ".opencode") / "plugins" / "hookwise.js"
    assert plugin.is_file()
    assert "installs @" in done.stderr  # the plugin-package wait, said at install
    if case == "missing":
        (layout.home / ".local" / "share" / "hookwise" / "hook").unlink()

    result = plugin_hosts.run_host(host, tmp_path, CASES[case])
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    why = (
        f"\n  {json.dumps({k: v for k, v in result.items() if k != 'requests'})}\n{stderr[-2000:]}"
    )
    assert not result["timed_out"], why
    seen = plugin_hosts.tool_messages(result["requests"])
    why += f"\n  tool results: {seen}"
    proj = layout.proj
    if case == "deny-ask-allow":
        assert not (proj / "marker").exists(), f"the denied command ran{why}"
        assert (proj / "allowed").exists(), f"the allowed command did not run{why}"
        assert len(seen) == 3, why
        assert seen[0].startswith(DENY) and "not allowed here" in seen[0], why
        assert ASK in seen[1] and "confirmation" in seen[1], why
        decisions = [(r["host"], r["decision"], r["tool"]) for r in audit(layout)]
        expected = [(host, "deny", "shell"), (host, "ask", "shell"), (host, "none", "shell")]
        assert decisions == expected, why
    elif case == "rewrite":
        assert (proj / "marker-rewritten").exists(), f"the rewritten command did not run{why}"
        assert not (proj / "marker").exists(), f"the original command ran{why}"
        records = audit(layout)
        assert [r["decision"] for r in records] == ["allow"], why
        assert records[0]["updated_input"]["command"] == "touch marker-rewritten", why
    else:
        assert not (proj / "marker").exists(), f"the tool ran without hookwise{why}"
        assert seen and "hookwise is not installed" in seen[0], why
