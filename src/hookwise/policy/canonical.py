"""Canonical events, tools and arguments: one vocabulary for every host.

A host event (Gemini ``BeforeTool``, Claude Code / Codex ``PreToolUse``) becomes one or more
canonical events (``tool.before``); a host tool (``run_shell_command``, ``Bash``) gets a
canonical name (``shell``); argument keys are normalised (``filePath`` and
``absolute_path`` are ``file_path``). Rules are written against the canonical vocabulary and
can still name the host's own names (``host_tool``, ``payload``).

Standard library only (hot path). The host's event names and answer fields come from
``hookwise.protocol`` through the compiled policy (see ``hosts.py``); this module holds what
hookwise itself defines: the canonical names and how host names map onto them.
"""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any

    from hookwise.shell.parser import Command, Script

# ---------------------------------------------------------------------- canonical events

TOOL_BEFORE = "tool.before"
TOOL_AFTER = "tool.after"
TOOL_FAILURE = "tool.failure"
PERMISSION_REQUEST = "permission.request"
PROMPT = "prompt"
AGENT_START = "agent.start"
AGENT_STOP = "agent.stop"
MODEL_BEFORE = "model.before"
MODEL_AFTER = "model.after"
TOOL_SELECTION = "tool.selection"
SESSION_START = "session.start"
SESSION_END = "session.end"
NOTIFICATION = "notification"
COMPACTION = "compaction"
COMPACTION_AFTER = "compaction.after"
INTERRUPT = "agent.interrupt"
PERMISSION_DENIED = "permission.denied"
AGENT_FAILURE = "agent.failure"
CONFIG_CHANGE = "config.change"
MCP_ELICITATION = "mcp.elicitation"

CANONICAL_EVENTS: dict[str, str] = {
    TOOL_BEFORE: "before a tool runs (Gemini BeforeTool; Claude Code and Codex PreToolUse)",
    TOOL_AFTER: "after a tool ran (AfterTool; PostToolUse)",
    TOOL_FAILURE: "after a tool failed (AfterTool with an error; Claude PostToolUseFailure)",
    PERMISSION_REQUEST: "the host is about to ask the user (PermissionRequest; "
    "Gemini Notification ToolPermission)",
    PROMPT: "the user submitted a prompt (BeforeAgent; UserPromptSubmit)",
    AGENT_START: "an agent turn or a subagent starts (BeforeAgent; SubagentStart)",
    AGENT_STOP: "the agent is about to stop (AfterAgent; Stop; SubagentStop)",
    MODEL_BEFORE: "before a model request (Gemini BeforeModel; Codex PreModelRequest, "
    "advisory: audit only)",
    MODEL_AFTER: "after a model response chunk (Gemini AfterModel)",
    TOOL_SELECTION: "before the model picks tools (Gemini BeforeToolSelection)",
    SESSION_START: "a session starts (SessionStart)",
    SESSION_END: "a session ends (SessionEnd)",
    NOTIFICATION: "a notification (Notification)",
    COMPACTION: "before the context is compacted (Gemini PreCompress; PreCompact)",
    COMPACTION_AFTER: "after the context was compacted (PostCompact)",
    INTERRUPT: "the user interrupted the agent's turn (Codex Interrupt; advisory: audit and"
    " message only)",
    PERMISSION_DENIED: "the host denied a tool call itself (Claude PermissionDenied, auto "
    "mode); for the audit log",
    AGENT_FAILURE: "the turn ended on an API error (Claude StopFailure); for the audit log",
    CONFIG_CHANGE: "a settings file changed during the session (Claude ConfigChange); a "
    "deny keeps the change from applying (not for managed settings)",
    MCP_ELICITATION: "an MCP server asks the user for input (Claude Elicitation); a deny "
    "declines it",
}

TOOL_EVENTS = frozenset([TOOL_BEFORE, TOOL_AFTER, TOOL_FAILURE, PERMISSION_REQUEST])

# Gemini event -> its canonical events (adapters add the conditional ones: an AfterTool
# with an error is also tool.failure, a ToolPermission notification a permission.request).
GEMINI_EVENTS: dict[str, tuple[str, ...]] = {
    "BeforeTool": (TOOL_BEFORE,),
    "AfterTool": (TOOL_AFTER,),
    "BeforeAgent": (AGENT_START, PROMPT),
    "AfterAgent": (AGENT_STOP,),
    "BeforeModel": (MODEL_BEFORE,),
    "AfterModel": (MODEL_AFTER,),
    "BeforeToolSelection": (TOOL_SELECTION,),
    "SessionStart": (SESSION_START,),
    "SessionEnd": (SESSION_END,),
    "PreCompress": (COMPACTION,),
    "Notification": (NOTIFICATION,),
}

# Canonical events a Gemini event raises only sometimes (the adapter decides per payload).
GEMINI_CONDITIONAL: dict[str, tuple[str, ...]] = {
    "AfterTool": (TOOL_FAILURE,),
    "Notification": (PERMISSION_REQUEST,),
}

# Claude Code / Codex: the dialect tables' Kind (protocol/dialect.py) -> canonical event.
KIND_EVENTS: dict[str, str] = {
    "tool_before": TOOL_BEFORE,
    "permission": PERMISSION_REQUEST,
    "tool_after": TOOL_AFTER,
    "tool_failure": TOOL_FAILURE,
    "prompt": PROMPT,
    "stop": AGENT_STOP,
    "session_start": SESSION_START,
    "session_end": SESSION_END,
    "notification": NOTIFICATION,
    "compact_before": COMPACTION,
    "compact_after": COMPACTION_AFTER,
    "subagent_start": AGENT_START,
    "interrupt": INTERRUPT,
    "model_before": MODEL_BEFORE,
    "permission_denied": PERMISSION_DENIED,
    "stop_failure": AGENT_FAILURE,
    "config_change": CONFIG_CHANGE,
    "elicitation": MCP_ELICITATION,
}
# Claude Code's event families no rule reaches (yet): hookwise registers for none of them,
# and an event of theirs raises no canonical event.
UNRULED_KINDS: frozenset[str] = frozenset(
    {
        "setup",
        "instructions",
        "prompt_expansion",
        "message_display",
        "tool_batch",
        "task_created",
        "task_completed",
        "teammate_idle",
        "cwd_changed",
        "directory_added",
        "file_changed",
        "worktree_create",
        "worktree_remove",
        "elicitation_result",
    }
)

# ------------------------------------------------------------------------ canonical tools

SHELL = "shell"

CANONICAL_TOOLS: dict[str, str] = {
    SHELL: "run a shell command",
    "write": "create or overwrite a file",
    "edit": "change part of a file (Codex apply_patch included)",
    "read": "read files",
    "glob": "find files by name",
    "grep": "search file contents",
    "ls": "list a directory",
    "web_fetch": "fetch a URL",
    "web_search": "search the web",
    "task": "start a subagent",
    "todo": "update the todo list / plan",
    "memory": "save a memory",
    "notebook_edit": "edit a notebook cell",
    "skill": "activate a skill",
    "mcp_resource": "read or list an MCP server's resources (the server named in its input)",
}
MCP_RESOURCE = "mcp_resource"

# Argument keys -> canonical keys (camelCase from some hosts, older Gemini names).
ARG_ALIASES: dict[str, str] = {
    "filePath": "file_path",
    "absolute_path": "file_path",
    "notebook_path": "file_path",
    "oldString": "old_string",
    "newString": "new_string",
    "replaceAll": "replace_all",
    "new_source": "content",
    "dir_path": "path",
    "directory": "path",
    "cmd": "command",
    "serverName": "server",
}
PATH_KEYS = ("file_path", "path")
PATH_LIST_KEYS = ("paths", "file_paths")
# Tools that move, copy or rename a file (compared as tool_key reads a name): both paths
# are written (a rename away from a policy file removes it; one onto a secret's name
# overwrites it) and the source is read (a copy or rename of a secret is the secret under
# another name). Their path keys, the source's first. (integrations/tools.py maps them; an
# MCP tool of these names is read so by the hook too)
MOVE_TOOLS = frozenset(
    ["move_file", "copy_file", "rename_file", "move", "rename", "copy", "move_path",
     "copy_path"]
)  # fmt: skip
MOVE_SOURCE_KEYS = (
    "source", "src", "from", "old_path", "source_path", "from_path", "src_path",
)  # fmt: skip
MOVE_PATH_KEYS = (
    *MOVE_SOURCE_KEYS, "destination", "dest", "to", "target", "new_path", "destination_path",
    "target_path", "to_path", "dst", "dest_path", "dst_path",
)  # fmt: skip


def tool_key(name: str) -> str:
    """A tool name as the name tables compare it: case, ``-`` and camelCase read as ``_``
    (``writeFile``, ``Write-File`` and ``WRITE_FILE`` are ``write_file``: red team s26 F7)."""
    text = name.strip()
    out: list[str] = []
    for at, char in enumerate(text):
        if at and "A" <= char <= "Z" and ("a" <= text[at - 1] <= "z" or "0" <= text[at - 1] <= "9"):
            out.append("_")
        out.append(char)
    return "".join(out).lower().replace("-", "_")


def moves_files(tool: str) -> bool:
    """Whether a (framework or ``mcp__server__tool``) tool name moves, copies or renames."""
    mcp = split_mcp(tool)
    return tool_key(mcp[1] if mcp is not None else tool) in MOVE_TOOLS


