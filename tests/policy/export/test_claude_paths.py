"""Claude Code's path entries (``Read(...)``, ``Edit(...)``), as the real 2.1.330 applies
them (tests/e2e/test_native_permissions_paths_live.py): they also refuse Bash commands naming
the path, so they are written only for a rule that covers shell commands too, and a rule
they are written for is never ``covered``."""

from __future__ import annotations

import pytest

from hookwise.policy.export.build import export_policy
from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text
from tests.policy.corpus_support import HOME, WORKSPACE

RULE = """\
version: 1
rules:
  - id: no-secret
    match: {{files: secret.txt{tools}}}
    action: deny
"""


def _export(tools: str) -> tuple[list[str], str]:
    compiled = compile_text(RULE.format(tools=tools))
    assert not compiled["errors"], compiled["errors"]
    report = export_policy(compiled, "claude")
    return [n.entry for n in report.natives], report.coverage[0].status


@pytest.mark.parametrize("tools", ["[read, grep, glob]", "[edit, write, notebook_edit]"])
def test_no_path_entry_for_a_rule_without_shell(tools: str) -> None:
    """``cat secret.txt`` is refused by Claude's Read entry: a rule that lets the shell
    read the file gets no entry (it would deny what the policy allows)."""
    entries, status = _export(f", tool: {tools}")
    assert entries == [] and status == "none"


def test_path_entries_for_a_rule_on_every_tool_are_partial() -> None:
    entries, status = _export("")
    assert "Read(//**/secret.txt)" in entries and "Edit(//**/secret.txt/**)" in entries
    assert status == "partial"
    with_shell = compile_text(RULE.format(tools=", tool: [read, grep, glob, shell]"))
    report = export_policy(with_shell, "claude")
    assert [n.entry for n in report.natives] == [
        "Read(//**/secret.txt)",
        "Read(//**/secret.txt/**)",
    ]
    assert report.coverage[0].status == "partial"


@pytest.mark.parametrize("command", ["cat secret.txt", "touch secret.txt", "cat sub/secret.txt"])
def test_the_bash_commands_claude_refuses_are_refused_by_the_policy(command: str) -> None:
    compiled = compile_text(RULE.format(tools=""))
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=WORKSPACE
    )
    outcome = decide(payload, compiled, "claude", {"HOME": HOME}, now=0.0, run_validators=False)
    assert outcome.decision is not None and outcome.decision.decision == "deny"
