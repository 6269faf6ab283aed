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

# (the table lives in policy/canonical.py, which the hook reads without this layer)
DEFAULT_TOOL_NAMES: Final[Mapping[str, str]] = canonical.DEFAULT_TOOL_NAMES

# Argument keys that hold a shell tool's command line, in the order they are tried.
COMMAND_KEYS: Final = ("command", "cmd", "script")
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

# A path argument under a name the canonical aliases do not cover -> ``file_path``.
PATH_ALIASES: Final[Mapping[str, str]] = {"filename": "file_path", "file": "file_path"}


_SEEN_LIMIT = 1024
_NOT_COMMANDS: Final = frozenset(
    [*canonical.PATH_KEYS, *canonical.PATH_LIST_KEYS, *PATH_ALIASES, "workdir", "cwd"]
)


_key = canonical.tool_key
moves_files = canonical.moves_files


class ToolNames:
    """The mapping of one Gate: the defaults, then the agent's own entries."""

    __slots__ = ("_seen", "_table")

    def __init__(self, overrides: Mapping[str, str] | None = None) -> None:
        table = {_key(k): v for k, v in DEFAULT_TOOL_NAMES.items()}
        for name, target in (overrides or {}).items():
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"tool_names: a tool name must be a non-empty string: {name!r}")
            if not isinstance(target, str) or not target.strip():
                raise ValueError(
                    f"tool_names[{name!r}]: expected a canonical tool name such as "
                    f"{', '.join(sorted(canonical.CANONICAL_TOOLS))}; got {target!r}"
                )
            table[_key(name)] = target.strip()
        self._table = table
        self._seen: dict[str, str] = {}  # names looked up already (an agent has a few)

    def canonical(self, tool: str) -> str:
        """The canonical name of a framework tool, or the tool's own name. An MCP tool
        (``mcp__<server>__<tool>``, the Claude Agent SDK's custom tools) not named in full
        is mapped by its own name: ``mcp__tools__run_shell`` is ``shell``."""
        found = self._seen.get(tool)
        if found is None:
            found = self._table.get(_key(tool))
            mcp = canonical.split_mcp(tool) if found is None else None
            if mcp is not None:
                found = self._table.get(_key(mcp[1]))
            if found is None:
                found = tool
            if len(self._seen) < _SEEN_LIMIT:  # names come from the model: bounded
                self._seen[tool] = found
        return found


def _command_value(value: Any) -> str | None:
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
        command = _command_value(args.get(key))
        if command is not None:
            return key, command
    if len(args) == 1:
        key, value = next(iter(args.items()))
        if canonical.ARG_ALIASES.get(str(key), str(key)) in _NOT_COMMANDS:
            return None, None  # a path is read as a path, not run
        command = _command_value(value)
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
        """A rewrite of :attr:`args`, in the framework's own keys (other keys kept)."""
        out = dict(original)
        for key, value in rewritten.items():
            if key not in self.added:
                out[self.renamed.get(key, key)] = value
        return out


def command_like(args: Mapping[str, Any]) -> str | None:
    """The key of an argument that looks like something to run (a command, a script, code,
    an argv), for a tool the table does not map; None when there is none."""
    for key, value in args.items():
        flat = _key(key).replace("_", "") if isinstance(key, str) else ""
        named = flat in COMMAND_LIKE_KEYS or flat in _COMMAND_NAMES
        if (named or any(w in flat for w in _COMMAND_WORDS)) and _command_value(value):
            return str(key)
    return None


# a key holding one of these words is something to run to a tool the table does not map
# (``bash_command``, ``commandText``, ``remote_command``, ``shellCmd``: red team s27 F12),
# as are these whole names (``tmux_send_keys {keys}``, ``container_exec {run}``)
_COMMAND_WORDS: Final = ("command", "cmd", "shell", "bash", "script", "exec")
_COMMAND_NAMES: Final = frozenset(["run", "line", "keys", "sendkeys", "cmdstr"])


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
