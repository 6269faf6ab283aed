"""``hookwise coverage`` on real sessions of the real CLIs (issue 17, item 3).

For each of Gemini CLI, Claude Code and Codex: ``hookwise install <cli>`` into a fresh
project (tests/e2e/test_policy_install.py's setup), then one offline run in which the fake
model makes two tool calls, the shell command and a file write (Claude Code ``Write``,
Codex ``apply_patch``, Gemini CLI ``write_file``; fake_model.py ``HOOKWISE_E2E_SECOND_TOOL``).

* complete: the registration is install's match-all ``"*"``; both calls reach hookwise and
  ``hookwise coverage`` reports nothing unguarded;
* gap: the pre-tool registration's matcher is narrowed to the shell tool (for Codex the
  edited hook is trusted again, as its ``/hooks`` would); the write runs without hookwise
  and coverage reports exactly that call, cause ``matcher-gap``, and ``hookwise doctor
  --coverage`` sums it up.

Codex offers ``apply_patch`` only to models it knows, so its runs name ``gpt-5.5`` (still
answered by the fake model). Claude Code in ``-p`` mode runs only allowed tools, so the
project's settings allow ``Write`` as well as ``Bash``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import SECOND_FILE, SECOND_TOOL_VARIABLE
from tests.e2e.test_policy_install import hookwise, run_cli, session, settings_file, user_env

POLICY = """\
version: 1
rules:
  - id: no-force-push
    match: {command: git push --force}
    action: deny
"""
WRITE_TOOL = {"claude": "Write", "codex": "apply_patch", "gemini": "write_file"}
SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}
PRE_TOOL = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
# Where a run's records and audit log are copied when this names a directory (fixtures).
KEEP_VARIABLE = "HOOKWISE_E2E_KEEP_COVERAGE"


def _narrow_matcher(cli: str, layout: clis.Layout, env: dict[str, str]) -> None:
    """The gap: hookwise's pre-tool registration matches only the shell tool."""
    target = settings_file(cli, layout.proj)
    settings = json.loads(target.read_text(encoding="utf-8"))
    groups = settings["hooks"][PRE_TOOL[cli]]
    assert [g.get("matcher") for g in groups] == ["*"], groups
    groups[0]["matcher"] = "^Bash$" if cli == "codex" else SHELL_TOOL[cli]
    target.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    if cli == "codex":  # the user reviews the edited hook in /hooks: its new hash is trusted
        from hookwise.config.jsonc import JsonDocument
        from hookwise.policy.install.codex_hook_trust import codex_trust_entries, edit_codex_trust
        from hookwise.policy.install.hooks_edit import find_hookwise

        found = find_hookwise(
            JsonDocument(target.read_text(encoding="utf-8"), str(target), jsonc=False)
        )
        config = layout.home / ".codex" / "config.toml"
        text = config.read_text(encoding="utf-8")
        edited = edit_codex_trust(text, str(config), codex_trust_entries(target, found), {})
        assert edited is not None
        config.write_text(edited, encoding="utf-8")


def _keep(cli: str, case: str, layout: clis.Layout) -> None:
    keep = os.environ.get(KEEP_VARIABLE)
    if not keep:
        return
    out = Path(keep) / f"{cli}-{case}"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(layout.root, out, symlinks=True, ignore=shutil.ignore_patterns("skills"))


def _coverage(cli: str, layout: clis.Layout, env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    done = hookwise(["coverage", "--host", cli, "--json"], env, layout.proj)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.e2e
@pytest.mark.parametrize("case", ["complete", "gap"])
@pytest.mark.parametrize("cli", ["gemini", "claude", "codex"])
def test_coverage_of_a_real_session(cli: str, case: str, tmp_path: Path) -> None:
    layout, policy = session(cli, tmp_path)
    policy.write_text(POLICY, encoding="utf-8")
    env = user_env(cli, layout)
    if cli == "claude":
        claude_settings = layout.proj / ".claude" / "settings.json"
        claude_settings.write_text(
            json.dumps({"permissions": {"allow": ["Bash", "Write"]}}), encoding="utf-8"
        )
    if cli == "codex":
        config = layout.home / ".codex" / "config.toml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace('model = "fake-model"', 'model = "gpt-5.5"'), "utf-8")
    done = hookwise(
        ["install", cli, "--scope", "project", "--project", str(layout.proj)], env, layout.proj
    )
    assert done.returncode == 0, done.stderr
    if case == "gap":
        _narrow_matcher(cli, layout, env)
    (tmp_path / "model-env.json").write_text(json.dumps({SECOND_TOOL_VARIABLE: "write"}), "utf-8")

    result = run_cli(cli, tmp_path)
    stderr = (layout.root / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")[-2000:]
    why = f"\n  exit {result['exit_code']} in {result['seconds']} s\n  cli stderr: {stderr}"
    assert not result["timed_out"], why
    assert (layout.proj / "marker").exists(), f"the shell call did not run{why}"
    assert (layout.proj / SECOND_FILE).exists(), f"the write call did not run{why}"
    _keep(cli, case, layout)

    code, report = _coverage(cli, layout, env)
    totals = report["hosts"][cli]
    assert totals["sessions"] == 1 and totals["calls"] == 2, json.dumps(report, indent=1)
    if case == "complete":
        assert code == 0 and report["unguarded"] == [], json.dumps(report, indent=1)
        assert totals["guarded"] == 2
        return
    assert code == 1
    assert [(u["tool"], u["cause"]) for u in report["unguarded"]] == [
        (WRITE_TOOL[cli], "matcher-gap")
    ], json.dumps(report, indent=1)
    gap = report["unguarded"][0]
    assert gap["session"] == report["sessions"][0]["session"]
    assert SECOND_FILE in json.dumps(gap["input"])
    assert totals["guarded"] == 1

    doctor = hookwise(
        ["doctor", "--host", cli, "--project", str(layout.proj), "--no-self-test", "--coverage"],
        env,
        layout.proj,
    )
    line = next(x for x in doctor.stdout.splitlines() if "coverage:" in x)
    assert "WARN" in line and "1 unguarded (matcher-gap 1)" in line, doctor.stdout
    assert "2 tool calls in 1 session" in line, doctor.stdout
