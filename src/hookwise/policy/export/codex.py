"""Codex's exec policy (0.169.0): ``prefix_rule`` calls in a Starlark ``.rules`` file under
``~/.codex/rules``, loaded at start.

Facts of its matcher (docs/execpolicy.md, ``codex execpolicy check``): a rule holds when
its pattern is a prefix of the command's argv, token by token; a ``bash -lc`` script
Codex can parse is split into its commands, each checked; the strictest decision wins
(``forbidden`` > ``prompt`` > ``allow``). Rules speak of commands only: file tools and
``apply_patch`` have no rule here.

An MCP tool is switched off in its server's entry of ``config.toml``: ``disabled_tools`` of
``[mcp_servers.NAME]``. Observed on 0.169.0 (tests/e2e/test_codex_mcp_tools_live.py,
fixtures/codex-mcp-tools.jsonl): the tool is not offered, a call of it is "unsupported call"
and never reaches the server. So a deny of a literal tool of a literal server is written
there (``install --native``: policy/install/codex_mcp_native.py, only into a server entry
the file has); an ask cannot be (Codex can only take the tool away), nor a whole server
(``enabled = false`` also takes away what the rule allows: its prompts).
"""

from __future__ import annotations

import json
import re

from hookwise.policy.export.model import Analysis, Intent, McpTool, Native, Prefix, header

HOST = "codex"  # the host whose permission rules this module writes
TARGET = "~/.codex/rules/hookwise.rules"
# a file hookwise owns whole (``install --native``), per scope: relative to the host's config
# directory (protocol.hosts.config_path) for "user"
FILES = {"user": "rules/hookwise.rules"}
_DECISION = {"deny": "forbidden", "ask": "prompt"}
# where the MCP entries go (relative to the config directory), beside the rules file
MCP_FILE = "config.toml"
_NAME = re.compile(r"[A-Za-z0-9_-]+")
MCP_ENTRY = re.compile(r'^mcp_servers\.([A-Za-z0-9_-]+)\.disabled_tools = \["([A-Za-z0-9_-]+)"\]$')


def mcp_entry(server: str, tool: str) -> str:
    """One MCP entry's text: the ``disabled_tools`` item it puts in the server's entry."""
    return f"mcp_servers.{server}.disabled_tools = {json.dumps([tool])}"


def _mcp(intent: McpTool, analysis: Analysis) -> tuple[list[str], str | None]:
    if analysis.decision != "deny":
        return [], "Codex can take an MCP tool away (disabled_tools), not ask before it runs"
    if intent.tool is None:
        return [], (
            "a whole MCP server: Codex's `enabled = false` would also take away what the rule "
            "allows (its prompts); its tools are left to the hook and the MCP proxy"
        )
    if not (_NAME.fullmatch(intent.server) and _NAME.fullmatch(intent.tool)):
        return [], "disabled_tools names literal tools of a literal server"
    return [mcp_entry(intent.server, intent.tool)], None


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    if isinstance(intent, McpTool):
        return _mcp(intent, analysis)
    if not isinstance(intent, Prefix):
        return [], "Codex's rules cover shell commands and MCP tools only"
    fields = [
        f"    pattern = {json.dumps(list(intent.words), ensure_ascii=False)},",
        f"    decision = {json.dumps(_DECISION[analysis.decision])},",
    ]
    if analysis.reason:
        fields.append(f"    justification = {json.dumps(analysis.reason, ensure_ascii=False)},")
    return ["prefix_rule(\n" + "\n".join(fields) + "\n)"], None


def gaps(analysis: Analysis) -> list[str]:
    return []


def render(natives: list[Native]) -> str:
    """The rules file: the command rules (the MCP entries go into ``MCP_FILE``)."""
    out = [header("codex", "#")]
    for native in natives:
        if isinstance(native.intent, McpTool):
            continue
        out.append(f"\n# {native.rule}\n{native.entry}\n")
    return "".join(out)
