"""The rollout: a session's events as JSON Lines, written as they happen, read back whole.

Every line is one event (`hookwise.turns.events`) with two more keys, ``seq`` (from 1)
and ``timestamp`` (ISO 8601, UTC)::

    {"seq": 1, "timestamp": "...", "type": "session_configured", "session_id": "...", ...}
    {"seq": 2, "timestamp": "...", "type": "turn_started", "turn_id": "turn-1", ...}
    {"seq": 3, "timestamp": "...", "type": "exec_command_begin", "hook": "TurnStart", ...}

Each line is flushed when written, so a session that crashes leaves a readable prefix.
`read_rollout` gives the events back (unknown types are kept as `UnknownEvent`) and
`Rollout.history` rebuilds the conversation history, which holds the user's inputs and
the agent's messages but never a HookInput.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from hookwise.host.system import iso_timestamp
from hookwise.turns.events import (
    AgentMessage,
    HookInputEvent,
    SessionConfigured,
    TurnEvent,
    UserInput,
    event_from_json,
)

__all__ = [
    "Rollout",
    "RolloutError",
    "RolloutWriter",
    "default_rollout_path",
    "read_rollout",
    "replay",
]


def default_rollout_path(workspace: str | os.PathLike[str], session_id: str, stamp: str) -> Path:
    """``<workspace>/.agent/rollouts/rollout-<stamp>-<session id>.jsonl``."""
    safe = stamp.replace(":", "").replace("-", "").split(".")[0]
    return Path(workspace) / ".agent" / "rollouts" / f"rollout-{safe}-{session_id}.jsonl"


class RolloutWriter:
    """Appends events to a JSONL file, one flushed line each."""

    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], str] = iso_timestamp):
        self.path = Path(path)
        self.clock = clock
        self.seq = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("a", encoding="utf-8")

    def write(self, event: TurnEvent) -> None:
        if self._file is None:
            raise ValueError(f"rollout {self.path} is closed")
        self.seq += 1
        line = {"seq": self.seq, "timestamp": self.clock(), **event.to_json()}
        self._file.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> RolloutWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RolloutError(ValueError):
    def __init__(self, path: Path, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")


@dataclass
class Rollout:
    path: Path
    events: list[TurnEvent] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)

    @property
    def meta(self) -> SessionConfigured | None:
        return next((e for e in self.events if isinstance(e, SessionConfigured)), None)

    def of_type(self, kind: type[TurnEvent]) -> Iterator[TurnEvent]:
        return (event for event in self.events if isinstance(event, kind))

    def history(self) -> list[dict[str, str]]:
        """The conversation history: user inputs and agent messages, in order."""
        out: list[dict[str, str]] = []
        for event in self.events:
            if isinstance(event, UserInput):
                out.append({"role": "user", "text": event.text})
            elif isinstance(event, AgentMessage):
                out.append({"role": "agent", "text": event.text})
        return out

    def hook_inputs(self) -> list[HookInputEvent]:
        return [e for e in self.events if isinstance(e, HookInputEvent)]


def read_rollout(path: str | os.PathLike[str]) -> Rollout:
    """Every event of a rollout file; `RolloutError` names the line of a bad one."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RolloutError(where, None, f"cannot read: {reason}") from None
    rollout = Rollout(where)
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data: Any = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RolloutError(where, number, f"not JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise RolloutError(where, number, "a rollout line must be a JSON object")
        stamp = data.pop("timestamp", None)
        data.pop("seq", None)
        try:
            event = event_from_json(data)
        except ValueError as exc:
            raise RolloutError(where, number, str(exc)) from None
        rollout.events.append(event)
        rollout.timestamps.append(stamp if isinstance(stamp, str) else None)
    return rollout


def replay(path: str | os.PathLike[str], subscriber: Callable[[TurnEvent], None]) -> Rollout:
    """Feed a recorded session to a subscriber, in the order it happened."""
    rollout = read_rollout(path)
    for event in rollout.events:
        subscriber(event)
    return rollout
