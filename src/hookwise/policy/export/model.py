"""What an export is made of: the host-neutral parts of a rule (intents), the host's own
entries, and each rule's coverage, so no caller has to guess which rule went where."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Decision = Literal["deny", "ask"]
PathKind = Literal["name", "relative", "absolute"]
# the hosts with an exporter (build.EXPORTERS), light enough for the CLI to list
EXPORT_HOSTS = ("claude", "gemini", "codex", "copilot", "qwen")
Status = Literal["covered", "partial", "none"]


@dataclass(frozen=True)
class Prefix:
    """A command whose argv starts with these words (bash words, no quoting needed)."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class WholeTool:
    """Every call of a canonical tool."""

    tool: str


@dataclass(frozen=True)
class PathGlob:
    """A path the policy's ``files`` matcher names: ``name`` (a file or directory name
    anywhere), ``relative`` (to the session's cwd) or ``absolute``; literal text or with
    ``*``/``**``/``?`` only. ``tools``: the canonical tools the rule is limited to (None:
    every tool that names a path)."""

    kind: PathKind
    glob: str
    tools: frozenset[str] | None


@dataclass(frozen=True)
class McpTool:
    """An MCP tool by server and name; ``tool`` None is every tool of the server."""

    server: str
    tool: str | None


Intent = Prefix | WholeTool | PathGlob | McpTool


@dataclass
class Analysis:
    """One policy rule, host-neutral: what a prefix, tool, path or MCP entry can say of it
    (``intents``), and what none can (``gaps``; empty means the intents are the whole rule)."""

    rule: str
    decision: Decision
    reason: str
    intents: list[Intent] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Native:
    """One entry written into the host's permission system, and the rule it comes from."""

    rule: str
    decision: Decision
    entry: str  # the host's own text of it, as it appears in the written file
    intent: Intent


@dataclass
class Coverage:
    """How much of one rule the host's entries enforce, and why not more."""

    rule: str
    decision: Decision
    status: Status
    why: list[str]
    entries: list[str]

    def as_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "action": self.decision,
            "status": self.status,
            "why": list(self.why),
            "entries": list(self.entries),
        }


@dataclass
class Export:
    """A host's export: its entries, the file text that holds them, and every rule's fate."""

    host: str
    natives: list[Native]
    coverage: list[Coverage]
    content: str
    target: str  # where ``install --native`` puts it, relative to the home or project

    def as_dict(self) -> dict[str, object]:
        return {
            "host": self.host,
            "target": self.target,
            "entries": [
                {"rule": n.rule, "action": n.decision, "entry": n.entry} for n in self.natives
            ],
            "coverage": [c.as_dict() for c in self.coverage],
            "content": self.content,
        }


def header(host: str, comment: str) -> str:
    """The first line of a file hookwise writes whole (gemini, codex): who wrote it."""
    return (
        f"{comment} Written by `hookwise policy export --host {host}`; "
        "`hookwise install --native` keeps it in sync.\n"
    )
