"""The model of the hosts' session records: sessions, the tool calls in them, hook trouble.

What ``claude``, ``codex`` and ``gemini`` read each host's format into, and what
``scan.coverage`` joins with the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwise.scan.transcripts.files import Warnings


@dataclass
class ToolCall:
    """One tool call the host recorded, with the name a pre-tool hook would get."""

    host: str
    session: str
    """The session id a hook of this call receives (a Claude subagent's is its parent's)."""
    tool: str
    """The tool name as the host's pre-tool hook gets it (``Bash``, ``run_shell_command``)."""
    recorded_tool: str
    """The tool name as the record writes it (Codex ``exec_command``)."""
    call_id: str | None
    input: Any
    command: str | None
    """A shell tool's command line, as the hook's ``tool_input.command``."""
    time: str | None
    """When the model asked for the call: UTC ``YYYY-MM-DDTHH:MM:SS.mmmZ``, like the audit log."""
    cwd: str | None
    file: str
    line: int
    agent: str | None = None
    """The subagent that made the call, when one did."""
    parent_session: str | None = None
    hookable: bool = True
    """False: the host fires no pre-tool hook for this tool (a Codex ``update_plan``)."""


@dataclass
class HookTrouble:
    """The host's own record that a hook failed or timed out on a call."""

    call_id: str | None
    event: str
    command: str
    kind: str  # "failed" | "timeout"
    detail: str
    time: str | None
    line: int


@dataclass
class SessionRecord:
    """One record file: a session, or one subagent of a session."""

    host: str
    session: str
    file: str
    cwd: str | None = None
    started: str | None = None
    parent_session: str | None = None
    agent: str | None = None
    cli_version: str | None = None
    calls: list[ToolCall] = field(default_factory=list)
    troubles: list[HookTrouble] = field(default_factory=list)

    @property
    def subagent(self) -> bool:
        return self.agent is not None or self.parent_session is not None

    def settle(self, fallback: str, why: str, warn: Warnings) -> None:
        """After reading: a session id (``fallback`` when the record named none, said with
        ``why``), and every call given the session and, where it has none, the cwd."""
        if not self.session:
            self.session = fallback
            warn.add(why)
        for call in self.calls:
            call.session = self.session
            call.cwd = call.cwd or self.cwd
