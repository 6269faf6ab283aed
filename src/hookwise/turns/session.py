"""A session with turn hooks: the loop around an agent's turns (seed 003).

``await session.submit(text, run_turn)`` plays one user submission:

1. ``turn_started``; the user's input is recorded and joins the history.
2. TurnStart runs (for turns a HookInput started only when ``run_on_hook_input``); its
   non-empty stderr becomes a HookInput that joins this turn after the user's input.
3. ``run_turn(turn)`` (the agent) runs; ``turn.model_input()`` is what the model gets.
   The message it returns joins the history; ``turn_complete``.
4. TurnEnd runs; its non-empty stderr becomes a HookInput that starts a new turn (back
   to 1, without a user input), unless the loop guard trips (more than
   ``loop_guard`` turns in a row started this way; opt-in, 3 when enabled) or TurnEnd exited
   with a code listed in ``stop_on_exit_code``, which stops the session.

HookInput is shown and recorded (event ``hook_input``) but never joins the history.
Hook failures are events, never exceptions. `interrupt` cancels whatever runs (a hook's
whole process group dies at once, or the agent's turn) and aborts the turn; no TurnEnd
runs for an aborted turn. Every event goes to the subscribers and to the rollout file.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise import __version__
from hookwise.config.hook_toml import HookToml, TurnHookKind, load_hook_toml
from hookwise.host.system import iso_timestamp
from hookwise.turns.events import (
    AgentMessage,
    Delivery,
    HookInputEvent,
    HostRecord,
    LoopGuardTripped,
    SessionConfigured,
    SessionStopped,
    TurnAborted,
    TurnComplete,
    TurnEvent,
    TurnSource,
    TurnStarted,
    UserInput,
)
from hookwise.turns.rollout import RolloutWriter, default_rollout_path
from hookwise.turns.runner import HookOutcome, PendingHookInput, TurnHookRunner

__all__ = [
    "HookInputItem",
    "SessionStoppedError",
    "SubmitOutcome",
    "Turn",
    "TurnRunner",
    "TurnSession",
]

Subscriber = Callable[[TurnEvent], None]


class SessionStoppedError(RuntimeError):
    """The session was stopped (a TurnEnd stop code); it takes no more input."""


@dataclass(frozen=True)
class HookInputItem:
    hook: str  # TurnStart | TurnEnd
    text: str
    message: str  # what the model receives


@dataclass
class Turn:
    """One turn: who started it and what the model receives for it."""

    id: str
    index: int
    source: TurnSource
    user_text: str | None
    hook_inputs: list[HookInputItem] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)  # the agent's, in order
    session: TurnSession | None = field(default=None, repr=False)

    @property
    def is_hook_input_turn(self) -> bool:
        return self.source == "hook_input"

    def model_input(self) -> list[str]:
        """The user-role messages of this turn, in order: the user's input, then HookInputs."""
        texts = [self.user_text] if self.user_text is not None else []
        return [*texts, *(item.message for item in self.hook_inputs)]

    def prompt(self) -> str:
        """The turn's input as one text (messages joined by blank lines)."""
        return "\n\n".join(self.model_input())

    def record(self, name: str, data: Mapping[str, Any] | None = None) -> None:
        """Put a record of the embedding agent loop into the rollout."""
        if self.session is not None:
            self.session.emit(HostRecord(self.id, name, dict(data or {})))

    def agent_message(self, text: str) -> None:
        """An agent message of this turn: shown, recorded, kept in the history."""
        self.messages.append(text)
        if self.session is not None:
            self.session.agent_message(self.id, text)


TurnRunner = Callable[[Turn], Awaitable[str | None]]
"""The agent: runs one turn, returns its last message (or None)."""


@dataclass
class SubmitOutcome:
    turns: list[Turn] = field(default_factory=list)
    interrupted: bool = False
    loop_guard_tripped: bool = False
    stopped: bool = False


_LOAD: Any = object()


