"""Gemini CLI names an MCP tool by ``generateValidName`` (0.61.0: ``mcp_`` + server + ``_`` +
tool, characters outside ``[a-zA-Z0-9_.:-]`` made ``_``, over 63 characters cut to the first
30 + ``...`` + the last 30), and its engine matches a rule's ``mcp_<mcpName>_<toolName>``
against that name. The export wrote the tool's own name and counted the rule covered: a
native deny Gemini never applied (red team s28 F11)."""

from __future__ import annotations

import pytest

from hookwise.policy.export.build import export_policy
from hookwise.policy.export.gemini_engine import USER_TIER, parse_rules
from tests.policy.conftest import compile_text

LONG = "write_file_" + "x" * 60
# the names Gemini CLI 0.61.0 gave these tools (observed: red team s28 c05), by hand
CALLED = {
    LONG: "mcp_fs_write_file_xxxxxxxxxxxx..." + "x" * 30,
    "files/write": "mcp_fs_files_write",
    "write_file": "mcp_fs_write_file",
}


def _export(server: str, tool: str) -> tuple[str, str, list[str]]:
    text = f"version: 1\nrules:\n  - id: r\n    match: {{mcp: {{server: {server}, tool: '{tool}'}}}}\n    action: deny\n"
    compiled = compile_text(text)
    assert not compiled["errors"], compiled["errors"]
    report = export_policy(compiled, "gemini")
    (coverage,) = report.coverage
    return report.content, coverage.status, coverage.why


@pytest.mark.parametrize("tool", sorted(CALLED))
def test_the_exported_rule_matches_the_name_gemini_calls_the_tool(tool: str) -> None:
    text, status, _ = _export("fs", tool)
    assert status == "covered"
    rules = parse_rules(text, "hookwise.toml", USER_TIER)
    assert not isinstance(rules, str), rules
    assert CALLED[tool] in [rule.tool for rule in rules if rule.server == "fs"], rules


def test_a_cut_name_that_keeps_no_server_prefix_is_not_counted_covered() -> None:
    """A server name of 60 characters: the cut name no longer starts with
    ``mcp_<server>_``, so no ``mcpName`` rule can match it."""
    server = "s" * 60
    text, status, gaps = _export(server, "write_file")
    assert status == "none", (status, text)
    assert any("Gemini CLI calls the tool" in gap for gap in gaps), gaps
