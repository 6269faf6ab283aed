"""Whether the rules read every argument a tool could act on.

Rules decide on the keys the engine reads (``command``, ``file_path``, ``path``...), and
the engine takes one key per role (a canonical key wins over its aliases). A tool reads the
key its schema names and commonly drops the others (pydantic ignores extra keys, zod strips
them), so ``{"command": "true", "cmd": "rm -rf ~"}`` is decided on ``true`` and runs the
``rm``. A call is therefore unverifiable when two keys carry one role, or when a key looks
like a command or a path under a spelling no rule reads (``FilePath``, ``source``,
``commandLine``): the decision would be about a value the tool may never use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hookwise.integrations.tools import COMMAND_KEYS, MOVE_PATH_KEYS, PATH_ALIASES
from hookwise.policy import canonical

# role -> the spellings (lower case, "_" and "-" dropped) a tool may use for it
_ROLES: Final[Mapping[str, frozenset[str]]] = {
    "command": frozenset(
        [
            "command",
            "cmd",
            "script",
            "commands",
            "cmdline",
            "commandline",
            "shellcommand",
            "shell",
            "bash",
            "code",
            "program",
            "argv",
            "exec",
            "expression",
            "js",
            "python",
            "javascript",
            "sourcecode",
            "snippet",
            "statement",
            "query",
        ]
    ),
    "file": frozenset(
        [
            "filepath",
            "file",
            "filename",
            "absolutepath",
            "notebookpath",
            "fullpath",
            "targetfile",
            "pathname",
            # where a tool writes its result: read by no rule, so unverifiable on a file tool
            "out",
            "output",
            "outfile",
            "outputfile",
            "outputpath",
            "savepath",
            "saveto",
        ]
    ),
    "directory": frozenset(
        [
            "path",
            "dirpath",
            "directory",
            "dir",
            "folder",
            "dirname",
            "workdir",
            "cwd",
            "workingdirectory",
            "root",
        ]
    ),
    "paths": frozenset(["paths", "filepaths", "files", "filenames"]),
    "move": frozenset(
        [
            "source",
            "destination",
            "src",
            "dest",
            "from",
            "to",
            "target",
            "oldpath",
            "newpath",
            "sourcepath",
            "destinationpath",
            "targetpath",
            "frompath",
            "topath",
            "dst",
            "dstpath",
            "destpath",
            "srcpath",
            "newname",
            "oldname",
        ]
    ),
}
# a key no role lists but whose name says it holds a path (``dest_file``, ``target_dir``,
# ``log_location``): on a file tool, a path-like value under it is unverifiable, not ignored
_PATH_WORDS: Final = ("path", "file", "dir", "folder", "dest", "dst", "target", "src",
                      "source", "output", "location")  # fmt: skip
_FILE_TOOLS: Final = frozenset(["write", "edit", "read", "ls", "glob", "grep", "notebook_edit"])
# keys "query" and "root" are common outside commands/paths: only a shell tool's "query"
# or a file tool's "root" would be unread there, so they count only for those tools
_ONLY_FOR: Final[Mapping[str, frozenset[str]]] = {
    "query": frozenset([canonical.SHELL]),
    "root": frozenset(["write", "edit", "read", "ls", "glob", "grep", canonical.SHELL]),
}

# exact spellings the engine reads, per role (canonical.ARG_ALIASES, PATH_ALIASES, the
# shell tool's COMMAND_KEYS, Event.shell_cwd's keys)
_READ: Final[Mapping[str, frozenset[str]]] = {
    "command": frozenset(COMMAND_KEYS),
    "file": frozenset(
        [
            "file_path",
            *(a for a, c in canonical.ARG_ALIASES.items() if c == "file_path"),
            *PATH_ALIASES,
        ]
    ),
    "directory": frozenset(
        ["path", "workdir", "cwd", *(a for a, c in canonical.ARG_ALIASES.items() if c == "path")]
    ),
    "paths": frozenset(canonical.PATH_LIST_KEYS),
    "move": frozenset(MOVE_PATH_KEYS),
}


# every key the engine reads as a path (canonical ones: what the Gate maps to)
_READ_ANY: Final = frozenset(
    [
        *_READ["file"],
        *_READ["directory"],
        *_READ["paths"],
        *_READ["move"],
        "edits",
        *canonical.ARG_ALIASES,
    ]
)

_SHOWN: Final[Mapping[str, str]] = {
    "command": "command",
    "file": "file path",
    "directory": "directory",
    "paths": "path list",
    "move": "source or destination path",
}


def _norm(key: str) -> str:
    return key.strip().lower().replace("_", "").replace("-", "")


def role(key: str, tool: str) -> str | None:
    """The role ``key`` plays (command, file, directory, paths, move) or None."""
    name = _norm(key)
    only = _ONLY_FOR.get(name)
    if only is not None and tool not in only:
        return None
    for found, names in _ROLES.items():
        if name in names:
            return found
    return None


def _read_by_engine(key: str, found: str, tool: str, moves: bool) -> bool:
    if found == "command":
        return tool == canonical.SHELL and key in COMMAND_KEYS
    if found == "move":
        return moves and key in MOVE_PATH_KEYS
    if found == "paths" and moves:
        return False  # a move's paths go under file_paths: one given as well is a second
    if found == "directory" and tool != canonical.SHELL and key in ("workdir", "cwd"):
        return False  # only a shell tool's working directory is read
    return key in _READ[found]


def _looks_like_path(value: Any) -> bool:
    """A value a file system would take: a tool the table does not map may use ``to`` or
    ``target`` for a mail address or a deploy stage, which is no path."""
    if isinstance(value, list):
        return any(_looks_like_path(v) for v in value)
    if not isinstance(value, str) or not value or "@" in value or "\n" in value:
        return False
    return (
        "/" in value
        or "\\" in value
        or value.startswith((".", "~", "$"))
        or (" " not in value and "." in value.strip("."))
    )


def _unlisted_path(key: str, tool: str, value: Any) -> bool:
    """A path-like value under a key that names a path no role lists, on a file tool."""
    if tool not in _FILE_TOOLS or key in _READ_ANY:
        return False
    name = _norm(key)
    return any(word in name for word in _PATH_WORDS) and _looks_like_path(value)


def unaccounted(
    tool: str, args: Mapping[str, Any], *, mapped: bool = True, moves: bool = False
) -> str | None:
    """Why the rules cannot account for ``args`` of canonical ``tool`` (None: they can).

    ``mapped``: the name table knows the tool. One it does not know may take a command the
    engine does not read at all (the Gate's ``unverifiable`` check, not here); its path
    keys count only when the value looks like a path. ``moves``: the tool moves, copies or
    renames (``tools.MOVE_TOOLS``), so its source and destination keys are read.
    """
    seen: dict[str, list[str]] = {}
    for raw in args:
        key = str(raw)
        found = role(key, tool)
        if found is None:
            if mapped and _unlisted_path(key, tool, args[raw]):
                return (
                    f"its argument {key!r} looks like a path, but no rule reads it under "
                    "that name, so the decision could be about another file than the one "
                    "the tool uses"
                )
            continue
        if not mapped and found != "command" and not _looks_like_path(args[raw]):
            continue
        if found == "command" and tool != canonical.SHELL:
            continue  # the Gate's unmapped check (or not a command for this tool)
        if not _read_by_engine(key, found, tool, moves):
            return (
                f"its argument {key!r} looks like a {_SHOWN[found]}, but no rule reads "
                "it under that name, so the decision could be about another value than "
                "the one the tool uses"
            )
        value = args[raw]
        want_list = found == "paths" or (found == "command" and isinstance(value, list))
        if not (isinstance(value, str) or (want_list and isinstance(value, list))):
            return f"its argument {key!r} is a {type(value).__name__}, not a string"
        if found == "move":
            continue  # source and destination are both read
        seen.setdefault(found, []).append(key)
    for found, keys in seen.items():
        if len(keys) > 1 and found != "paths":
            return (
                f"it carries {len(keys)} {_SHOWN[found]} arguments ({', '.join(map(repr, keys))}); "
                "the rules read one, and the tool may use another"
            )
    return None
