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


@pytest.mark.parametrize(
    "tools",
    [
        "[read, grep, glob]",
        "[edit, write, notebook_edit]",
        # a Read entry also refuses Write and Edit of the file (red team s25 F2, observed
        # on 2.1.330: "File is covered by a Read deny rule ... cannot be edited")
        "[read, grep, glob, shell]",
    ],
)
def test_no_path_entry_for_a_rule_an_entry_would_widen(tools: str) -> None:
    """``cat secret.txt`` is refused by Claude's Read entry, and so are Write and Edit of
    it: a rule that lets any of those through gets no entry (it would deny what the policy
    allows)."""
    entries, status = _export(f", tool: {tools}")
    assert entries == [] and status == "none"


def test_path_entries_for_a_rule_on_every_tool_are_partial() -> None:
    entries, status = _export("")
    assert "Read(//**/secret.txt)" in entries and "Edit(//**/secret.txt/**)" in entries
    assert status == "partial"
    with_edits = compile_text(
        RULE.format(tools=", tool: [read, grep, glob, shell, edit, write, notebook_edit]")
    )
    report = export_policy(with_edits, "claude")
    assert "Read(//**/secret.txt)" in [n.entry for n in report.natives]
    assert report.coverage[0].status == "partial"
    # Claude matches path entries without case (F8): the coverage says so
    assert any("case" in why for why in report.coverage[0].why), report.coverage[0]


def _whole(rule: str) -> tuple[list[str], str]:
    compiled = compile_text(f"version: 1\nrules:\n  - id: r\n    match: {rule}\n    action: deny\n")
    assert not compiled["errors"], compiled["errors"]
    report = export_policy(compiled, "claude")
    return [n.entry for n in report.natives], report.coverage[0].status


def test_a_bare_read_entry_is_written_only_when_writes_and_edits_are_denied_too() -> None:
    """F2b: a bare ``Read`` entry refuses every Write and Edit on 2.1.330."""
    assert _whole("{tool: read}") == ([], "none")
    entries, status = _whole("{tool: [read, write, edit, notebook_edit]}")
    assert "Read" in entries and "Write" in entries and status == "covered"


def test_a_whole_server_entry_leaves_its_resources_to_the_hook() -> None:
    """F10: ``mcp__fs`` does not stop ReadMcpResourceTool on fs."""
    assert _whole("{mcp: {server: fs}}") == (["mcp__fs"], "partial")


def test_a_server_name_claude_splits_gets_no_entry() -> None:
    """F3: ``mcp__a__b`` is tool b of server a to Claude Code, not server a__b."""
    assert _whole("{mcp: {server: a__b}}") == ([], "none")


def test_every_subagent_tool_is_exported_for_a_task_rule() -> None:
    """F11: 2.1.330's Workflow starts subagents too."""
    entries, status = _whole("{tool: task}")
    assert {"Task", "Agent", "Workflow"} <= set(entries) and status == "covered"


def test_shell_rules_are_exported_for_powershell_too() -> None:
    """Red team s26 F6: a Bash entry does not hold for PowerShell (2.1.330 writes its own
    rules in pairs, ``Bash(x)`` and ``PowerShell(x)``)."""
    entries, status = _whole("{tool: shell}")
    assert {"Bash", "Monitor", "PowerShell"} <= set(entries) and status == "covered"
    entries, _ = _whole("{command: touch}")
    assert entries == ["Bash(touch:*)", "PowerShell(touch:*)"]


def test_a_task_rule_reaches_geminis_subagent_tool() -> None:
    """Red team s26 F9: Gemini CLI 0.61's ``invoke_agent``."""
    compiled = compile_text(
        "version: 1\nrules:\n  - id: r\n    match: {tool: task}\n    action: deny\n"
    )
    report = export_policy(compiled, "gemini")
    assert "invoke_agent" in " ".join(str(n.entry) for n in report.natives)
    assert report.coverage[0].status != "none"


@pytest.mark.parametrize("command", ["cat secret.txt", "touch secret.txt", "cat sub/secret.txt"])
def test_the_bash_commands_claude_refuses_are_refused_by_the_policy(command: str) -> None:
    compiled = compile_text(RULE.format(tools=""))
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=WORKSPACE
    )
    outcome = decide(payload, compiled, "claude", {"HOME": HOME}, now=0.0, run_validators=False)
    assert outcome.decision is not None and outcome.decision.decision == "deny"
