"""What `hookwise scan` works on: the commands an agent runs on its own, and what it found.

A :class:`Runnable` is one thing a host would start by itself (a hook, a status line, an MCP
server, a helper, a turn hook, a policy validator), with where it is written, who owns it
(the user, or the repository) and whether the host's trust gate stands in front of it. A
:class:`Finding` is one rule that matched, with the file and line that made it match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final


class Severity(Enum):
    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]

    def raised(self, steps: int = 1) -> Severity:
        return LEVELS[min(len(LEVELS) - 1, self.rank + steps)]

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(
                f"unknown severity {text!r}; expected one of: {', '.join(s.value for s in cls)}"
            ) from None


LEVELS: Final = tuple(Severity)
_RANK: Final = {level: index for index, level in enumerate(LEVELS)}


class Gate(Enum):
    """Whether the host asks the user before it runs a repository's command."""

    USER = "user"
    """Configured by the user or the machine (user, managed, plugin, extension): no gate."""
    TRUSTED = "trusted"
    """Repository content the user has already trusted: it runs."""
    NO_PROMPT = "no-prompt"
    """Repository content that runs without any trust prompt (``claude -p``, folder trust
    off, hookwise turn hooks): the CVE-2025-59536 class."""
    AFTER_TRUST = "after-trust"
    """Repository content that runs once the user accepts the host's trust prompt."""
    OFF = "off"
    """Will not run as configured (disabled, blocked by managed settings, hooks off)."""


@dataclass(frozen=True)
class Runnable:
    """One command a host starts on its own for this repository and this user."""

    host: str  # claude | gemini | codex | hookwise
    kind: (
        str  # hook | status-line | helper | mcp-server | notify | turn-hook | validator | http-hook
    )
    name: str  # event, setting or server name
    scope: str  # managed | user | project | local | plugin:ID | extension:NAME | ...
    command: str  # the shell command line (or the argv joined for display)
    file: str  # the configuration file that defines it
    line: int  # where in that file
    gate: Gate
    gate_detail: str = ""
    argv: tuple[str, ...] | None = None
    """Set when the host runs an argv without a shell (MCP servers, notify, turn hooks)."""
    env: tuple[tuple[str, str], ...] = ()
    """Variables the host sets for it (MCP ``env``, ``CLAUDE_PLUGIN_ROOT``...)."""
    cwd: str = ""
    url: str = ""  # http hooks and remote MCP servers: where the data goes
    env_lines: tuple[int, ...] = ()
    """Where each of ``env`` is written, when the file says (an MCP server's ``env``)."""
    transport: str = ""
    """An MCP server whose entry also names a URL or another transport: why the host may
    connect there instead of running ``argv`` (mcp_proxy.transport)."""

    @property
    def repository(self) -> bool:
        """Content that came with the repository (not the user's own configuration)."""
        return self.gate is not Gate.USER

    @property
    def ident(self) -> str:
        """Stable identity for baselines: host, kind, scope, name and where it is written."""
        return f"{self.host}:{self.kind}:{self.scope}:{self.name}:{self.file}"

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "host": self.host,
            "kind": self.kind,
            "name": self.name,
            "scope": self.scope,
            "command": self.command,
            "file": self.file,
            "line": self.line,
            "gate": self.gate.value,
            "gate_detail": self.gate_detail,
        }
        if self.argv is not None:
            out["argv"] = list(self.argv)
        if self.url:
            out["url"] = self.url
        return out


@dataclass(frozen=True)
class EnvSetting:
    """A variable a configuration file sets for the agent or its tools."""

    host: str
    scope: str
    name: str
    value: str
    file: str
    line: int
    gate: Gate
    where: str  # "settings env", ".gemini/.env", "shell_environment_policy", ...


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    message: str
    file: str
    line: int
    runnable: Runnable | None = None
    evidence: str = ""
    related: tuple[tuple[str, int], ...] = ()
    """Other places that contributed (the config line of a hook whose script matched)."""

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.file,
            "line": self.line,
        }
        if self.evidence:
            out["evidence"] = self.evidence
        if self.runnable is not None:
            out["source"] = self.runnable.as_dict()
        if self.related:
            out["related"] = [{"file": f, "line": n} for f, n in self.related]
        return out


@dataclass
class ScriptFile:
    """A script a command runs, as read (or why it could not be)."""

    path: str
    text: str | None
    sha256: str | None
    language: str  # shell | python | node | other
    problem: str = ""


@dataclass
class ScanReport:
    project: str
    runnables: list[Runnable] = field(default_factory=list)
    env_settings: list[EnvSetting] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    scripts: dict[int, list[ScriptFile]] = field(default_factory=dict)
    """Index in ``runnables`` -> the scripts it calls (for the baseline fingerprints)."""
    warnings: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    """Every configuration file that was read."""

    def worst(self) -> Severity | None:
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=lambda s: s.rank)