def host_tools() -> dict[str, dict[str, str]]:
    """Each host's tool names -> canonical tools, from the host registry (protocol/hosts.py).

    Off the hook's path: the adapters pass the mapped name from the compiled host tables
    (``tools``); this is for the rule loader, the framework bridges and events built
    without a table."""
    from hookwise.protocol.hosts import HOSTS

    return {name: info.tools for name, info in HOSTS.items()}


def canonical_tool(host: str, name: str) -> str:
    """The canonical name of a host's tool; MCP and unknown tools keep their name."""
    return host_tools().get(host, {}).get(name, name)


def normalise_input(raw: object) -> dict[str, Any]:
    """Tool arguments with canonical keys (a canonical key wins over its aliases)."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = str(key)
        canonical = ARG_ALIASES.get(name, name)
        if canonical == name or canonical not in raw:
            out[canonical] = value
    return out


def host_key(raw: dict[str, Any], canonical: str) -> str:
    """The key a host uses for a canonical argument (for rewriting its input)."""
    if canonical in raw:
        return canonical
    for key in raw:
        if ARG_ALIASES.get(key) == canonical:
            return key
    return canonical


def split_mcp(name: str) -> tuple[str, str] | None:
    """(server, tool) of an MCP tool name ``mcp__server__tool``, else None."""
    if not name.startswith("mcp__"):
        return None
    rest = name[5:]
    server, sep, tool = rest.partition("__")
    if not sep or not server or not tool:
        return None
    return server, tool


# Gemini CLI's mark in a tool name it cut past 63 characters (its generateValidName keeps
# the first 30 and the last 30 around it): the server and the tool are not all there
CUT_MARK = "..."


# The payload key under which an adapter puts an MCP call's readings, where the host names
# the call otherwise than ``mcp__<server>__<tool>`` or Gemini CLI's ``mcp_<server>_<tool>``
# (policy/adapters/base.mcp_call): {"readings": [[server, tool], ...] (the first decided on;
# "" for a part the payload does not say), "why": why the name may stand for a server and
# tool that are none of these ("" when it cannot), "keeps": the characters the host keeps
# in a name, where it makes the others "_" with no mark ("" where it does not), "host": the
# host's title, "encoded": true where the host changes the others otherwise, with no mark
# (protocol/hosts.py ``mcp_names`` "encoded")}
MCP_CALL = "_hookwise_mcp"


def kept_in_names(keeps: str) -> Callable[[str], bool]:
    """Whether a character is one a host keeps in an MCP tool's name (``keeps``: a
    character class's text from its ``mcp_names``, ``a-zA-Z0-9_.:-``); it makes the others
    ``_``."""
    ranges: list[tuple[str, str]] = []
    at = 0
    while at < len(keeps):
        if at + 2 < len(keeps) and keeps[at + 1] == "-":
            ranges.append((keeps[at], keeps[at + 2]))
            at += 3
        else:
            ranges.append((keeps[at], keeps[at]))
            at += 1
    return lambda c: any(low <= c <= high for low, high in ranges)


def _mark_at_end(text: str, mark: str) -> bool:
    """Whether ``text`` ends with a hash mark ``hex:N`` / ``base36:N`` ("_" and N digits)."""
    kind, _, size = mark.partition(":")
    if kind not in ("hex", "base36") or not size.isdigit():
        return False
    count = int(size)
    tail = text[-count:] if count else ""
    digits = "0123456789abcdef" if kind == "hex" else "0123456789abcdefghijklmnopqrstuvwxyz"
    return (
        len(text) > count
        and text[-count - 1] == "_"
        and len(tail) == count
        and all(c in digits for c in tail)
    )


def mcp_name_readings(
    naming: list[Any] | tuple[Any, ...], name: str
) -> tuple[list[tuple[str, str]], str] | None:
    """(every (server, tool) the host's name ``name`` may stand for, the host's own reading
    first; why it may stand for another: "" when it cannot) under the host's naming
    (protocol/hosts.py ``mcp_names``), or None when ``name`` is no MCP tool's name there.

    The name is split at each separator (a server's or a tool's name may hold one); a name
    the host marked as cut or hashed (``...``, ``_`` and the hash's digits at its end) may
    stand for another server and tool than any split says, and a name past the host's length
    bound too."""
    prefix, separator, _keeps, limit, changed, mark = naming
    if prefix and not name.startswith(prefix):
        return None
    rest = name[len(prefix) :]
    cut = mark == "..." and "..." in rest
    hashed = bool(mark) and mark != "..." and _mark_at_end(name, mark)
    splits: list[tuple[str, str]] = []
    if not cut:
        at = rest.find(separator)
        while at != -1 and not (splits and changed == "first"):
            server, tool = rest[:at], rest[at + len(separator) :]
            if server and tool:
                splits.append((server, tool))
            at = rest.find(separator, at + 1)
    if not prefix and not splits and not hashed:
        return None  # no server in it: a tool of the host's own
    why = ""
    if cut:
        why = f"cut the name {name!r} (...): its MCP server and tool cannot be told"
    elif hashed:
        why = (
            f"may have made the name {name!r} a hash of another (it ends as one does): its "
            "MCP server and tool cannot be told"
        )
    elif limit and len(name) > limit:
        why = f"changes a name past {limit} characters: {name!r} may stand for another"
    elif limit and changed == "encoded" and len(name) == limit:
        why = (
            f"cuts a name past {limit} characters to {limit} with no mark: {name!r} may "
            "stand for another"
        )
    return splits, why


def mcp_readings(host_tool: str, payload: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every (server, tool) an MCP tool's name may stand for, the one decided on first.

    The readings an adapter found (:data:`MCP_CALL`: another host's naming, or fields of
    the payload), else the server Gemini CLI's ``mcp_context`` names (sent when it finds
    the server's settings), else ``mcp__<server>__<tool>`` (Claude Code, Codex, the
    plugins). Gemini's own ``mcp_<server>_<tool>`` without a context does not say where
    the server's name ends (``mcp_my_fs_read_file`` may be ``my_fs``'s ``read_file`` or ``my``'s
    ``fs_read_file``): each split at a ``_``, Gemini's own reading first (the first ``_``,
    as its policy engine's ``parseMcpToolName`` reads a name it has no server for). A name
    Gemini cut (:data:`CUT_MARK`) stands for no server and tool that can be told: none."""
    call = payload.get(MCP_CALL)
    if isinstance(call, dict):
        return [(str(r[0]), str(r[1])) for r in call.get("readings", ())]
    context = payload.get("mcp_context")
    if isinstance(context, dict) and isinstance(context.get("server_name"), str):
        tool = context.get("tool_name")
        found = split_mcp(host_tool)
        own = tool if isinstance(tool, str) else (found[1] if found else "")
        return [(context["server_name"], own)]
    found = split_mcp(host_tool)
    if found is not None:
        return [found]
    if not host_tool.startswith("mcp_") or host_tool.startswith("mcp__"):
        return []
    rest = host_tool[4:]
    if CUT_MARK in rest:
        return []
    splits = [at for at, c in enumerate(rest) if c == "_" and 0 < at < len(rest) - 1]
    return [(rest[:at], rest[at + 1 :]) for at in splits]


# the resource readers whose ``uri`` is ``SERVER:URI`` (Gemini CLI 0.61.0), and that read it
# whatever other argument says a server (``{"server": "a", "uri": "fs:..."}`` reads fs)
SERVER_IN_URI = frozenset({"read_mcp_resource"})

# the canonical tool an MCP resource request counts as for ``tool:`` rules, one mapping for
# the proxy's ``resources/read`` and the hosts' own resource readers (Claude's
# ReadMcpResourceTool, Gemini's read_mcp_resource): a ``tool: read`` rule holds for both
# (red team s27 F18)
# MCP requests that read what they name (decided as ``read``): a resource's URI, and a
# prompt's arguments, which a server may embed the file of (red team s29 F9)
PROMPT_METHOD = "prompts/get"
RESOURCE_METHOD_TOOLS: dict[str, str] = {
    "resources/read": "read", "resources/subscribe": "read", PROMPT_METHOD: "read"
}  # fmt: skip


def resource_method(args: dict[str, Any]) -> str:
    """The MCP request a host's resource tool makes: with a ``uri`` it reads one."""
    return "resources/read" if "uri" in args else "resources/list"


def mcp_resource_call(tool: str | None, args: dict[str, Any]) -> tuple[str, str] | None:
    """(server, ``resources/read`` or ``resources/list``) of a host's tool that reads an MCP
    server's resources, named as the MCP proxy names the call, or None when no server is
    named. Claude Code's ReadMcpResourceTool / ListMcpResourcesTool take ``{server, uri?}``
    (red team s25 F10); Gemini CLI 0.61.0's list_mcp_resources takes ``{serverName?}``, and
    its read_mcp_resource ``{uri: "SERVER:URI"}``, whose server is the text before the first
    colon (``ResourceRegistry.findResourceByUri``: it reads only a resource that server
    listed; recorded in tests/e2e/fixtures/gemini-mcp-resource.jsonl)."""
    if tool in SERVER_IN_URI:  # what else it is given, the tool reads only this
        uri = args.get("uri")
        if isinstance(uri, str) and uri.find(":") > 0:
            return uri[: uri.find(":")], "resources/read"
        return None
    server = args.get("server")
    if isinstance(server, str) and server:
        return server, resource_method(args)
    named = args.get("serverName")
    if isinstance(named, str) and named:
        return named, "resources/list"
    return None


def shell_join(argv: list[object]) -> str:
    """A command line for an argv list (Codex may send ``command`` as a list); the quoting
    lives with the parser that reads it back (shell_quote.join)."""
    from hookwise.shell.quote import join

    return join(argv)


_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


def patch_paths(patch: str) -> list[str]:
    """The files a Codex ``apply_patch`` patch touches."""
    paths = []
    for line in patch.splitlines():
        for header in _PATCH_HEADERS:
            if line.startswith(header):
                paths.append(line[len(header) :].strip())
    return paths


class PathRef:
    """A path a tool touches, resolved against the event's cwd."""

    __slots__ = (
        "absolute", "command", "deep", "kept", "linked", "pattern", "raw", "redirect", "relative",
        "shape", "tree"
    )  # fmt: skip

    def __init__(
        self, raw: str, absolute: str | None, relative: str | None, command: int = -1
    ) -> None:
        self.raw = raw
        self.absolute = absolute  # None: not resolvable ($VAR, `...`)
        self.relative = relative  # None: outside the working directory (or unresolvable)
        self.command = command  # index of the shell command it belongs to, -1 otherwise
        # a word known only when the command runs: what it can be (shell/variables.py)
        self.shape: tuple[tuple[str, ...], ...] | None = None
        self.pattern = False  # a glob bash expands against the disk (~/.ss*/id_*)
        self.deep = False  # a pattern's ``**`` walks any depth (shopt -s globstar)
        self.tree = False  # the command reads it recursively (grep -r, tar c, zip -r)
        self.redirect = False  # a redirect's file (2>/dev/null), not an operand of the program
        # what it resolves to when a symlink is on the way (``resolved``): False until asked
        self.linked: PathRef | bool | None = False
        # a copy's, move's or link's source: the names it is put under (rules/kept.py); a
        # rule that guards them all is not read by the copy. None: a read like any other
        self.kept: tuple[PathRef, ...] | None = None

    @property
    def outside(self) -> bool:
        return self.relative is None

    def __repr__(self) -> str:
        return f"PathRef({self.raw!r}, abs={self.absolute!r}, rel={self.relative!r})"


def _open_shape(word: str) -> tuple[tuple[str, ...], ...] | None:
    """The shape of a word with parts known only when it runs that the parser left
    unshaped (a redirection's target, a program's reading): shell/commands/open_words.py."""
    if "$" not in word and "`" not in word:
        return None
    from hookwise.shell.commands import open_words  # (cold: such a word)

    # (as a value of the environment's: judged with it empty, rules/maybe.could_be_path)
    return open_words.shape(word, ("E",)) if open_words.is_open(word) else None


def resolve_path(raw: str, cwd: str, home: str, dynamic: bool = False) -> PathRef:
    """Resolve ``raw`` against ``cwd`` (``~`` and ``$HOME`` expanded; other $... unknown)."""
    text = _proc_link(raw, cwd) if raw.startswith("/proc/") else None
    if text is not None:
        dynamic = "$" in text or "`" in text
    else:
        text = raw
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    elif text.startswith("~"):  # ~user: that user's home, as the shell expands it
        text = os.path.expanduser(text)
        if text.startswith("~"):
            return PathRef(raw, None, None)
    elif "$HOME" in text or "${HOME" in text:
        found = _home_expanded(text, home)
        if found is None:
            return PathRef(raw, None, None)
        text = found
        if "$" in text or "`" in text:
            return PathRef(raw, None, None)
    elif (text == "~+" or text.startswith("~+/")) and cwd:
        text = cwd + text[2:]  # bash's ~+ is $PWD, the command's directory
    elif (text.startswith(("$PWD/", "${PWD}/")) or text in ("$PWD", "${PWD}")) and cwd:
        text = cwd + text[text.index("}") + 1 if text.startswith("${") else 4 :]
    elif dynamic or "$" in text or "`" in text:
        return PathRef(raw, None, None)
    if dynamic and ("$" in text or "`" in text):
        # ~/.netrc$(true), $PWD/.env$x: the rest holds a part known only when it runs (its
        # shape is judged: rules/maybe.py), never a file named with the `$` in it (s35 D)
        return PathRef(raw, None, None)
    return _physical(_anchored(raw, text, cwd), text, cwd)


def _physical(ref: PathRef, text: str, cwd: str) -> PathRef:
    """``ref`` with a ``..`` after a link read as the kernel opens it too (red team s31 M:
    ``/usr/share/groff/site-tmac/../../x`` with site-tmac -> /etc/groff is ``/x``): the
    rules judge that file as a link's (``resolved``). A name not there yet is taken by
    name (``mkdir g; cat g/../x``); a link the line makes is its copy (shell/written.py)."""
    if ref.absolute is None or not text or ".." not in text.split("/"):
        return ref
    joined = text if text.startswith("/") else (cwd.rstrip("/") or "") + "/" + text
    physical = os.realpath(joined)
    if physical != ref.absolute:
        ref.linked = PathRef(ref.raw, physical, _relative(physical, cwd))
    return ref


# what names the shell itself in /proc: its root and cwd are the command's (a same-root
# process's root is /; $$, $BASHPID, self, thread-self or a number)
_PROC_SELVES = frozenset(["self", "thread-self", "$$", "$BASHPID", "${BASHPID}", "${$}"])


def _process(word: str) -> bool:
    """Whether a component of a /proc path names a process or a task: the shell's own, a
    number, a value (``$$``), or a pattern bash expands to some (``*``, ``[0-9]*``)."""
    return (
        word in _PROC_SELVES
        or word.isdigit()
        or word.startswith("$")
        or any(c in word for c in "*?[")
    )


def _proc_link(text: str, cwd: str) -> str | None:
    """``/proc/PID/root/X`` is X and ``/proc/PID/cwd/X`` the command's X, for the shell's
    own PID and any other process of the same root (``/proc/$$/root$HOME/.netrc``; None:
    no such link). A task's directory holds the same links as its process
    (``/proc/PID/task/TID/root``, red team s32 B), and ``..`` between them is /proc's own
    (no link on the way): the path is read with those steps taken."""
    names = text.split("/")
    at = next((k for k, n in enumerate(names) if n.startswith(("root", "cwd"))), len(names))
    if ".." in names[:at]:  # /proc/$$/task/$$/../../root: /proc's directories, no link
        text = "/".join([os.normpath("/".join(names[:at])), *names[at:]])
    parts = text.split("/", 3)
    if len(parts) < 4 or parts[1] != "proc":
        return None
    pid, after = parts[2], parts[3]
    steps = after.split("/")
    while steps and (steps[0] in (".", "") or (steps[0] == "task" and len(steps) > 1)):
        if steps[0] == "task":
            if not _process(steps[1]):
                return None
            steps = steps[2:]  # /proc/PID/task/TID/...: the process's own links
        else:
            steps = steps[1:]
    after = "/".join(steps)
    if not _process(pid):
        return None
    if any(c in pid for c in "*?["):
        pid = "$"  # /proc/*/root, /proc/*/cwd: the shell's own among the processes
    link = next((n for n in ("root", "cwd") if after.startswith(n)), None)
    rest = after[len(link) :] if link is not None else ""
    if link is None or (rest and rest[0] not in "/$"):  # (root$HOME: / comes with HOME)
        return None
    if link == "root":
        return "/" + rest.lstrip("/")
    if not cwd or not (pid in _PROC_SELVES or pid.startswith("$")):
        return None  # another process's cwd: realpath reads the link
    return cwd.rstrip("/") + "/" + rest.lstrip("/")


# ${HOME-x}, ${HOME:=x}, ${HOME:?x}: $HOME itself while HOME is set and not empty
_HOME_DEFAULTS = (":-", "-", ":=", "=", ":?", "?")


def _home_expanded(text: str, home: str) -> str | None:
    """``text`` with each ``$HOME`` and ``${HOME...}`` replaced by its value, anywhere in
    the word (``/proc/self/root$HOME/.aws``, red team s30 F; ``${HOME:-x}``, ``${HOME%/}``,
    s30 D); None where a form's value is not known here."""
    if not home:
        return None
    out: list[str] = []
    i = 0
    while True:
        at = text.find("$HOME", i)
        braced = text.find("${HOME", i)
        if at < 0 and braced < 0:
            out.append(text[i:])
            return "".join(out)
        if braced >= 0 and (at < 0 or braced < at):
            end = _brace_end(text, braced + 2)
            rest = text[braced + 6 : end] if end > 0 else ""
            if end < 0 or any(q in rest for q in "'\"\\"):
                return None
            value: object = home  # (a default is never expanded while HOME is set)
            if rest and not any(rest.startswith(op) for op in _HOME_DEFAULTS):
                from hookwise.shell.variables import operator_value

                value, _known = operator_value(home, True, rest)  # ${HOME%/}, ${HOME:0}
            if not isinstance(value, str):
                return None
            out += [text[i:braced], value]
            i = end + 1
            continue
        after = text[at + 5 : at + 6]
        if after.isalnum() or after == "_":
            return None  # $HOMEDIR: another variable
        out += [text[i:at], home]
        i = at + 5


def _with_defaults(word: str, home: str) -> str | None:
    """``word`` with each ``${NAME:-x}`` (``-``, ``:=``, ``=``, ``:+``, ``+``) read as its
    literal ``x``: the value when the environment's NAME is unset, or set for ``+`` (red
    team s30 D); None when there is none, or a word is not literal."""
    out: list[str] = []
    i = 0
    while True:
        at = word.find("${", i)
        if at < 0:
            out.append(word[i:])
            break
        end = _brace_end(word, at + 2)
        if end < 0:
            return None
        body = word[at + 2 : end]
        cut = next((k for k, c in enumerate(body) if not (c.isalnum() or c == "_")), len(body))
        op = body[cut : cut + 2] if body[cut : cut + 1] == ":" else body[cut : cut + 1]
        fill = body[cut + len(op) :]
        if not cut or op not in (":-", "-", ":=", "=", ":+", "+") or not fill:
            out.append(word[i : end + 1])
        elif any(c in fill for c in "`'\"\\") or ("$" in fill and "HOME" not in fill):
            return None
        else:
            out += [word[i:at], fill]
        i = end + 1
    made = "".join(out)
    if "$" in made:  # ${XDG_CONFIG_HOME:-$HOME/.config}
        made = _home_expanded(made, home) or word
    return made if made != word and "$" not in made else None


def _brace_end(text: str, i: int) -> int:
    """Where the ``}`` closing the ``${`` before ``i`` is (-1: none)."""
    depth = 1
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if not depth:
                return i
        i += 1
    return -1


def tool_paths(raw: str, cwd: str, home: str) -> list[PathRef]:
    """A file tool's path argument (Write's ``file_path``, an MCP tool's ``path``): text no
    shell expands, so ``$``, a backtick and ``~user`` are characters of a name and ``..``
    is normalised lexically, as Node's ``path.resolve`` and the servers do
    (``$x/../.env`` is ``.env``, never an unknown path that no rule matches). A leading
    ``~`` or ``$HOME``, which a host or server may expand or not, is read expanded, and
    literally too when a ``..`` leaves that name (``~/../protected/x`` is ``protected/x``
    where nothing expands it); rules judge every path, so the stricter one wins."""
    shell = resolve_path(raw, cwd, home)
    if "$" not in raw and "`" not in raw and raw[:1] != "~":
        return [shell]
    if not raw.startswith(("~", "$HOME", "${HOME}")):  # (only a leading one may expand)
        shell = PathRef(raw, None, None)
    literal = _anchored(raw, raw, cwd)
    if shell.absolute is None:
        return [literal]
    if shell.absolute == literal.absolute or ".." not in raw.split("/"):
        return [shell]
    return [shell, literal]


# the start of a path the kernel reading cannot know yet (kernel_path): NUL is in no real
# path, so nothing but the guards' tail test (``endswith``) can match it
UNKNOWN_DIR = "\0?"


def kernel_path(text: str, cwd: str, made: tuple[str, ...] = ()) -> str | None:
    """``text`` (expanded, not normalised) as open(2) reads it, or None when that is the
    lexical reading: each ``..`` is taken from where the links before it lead (``l/../x``
    with ``l -> /a/b`` is ``/a/x``), where Node's ``path.resolve`` and bash's ``cd`` take it
    lexically. When a name before a ``..`` does not exist yet, or is one of ``made`` (what
    the same command line creates, moves or links: ``ln -s D l; cp x l/../policy.yaml``), the
    kernel's file is unknown now: ``UNKNOWN_DIR`` + the part after the last ``..``, which
    can be under any directory. Red team s27 F5/F15."""
    if not text or ".." not in text.split("/"):
        return None
    joined = text if text.startswith("/") else (cwd.rstrip("/") or "") + "/" + text
    parts = joined.split("/")
    for index, part in enumerate(parts):
        if part != ".." or index == 0:
            continue
        before = "/".join(parts[:index]) or "/"
        lexical = os.path.normpath(before)
        if before.rstrip("/").endswith("/..") or lexical == "/":
            continue  # (a ``..`` run: its first one was looked at)
        if not os.path.isdir(before) or any(
            lexical == m or lexical.startswith(m.rstrip("/") + "/") for m in made
        ):
            last = len(parts) - 1 - parts[::-1].index("..")
            return UNKNOWN_DIR + "/" + "/".join(p for p in parts[last + 1 :] if p not in ("", "."))
    real = os.realpath(joined)
    return None if real == os.path.normpath(joined) else real


def _strings(value: object, depth: int = 0) -> Iterator[str]:
    """Every string in a tool's arguments, under any key, at any depth."""
    if depth > 256:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def uri_files(args: object, cwd: str, home: str) -> list[str]:
    """Every file a URI in a tool's arguments may name (under any key, at any depth; a
    ``file:`` URI or any other scheme but the network's, read as ``resources/read`` reads
    it: ``uri_paths.argument_paths``), absolute: as written, links resolved (a server
    follows them), and a ``..`` after a link as the kernel takes it (red team s27 F5). One
    reading for the MCP proxy's tool calls (integrations/file_uri.uri_reading) and the
    hook's MCP tools under any host's naming (:attr:`Event.paths`: red team s29 F6)."""
    found: list[str] = []
    for text in _strings(args):
        if ":" not in text:
            continue  # no URI: uri_paths (and ``re``) stay unloaded
        from hookwise.policy.uri_paths import argument_paths  # (only for such a value)

        for path in argument_paths(text) or ():
            absolute = tool_paths(path, cwd, home)[0].absolute
            if absolute is None:
                continue
            physical = kernel_path(path, cwd)
            if physical is not None and physical.startswith(UNKNOWN_DIR):
                physical = None  # a name before the `..` is missing: open(2) fails there
            for spelling in (absolute, os.realpath(absolute), physical):
                if spelling is not None and spelling not in found:
                    found.append(spelling)
    return found


def _anchored(raw: str, text: str, cwd: str) -> PathRef:
    """``text`` (``raw`` once expanded) made absolute against ``cwd``, ``..`` normalised."""
    if not text:
        return PathRef(raw, None, None)
    absolute = os.path.normpath(text if text.startswith("/") else os.path.join(cwd or "/", text))
    if absolute.startswith("//"):
        absolute = "/" + absolute.lstrip("/")
    base = os.path.normpath(cwd) if cwd else ""
    relative: str | None = None
    if base:
        if absolute == base:
            relative = "."
        elif absolute.startswith(base.rstrip("/") + "/"):
            relative = absolute[len(base.rstrip("/")) + 1 :]
    return PathRef(raw, absolute, relative)


def resolved(ref: PathRef, cwd: str) -> PathRef | None:
    """``ref`` as the file system resolves it from the event's cwd (symlinks followed,
    ``realpath``: loops left as they are, at most the kernel's hops each), or None when that
    is the same path or unknown. A link made by an earlier call (``ln -s .env a.txt``) makes
    a Write of ``a.txt`` a write of ``.env``: file rules judge both names. Computed once."""
    if ref.linked is False:
        ref.linked = None
        if ref.absolute is not None and not ref.pattern:
            real = os.realpath(ref.absolute)
            if real == ref.absolute:
                real = _hard_linked(real, cwd) or real
            if real != ref.absolute:
                ref.linked = PathRef(ref.raw, real, _relative(real, cwd), ref.command)
                ref.linked.tree = ref.tree
    return ref.linked if isinstance(ref.linked, PathRef) else None


def swappable_link(absolute: str) -> tuple[str, str] | None:
    """The first symbolic link to a directory on ``absolute`` that the session can change
    (a directory at or above the link's own is writable: the link can be replaced, or a
    directory above it renamed and another put in its place), and the part of the path
    after it; None when the path goes through none. Where such a path leads is decided when
    the call arrives and opened a moment later: the link may name another directory by then
    (red team s29 F1: a loop of ``ln -sfn ~/.config cfg; ln -sfn real cfg``), so the part
    after it can be under any directory. (The last name is not looked at: a file there can
    be swapped for a link as well as a link can, and is judged as it resolves now.)"""
    parts = [p for p in absolute.split("/") if p]
    writable = False
    at = ""
    for index, part in enumerate(parts[:-1]):
        if not writable:
            writable = os.access(at or "/", os.W_OK)
        at = f"{at}/{part}"
        try:
            mode = os.lstat(at).st_mode
        except (OSError, ValueError):
            return None  # not there: nothing further to follow now
        if os.S_ISLNK(mode) and writable:
            return at, "/".join(parts[index + 1 :])
    return None


def linked_files(events: list[Event]) -> list[str]:
    """The files the path arguments of the events' file tools (not a shell's words) lead
    to through a link, as the rules resolve them (:func:`resolved`): an ask names them
    (:func:`file_lines`), for the person allows what is written, not only what is named
    (``tests/fixtures/ssh`` shown, ``~/.ssh/authorized_keys`` written: red team s28 F10)."""
    out: list[str] = []
    for ev in events:
        if ev.tool is None or ev.tool == SHELL:
            continue
        for ref in ev.paths:
            real = resolved(ref, ev.cwd or "")
            if real is not None and real.absolute is not None:
                out.append(real.absolute)
    return out


def file_lines(paths: Iterable[str]) -> list[str]:
    """``file: PATH`` for each file a call is decided on besides its paths as written, once
    each: the hook's ask reason and the MCP proxy's elicitation name them alike."""
    return [f"file: {path}" for path in dict.fromkeys(paths)]


_SIBLINGS = 512  # names looked at per directory for a hard link's other name


def _hard_linked(path: str, cwd: str) -> str | None:
    """Another name of a regular file with more than one link (``ln .env notes.txt`` by an
    earlier call), found in its own directory or the event's cwd (bounded: a name elsewhere
    is not searched for), or None. Its dot names first: secrets hide there."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if st.st_nlink < 2 or not os.S_ISREG(st.st_mode):
        return None
    for directory in dict.fromkeys([os.dirname(path), cwd]):
        try:
            names = os.listdir(directory or ".")[:_SIBLINGS]
        except (OSError, ValueError):
            continue
        for name in sorted(names, key=lambda n: n[:1] != "."):
            other = os.join(directory, name)
            if other == path:
                continue
            try:
                found = os.lstat(other)
            except (OSError, ValueError):
                continue
            if found.st_ino == st.st_ino and found.st_dev == st.st_dev:
                return other
    return None


def _fed_code(script: Script, cwd: str, env: dict[str, str]) -> None:
    """A script file on the disk that is a FIFO, a socket or a device (made by an earlier
    call): what it gives the shell is what a writer says when it runs, so the command
    is unverifiable (red team s28 A's note; session 29). Looked at with stat, never
    opened."""
    home = env.get("HOME") or ""
    places = command_dirs(script.commands, cwd, home, None, env.get("CDPATH"))
    dirs = {id(c): d for c, d in zip(script.commands, places, strict=True)}
    for command, operand in script.disk_code:
        where = dirs.get(id(command), cwd)
        path = resolve_path(operand, where or "", home, where is None).absolute
        try:
            found = os.stat(path) if path is not None else None
            null = os.stat("/dev/null").st_rdev
        except OSError:
            continue  # (not there: the shell fails; a dangling or looping name too)
        mode = found.st_mode if found is not None else 0
        if os.S_ISCHR(mode) and found is not None and found.st_rdev == null:
            continue  # (the null device gives nothing)
        if found is not None and not os.S_ISREG(mode) and not os.S_ISDIR(mode):
            kind = "a FIFO" if os.S_ISFIFO(mode) else "a socket or device"
            command.unverifiable = command.unverifiable or (
                f"{command.program} runs {operand}, {kind} on the disk: what it gives is "
                "known only when it runs"
            )


def _kept_refs(
    names: tuple[str, ...], where: str | None, cwd: str, home: str
) -> tuple[PathRef, ...] | None:
    """A copy's kept names (shell/written.kept_names) as paths resolved in ``where``, or
    None when one is a name another program may read out (rules/kept.py)."""
    from hookwise.policy.rules.kept import kept_places

    if where is None or not cwd or not names:
        return None
    refs = []
    for name in names:
        ref = resolve_path(name, where, home)
        ref.relative = _relative(ref.absolute, cwd)
        if ref.absolute is None or ref.relative in (None, "."):
            return None
        refs.append(ref)
    places = [(ref.absolute or "", ref.relative or "") for ref in refs]
    return tuple(refs) if kept_places(cwd, places) else None


def _kept_unread(refs: list[PathRef], copies: dict[int, int]) -> None:
    """A copy's kept names that another command of the line (not the copy itself: ``cp -r``
    names its own operands as trees) reads as a tree or a pattern are not kept
    (rules/kept.py): the copy is a read again. ``copies``: each reading's copy."""
    from hookwise.policy.rules.kept import read_elsewhere

    for ref in refs:
        if ref.kept is not None:
            mine = (ref.command, copies.get(ref.command, ref.command))
            others = [other for other in refs if other.command not in mine]
            if read_elsewhere(ref.kept, others):
                ref.kept = None


def _relative(absolute: str | None, cwd: str) -> str | None:
    """``absolute`` relative to the event's cwd (None: outside it, or unknown)."""
    if absolute is None or not cwd:
        return None
    base = os.path.normpath(cwd)
    if absolute == base:
        return "."
    if absolute.startswith(base.rstrip("/") + "/"):
        return absolute[len(base.rstrip("/")) + 1 :]
    return None


# options whose value is a name to leave out or a file loaded as the environment (read
# as ``source`` by the parser), never a file the program reads into its output
_NOT_FILE_OPTIONS = ("exclude", "ignore", "skip", "env-file", "envfile", "glob", "filter")


def embedded_paths(word: str) -> list[str]:
    """The paths a word names inside it, as the program reads it: a response file
    ``@F``, an option's value ``--post-f=F``, ``name=<F`` and ``name=@F`` (curl -F), a
    value attached to a short option in a cluster (``-sT.env``, ``-o.hookwise/x``: every
    suffix after the letters, where it looks like a file), and each item of an option's
    comma list (``-Wl,-Map,F``). A rule on the file holds for these spellings as for the
    file named alone (``curl -T .env``); self-protection reads the same pieces
    (trust/named_places.py)."""
    out: list[str] = []
    if word[0] == "@" and len(word) > 1:
        out.append(word[1:])
    name, equals, value = word.partition("=")
    if equals and not any(n in name.lower() for n in _NOT_FILE_OPTIONS):
        if value[:1] in ("@", "<") and len(value) > 1:
            out.append(value[1:])
        elif value and name[:1] == "-":  # (make VAR=.env sets a variable: no file read)
            out.append(value)
    elif not equals and "<" in word and word[0] != "-":
        out.append(word.split("<", 1)[1])
    if word[0] == "-" and word[1:2].isalpha() and not equals:
        for at in range(2, min(len(word), 18)):
            if not word[at - 1].isalpha():
                break
            rest = word[at:]
            if not rest.isalnum() and rest[:1] != "-":
                out.append(rest)
    if word[0] == "-" and "," in word:
        # a list passed through to another program (gcc's -Wl,-Map,F, -Wp,-MD,F, -Wa,-a=F;
        # perl's -MO=Xref,-oF): each item is read as a word of its own
        for item in word.split(",")[1:]:
            out += embedded_paths(item) if item[:1] in ("-", "@") else [item]
    # (a value with no . / ~ _ is a word, not a file any rule names: --mode=production;
    # one with $ is a file known when it runs: @"$x", @"${BASH_REMATCH[1]}")
    return [p for p in out if p and p[0] not in "-<>|&" and any(c in p for c in "./~_$")]


def command_dirs(
    commands: list[Command],
    cwd: str,
    home: str,
    chosen: list[bool] | None = None,
    cdpath_env: str | None = None,
) -> list[str | None]:
    """The directory each simple command runs in, following ``cd``/``pushd`` along the line
    (None once a ``cd`` goes somewhere only known at run time). ``chosen`` gets, for each,
    whether that unknown place is one the line chose (``cd $(printf ...)``, ``cd ~/.aw[s]``,
    CDPATH) rather than the environment's own (``cd "$DIR"``, ``cd $(mktemp -d)``): a
    relative path there could be any protected file (maybe.could_be_path).
    ``cdpath_env``: the CDPATH the shell inherits (the event's environment): with a
    directory in it besides the working one, ``cd NAME`` may go there (session 29)."""
    out: list[str | None] = []
    where: str | None = cwd or None
    picked = False  # the unknown place was chosen on the line
    # CDPATH=/ cd etc goes to /etc (on the line, or inherited), OLDPWD: cd - goes back
    cdpath = any(entry not in ("", ".") for entry in (cdpath_env or "").split(":"))
    home_set = False  # HOME=x; cd goes to x (red team s27 C)
    # the subshells entered, with where the line was then: a cd in ``( ... )`` or in a
    # pipeline's part ends with it (red team s35 J: ``(cd t && ...) | (cd ../bin && cpio
    # -id)`` extracts into ../bin from the project, not from t)
    entered: list[tuple[int, str | None, bool]] = []
    for cmd in commands:
        group = getattr(cmd, "group", ())
        while entered and tuple(e[0] for e in entered) != group[: len(entered)]:
            _, where, picked = entered.pop()
        entered += [(g, where, picked) for g in group[len(entered) :]]
        home_set = (
            home_set
            or "HOME" in cmd.assigned
            or any(w.startswith(("HOME=", "HOME+=")) for w in cmd.argv[1:])
        )
        cdpath = cdpath or "CDPATH" in cmd.assigned or _sets_cd_search(cmd)
        if cmd.chdir is not None and where is not None:  # env -C DIR cmd: cmd runs in DIR
            out.append(resolve_path(cmd.chdir, where, home).absolute)
        else:
            out.append(where)
        if chosen is not None:
            chosen.append(where is None and picked)
        if cmd.argv and cmd.argv[0] in ("cd", "pushd", "popd") and where is not None:
            args = [w for w in cmd.argv[1:] if not (w.startswith("-") and len(w) > 1)]
            if cmd.argv[0] == "popd" or args[:1] == ["-"] or _stack_turn(cmd.argv[0], args):
                where = None  # the directory stack is not followed
                picked = True  # (it holds what this line's cds chose)
            elif not args:
                where = None if home_set else (home or None)
                picked = picked or home_set
            elif (
                not home_set
                and 1 not in cmd.globs
                and ("HOME" in args[0] or args[0].startswith(("$PWD", "${PWD}")))
                and _known_value((cmd.shapes or {}).get(1))
                and resolve_path(args[0], where, home).absolute is not None
            ):  # cd "$HOME/.aws": the environment's HOME, known here (session 31); cd
                # $(pwd)/..: the directory it is in (red team s32 A)
                where = resolve_path(args[0], where, home).absolute
            elif (
                any(cmd.dynamic[1:])
                or 1 in cmd.globs  # cd ~/.aw[s]: the directory bash's pattern finds
                or (  # CDPATH is searched for any name but /..., ./..., ../...
                    cdpath
                    and not args[0].startswith(("/", "./", "../"))
                    and args[0] not in (".", "..")
                )
            ):
                where = None
                shape = (cmd.shapes or {}).get(1)
                picked = not (shape and (("E",) in shape or ("/",) in shape))
                if shape and not picked:
                    from hookwise.shell.variables import past_parent  # (cold)

                    # cd $(mktemp -d)/..: above the environment's directory, any one
                    picked = past_parent(shape) is not None
            else:
                where = resolve_path(args[0], where, home).absolute
    return out


def _known_value(shape: tuple[tuple[str, ...], ...] | None) -> bool:
    """Whether a word's expansions are the environment's own paths as the hook knows
    them ($HOME, $PWD, none the line assigns: those are made on the line)."""
    return shape is None or all(t[0] in ("L", "/") for t in shape)


def _sets_cd_search(cmd: Command) -> bool:
    """Whether ``cmd`` may make a later ``cd NAME`` search elsewhere than ``./NAME`` (red
    team s29 D): CDPATH named in any of its words (``export CDPATH=~``, ``read CDPATH``,
    ``printf -v CDPATH``, ``declare``), or ``cdable_vars`` (``cd h`` goes to ``$h``) set by
    ``shopt`` or a shell's options (a computed option could be it)."""
    words = cmd.argv[1:]
    if any("CDPATH" in w for w in words):
        return True
    if "BASHOPTS" in cmd.assigned or "SHELLOPTS" in cmd.assigned:
        return True
    if cmd.argv[:1] == ["shopt"] or any(w in ("-O", "+O") for w in words):
        return "cdable_vars" in words or any(cmd.dynamic[1:])
    return False


def _stack_turn(program: str, args: list[str]) -> bool:
    """``pushd`` with no directory swaps the stack's top two, ``pushd +N``/``-N`` rotates
    it: the directory is one an earlier ``pushd`` put there, not followed here."""
    if program != "pushd":
        return False
    return not args or (args[0][:1] in "+-" and args[0][1:].isdigit())


_HEX = "0123456789abcdefABCDEF"


def url_decoded(word: str) -> str | None:
    """A URL's word with its %XX escapes decoded (None: no URL, or nothing encoded): the
    server or the file:// reader decodes them, so ``/%2eenv`` names ``/.env`` (red team s27
    Q); a ``file:`` URL is then its path, encoded or not (``curl file:///etc/x``)."""
    is_file = word[:5].lower() == "file:"
    if not is_file and ("%" not in word or "://" not in word):
        return None
    out: list[str] = []
    i = 0
    while i < len(word):
        if word[i] == "%" and i + 2 < len(word) and word[i + 1 : i + 3].strip(_HEX) == "":
            out.append(chr(int(word[i + 1 : i + 3], 16)))
            i += 3
        else:
            out.append(word[i])
            i += 1
    decoded = "".join(out)
    if decoded[:7].lower() == "file://":  # curl file:///etc/x, file://localhost/etc/x
        decoded = decoded[7:]
        decoded = decoded[decoded.find("/") :] if "/" in decoded else decoded
    elif is_file:  # file:/etc/x, file:.env
        decoded = decoded[5:]
    return decoded if decoded != word else None


# how a line shows an option that gives a client its URLs in a file or stdin (``wget -i
# -``, ``curl -K F``: stored_logins._URL_FILES), the cheap test before loading it
_URL_FILE_WORDS = (" -i", " -K", " --input", " --conf")
_URL_ENDS = frozenset(" \t\n\"'`()<>;,|&")


def embedded_urls(word: str) -> list[str]:
    """The paths of the ``file:`` URLs with %XX escapes inside a longer word: code that
    opens one (``urlopen("file:///proc/self/cwd/%2eenv")``) reads the file it decodes to
    (red team s27 Q), as a URL given as a word does (url_decoded)."""
    out: list[str] = []
    start = word.find("file:", 1)
    while start > 0:
        end = start
        while end < len(word) and word[end] not in _URL_ENDS:
            end += 1
        decoded = url_decoded(word[start:end])
        if decoded is not None:
            out.append(decoded)
        start = word.find("file:", end)
    return out


def _tail_shape(shape: tuple[tuple[str, ...], ...], cut: int) -> tuple[tuple[str, ...], ...]:
    """A word's shape without its first ``cut`` literal characters (``@`` of ``@$x``)."""
    out = list(shape)
    while cut > 0 and out and out[0][0] == "L":
        text = out[0][1]
        out[0] = ("L", text[cut:])
        cut -= len(text)
        if not out[0][1]:
            out.pop(0)
    return tuple(out) if cut <= 0 else (("*",),)


def _under_unknown_dir(word: str, pattern: bool = False) -> tuple[tuple[str, ...], ...] | None:
    """A relative path after a ``cd`` to a directory known only when it runs: any
    directory, then the word (``C``: maybe.could_be_path matches it by its tail). A
    pattern's wildcards (``*``, ``?``, ``[...]``) are any text there: what they match in
    that directory is not on this disk to look at (red team s31 C: ``CDPATH=~ cd .aws &&
    cat *``)."""
    if word.startswith(("/", "~", "$")):
        return None
    tail = "/" + word.removeprefix("./")
    if not pattern:
        return (("C",), ("L", tail))
    from hookwise.shell.commands.glob_frame import frame

    return (("C",), *frame(tail))


class HookEnv(dict[str, str]):
    """The hook process's own environment (policy/hook.py). What ``env.`` conditions read
    of it is env_origin.condition_env's, worked out the first time a condition reads it
    (red team s28 run #3: a variable a host exported from a project env file must not make
    a rule weaker); any other mapping (tests, scenarios, the API) is read as given."""

    def for_conditions(self, host: str, cwd: str) -> dict[str, str]:
        views: dict[tuple[str, str], dict[str, str]] = self.__dict__.setdefault("views", {})
        if (host, cwd) not in views:
            from hookwise.policy.env_origin import condition_env

            views[(host, cwd)] = condition_env(self, host, [cwd or os.getcwd(), os.getcwd()])
        return views[(host, cwd)]


class Event:
    """One canonical event as the rules see it; expensive views are computed once."""

    __slots__ = (
        "_cache",
        "cwd",
        "env",
        "host",
        "host_event",
        "host_tool",
        "input",
        "mcp_args",
        "name",
        "now",
        "payload",
        "prompt",
        "raw_input",
        "response",
        "session",
        "stop_hook_active",
        "tool",
    )

    def __init__(
        self,
        name: str,
        host: str,
        host_event: str,
        payload: dict[str, Any],
        *,
        host_tool: str | None = None,
        raw_input: dict[str, Any] | None = None,
        prompt: str | None = None,
        response: str | None = None,
        env: dict[str, str] | None = None,
        now: float = 0.0,
        tool: str | None = None,
        mapped_input: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.host = host
        self.host_event = host_event
        self.payload = payload
        self.host_tool = host_tool
        # ``tool``: the canonical name when the caller mapped it (the framework bridges,
        # whose tool names are no host's); else the host's table decides
        if tool is None and host_tool:
            tool = canonical_tool(host, host_tool)
        self.tool = tool
        self.raw_input = raw_input if raw_input is not None else {}
        # ``mapped_input``: the arguments in the keys the rules read, of an MCP tool mapped
        # by its own name (tool_input.mcp_call); its host's own are then ``mcp_args``
        self.mcp_args = None if mapped_input is None else self.raw_input
        self.input = normalise_input(self.raw_input if mapped_input is None else mapped_input)
        cwd = payload.get("cwd")
        self.cwd = cwd if isinstance(cwd, str) else ""
        session = payload.get("session_id")
        self.session = session if isinstance(session, str) else ""
        self.prompt = prompt
        self.response = response
        self.stop_hook_active = payload.get("stop_hook_active") is True
        self.env = env if env is not None else {}
        self.now = now
        self._cache: dict[str, Any] = {}

    def derived(
        self,
        name: str,
        host_tool: str | None,
        raw_input: dict[str, Any],
        mapped: dict[str, Any] | None = None,
    ) -> Event:
        """The same event for another canonical name, or with rewritten input; ``mapped``:
        the rewritten arguments of an MCP tool mapped by its own name, mapped again (the
        caller maps them: tool_input.mcp_call), so the rewritten call is read as the first."""
        return Event(
            name,
            self.host,
            self.host_event,
            self.payload,
            host_tool=host_tool,
            raw_input=raw_input,
            prompt=self.prompt,
            response=self.response,
            env=self.env,
            now=self.now,
            tool=self.tool if host_tool == self.host_tool else None,
            mapped_input=mapped,
        )

    # -- views --------------------------------------------------------------------

    @property
    def mcp(self) -> tuple[str, str] | None:
        """(server, tool) of an MCP tool: the first of :func:`mcp_readings` (the others
        are decided on by rules/engine._mcp_unsure), or a resource tool's server."""
        if "mcp" not in self._cache:
            readings = mcp_readings(self.host_tool, self.payload) if self.host_tool else []
            found = readings[0] if readings else None
            if found is None and self.tool == MCP_RESOURCE:
                found = mcp_resource_call(self.host_tool, self.input)
            self._cache["mcp"] = found
        result: tuple[str, str] | None = self._cache["mcp"]
        return result

    def as_mcp(self, reading: tuple[str, str]) -> Event:
        """This event as a call of MCP tool ``reading`` (server, tool), its name read
        otherwise (:func:`mcp_readings`); arguments and canonical tool kept."""
        other = Event(self.name, self.host, self.host_event, self.payload,
                      host_tool=self.host_tool, raw_input=self.raw_input, prompt=self.prompt,
                      response=self.response, env=self.env, now=self.now, tool=self.tool,
                      mapped_input=None if self.mcp_args is None else self.input)  # fmt: skip
        other._cache["mcp"] = reading
        return other

    @property
    def command(self) -> str | None:
        """The shell command line of a shell tool (or of Codex's apply_patch: None)."""
        if "command" not in self._cache:
            value: str | None = None
            if self.tool == SHELL:
                raw = self.input.get("command")
                if isinstance(raw, str):
                    value = raw
                elif isinstance(raw, list):
                    value = shell_join(raw)
            self._cache["command"] = value
        result: str | None = self._cache["command"]
        return result

    @property
    def script(self) -> Script | None:
        if "script" not in self._cache:
            command = self.command
            if command is None:
                self._cache["script"] = None
            else:
                from hookwise.shell.parser import split_command

                script = self._cache["script"] = split_command(command, self.env.get("HOME"))
                if script.disk_code:  # bash p, . p, sh < p: a FIFO at p is no file of code
                    _fed_code(script, self.shell_cwd, self.env)
                if script.git_unresolved:  # git SUB, SUB none of git's: an alias on disk?
                    from hookwise.shell.commands.git_aliases import resolve_aliases

                    home = self.env.get("HOME") or ""
                    places = command_dirs(
                        script.commands, self.shell_cwd, home, None, self.env.get("CDPATH")
                    )
                    dirs = {id(c): d for c, d in zip(script.commands, places, strict=True)}
                    resolve_aliases(script, self.shell_cwd, self.env, dirs=dirs)
                if "://" in command or any(w in command for w in _URL_FILE_WORDS):
                    # a URL, or URLs read from a file or stdin: a stored login goes there too
                    from hookwise.shell.commands.stored_logins import default_logins

                    default_logins(script, self.env)
        result: Script | None = self._cache["script"]
        return result

    @property
    def trees(self) -> dict[str, tuple[list[str], bool]]:
        """What each tree the command reads holds, looked at once, and whether the look
        saw all of it (rules/trees.py)."""
        found: dict[str, tuple[list[str], bool]] = self._cache.setdefault("trees", {})
        return found

    @property
    def shell_cwd(self) -> str:
        """Where a shell tool runs its command: the event's cwd, or the directory argument
        the tool takes (Gemini's ``dir_path``/``directory``, Codex's ``workdir``), resolved
        against it; unknown ("") when that argument cannot be resolved."""
        if self.tool != SHELL:
            return self.cwd
        for key in ("path", "workdir", "cwd"):
            value = self.input.get(key)
            if isinstance(value, str) and value:
                home = self.env.get("HOME") or ""
                return resolve_path(value, self.cwd, home).absolute or ""
        return self.cwd

    @property
    def acts_as(self) -> str | None:
        """The canonical tool this call also is for ``tool:`` rules: a host's resource tool
        reading a resource is a ``read``, as the proxy decides ``resources/read``."""
        if self.tool != MCP_RESOURCE:
            return None
        return RESOURCE_METHOD_TOOLS.get(resource_method(self.input))

    def _resource_paths(self, home: str) -> list[PathRef]:
        """The files a host's resource tool may read through its URI (Gemini's
        ``SERVER:URI`` after its server; any scheme a server maps to files:
        ``uri_paths.resource_paths``), as the MCP proxy's ``resources/read`` decides them:
        ``files:`` rules hold for ReadMcpResourceTool as for Read (red team s27 F18, s28 F9)."""
        uri = self.input.get("uri")
        if not isinstance(uri, str):
            return []
        if self.host_tool in SERVER_IN_URI:
            uri = uri.partition(":")[2]
        from hookwise.policy.uri_paths import resource_paths  # (only for such a tool)

        found = resource_paths(uri) or ()
        return [ref for path in found for ref in tool_paths(path, self.cwd, home)]

    @property
    def patch(self) -> str | None:
        """The patch text of an apply_patch call."""
        if self.host_tool != "apply_patch":
            return None
        raw = self.input.get("command", self.input.get("patch", self.input.get("input")))
        if isinstance(raw, list):
            raw = next((x for x in raw if isinstance(x, str) and "*** Begin Patch" in x), None)
        return raw if isinstance(raw, str) else None

    @property
    def paths(self) -> list[PathRef]:
        """Every path argument (shell: the commands' arguments and redirect targets)."""
        cached = self._cache.get("paths")
        if cached is not None:
            result: list[PathRef] = cached
            return result
        home = self.env.get("HOME") or ""
        refs: list[PathRef] = []
        # a file tool's paths are literal text (tool_paths); a shell tool's ``path`` is
        # its working directory (shell_cwd), read as before
        literal = self.tool != SHELL
        for key in PATH_KEYS:
            value = self.input.get(key)
            if isinstance(value, str) and value:
                if literal:
                    refs.extend(tool_paths(value, self.cwd, home))
                else:
                    refs.append(resolve_path(value, self.cwd, home))
        for key in PATH_LIST_KEYS:
            values = self.input.get(key)
            if isinstance(values, list):
                for v in values:
                    if isinstance(v, str) and v:
                        refs.extend(tool_paths(v, self.cwd, home))
        if literal and "file_paths" not in self.input and moves_files(self.host_tool or ""):
            # an MCP move or copy (mcp__fs__move_file {source, destination}) as a host's
            # hook sees it: both paths, as the MCP proxy reads them (red team s28 F1)
            for key in MOVE_PATH_KEYS:
                value = self.input.get(key)
                if isinstance(value, str) and value:
                    refs.extend(tool_paths(value, self.cwd, home))
        if self.tool not in CANONICAL_TOOLS or self.mcp_args is not None:
            # an MCP tool (``mcp__fs__read_resource``, Gemini's ``mcp_fs_read_resource``) or
            # any tool the host tables do not map: a URI under any key is the files it
            # names, as the MCP proxy reads it (red team s29 F6)
            for path in uri_files(self.input, self.cwd, home):
                refs.extend(tool_paths(path, self.cwd, home))
        if self.tool == MCP_RESOURCE:
            refs.extend(self._resource_paths(home))
        edits = self.input.get("edits")
        if isinstance(edits, list):
            for edit in edits:
                if isinstance(edit, dict) and isinstance(edit.get("file_path"), str):
                    refs.extend(tool_paths(edit["file_path"], self.cwd, home))
        patch = self.patch
        if patch is not None:
            for p in patch_paths(patch):
                refs.extend(tool_paths(p, self.cwd, home))
        if literal:
            self._tool_reach(refs)
        if literal:  # through a link the session can change: known only when it opens
            for ref in refs:
                if ref.absolute is not None and ref.shape is None:
                    swapped = swappable_link(ref.absolute)
                    if swapped is not None:
                        ref.shape = (("K", swapped[0]), ("L", "/" + swapped[1]))
        script = self.script
        if script is not None:
            from hookwise.shell.programs import (  # loaded with the parser
                TREE_READERS,
                excluded_words,
                reads_tree,
            )

            chosen: list[bool] = []
            dirs = command_dirs(
                script.commands, self.shell_cwd, home, chosen, self.env.get("CDPATH")
            )
            copies: dict[int, int] = {}  # a source's reading: the copy's own command
            for index, cmd in enumerate(script.commands):
                where = dirs[index]
                kept = None
                if cmd.kept is not None:  # cp .env .env.bak: where the sources stay
                    kept = _kept_refs(cmd.kept[1], where, self.cwd, home)
                    if kept is not None:
                        copies[index] = script.commands.index(cmd.kept[0])
                shapes = cmd.shapes
                globs = cmd.globs
                tree = False
                if cmd.program in TREE_READERS:
                    tree = reads_tree(cmd.program, cmd.argv)
                excluded = excluded_words(cmd.program, cmd.argv)
                deep = "globstar" in script.globopts  # (** in a pattern: any depth)
                run = cmd.argv[0] if cmd.argv and not cmd.dynamic[0] else ""
                if "/" in run and (run[:1] != "/" or run.startswith(home + "/")):
                    # ./server.pem run as a program: the shell reads it, and its errors
                    # print its lines (red team s30 L); a system program is not judged so
                    ref = resolve_path(run, where or "", home, where is None)
                    ref.relative = _relative(ref.absolute, self.cwd)
                    ref.command = index
                    refs.append(ref)
                for at, (word, dynamic) in enumerate(
                    zip(cmd.argv[1:], cmd.dynamic[1:], strict=False), start=1
                ):
                    if not word or at in excluded:
                        continue
                    decoded = url_decoded(word)
                    found = [decoded] if decoded is not None else []
                    if "%" in word and "file:" in word[1:]:
                        found += embedded_urls(word)
                    for path in found:  # file:///proc/self/cwd/%2eenv names .env
                        ref = resolve_path(path, where or "", home, where is None)
                        ref.relative = _relative(ref.absolute, self.cwd)
                        ref.command = index
                        refs.append(ref)
                    if word[0] in "-@" or "=" in word or "<" in word:
                        for inner in embedded_paths(word):
                            ref = resolve_path(inner, where or "", home, dynamic or where is None)
                            ref.relative = _relative(ref.absolute, self.cwd)
                            if shapes is not None and ref.absolute is None and at in shapes:
                                # curl -d @"$x": the file is what the value can be
                                ref.shape = _tail_shape(shapes[at], len(word) - len(inner))
                            if ref.shape is None and ref.absolute is None and dynamic:
                                ref.shape = _open_shape(inner)
                            ref.command = index
                            # @~/.a*/c* as xargs -I puts a pattern's item: what it matches
                            ref.pattern = at in globs and any(c in inner for c in "*?[")
                            refs.append(ref)
                        if word[0] == "-":
                            continue
                    if cmd.choices is not None and at in cmd.choices:
                        # cat "$f" in for f in src/*.py a.txt: each name or pattern
                        for value, pattern in cmd.choices[at]:
                            ref = resolve_path(value, where or "", home, where is None)
                            ref.relative = _relative(ref.absolute, self.cwd)
                            ref.command = index
                            if chosen[index]:  # (a loop in a directory the line chose)
                                ref.shape = _under_unknown_dir(value, pattern)
                            ref.pattern = pattern
                            ref.deep = deep and pattern and "**" in value
                            ref.tree = tree
                            refs.append(ref)
                        continue
                    named = None
                    if dynamic and word.startswith("$(") and word.endswith(")"):
                        from hookwise.shell.variables import resolved_name  # (cold)

                        named = resolved_name(word)  # cat "$(realpath .env)" reads .env
                    unknown = (dynamic and named is None) or where is None
                    ref = resolve_path(named or word, where or "", home, unknown)
                    ref.relative = _relative(ref.absolute, self.cwd)
                    ref.command = index
                    if shapes is not None and (ref.absolute is None or at in globs):
                        # (~/*/x under dotglob: a pattern known by its frame, s29 E)
                        ref.shape = shapes.get(at)
                    if ref.shape is None and ref.absolute is None and (dynamic or cmd.origin):
                        ref.shape = _open_shape(word)  # (a program's reading: its words')
                    if chosen[index] and ref.shape is None and not dynamic:
                        ref.shape = _under_unknown_dir(word, at in globs)
                    ref.pattern = at in globs
                    ref.deep = deep and ref.pattern and "**" in word
                    ref.tree = tree
                    ref.kept = kept
                    refs.append(ref)
                    fallback = _with_defaults(word, home) if dynamic and "${" in word else None
                    if fallback is not None:  # ${CONF:-~/.aws}/credentials: what it reads unset
                        ref = resolve_path(fallback, where or "", home, where is None)
                        ref.relative = _relative(ref.absolute, self.cwd)
                        ref.command = index
                        ref.pattern = at in globs
                        ref.tree = tree
                        ref.kept = kept
                        refs.append(ref)
                if cmd.walked is not None:  # find S -exec cat {} +: S read as a tree
                    from hookwise.shell.find_exec import find_starts

                    for start in find_starts(cmd.walked):
                        ref = resolve_path(start, where or "", home, where is None)
                        ref.relative = _relative(ref.absolute, self.cwd)
                        ref.command = index
                        ref.tree = True
                        ref.kept = kept  # (a copy's tree: kept where its names are)
                        refs.append(ref)
                for target in cmd.redirects:
                    ref = resolve_path(target, where or "", home, where is None)
                    if chosen[index]:
                        ref.shape = _under_unknown_dir(target)
                    elif ref.absolute is None:
                        ref.shape = _open_shape(target)
                    ref.relative = _relative(ref.absolute, self.cwd)
                    ref.command = index
                    ref.redirect = True
                    refs.append(ref)
            if copies:
                _kept_unread(refs, copies)
        self._cache["paths"] = refs
        return refs

    def _tool_reach(self, refs: list[PathRef]) -> None:
        """What a file tool's path takes in beyond its name: a search tool over a directory
        reads every file under it, as ``grep -r`` does (red team s29 F5: rules/trees.py);
        a name with glob characters is every file a server expanding it finds (F4: decided
        as bash's patterns are, maybe.reaches, hidden names included: a server's glob
        takes them)."""
        searches = self.tool == "grep"
        for ref in refs:
            if ref.absolute is None:
                continue
            if any(ch in ref.raw for ch in "*?["):
                ref.pattern = True
            elif searches and os.isdir(ref.absolute):
                ref.tree = True

    @property
    def files(self) -> list[str]:
        """The paths as rules show them: relative to cwd inside it, absolute outside."""
        return [p.relative or p.absolute or p.raw for p in self.paths]

    def root(self, name: str) -> Any:
        """A ``when`` root's value."""
        if name == "event":
            return self.name
        if name == "host":
            return self.host
        if name == "host_event":
            return self.host_event
        if name == "tool":
            return self.tool
        if name == "host_tool":
            return self.host_tool
        if name == "input":
            return self.input
        if name == "payload":
            return self.payload
        if name == "cwd":
            return self.cwd
        if name == "session":
            return self.session
        if name == "prompt":
            return self.prompt
        if name == "response":
            return self.response
        if name == "command":
            return self.command
        if name == "unverifiable":
            script = self.script
            return script.unverifiable if script is not None else []
        if name == "files":
            return self.files
        if name == "mcp_server":
            mcp = self.mcp
            return mcp[0] if mcp else None
        if name == "mcp_tool":
            mcp = self.mcp
            return mcp[1] if mcp else None
        if name == "stop_hook_active":
            return self.stop_hook_active
        if name == "env":
            if isinstance(self.env, HookEnv):
                return self.env.for_conditions(self.host, self.cwd)
            return self.env
        if name == "time":
            if "time" not in self._cache:
                from hookwise.policy.rules.condition import time_view

                self._cache["time"] = time_view(self.now)
            return self._cache["time"]
        return None


# framework tool name (compared case-insensitively, ``-`` and camelCase read as ``_``) ->
# canonical tool. A name not here is not guessed at: the Gate decides an unmapped tool that
# takes a path as each file tool it could be (``Gate._unmapped_file``).
DEFAULT_TOOL_NAMES: dict[str, str] = {
    # shell
    "bash": SHELL,
    "shell": SHELL,
    "sh": SHELL,
    "run_shell": SHELL,
    "run_shell_command": SHELL,
    "shell_command": SHELL,
    "run_command": SHELL,
    "terminal": SHELL,
    "execute_command": SHELL,
    "exec_command": SHELL,
    "execute_shell": SHELL,
    "run_bash": SHELL,
    "bash_command": SHELL,
    "local_shell": SHELL,
    "run_terminal_command": SHELL,
    # files
    "write": "write",
    "write_file": "write",
    "create_file": "write",
    "save_file": "write",
    "edit": "edit",
    "edit_file": "edit",
    "str_replace": "edit",
    "str_replace_editor": "edit",
    "replace": "edit",
    "apply_patch": "edit",
    "multi_edit": "edit",
    "read": "read",
    "read_file": "read",
    "view_file": "read",
    "open_file": "read",
    "cat": "read",
    # a move, copy or rename writes both its paths (MOVE_TOOLS: the source is read too)
    "move_file": "write",
    "copy_file": "write",
    "rename_file": "write",
    "move": "write",
    "rename": "write",
    "copy": "write",
    "move_path": "write",
    "copy_path": "write",
    # the reference MCP filesystem server's own names (behind `hookwise mcp wrap`)
    "read_text_file": "read",
    "read_media_file": "read",
    "read_multiple_files": "read",
    "glob": "glob",
    "find_files": "glob",
    "grep": "grep",
    "search_files": "grep",
    "ls": "ls",
    "list_directory": "ls",
    "list_dir": "ls",
    "list_files": "ls",
    "list_directory_with_sizes": "ls",
    "directory_tree": "ls",
    # web
    "fetch": "web_fetch",
    "web_fetch": "web_fetch",
    "fetch_url": "web_fetch",
    "http_get": "web_fetch",
    "http_request": "web_fetch",
    "visit_webpage": "web_fetch",
    "web_search": "web_search",
    "search_web": "web_search",
    "google_search": "web_search",
    "duckduckgo_search": "web_search",
}


def default_tool(tool: str) -> str:
    """The canonical name ``DEFAULT_TOOL_NAMES`` gives ``tool`` (an MCP tool by its own
    name), or the tool's own name: ``integrations.tools.ToolNames`` without an agent's own
    entries."""
    found = DEFAULT_TOOL_NAMES.get(tool_key(tool))
    mcp = split_mcp(tool) if found is None else None
    if mcp is not None:
        found = DEFAULT_TOOL_NAMES.get(tool_key(mcp[1]))
    return tool if found is None else found


def mcp_tool(host_tool: str, payload: dict[str, Any]) -> str | None:
    """The canonical tool an MCP tool is by its own name, as a host's hook sees it, or None.

    ``mcp__<server>__<tool>`` (Claude Code, Codex) is mapped as the MCP proxy and the
    Claude Agent SDK bridge map it (:func:`default_tool`): ``mcp__fs__read_file`` is
    ``read``. Gemini CLI's ``mcp_<server>_<tool>`` is mapped by the tool its
    ``mcp_context`` names, or without one by Gemini's own reading of the name (the server
    up to the first ``_``: :func:`mcp_readings`; a rule on the server or tool that holds
    for another reading leaves the call unverifiable, rules/engine._mcp_unsure). A name
    Gemini cut stays unmapped, decided as a tool the tables do not map
    (rules/unmapped.py)."""
    readings = mcp_readings(host_tool, payload)
    own = readings[0][1] if readings else None
    if not own:
        return None
    found = default_tool(own)
    return found if found in CANONICAL_TOOLS else None
