"""Whether the rules read every argument a tool could act on.

Rules decide on the keys the engine reads (``command``, ``file_path``, ``path``...), and
the engine takes one key per role (a canonical key wins over its aliases). A tool reads the
key its schema names and commonly drops the others (pydantic ignores extra keys, zod strips
them), so ``{"command": "true", "cmd": "rm -rf ~"}`` is decided on ``true`` and runs the
``rm``. A call is therefore unverifiable when two keys carry one role, or when a key looks
like a command or a path under a spelling no rule reads (``FilePath``, ``source``,
``commandLine``): the decision would be about a value the tool may never use.

Keys are compared as the most permissive server reads them: Go's ``encoding/json`` matches
a key to a field ignoring case under Unicode folding (``ſource`` is ``source``, ``K`` is
``k``), so a key that folds onto another spelling is ambiguous, and a command or path key
nested in an object argument is one a server may read too (``{"request": {"command": ...}}``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hookwise.policy import canonical
from hookwise.policy.canonical import MOVE_PATH_KEYS
from hookwise.policy.fastjson import decode
from hookwise.policy.tool_input import COMMAND_KEYS, PATH_ALIASES
from hookwise.policy.uri_paths import uri_paths

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing imports os: the hook's path leaves it out)
    from collections.abc import Iterator
    from typing import Any, Final

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
# tools that act on one file they must be told: one whose path is under no key a rule reads
# (``{"document": "/x/.env"}``, ``{"name": ".env"}``) is decided on no file (s26 F4)
_NAMES_A_FILE: Final = frozenset(["write", "edit", "read", "notebook_edit"])
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


def _nfkc(text: str) -> str:
    """``text`` under NFKC; ASCII is its own (``unicodedata``, an extension module found by
    searching ``sys.path``, is loaded only for a key that is not ASCII: the hook's path)."""
    if text.isascii():
        return text
    import unicodedata

    return unicodedata.normalize("NFKC", text)


def fold(key: str) -> str:
    """``key`` as a case-insensitive reader compares it (NFKC, full case folding), with
    ``_`` and ``-`` dropped."""
    return _nfkc(key).casefold().strip().replace("_", "").replace("-", "")


_norm = fold


def ambiguous(key: str) -> bool:
    """A key that some reader takes for another spelling: a character outside ASCII that
    folds or normalises to ASCII (``ſ`` -> ``s``, ``K`` -> ``k``, fullwidth letters)."""
    return any(
        not c.isascii() and any(f.isascii() for f in (_nfkc(c).casefold(), c.lower())) for c in key
    )


def reads_as(key: str) -> str:
    """``key`` as Go's ``encoding/json`` matches it to a field (Unicode case folding; NFKC
    too, stricter than Go): two keys reading alike are one field there."""
    return "".join(_nfkc(c).casefold() for c in key)


# a shell tool's arguments that change what its command does (shell_args.py reads them)
_ARGV: Final = frozenset(["args", "arguments", "arglist", "argslist", "commandargs", "cmdargs",
                          "extraargs", "params", "parameters"])  # fmt: skip
_DIR_NAMES: Final = frozenset(["in", "at", "within", "under", "dir", "cwd", "workdir", "folder",
                                "path", "location", "workspace", "root", "where", "chdir",
                                "directory", "dirpath", "dirname", "workspaceroot",
                                "rootdir", "cwdpath"])  # fmt: skip
_STDIN_NAMES: Final = frozenset(["stdin", "input", "stdindata", "stdintext"])


def shell_extra(key: str) -> str | None:
    """What a shell tool's argument ``key`` adds to its command: ``argv`` (words after it),
    ``env`` (its environment), ``stdin`` (what it reads), ``dir`` (where it runs), or None."""
    name = fold(key)
    if role(key, canonical.SHELL) not in (None, "directory"):
        return None  # a command, a file or a move's path: read as such
    if name in _ARGV:
        return "argv"
    if "env" in name or name in ("variables", "vars"):
        return "env"
    # whole names only: ``input_args``, ``direction`` or ``recursive_dir`` are other text
    # (red team s27 F2), which a server may add to the command
    if name in _STDIN_NAMES:
        return "stdin"
    if name in _DIR_NAMES or name.startswith("working"):
        return "dir"
    return None


def directory_text(value: str) -> bool:
    """A value a server can take as a directory: path text, or one plain name (no blank,
    no leading ``-``): ``-rf victim`` under ``where`` is words of a command (s27 F2)."""
    return _path_text(value) or (
        bool(value) and value[0] != "-" and not any(c.isspace() for c in value)
    )


def _path_text(value: str) -> bool:
    """A string a shell tool's server could take as a directory or file: absolute, home,
    relative with ``./``, or a Windows drive."""
    text = value.strip()
    return (
        text in (".", "..")
        or text.startswith(("/", "~", "./", "../", "\\", ".\\"))
        or (len(text) > 2 and text[1] == ":" and text[2] in "/\\")
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# a shell tool's text arguments that say something to people, not to the command (Claude
# Code's and Gemini CLI's ``description``, Codex's ``justification``): every other string
# no reading accounts for may reach the command (``flags: -rf x``, ``subcommand: push
# --force``), so it is unverifiable: the guard cannot say what runs (red team s26 F4)
_SHELL_NOTES: Final = frozenset(["description", "title", "reason", "explanation", "summary",
                                 "comment", "purpose", "justification", "label", "note",
                                 "notes", "timeout", "timeoutms", "timeoutseconds"])  # fmt: skip


def _shell_other(key: str, value: Any) -> str | None:
    """Why a shell tool's argument that no rule reads may still change what runs."""
    if isinstance(value, (Mapping, list)) and any(True for _ in _strings(value)):
        shape = "an object" if isinstance(value, Mapping) else "a list"
        return (
            f"its argument {key!r} is {shape} holding text no rule reads; a server may pass it "
            "to the command (as arguments, environment or input)"
        )
    if isinstance(value, str) and _path_text(value):
        return (
            f"its argument {key!r} looks like a path no rule reads; a server may run the "
            "command there or hand it the file"
        )
    if isinstance(value, str) and value.strip() and fold(key) not in _SHELL_NOTES:
        return (
            f"its argument {key!r} is text no rule reads; a server may add it to the command "
            "(as flags, arguments or a subcommand), so what runs is not what was decided"
        )
    return None


# how far arguments are read (a command or a path nested at any depth, or in a string holding
# JSON: red team s35 F1): past either bound the call is unverifiable, never allowed unread
MAX_DEPTH: Final = 64
MAX_VALUES: Final = 20_000
# a key no role lists whose name says it holds something to run (``bash_command``,
# ``commandText``, ``shellCmd``: red team s27 F12), or one of these whole names
# (``tmux_send_keys {keys}``, ``container_exec {run}``, ``steps: [{run: ...}]``)
RUN_WORDS: Final = ("command", "cmd", "shell", "bash", "script", "exec")
RUN_NAMES: Final = frozenset(["run", "line", "keys", "sendkeys", "cmdstr"])


# prose holding a word of RUN_WORDS by chance (``description`` holds ``script``): taken out
# of a key before it is searched for one (a key left unrecognised is read as one to run)
_PROSE: Final = ("description", "transcript", "subscript", "superscript", "postscript",
                 "manuscript", "prescription", "subscription", "inscription")  # fmt: skip


def run_word(name: str) -> bool:
    """Whether a key's name (lower case, ``_`` dropped) holds a word of :data:`RUN_WORDS`
    outside prose (:data:`_PROSE`: ``description`` is no script)."""
    for prose in _PROSE:
        name = name.replace(prose, " ")
    return any(w in name for w in RUN_WORDS)


def runs_key(key: str) -> bool:
    """Whether ``key`` names something a tool runs (a role's command spelling, a word or
    name of :data:`RUN_WORDS`, :data:`RUN_NAMES`)."""
    name = fold(key)
    return role(key, "") == "command" or name in RUN_NAMES or run_word(name)


def text_key(key: str | None) -> bool:
    """A key whose string is text to write, match or show: read as it is, never as the
    JSON it may hold (``content: '{"command": ...}'`` writes a file)."""
    if key is None:
        return False
    name = fold(key)
    return name in _CONTENT or name in _SHELL_NOTES or name in _TEXT


# text an edit or a search compares, not a value it acts on
_TEXT: Final = frozenset(["oldtext", "oldstring", "oldcontent", "pattern", "regex", "search",
                          "find", "replace", "replacement", "message", "prompt"])  # fmt: skip


def nested_members(args: Mapping[str, Any]) -> tuple[list[tuple[str, str, Any]], str | None]:
    """(top-level key, key, value) of every object member below the top level, in order, a
    string holding a JSON object or array read as what it holds (a server may decode it:
    ``{"options": "{\"cmd\": ...}"}``), not under a key of text (:func:`text_key`); and why
    the reading stopped short (past :data:`MAX_DEPTH` or :data:`MAX_VALUES`), or None."""
    out: list[tuple[str, str, Any]] = []
    # (top-level key, member key or None, the key the value sits under, value, depth)
    todo: list[tuple[str, str | None, str | None, Any, int]] = [
        (str(top), None, str(top), value, 0) for top, value in args.items()
    ]
    at = 0
    while at < len(todo):
        top, key, under, value, depth = todo[at]
        at += 1
        if at > MAX_VALUES:
            return out, (
                f"its argument {top!r} holds more than {MAX_VALUES} values; hookwise reads no "
                "further, so what the tool takes there is not known"
            )
        if depth > MAX_DEPTH:
            return out, (
                f"its argument {top!r} nests deeper than {MAX_DEPTH} levels; hookwise reads no "
                "further, so what the tool takes there is not known"
            )
        if key is not None:
            out.append((top, key, value))
        if isinstance(value, Mapping):
            todo += [(top, str(k), str(k), v, depth + 1) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(top, None, under, v, depth + 1) for v in value]
        elif isinstance(value, str) and value.lstrip()[:1] in ("{", "[") and not text_key(under):
            try:
                held = decode(value)
            except RecursionError:
                return out, (
                    f"its argument {top!r} holds JSON text nested too deep to read; a server "
                    "decoding it may read what hookwise cannot"
                )
            if isinstance(held, (Mapping, list)):
                todo.append((top, None, under, held, depth + 1))
    return out, None


def _nested_problem(tool: str, args: Mapping[str, Any], mapped: bool = True) -> str | None:
    """A key below the top level that folds ambiguously, or holds a command or a path:
    the rules read the top level only, and a server reading ``{"request": {...}}`` runs it.
    A tool the tables do not map holding something to run anywhere (``steps: [{run:
    ...}]``), and a file tool a path under a key naming one (``options: {dest_file: ...}``),
    are unverifiable too; so are arguments too large or deep to read whole."""
    members, short = nested_members(args)
    for top, key, item in members:
        if tool == canonical.SHELL and shell_extra(top) == "env":
            continue  # variable names, read by shell_args
        if ambiguous(key):
            return (
                f"its argument {top!r} holds the key {key!r}, which a server matching keys "
                f"without case reads as {reads_as(key)!r}"
            )
        found = role(key, "")
        if found is None and fold(key) in ("query", "root"):
            continue
        if found == "command" and _command_text(item):
            what = "a command"
        elif found is not None and found != "command" and _looks_like_path(item):
            what = "a path"
        elif not mapped and runs_key(key) and _command_text(item):
            what = "something to run"
        elif mapped and _file_tool_path(tool, top, key, item):
            what = "a path"
        else:
            continue
        return (
            f"its argument {top!r} holds {what} under {key!r}, which no rule reads "
            "(the rules read the top-level arguments)"
        )
    return short


def _file_tool_path(tool: str, top: str, key: str, value: Any) -> bool:
    """A path a mapped file tool's nested argument may name: under a key naming a path,
    or, for a tool acting on one file, any path-like value outside text (_nested_file)."""
    if tool in _FILE_TOOLS and _path_word(key) and _looks_like_path(value):
        return True
    return tool in _NAMES_A_FILE and _nested_file(top, key, value)


def _nested_file(top: str, key: str, value: Any) -> bool:
    """A path-like value nested in a file tool's arguments, not in text it writes or
    compares (``edits: [{oldText: "./docs"}]``) nor a note: a server may open it
    (``read_file {path: README.md, options: {alt: ~/.ssh/id_rsa}}``)."""
    if text_key(top) or text_key(key) or fold(key) in _SHELL_NOTES:
        return False
    return _names_a_file(value)


def _path_word(key: str) -> bool:
    name = _norm(key)
    return any(word in name for word in _PATH_WORDS)


def _file_uri(value: Any) -> bool:
    """A ``file:`` URI (or a list of them): the Gate decides it as its path (file_uri.py)."""
    if isinstance(value, list):
        return bool(value) and all(_file_uri(v) for v in value)
    return isinstance(value, str) and uri_paths(value) is not None


# a URL of a scheme other than file: (``https://...``) names no file
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _names_a_file(value: Any) -> bool:
    """A path-like value a file tool could open (not a ``file:`` URI, which the Gate
    reads as its path, nor another scheme's URL)."""
    if isinstance(value, list):
        return any(_names_a_file(v) for v in value)
    if not isinstance(value, str) or _file_uri(value) or _URL.match(value.strip()):
        return False
    return _looks_like_path(value)


def _command_text(value: Any) -> bool:
    return (isinstance(value, str) and bool(value.strip())) or (
        isinstance(value, list) and any(isinstance(v, str) and v for v in value)
    )


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
    return _path_word(key) and _looks_like_path(value)


# keys under which a tool taking a path takes what it writes there (compared folded)
_CONTENT: Final = frozenset(["content", "contents", "text", "data", "body", "newtext",
                             "newstring", "newcontent", "filecontent", "filetext", "bytes",
                             "base64", "patch", "diff", "append", "lines"])  # fmt: skip


def named_paths(tool: str, args: Mapping[str, Any]) -> list[str]:
    """The path-like values of a tool's path arguments (``path``, ``target``, ``files``...),
    for a tool the name table does not map: what it acts on, if it is a file tool."""
    out: list[str] = []
    _path_values(tool, args, out, 0)
    return out


def _path_values(tool: str, value: Any, out: list[str], depth: int) -> None:
    """The path-like strings under ``value``, at any depth (``read_many {items: [{name:
    .env}]}`` read it: red team s29 F8), but none under a command's or content's key."""
    if depth > 256:
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = role(str(key), tool)
            if found == "command" or (found is None and fold(str(key)) in _CONTENT):
                continue
            # under a key with no path word too: ``unlink_path {name: <policy>}`` deleted
            # the user policy, ``fetch_doc {document: .env}`` read it (s27 F3, F14)
            _path_values(tool, item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _path_values(tool, item, out, depth + 1)
    elif isinstance(value, str) and value.lstrip()[:1] in ("{", "[") and _holds_json(value):
        # a string holding JSON: its values, as a server decoding it reads them (s35 F1)
        _path_values(tool, decode(value), out, depth + 1)
    elif (
        isinstance(value, str)
        and _looks_like_path(value)
        and not _file_uri(value)
        and not _URL.match(value.strip())
    ):
        out.append(value)


def _holds_json(text: str) -> bool:
    """Whether ``text`` is a JSON object or array (one too deep to read counts: the
    call is unverifiable then, :func:`nested_members`)."""
    try:
        return isinstance(decode(text), (Mapping, list))
    except RecursionError:
        return False


def writes_content(args: Mapping[str, Any]) -> str | None:
    """The key under which a tool taking a path takes content for it (``content``,
    ``text``, ``data``...): a tool of that shape writes, whatever its name."""
    return next((str(k) for k in args if fold(str(k)) in _CONTENT), None)


# keys a tool joins to its directory argument to make the file it acts on
# (``write_file {path: <dir>, name: "policy.yaml"}``: red team s27 F10)
_NAME_KEYS: Final = frozenset(["name", "basename", "title", "key", "entry", "leaf", "stem"])


def _other_file(tool: str, args: Mapping[str, Any]) -> str | None:
    """Why a file tool may act on another file than the one decided: a path-like value under
    a key no rule reads (a decoy ``path`` beside the real ``document`` made the decision
    about the decoy: s27 F3), or a name beside a directory argument (F10)."""
    read = [str(k) for k in args if role(str(k), tool) not in (None, "command")]
    for raw, value in args.items():
        key = str(raw)
        if role(key, tool) is not None or fold(key) in _CONTENT or fold(key) in _SHELL_NOTES:
            continue
        if _names_a_file(value):
            if not read:
                return (
                    f"it names no file under a key the rules read, and its argument {key!r} "
                    "looks like a path: the decision would be about no file at all"
                )
            return (
                f"its argument {key!r} looks like a path no rule reads, beside {read[0]!r}: "
                "the tool may act on either"
            )
        if read and fold(key) in _NAME_KEYS and isinstance(value, str) and value.strip():
            return (
                f"its argument {key!r} may be a file name the tool joins to {read[0]!r}; the "
                "rules decide on the directory alone"
            )
    return None


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
        if ambiguous(key):
            return (
                f"its argument key {key!r} reads as "
                f"{reads_as(key)!r} to a server matching keys "
                "without case (Go's encoding/json), not as the rules read it"
            )
        extra = shell_extra(key) if tool == canonical.SHELL else None
        if extra == "dir":
            if not isinstance(args[raw], str):
                return f"its argument {key!r} is a {type(args[raw]).__name__}, not a string"
            if not directory_text(args[raw]):
                return (
                    f"its argument {key!r} names no directory ({args[raw]!r}); a server may "
                    "add it to the command"
                )
            seen.setdefault("directory", []).append(key)
            continue
        if extra is not None:
            continue  # read into the command line (shell_args.py)
        found = role(key, tool)
        if found is None and tool == canonical.SHELL:
            why = _shell_other(key, args[raw])
            if why is not None:
                return why
            continue
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
    nested = _nested_problem(tool, args, mapped)
    if nested is not None:
        return nested
    if mapped and tool in _NAMES_A_FILE:
        why = _other_file(tool, args)
        if why is not None:
            return why
    for found, keys in seen.items():
        if len(keys) > 1 and found != "paths":
            return (
                f"it carries {len(keys)} {_SHOWN[found]} arguments ({', '.join(map(repr, keys))}); "
                "the rules read one, and the tool may use another"
            )
    return None
