"""What a turn session tells its subscribers, and writes to the rollout, as it happens.

The hook events are the ones a user's shell command produces (ExecCommandBegin, output
deltas, ExecCommandEnd), titled ``Hook(TurnStart)`` / ``Hook(TurnEnd)``; around them,
the turn boundaries, the user's input, the agent's messages, every HookInput and where
it went, failures, the loop guard and the session stopping. Each event is one JSON
object with a ``type``; `event_from_json` reads it back, so a rollout replays into the
same objects.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Literal

__all__ = [
    "AgentMessage",
    "ExecCommandBegin",
    "ExecCommandEnd",
    "ExecCommandOutputDelta",
    "HookFailed",
    "HookInputEvent",
    "HostRecord",
    "LoopGuardTripped",
    "SessionConfigured",
    "SessionStopped",
    "TurnAborted",
    "TurnComplete",
    "TurnEvent",
    "TurnStarted",
    "UnknownEvent",
    "UserInput",
    "event_from_json",
]

TurnSource = Literal["user", "hook_input"]
Delivery = Literal["same_turn", "new_turn", "dropped_loop_guard", "dropped_session_stopped"]


@dataclass(frozen=True)
class TurnEvent:
    """Base of every event; ``type`` is the JSON tag."""

    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True)
class SessionConfigured(TurnEvent):
    type: ClassVar[str] = "session_configured"
    session_id: str
    workspace: str
    session_source: str
    hook_toml: dict[str, Any] | None = None  # HookToml.to_json(), None without a file
    rollout_path: str | None = None
    hookwise_version: str = ""


@dataclass(frozen=True)
class TurnStarted(TurnEvent):
    type: ClassVar[str] = "turn_started"
    turn_id: str
    index: int  # 1-based, in the session
    source: TurnSource


@dataclass(frozen=True)
class UserInput(TurnEvent):
    """The user's message; it goes to the conversation history (HookInput does not)."""

    type: ClassVar[str] = "user_input"
    turn_id: str
    text: str


@dataclass(frozen=True)
class ExecCommandBegin(TurnEvent):
    type: ClassVar[str] = "exec_command_begin"
    call_id: str
    turn_id: str
    hook: str  # TurnStart | TurnEnd
    command: list[str]
    cwd: str

    @property
    def title(self) -> str:
        return f"Hook({self.hook})"


@dataclass(frozen=True)
class ExecCommandOutputDelta(TurnEvent):
    type: ClassVar[str] = "exec_command_output_delta"
    call_id: str
    stream: str  # stdout | stderr
    chunk: str


@dataclass(frozen=True)
class ExecCommandEnd(TurnEvent):
    type: ClassVar[str] = "exec_command_end"
    call_id: str
    turn_id: str
    hook: str
    command: list[str]
    exit_code: int | None
    duration_ms: float
    stdout: str = ""
    stderr: str = ""
    signal: int | None = None
    timed_out: bool = False
    interrupted: bool = False
    spawn_error: str | None = None
    stdout_dropped_bytes: int = 0
    stderr_dropped_bytes: int = 0

    @property
    def title(self) -> str:
        return f"Hook({self.hook})"


@dataclass(frozen=True)
class HookFailed(TurnEvent):
    """A hook that could not start, exited non-zero, was killed or timed out. The session
    goes on; this is the report."""

    type: ClassVar[str] = "hook_failed"
    call_id: str
    turn_id: str
    hook: str
    reason: str


@dataclass(frozen=True)
class HookInputEvent(TurnEvent):
    """A hook's non-empty stderr, handed to the agent (``HookInput: <text>`` in the UI)."""

    type: ClassVar[str] = "hook_input"
    turn_id: str  # the turn whose hook wrote it
    hook: str  # TurnStart | TurnEnd
    text: str  # trimmed stderr, capped; the cut is marked in the text
    message: str  # what the model receives: "HookInput (TurnEnd): ..." or the JSON form
    delivery: Delivery
    exit_code: int | None
    command: list[str]
    truncated: bool = False
    stderr_bytes: int = 0  # of the trimmed stderr, before the cap


@dataclass(frozen=True)
class LoopGuardTripped(TurnEvent):
    type: ClassVar[str] = "loop_guard_tripped"
    turn_id: str
    limit: int
    message: str


@dataclass(frozen=True)
class AgentMessage(TurnEvent):
    type: ClassVar[str] = "agent_message"
    turn_id: str
    text: str


@dataclass(frozen=True)
class TurnComplete(TurnEvent):
    type: ClassVar[str] = "turn_complete"
    turn_id: str
    last_agent_message: str | None = None


@dataclass(frozen=True)
class TurnAborted(TurnEvent):
    type: ClassVar[str] = "turn_aborted"
    turn_id: str
    reason: str  # interrupted | error: ...


@dataclass(frozen=True)
class SessionStopped(TurnEvent):
    type: ClassVar[str] = "session_stopped"
    turn_id: str
    reason: str
    exit_code: int | None = None


@dataclass(frozen=True)
class HostRecord(TurnEvent):
    """Something the embedding agent loop wants in the rollout (the simulator records
    every host hook event it fires this way)."""

    type: ClassVar[str] = "host"
    turn_id: str | None
    name: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class UnknownEvent(TurnEvent):
    """A rollout line of a type this version does not know; kept, not dropped."""

    type: ClassVar[str] = "unknown"
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


_TYPES: dict[str, type[TurnEvent]] = {
    cls.type: cls
    for cls in (
        SessionConfigured,
        TurnStarted,
        UserInput,
        ExecCommandBegin,
        ExecCommandOutputDelta,
        ExecCommandEnd,
        HookFailed,
        HookInputEvent,
        LoopGuardTripped,
        AgentMessage,
        TurnComplete,
        TurnAborted,
        SessionStopped,
        HostRecord,
    )
}


def event_from_json(data: dict[str, Any]) -> TurnEvent:
    """The event a ``to_json()`` object (or rollout line) describes.

    Raises ValueError when a known type lacks a required field; unknown types and extra
    keys (a newer writer) are tolerated.
    """
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return UnknownEvent(data=dict(data))
    names = {f.name for f in fields(cls)}
    try:
        return cls(**{k: v for k, v in data.items() if k in names})
    except TypeError as exc:
        raise ValueError(f"{kind} event: {exc}") from None
