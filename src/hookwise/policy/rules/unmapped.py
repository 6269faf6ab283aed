"""A tool the host tables do not map (an MCP tool under any host's naming), taking files.

Its name does not say whether it reads or writes the files its arguments name (a path, or
a URI: ``canonical.uri_files``), so a ``tool: read``, ``write`` or ``edit`` rule that would
hold for it as that tool makes the call unverifiable, as the MCP proxy decides such a tool
(``integrations.gate._unmapped_file``; red team s26 F7, s29 F6). Loaded only for such a call.
"""

from __future__ import annotations

from hookwise.policy.arg_roles import named_paths
from hookwise.policy.canonical import Event, tool_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FILE_TOOLS", "WHY", "file_tool_readings", "why"]

FILE_TOOLS = ("read", "write", "edit")
# how the reason starts (rules/maybe.unverifiable_for picks its advice by it)
WHY = "is no tool the host tables map"


def file_tool_readings(ev: Event) -> list[Event]:
    """``ev`` as each file tool it could be, deciding on the files it names (its paths, and
    an MCP tool's every path-like value at any depth under keys no role lists, as the proxy
    reads such a tool: ``arg_roles.named_paths``, red team s29 F8); none when it names
    none. (A host's own tools are the host's: their text is no MCP server's arguments.)"""
    files = [ref.absolute for ref in ev.paths if ref.absolute is not None]
    home = ev.env.get("HOME") or ""
    nested = ev.mcp is not None or (ev.host_tool or "").startswith("mcp_")
    for value in named_paths(ev.tool or "", ev.raw_input) if nested else ():
        found = tool_paths(value, ev.cwd, home)[0].absolute
        if found is not None:
            files.append(found)
    if not files:
        return []
    args: dict[str, Any] = {"file_paths": list(dict.fromkeys(files))}
    return [
        Event(ev.name, ev.host, ev.host_event, ev.payload, host_tool=ev.host_tool,
              raw_input=args, prompt=ev.prompt, response=ev.response, env=ev.env,
              now=ev.now, tool=tool)
        for tool in FILE_TOOLS
    ]  # fmt: skip


def why(ev: Event, reading: Event) -> str:
    """The reason a rule holding for ``reading`` leaves ``ev`` unverifiable."""
    does = "reads" if reading.tool == "read" else "writes"
    shown = ", ".join(reading.files[:3]) + (" ..." if len(reading.files) > 3 else "")
    return f"{ev.host_tool} {WHY}; if it {does} {shown}, the rule holds"
