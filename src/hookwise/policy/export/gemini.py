"""Gemini CLI's policy engine (0.61.0): ``[[rule]]`` tables in a TOML file under
``~/.gemini/policies`` (the user tier; the workspace tier is disabled in this version).

Facts of its matcher (bundle: buildArgsPatterns, PolicyEngine.check/checkShellCommand):
a shell rule's regex is searched in the stable JSON of the arguments, keys sorted and each
top-level pair between NUL characters, ``"command":"`` put before ``commandRegex``; a
compound command is split and each part checked alone. ``commandPrefix`` also matches
after a JSON-escaped quote (``--force"x"``, which bash reads as ``--forcex``), so the
export writes ``commandRegex`` that ends the prefix only at a space, a tab (``\\t``) or
the end of the command. ``deny`` beats everything in non-interactive mode too;
``ask_user`` is a deny there. MCP server names with ``_`` are split wrongly by Gemini.
"""

from __future__ import annotations

import json
import re

from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    Native,
    PathGlob,
    Prefix,
    WholeTool,
    header,
)
from hookwise.protocol.hosts import HOSTS

HOST = "gemini"  # the host whose permission rules this module writes
TARGET = "~/.gemini/policies/hookwise.toml"
# a file hookwise owns whole (``install --native``), per scope: relative to the host's config
# directory (protocol.hosts.config_path) for "user"
FILES = {"user": ".gemini/policies/hookwise.toml"}
PRIORITY = {"deny": 900, "ask": 800}  # 0..999 inside the user tier
_DECISION = {"deny": "deny", "ask": "ask_user"}
# after the prefix: a space, an escaped tab, or the end of the command string
_WORD_END = r'(?: |\\t|"\x00)'
_SERVER = re.compile(r"[A-Za-z0-9-]+")
# JavaScript's syntax characters: escaped, they are valid with or without the `u` flag
_SYNTAX = re.compile(r"[\\^$.|?*+()\[\]{}/]")


def command_regex(words: tuple[str, ...]) -> str:
    """The commandRegex for a prefix: its JSON text, escaped, then a word end."""
    encoded = json.dumps(" ".join(words), ensure_ascii=False)[1:-1]
    return _SYNTAX.sub(r"\\\g<0>", encoded) + _WORD_END


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    """The TOML ``[[rule]]`` tables for one intent (one line of fields each), or why none."""
    decision = _DECISION[analysis.decision]
    tail = f"decision = {json.dumps(decision)}\npriority = {PRIORITY[analysis.decision]}"
    if analysis.decision == "deny" and analysis.reason:
        tail += f"\ndenyMessage = {json.dumps(analysis.reason, ensure_ascii=False)}"
    if isinstance(intent, Prefix):
        regex = command_regex(intent.words)
        return [f'toolName = "run_shell_command"\ncommandRegex = {json.dumps(regex)}\n{tail}'], None
    if isinstance(intent, WholeTool):
        names = [h for h, c in HOSTS["gemini"].tools.items() if c == intent.tool]
        if not names:
            return [], f"Gemini CLI has no tool `{intent.tool}`"
        return [f"toolName = {json.dumps(names)}\n{tail}"], None
    if isinstance(intent, McpTool):
        if not _SERVER.fullmatch(intent.server):
            return [], f"MCP server {intent.server!r}: Gemini CLI splits names with `_` wrongly"
        head = f"mcpName = {json.dumps(intent.server)}"
        if intent.tool is not None:
            head += f"\ntoolName = {json.dumps(intent.tool)}"
        return [f"{head}\n{tail}"], None
    assert isinstance(intent, PathGlob)
    return [], (
        "Gemini CLI's rules see a path only as the model wrote it (relative or absolute, "
        "unresolved), so a path rule is left to the hook"
    )


def gaps(analysis: Analysis) -> list[str]:
    return []


def render(natives: list[Native]) -> str:
    out = [header("gemini", "#")]
    for native in natives:
        out.append(f"\n# {native.rule}\n[[rule]]\n{native.entry}\n")
    return "".join(out)
