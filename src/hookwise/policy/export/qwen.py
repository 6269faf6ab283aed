"""Qwen Code's own permission rules (0.24.4): ``permissions.deny`` / ``permissions.ask`` in its
settings (``~/.qwen/settings.json``, JSONC; user and project lists are joined).

Facts of its matcher (packages/core/src/permissions/rule-parser.ts in the 0.24.4 bundle):
``Bash(p:*)`` becomes the pattern ``p *``, which holds for the command ``p`` or ``p <anything>``
(a space after the prefix: ``touchx`` is not ``touch``), after leading ``VAR=value``
assignments are dropped, for each command of a compound line (split at ``&&``, ``||``,
``;``, ``|``, ``&`` and newlines outside quotes, so the lines of a here-document too: the
one place its entries refuse more than the policy, said in every such rule's coverage).
A rule for ``run_shell_command`` also
holds for the ``monitor`` tool (a command run in the background), a ``read_file`` rule for
``grep_search``, ``glob``, ``list_directory`` and ``zoom_image``, an ``edit`` rule for
``write_file`` and ``notebook_edit``: a bare tool entry is written only when the rule
covers every tool it reaches. MCP rules ``mcp__server__tool`` / ``mcp__server`` are
compared after the names are normalised, so only lower-case letters and digits are
written. deny beats ask beats allow.
"""

from __future__ import annotations

import re

from hookwise.policy.export.claude import render  # the same settings fragment
from hookwise.policy.export.model import (
    Analysis,
    Intent,
    McpTool,
    PathGlob,
    Prefix,
    WholeTool,
)
from hookwise.protocol.hosts import HOSTS

HOST = "qwen"  # the host whose permission rules this module writes
TARGET = "~/.qwen/settings.json"
# no file of its own: entries in the settings file install registers in (targets.settings_path)
FILES: dict[str, str] = {}
# the tools a bare rule for a tool also holds for (rule-parser.ts: toolMatchesRuleToolName)
_REACHES: dict[str, tuple[str, ...]] = {
    "run_shell_command": ("run_shell_command", "monitor"),
    "read_file": ("read_file", "zoom_image", "grep_search", "glob", "list_directory"),
    "edit": ("edit", "write_file", "notebook_edit"),
}
_NAME = re.compile(r"[a-z0-9]+")


def _canonical(tool: str) -> str | None:
    tools: dict[str, str] = HOSTS["qwen"].tools
    return tools.get(tool)


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    """The Qwen entries for one intent, or why it has none."""
    if isinstance(intent, Prefix):
        return [f"Bash({' '.join(intent.words)}:*)"], None
    if isinstance(intent, WholeTool):
        ruled = {i.tool for i in analysis.intents if isinstance(i, WholeTool)}
        names = [h for h, c in HOSTS["qwen"].tools.items() if c == intent.tool]
        out: list[str] = []
        for name in names:
            reached = [_canonical(t) for t in _REACHES.get(name, (name,))]
            if any(c is None or c not in ruled for c in reached):
                return [], (
                    f"Qwen Code's rule for `{name}` also holds for "
                    f"{', '.join(_REACHES.get(name, (name,))[1:])}, which the rule does not cover"
                )
            out.append(name)
        if not out:
            return [], f"Qwen Code has no tool `{intent.tool}`"
        return out, None
    if isinstance(intent, McpTool):
        if not _NAME.fullmatch(intent.server) or (
            intent.tool is not None and not _NAME.fullmatch(intent.tool)
        ):
            return [], (
                f"MCP name {intent.server}/{intent.tool}: Qwen Code compares normalised names, "
                "so only lower-case letters and digits are written"
            )
        if intent.tool is None:
            return [f"mcp__{intent.server}"], None
        return [f"mcp__{intent.server}__{intent.tool}"], None
    assert isinstance(intent, PathGlob)
    return [], (
        "Qwen Code's path rules were not run against the real CLI (what its Read rule does "
        "to shell commands naming the path is not known), so a path rule is left to the hook"
    )


HEREDOC_GAP = (
    "Qwen Code splits a command at every newline, here-document lines included: a line of "
    "a here-document starting with the prefix is refused too, though bash runs nothing there"
)


def gaps(analysis: Analysis) -> list[str]:
    """What its rules do beyond the policy: here-document lines read as commands."""
    return [HEREDOC_GAP] if any(isinstance(i, Prefix) for i in analysis.intents) else []


__all__ = ["FILES", "HEREDOC_GAP", "TARGET", "entries", "gaps", "render"]
