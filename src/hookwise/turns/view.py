"""Showing turn events on a terminal (rich), live or from a rollout.

`TranscriptPrinter` is a subscriber: hand it to a `TurnSession` and hook output appears
as it is written, or feed it a rollout with `hookwise.turns.rollout.replay`. Hook runs
look like a user's shell command under the titles ``Hook(TurnStart)`` / ``Hook(TurnEnd)``;
every HookInput is a ``HookInput: <text>`` line.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from hookwise.turns.events import (
    AgentMessage,
    ExecCommandBegin,
    ExecCommandEnd,
    ExecCommandOutputDelta,
    HookFailed,
    HookInputEvent,
    HostRecord,
    LoopGuardTripped,
    SessionConfigured,
    SessionStopped,
    TurnAborted,
    TurnComplete,
    TurnEvent,
    TurnStarted,
    UnknownEvent,
    UserInput,
)

__all__ = ["HostRenderer", "TranscriptPrinter"]

HostRenderer = Callable[[Console, HostRecord], None]

_DELIVERY = {
    "same_turn": "joins this turn",
    "new_turn": "starts a new turn",
    "dropped_loop_guard": "dropped: loop guard",
    "dropped_session_stopped": "dropped: session stopped",
}


class TranscriptPrinter:
    """Prints each event as it comes; output deltas are written as they arrive."""

    def __init__(self, console: Console, host: HostRenderer | None = None) -> None:
        self.console = console
        self.host = host
        self._open_line: dict[str, bool] = {}  # call id -> last chunk did not end a line

    def __call__(self, event: TurnEvent) -> None:
        c = self.console
        if isinstance(event, SessionConfigured):
            c.print(
                f"[bold]session[/] {escape(event.session_id)}  [dim]{escape(event.workspace)}[/]"
            )
            if event.hook_toml is None:
                c.print("[dim]no .agent/hook.toml: no turn hooks[/]")
        elif isinstance(event, TurnStarted):
            origin = "user" if event.source == "user" else "HookInput"
            c.rule(f"[bold]turn {event.index}[/] [dim]({origin})[/]", align="left")
        elif isinstance(event, UserInput):
            c.print(Text("user: ", style="bold green") + Text(event.text))
        elif isinstance(event, ExecCommandBegin):
            command = shlex.join(event.command)
            c.print(Text(event.title, style="bold magenta") + Text(f" $ {command}", style="dim"))
            self._open_line[event.call_id] = False
        elif isinstance(event, ExecCommandOutputDelta):
            style = "red" if event.stream == "stderr" else ""
            c.print(Text(event.chunk, style=style), end="", soft_wrap=True)
            self._open_line[event.call_id] = not event.chunk.endswith("\n")
        elif isinstance(event, ExecCommandEnd):
            if self._open_line.pop(event.call_id, False):
                c.print()
            c.print(Text(f"  {_end_summary(event)}", style="dim"))
        elif isinstance(event, HookFailed):
            c.print(Text(f"  Hook({event.hook}) failed: {event.reason}", style="yellow"))
        elif isinstance(event, HookInputEvent):
            line = Text("HookInput: ", style="bold cyan") + Text(event.text)
            line.append(f"  ({event.hook}; {_DELIVERY.get(event.delivery, event.delivery)})", "dim")
            c.print(line)
        elif isinstance(event, LoopGuardTripped):
            c.print(Text(event.message, style="bold yellow"))
        elif isinstance(event, AgentMessage):
            c.print(Text("agent: ", style="bold blue") + Text(event.text))
        elif isinstance(event, TurnComplete):
            pass
        elif isinstance(event, TurnAborted):
            c.print(Text(f"turn aborted: {event.reason}", style="bold red"))
        elif isinstance(event, SessionStopped):
            c.print(Text(f"session stopped: {event.reason}", style="bold red"))
        elif isinstance(event, HostRecord):
            if self.host is not None:
                self.host(c, event)
            else:
                c.print(Text(f"{event.name} ", style="bold") + Text(str(event.data), style="dim"))
        elif isinstance(event, UnknownEvent):
            c.print(Text(f"(unknown event {event.data.get('type')!r})", style="dim"))


def _end_summary(event: ExecCommandEnd) -> str:
    if event.interrupted:
        status = "interrupted"
    elif event.spawn_error is not None:
        status = event.spawn_error
    elif event.timed_out:
        status = "timed out"
    elif event.signal is not None:
        status = f"signal {event.signal}"
    else:
        status = f"exit {event.exit_code}"
    dropped = event.stdout_dropped_bytes + event.stderr_dropped_bytes
    extra = f", {dropped} bytes of output dropped" if dropped else ""
    return f"{event.title}: {status} ({event.duration_ms:.0f} ms{extra})"