class TurnSession:
    """Turn hooks, HookInput, history and rollout for one agent session."""

    def __init__(
        self,
        workspace: str | os.PathLike[str],
        *,
        config: HookToml | None = _LOAD,
        session_id: str | None = None,
        session_source: str = "cli",
        rollout_path: str | os.PathLike[str] | None = None,
        record: bool = True,
        subscribers: Iterable[Subscriber] = (),
        env: Mapping[str, str] | None = None,
        clock: Callable[[], str] = iso_timestamp,
    ) -> None:
        """``config`` defaults to the workspace's hook.toml (`HookTomlError` when it is
        bad: the session never starts half-configured); pass None for no turn hooks."""
        self.workspace = Path(workspace).resolve()
        self.config: HookToml | None = load_hook_toml(self.workspace) if config is _LOAD else config
        self.session_id = session_id or str(uuid.uuid4())
        self.session_source = session_source
        self.clock = clock
        self.subscribers: list[Subscriber] = list(subscribers)
        self.history: list[dict[str, str]] = []
        self.turns: list[Turn] = []
        self.stopped = False
        self.rollout: RolloutWriter | None = None
        if record:
            path = (
                Path(rollout_path)
                if rollout_path is not None
                else default_rollout_path(self.workspace, self.session_id, clock())
            )
            self.rollout = RolloutWriter(path, clock)
        self._runner = (
            TurnHookRunner(
                self.config,
                session_id=self.session_id,
                session_source=session_source,
                emit=self.emit,
                env=env,
                clock=clock,
            )
            if self.config is not None
            else None
        )
        self._task: asyncio.Future[SubmitOutcome] | None = None
        self._interrupting = False
        self._current: Turn | None = None
        self.emit(
            SessionConfigured(
                self.session_id,
                str(self.workspace),
                session_source,
                self.config.to_json() if self.config is not None else None,
                str(self.rollout.path) if self.rollout is not None else None,
                __version__,
            )
        )

    # -- events ---------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.append(subscriber)

    def emit(self, event: TurnEvent) -> None:
        if self.rollout is not None:
            self.rollout.write(event)
        for subscriber in self.subscribers:
            subscriber(event)

    def agent_message(self, turn_id: str, text: str) -> None:
        self.history.append({"role": "agent", "text": text})
        self.emit(AgentMessage(turn_id, text))

    def record(self, name: str, data: Mapping[str, Any] | None = None) -> None:
        """A session-level record (no turn) in the rollout."""
        self.emit(HostRecord(None, name, dict(data or {})))

    def close(self) -> None:
        if self.rollout is not None:
            self.rollout.close()

    def __enter__(self) -> TurnSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- turns ------------------------------------------------------------------------------

    async def submit(self, text: str, run_turn: TurnRunner) -> SubmitOutcome:
        """Play the user's input and every turn its HookInputs start."""
        if self.stopped:
            raise SessionStoppedError("the session was stopped by a TurnEnd hook")
        if self._task is not None:
            raise RuntimeError("a submission is already running; interrupt it first")
        outcome = SubmitOutcome()
        self._interrupting = False
        self._task = asyncio.ensure_future(self._drive(text, run_turn, outcome))
        try:
            return await self._task
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._interrupting and (task is None or task.cancelling() == 0):
                outcome.interrupted = True
                return outcome
            raise
        finally:
            self._task = None
            self._interrupting = False

    def interrupt(self) -> bool:
        """Cancel the running hook or turn at once (call it from the session's loop, e.g.
        with ``loop.call_soon_threadsafe``). False when nothing was running."""
        if self._task is None or self._task.done():
            return False
        self._interrupting = True
        self._task.cancel()
        return True

    def _new_turn(self, source: TurnSource, user_text: str | None) -> Turn:
        index = len(self.turns) + 1
        turn = Turn(f"turn-{index}", index, source, user_text, session=self)
        self.turns.append(turn)
        return turn

    def _deliver(self, turn: Turn, pending: PendingHookInput, delivery: Delivery) -> None:
        self.emit(
            HookInputEvent(
                turn.id,
                pending.kind.title,
                pending.text,
                pending.message,
                delivery,
                pending.exit_code,
                pending.command,
                pending.truncated,
                pending.stderr_bytes,
            )
        )

    async def _run_hook(
        self, kind: TurnHookKind, turn: Turn, last: str | None
    ) -> HookOutcome | None:
        if self.config is None or self._runner is None:
            return None
        hook = self.config.hook(kind)
        if hook is None:
            return None
        if (
            kind is TurnHookKind.TURN_START
            and turn.is_hook_input_turn
            and not hook.run_on_hook_input
        ):
            return None
        return await self._runner.run(
            hook, turn.id, is_hook_input_turn=turn.is_hook_input_turn, last_agent_message=last
        )

    async def _drive(
        self, text: str, run_turn: TurnRunner, outcome: SubmitOutcome
    ) -> SubmitOutcome:
        turn: Turn | None = self._new_turn("user", text)
        consecutive = 0
        while turn is not None:
            self._current = turn
            outcome.turns.append(turn)
            try:
                turn = await self._play(turn, run_turn, outcome, consecutive)
            except asyncio.CancelledError:
                self.emit(TurnAborted(self._current.id, "interrupted"))
                raise
            except Exception as exc:
                self.emit(TurnAborted(self._current.id, f"error: {type(exc).__name__}: {exc}"))
                raise
            consecutive = consecutive + 1 if turn is not None else 0
        self._current = None
        return outcome

    async def _play(
        self, turn: Turn, run_turn: TurnRunner, outcome: SubmitOutcome, consecutive: int
    ) -> Turn | None:
        """One turn with its hooks; the next turn when TurnEnd's HookInput starts one."""
        self.emit(TurnStarted(turn.id, turn.index, turn.source))
        if turn.user_text is not None:
            self.history.append({"role": "user", "text": turn.user_text})
            self.emit(UserInput(turn.id, turn.user_text))
        start = await self._run_hook(TurnHookKind.TURN_START, turn, None)
        if start is not None and start.hook_input is not None:
            pending = start.hook_input
            turn.hook_inputs.append(
                HookInputItem(pending.kind.title, pending.text, pending.message)
            )
            self._deliver(turn, pending, "same_turn")
        last = await run_turn(turn)
        if last is not None and (not turn.messages or turn.messages[-1] != last):
            turn.agent_message(last)
        self.emit(TurnComplete(turn.id, last))
        end = await self._run_hook(TurnHookKind.TURN_END, turn, last)
        if end is None:
            return None
        pending_end = end.hook_input
        if end.stop_session:
            if pending_end is not None:
                self._deliver(turn, pending_end, "dropped_session_stopped")
            self.stopped = outcome.stopped = True
            code = end.result.exit_code
            self.emit(SessionStopped(turn.id, f"TurnEnd hook exited with stop code {code}", code))
            return None
        if pending_end is None:
            return None
        assert self.config is not None
        limit = self.config.loop_guard
        if limit and consecutive >= limit:
            self._deliver(turn, pending_end, "dropped_loop_guard")
            outcome.loop_guard_tripped = True
            self.emit(
                LoopGuardTripped(
                    turn.id,
                    limit,
                    f"loop guard: {consecutive} turns in a row were started by HookInput"
                    f" (limit {limit}); this HookInput starts no new turn",
                )
            )
            return None
        follow = self._new_turn("hook_input", None)
        follow.hook_inputs.append(
            HookInputItem(pending_end.kind.title, pending_end.text, pending_end.message)
        )
        self._deliver(turn, pending_end, "new_turn")
        return follow
