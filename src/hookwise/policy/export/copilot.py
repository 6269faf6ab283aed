"""GitHub Copilot CLI's own tool permissions (1.0.102): ``--deny-tool PATTERN`` on its command
line. It reads them from nowhere else (``copilot help config`` has URL lists only), so the
export is the arguments to start it with (a wrapper, an alias), and ``install --native``
has no file to keep them in.

Facts of its matcher (``copilot help permissions``): ``shell(cmd:*)`` holds for the command
``cmd`` and its first-level subcommands by prefix, on the stem of the command (``git:*``
holds for ``git push``, not ``gitea``); commands are matched by name and first-level
subcommand, so only a prefix of one or two words (the second no option) is written.
``write(path)`` holds for the tools that create and modify files (not shell commands),
a relative path by trailing components (``write(.env)``: a file named ``.env`` anywhere);
``<server>(tool)`` an MCP server's tool. Denial beats every allow, ``--allow-all-tools``
included. There is no ask rule: a command it was not allowed is asked for already.
"""

from __future__ import annotations

import re
import shlex

from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    Native,
    PathGlob,
    Prefix,
    WholeTool,
)

HOST = "copilot"  # the host whose permission rules this module writes
TARGET = "copilot --deny-tool ..."
FILES = None  # command-line flags only: no file install --native could keep them in
_WRITE_TOOLS = frozenset(("write", "edit"))  # its create and edit tools
# kinds of Copilot's patterns: an MCP server by one of these names would read as the kind
_KINDS = frozenset(("shell", "write", "url", "read", "memory"))
_SERVER = re.compile(r"[A-Za-z0-9_-]+")


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    """The ``--deny-tool`` patterns for one intent, or why it has none."""
    if analysis.decision == "ask":
        return [], (
            "Copilot CLI has no ask rule (a command it was not allowed is asked for already, "
            "unless --allow-all-tools)"
        )
    if isinstance(intent, Prefix):
        words = intent.words
        if len(words) > 2 or (len(words) == 2 and words[1].startswith("-")):
            return [], (
                "Copilot CLI matches a command by its name and first-level subcommand: "
                f"`{' '.join(words)}` has no pattern"
            )
        return [f"shell({' '.join(words)}:*)"], None
    if isinstance(intent, WholeTool):
        if intent.tool == "shell":
            return ["shell"], None
        ruled = {i.tool for i in analysis.intents if isinstance(i, WholeTool)}
        if intent.tool in _WRITE_TOOLS and ruled >= _WRITE_TOOLS:
            return ["write"], None
        return [], f"Copilot CLI has no pattern for the tool `{intent.tool}` alone"
    if isinstance(intent, McpTool):
        bad = not _SERVER.fullmatch(intent.server) or intent.server in _KINDS
        if bad or (intent.tool is not None and not _SERVER.fullmatch(intent.tool)):
            return [], f"MCP name {intent.server}/{intent.tool} has no Copilot CLI pattern"
        return [intent.server if intent.tool is None else f"{intent.server}({intent.tool})"], None
    assert isinstance(intent, PathGlob)
    literal = not any(c in intent.glob for c in "*?")
    if intent.tools is not None and not intent.tools >= _WRITE_TOOLS:
        return [], "its files rule does not cover both writing tools, as `write(...)` does"
    if literal and intent.kind == "name" and "/" not in intent.glob:
        return [f"write({intent.glob})"], None
    if literal and intent.kind == "absolute":
        return [f"write({intent.glob})"], None
    return [], (
        "Copilot CLI's `write(path)` takes a literal name or absolute path (a relative one "
        "matches by trailing components anywhere)"
    )


def gaps(analysis: Analysis) -> list[str]:
    if any(isinstance(i, PathGlob) for i in analysis.intents):
        return ["reading the path, and shell commands writing it, are left to the hook"]
    return []


def render(natives: list[Native]) -> str:
    """The arguments to start Copilot CLI with, one ``--deny-tool`` each, shell-quoted."""
    patterns = list(dict.fromkeys(n.entry for n in natives if n.decision == "deny"))
    return " ".join(f"--deny-tool {shlex.quote(p)}" for p in patterns) + "\n"
