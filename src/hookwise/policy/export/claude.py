"""Claude Code's own permission rules: ``permissions.deny`` / ``permissions.ask`` entries
in a settings file (``Bash(prefix:*)``, ``Read(path)``, ``Edit(path)``, bare tool names,
``mcp__server__tool``).

Facts of its matcher, as documented and observed on the CLI: ``Bash(p:*)`` holds for the
command ``p`` and ``p <anything>`` (a word boundary: ``git push --force:*`` is not
``--force-with-lease``), for each command of a compound line; deny beats ask beats allow
in every permission mode. ``Read(path)`` rules also stop Grep and Glob, and ``Edit(path)``
rules every tool that edits a file; on 2.1.330 both also refuse a Bash command naming the
path (``cat NAME``, ``touch NAME``: tests/e2e/test_native_permissions_paths_live.py), though
not a recursive ``grep -r`` of its directory. So a path rule is written only for a policy
rule that covers all those tools, shell commands included. Path forms: ``//abs``,
``~/home``, ``./relative`` (to the session's directory), ``**`` across directories;
``//**/NAME`` (a name anywhere) is accepted and refuses the Read tool on ``./NAME``
(observed, same test).
"""

from __future__ import annotations

import json
import re
from typing import Any

from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    Native,
    PathGlob,
    Prefix,
    WholeTool,
)
from hookwise.protocol.hosts import HOSTS

HOST = "claude"  # the host whose permission rules this module writes
TARGET = "~/.claude/settings.json"
# no file of its own: entries in the settings file install registers in (targets.settings_path)
FILES: dict[str, str] = {}
# the canonical tools each path rule stops: Read rules reach Grep and Glob too, and both
# reach Bash commands naming the path (observed on 2.1.330); a Read rule also refuses Write
# and Edit of the file ("File is covered by a Read deny rule ... cannot be edited": red team
# s25 F2, observed on 2.1.330)
_EDITING = frozenset(("edit", "write", "notebook_edit"))
_PATH_RULES: dict[str, frozenset[str]] = {
    "Read": frozenset(("read", "grep", "glob", "shell")) | _EDITING,
    "Edit": _EDITING | {"shell"},
}
# the shell tools whose rules take a command prefix (red team s26 F6: a Bash rule does not
# hold for PowerShell, Windows' shell tool)
_SHELL_RULES = ("Bash", "PowerShell")
# what a bare tool entry stops besides that tool: a bare `Read` refuses every Write and Edit
# too (F2b, observed on 2.1.330)
_WHOLE_TOOL_REACH: dict[str, frozenset[str]] = {"read": _EDITING}
# a server's tools and, through ReadMcpResourceTool, its resources: `mcp__server` stops
# the tools only (F10, observed on 2.1.330)
_SERVER = re.compile(r"[A-Za-z0-9_-]+")


def _paths(glob: PathGlob) -> list[str]:
    if glob.kind == "absolute":
        return ["/" + glob.glob]  # //abs: an absolute path
    if glob.kind == "relative":
        return ["./" + glob.glob]
    # a name: that file, or anything under a directory of that name, at any depth, anywhere
    return [f"//**/{glob.glob}", f"//**/{glob.glob}/**"]


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    """The Claude entries for one intent, or why it has none."""
    if isinstance(intent, Prefix):
        # PowerShell's rules are apart from Bash's (Claude writes its own in pairs:
        # `Bash(x)`, `PowerShell(x)`, 2.1.330): the prefix for both shell tools
        words = " ".join(intent.words)
        return [f"{tool}({words}:*)" for tool in _SHELL_RULES], None
    if isinstance(intent, WholeTool):
        names = [h for h, c in HOSTS["claude"].tools.items() if c == intent.tool]
        if not names:
            return [], f"Claude Code has no tool `{intent.tool}`"
        reach = _WHOLE_TOOL_REACH.get(intent.tool, frozenset())
        covered = {i.tool for i in analysis.intents if isinstance(i, WholeTool)}
        if not reach <= covered:
            return [], (
                f"Claude Code's {' and '.join(names)} entries also refuse every "
                f"{', '.join(sorted(reach - covered))} call, which the rule allows"
            )
        return names, None
    if isinstance(intent, McpTool):
        if (
            not _SERVER.fullmatch(intent.server)
            or "__" in intent.server  # mcp__a__b is tool b of server a to Claude Code
            or (intent.tool is not None and not _SERVER.fullmatch(intent.tool))
        ):
            return [], f"MCP name {intent.server}/{intent.tool} is renamed by Claude Code"
        if intent.tool is None:
            return [f"mcp__{intent.server}"], None
        return [f"mcp__{intent.server}__{intent.tool}"], None
    out: list[str] = []
    for tool, reaches in _PATH_RULES.items():
        if intent.tools is None or reaches <= intent.tools:
            out += [f"{tool}({p})" for p in _paths(intent)]
    if not out:
        limited = ", ".join(sorted(intent.tools or ()))
        return [], (
            f"its files rule covers only {limited}; Claude Code's Read rules also stop Grep, "
            "Glob, Write, Edit and Bash commands naming the path, and its Edit rules every "
            "editing tool and such commands, so an entry would deny more"
        )
    return out, None


def gaps(analysis: Analysis) -> list[str]:
    """What Claude's rules leave out of a rule whatever its intents."""
    out: list[str] = []
    if any(isinstance(i, McpTool) and i.tool is None for i in analysis.intents):
        out.append(
            "the server's resources: Claude Code's ReadMcpResourceTool reads them past an "
            "`mcp__server` entry (observed on 2.1.330); the hook and the MCP proxy decide them"
        )
    paths = [i for i in analysis.intents if isinstance(i, PathGlob)]
    if paths:
        out.append(
            "Claude Code matches path entries without regard to case (observed on 2.1.330: "
            "SECRET.TXT is refused by an entry for secret.txt), so on a case-sensitive file "
            "system the entry also refuses names the rule allows"
        )
    if any(i.tools is None or "shell" in i.tools for i in paths):
        out.append(
            "shell commands reaching the path: Claude Code refuses those naming it (`cat "
            "NAME`), not every other (interpreters, a recursive grep of its directory); the "
            "rest is left to the hook"
        )
    if any(i.tools is None for i in paths):
        return [*out, "paths named by other tools (MCP tools...) are left to the hook"]
    if any(
        isinstance(i, PathGlob)
        and i.tools is not None
        and not i.tools <= frozenset().union(*_PATH_RULES.values())
        for i in analysis.intents
    ):
        out.append("the rule's other tools are left to the hook")
    return out


def render(natives: list[Native]) -> str:
    """The settings fragment: ``permissions.deny`` and ``permissions.ask``."""
    permissions: dict[str, Any] = {}
    for decision in ("deny", "ask"):
        listed = list(dict.fromkeys(n.entry for n in natives if n.decision == decision))
        if listed:
            permissions[decision] = listed
    return json.dumps({"permissions": permissions}, indent=2, ensure_ascii=False) + "\n"
