"""A tool call's arguments in the keys the rules read: one mapping for the framework bridges
and the MCP proxy (integrations) and the hook's MCP tools, which are mapped by their own
name as the proxy maps them (``canonical.mcp_tool``). Loaded by the hook only for such a
tool.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookwise.policy import canonical
from hookwise.policy.canonical import MOVE_PATH_KEYS

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing imports os: the hook's path leaves it out)
    from typing import Any, Final

__all__ = ["COMMAND_KEYS", "PATH_ALIASES", "MappedInput", "canonical_input", "command_value",
           "mcp_call", "mcp_mapping", "shell_command"]  # fmt: skip

# Argument keys that hold a shell tool's command line, in the order they are tried.
COMMAND_KEYS: Final = ("command", "cmd", "script")

# A path argument under a name the canonical aliases do not cover -> ``file_path``.
PATH_ALIASES: Final[Mapping[str, str]] = {"filename": "file_path", "file": "file_path"}

_NOT_COMMANDS: Final = frozenset(
    [*canonical.PATH_KEYS, *canonical.PATH_LIST_KEYS, *PATH_ALIASES, "workdir", "cwd"]
)


def command_value(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return canonical.shell_join(list(value))
    return None


def shell_command(args: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(key, command line) of a shell tool's arguments, or (None, None).

    The usual keys first (a list is joined shell-quoted); else the only argument, when
    the tool takes exactly one string (``run(line: str)``).
    """
    for key in COMMAND_KEYS:
        command = command_value(args.get(key))
        if command is not None:
            return key, command
    if len(args) == 1:
        key, value = next(iter(args.items()))
        if canonical.ARG_ALIASES.get(str(key), str(key)) in _NOT_COMMANDS:
            return None, None  # a path is read as a path, not run
        command = command_value(value)
        if command is not None:
            return str(key), command
    return None, None


class MappedInput:
    """A framework call's arguments as the rules read them, and how to map back."""

    __slots__ = ("added", "args", "complete", "renamed")

    def __init__(
        self,
        args: dict[str, Any],
        renamed: dict[str, str],
        complete: bool,
        added: frozenset[str] = frozenset(),
    ) -> None:
        self.args = args  # the input the events carry
        self.renamed = renamed  # canonical key -> the framework's key
        self.complete = complete  # False: a shell tool whose command was not found
        self.added = added  # keys put in for the rules only (a move's paths): never sent

    def back(self, original: Mapping[str, Any], rewritten: Mapping[str, Any]) -> dict[str, Any]:
        """A rewrite of :attr:`args`, in the framework's (an MCP server's) own keys, other
        keys kept: a command the tool took as a list stays a list (the rules read it
        joined), so the tool gets the argument in the shape its schema asks for."""
        out = dict(original)
        for key, value in rewritten.items():
            if key in self.added:
                continue
            own = self.renamed.get(key, key)
            if isinstance(original.get(own), list) and isinstance(value, str):
                import shlex  # (only for a rewritten command that was a list)

                out[own] = shlex.split(value)
            else:
                out[own] = value
        return out


def canonical_input(tool: str, args: Mapping[str, Any], *, moves: bool = False) -> MappedInput:
    """``args`` of a call to canonical ``tool`` with the keys rules expect.

    The shell tool's command is under ``command`` whatever the framework called it, and a
    path under ``filename``/``file`` is a ``file_path``; other keys are kept (the engine
    normalises ``filePath``, ``cmd``... itself). A tool that ``moves`` files has its
    source and destination under ``file_paths`` too, so every ``files`` rule sees both.
    """
    out = dict(args)
    renamed: dict[str, str] = {}
    if tool == canonical.SHELL:
        key, command = shell_command(args)
        if key is None or command is None:
            return MappedInput(out, renamed, False)
        if key != "command" or not isinstance(args.get(key), str):
            out.pop(key, None)
            out["command"] = command
            renamed["command"] = key
    for alias, target in PATH_ALIASES.items():  # a shell tool's file argument too
        if alias in out and target not in out and isinstance(out[alias], str):
            out[target] = out.pop(alias)
            renamed[target] = alias
    if moves and "file_paths" not in out:
        both = [v for k in MOVE_PATH_KEYS if isinstance(v := args.get(k), str) and v]
        if both:
            out["file_paths"] = both
            return MappedInput(out, renamed, True, frozenset(["file_paths"]))
    return MappedInput(out, renamed, True)


def mcp_mapping(
    host_tool: str, payload: dict[str, Any], args: Mapping[str, Any]
) -> tuple[str, MappedInput] | None:
    """(canonical tool, mapped arguments) of an MCP tool as a host's hook sees it, mapped
    by its own name (:func:`canonical.mcp_tool`) with the mapping the MCP proxy's Gate
    applies (:func:`canonical_input`); one the table does not map keeps its own name (its
    keys mapped all the same); None for a name that is no MCP tool's. The hook
    then decides ``mcp__fs__read_file`` as the proxy decides ``read_file``, and a rewrite
    goes back to the server's own keys (:meth:`MappedInput.back`)."""
    tool = canonical.mcp_tool(host_tool, payload)
    if tool is None:
        if not host_tool.startswith("mcp_"):
            return None
        # a tool the table does not map keeps its name; its keys read as the proxy's Gate
        # reads any tool's (``{"file": ...}`` is a ``file_path``)
        return host_tool, canonical_input(host_tool, args)
    moves = tool in ("write", "edit") and canonical.moves_files(host_tool)
    return tool, canonical_input(tool, args, moves=moves)


def mcp_call(
    host_tool: str, payload: dict[str, Any], args: dict[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    """(tool, arguments in the keys the rules read): :func:`mcp_mapping`."""
    found = mcp_mapping(host_tool, payload, args)
    return None if found is None else (found[0], found[1].args)
