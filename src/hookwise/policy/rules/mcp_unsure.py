"""An MCP tool whose name does not say its server: the rules that read the server or the
tool, under each reading of the name.

Gemini CLI names server S's tool T ``mcp_S_T`` and sends ``mcp_context`` (the server and the
tool) only when it finds the server's settings. Without it the hook reads the name as
Gemini's policy engine does (the server up to the first ``_``: canonical.mcp_readings), but
``mcp_my_fs_write_file`` may as well be ``my_fs``'s ``write_file``: a guarding rule that
holds for another reading (``mcp: {server: my_fs}``) makes the call unverifiable, not
allowed. A name Gemini cut past 63 characters (``...``) stands for no server and tool at
all: every guarding rule that reads them makes the call unverifiable. Loaded only for such
a name.
"""

from __future__ import annotations

from hookwise.policy.canonical import CUT_MARK, Event, mcp_readings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["WHY", "mcp_unsure"]

# how each reason starts (rules/maybe.unverifiable_for picks its advice by it)
WHY = "Gemini CLI sent no mcp_context"


def _reads_mcp(rule: dict[str, Any]) -> bool:
    """Whether ``rule`` reads an MCP tool's server or tool (a matcher or a condition)."""
    conditions = str(rule.get("when_src", ""))
    return "mcp" in rule["m"] or "mcp_server" in conditions or "mcp_tool" in conditions


def mcp_unsure(
    rules: list[dict[str, Any]],
    ev: Event,
    skip: set[int],
    guarding: Callable[[dict[str, Any]], bool],
    match: Callable[[dict[str, Any], Event], bool],
) -> list[tuple[int, Event, list[str]]]:
    """(position, ``ev``, why) of each guarding rule (``guarding``) not in ``skip`` that
    holds for another reading of ``ev``'s name, or, for a cut name, reads the server or
    the tool; none when the name says its server (``mcp__S__T``, an ``mcp_context``)."""
    host_tool = ev.host_tool or ""
    if not host_tool.startswith("mcp_") or host_tool.startswith("mcp__"):
        return []
    if isinstance(ev.payload.get("mcp_context"), dict):
        return []
    found: list[tuple[int, Event, list[str]]] = []
    if CUT_MARK in host_tool:
        why = (
            f"{WHY}, and it cut the name {host_tool!r} past 63 characters: its MCP server "
            "and tool cannot be told, and the rule reads them"
        )
        for position, rule in enumerate(rules):
            if position not in skip and guarding(rule) and _reads_mcp(rule):
                found.append((position, ev, [why]))
        return found
    taken = set(skip)
    for server, tool in mcp_readings(host_tool, ev.payload)[1:]:
        other = ev.as_mcp((server, tool))
        for position, rule in enumerate(rules):
            if position in taken or not guarding(rule) or not _reads_mcp(rule):
                continue
            if match(rule, other):
                taken.add(position)
                why = (
                    f"{WHY}, so {host_tool!r} may be tool {tool!r} of MCP server {server!r}, "
                    "and then the rule holds"
                )
                found.append((position, ev, [why]))
    return found
