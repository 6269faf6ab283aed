"""The declared mapping from framework tool names to hookwise's canonical tools.

A framework's tools are named by whoever wrote the agent (``run_shell``, ``bash``,
``write_file``...). Rules are written against the canonical vocabulary of
:mod:`hookwise.policy.canonical` (``shell``, ``write``, ``edit``, ``read``, ``web_fetch``...),
so the bridges map the names through this one table. An agent overrides or extends it with
``Gate(tool_names={"my_tool": "shell"})``; a tool the table does not know keeps its own name
and stays matchable by rules (``tool: my_tool``).

The table also says which tool a Claude Code / Gemini CLI / Codex hook sees for a canonical
tool (``hooks_from``): the first name in that host's table of
the host registry's tool names (``protocol/hosts.py``), so a hook matching ``Bash`` guards a
framework's shell tool exactly as it guards Claude Code's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hookwise.policy import canonical
from hookwise.policy.arg_roles import RUN_NAMES, run_word
from hookwise.policy.tool_input import COMMAND_KEYS, command_value

# (the table lives in policy/canonical.py, which the hook reads without this layer)
DEFAULT_TOOL_NAMES: Final[Mapping[str, str]] = canonical.DEFAULT_TOOL_NAMES

# Keys under which a tool the table does not map takes something that looks run: such a
# call is unverifiable (``settings.unverifiable``), since no ``shell`` rule reads it.
# Compared with "_" and "-" dropped and lower case (``commandLine`` is ``commandline``).
COMMAND_LIKE_KEYS: Final = frozenset(
    [*COMMAND_KEYS, "commands", "cmdline", "commandline", "shellcommand", "shell", "bash",
     "code", "program", "argv", "args", "exec", "source", "sourcecode", "expression", "js",
     "javascript", "python", "snippet"]
)  # fmt: skip

# Tools that move, copy or rename a file and their path keys (canonical.MOVE_TOOLS: the
# hook reads an MCP tool of these names so too)
MOVE_TOOLS: Final = canonical.MOVE_TOOLS
MOVE_SOURCE_KEYS: Final = canonical.MOVE_SOURCE_KEYS
MOVE_PATH_KEYS: Final = canonical.MOVE_PATH_KEYS


_SEEN_LIMIT = 1024


_key = canonical.tool_key
moves_files = canonical.moves_files


class ToolNames:
    """The mapping of one Gate: the defaults, then the agent's own entries."""

    __slots__ = ("_seen", "_table")

    def __init__(self, overrides: Mapping[str, str] | None = None) -> None:
        table: dict[str, str] = {}
        for name, target in (overrides or {}).items():
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"tool_names: a tool name must be a non-empty string: {name!r}")
            if not isinstance(target, str) or not target.strip():
                raise ValueError(
                    f"tool_names[{name!r}]: expected a canonical tool name such as "
                    f"{', '.join(sorted(canonical.CANONICAL_TOOLS))}; got {target!r}"
                )
            table[_key(name)] = target.strip()
        self._table = table  # the agent's own entries; the defaults are canonical's
        self._seen: dict[str, str] = {}  # names looked up already (an agent has a few)

    def canonical(self, tool: str) -> str:
        """The canonical name of a framework tool, or the tool's own name. An MCP tool
        (``mcp__<server>__<tool>``, the Claude Agent SDK's custom tools) not named in full
        is mapped by its own name: ``mcp__tools__run_shell`` is ``shell``; the defaults as
        :func:`canonical.default_tool` reads them, as the hook maps a host's MCP tools."""
        found = self._seen.get(tool)
        if found is None:
            found = self._table.get(_key(tool))
            mcp = canonical.split_mcp(tool) if found is None else None
            if mcp is not None:
                found = self._table.get(_key(mcp[1]))
            if found is None:
                found = canonical.default_tool(tool)
            if len(self._seen) < _SEEN_LIMIT:  # names come from the model: bounded
                self._seen[tool] = found
        return found


def command_like(args: Mapping[str, Any]) -> str | None:
    """The key of an argument that looks like something to run (a command, a script, code,
    an argv), for a tool the table does not map; None when there is none."""
    for key, value in args.items():
        flat = _key(key).replace("_", "") if isinstance(key, str) else ""
        named = flat in COMMAND_LIKE_KEYS or flat in RUN_NAMES
        if (named or run_word(flat)) and command_value(value):
            return str(key)
    return None


def _host_names() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for host, table in canonical.host_tools().items():
        names: dict[str, str] = {}
        for name, tool in table.items():
            names.setdefault(tool, name)
        out[host] = names
    # Codex hooks see only Bash and apply_patch; view_image is not a file read
    out["codex"] = {k: v for k, v in out["codex"].items() if k in (canonical.SHELL, "edit")}
    return out


# host -> canonical tool -> the tool name that host's hooks see
HOOK_TOOL_NAMES: Final[Mapping[str, Mapping[str, str]]] = _host_names()


def hook_tool_name(host: str, tool: str) -> str:
    """The name a ``host`` hook sees for a canonical (or unmapped) tool."""
    return HOOK_TOOL_NAMES.get(host, {}).get(tool, tool)
