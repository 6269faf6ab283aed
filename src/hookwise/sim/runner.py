"""Playing a scenario: the host's lifecycle inside a turn session, then the expectations.

Everything that can be wrong with the setup is found before anything runs: the
scenario (`ScenarioError`), the host and its profile, the workspace and its
``.agent/hook.toml`` (`HookTomlError`). Then the session plays every step, the host's
hooks and the turn hooks run as real processes, each event goes to the transcript and
the rollout as it happens, and the expectations are checked against what was recorded.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from hookwise.config.hook_toml import load_hook_toml
from hookwise.sim.context import ReplyQueue, SimContext, SimOptions
from hookwise.sim.expect import ExpectationResult, Facts, evaluate
from hookwise.sim.lifecycle import HostLifecycle, create_lifecycle
from hookwise.sim.scenario import Expectation, Scenario, ScenarioError, StepSpec
from hookwise.sim.view import render_host_record
from hookwise.turns.events import TurnEvent
from hookwise.turns.session import Turn, TurnSession
from hookwise.turns.view import TranscriptPrinter

__all__ = ["SimResult", "prepare", "simulate", "simulate_sync"]


@dataclass
class SimResult:
    scenario: Scenario
    host: str
    profile: str
    events: list[dict[str, Any]]
    transcript: str
    expectations: list[ExpectationResult]
    rollout_path: str | None
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(item.passed for item in self.expectations)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": str(self.scenario.path),
            "name": self.scenario.name,
            "host": self.host,
            "profile": self.profile,
            "passed": self.passed,
            "expectations": [item.to_json() for item in self.expectations],
            "warnings": self.warnings,
            "rollout": self.rollout_path,
            "events": self.events,
        }


@dataclass
class Prepared:
    scenario: Scenario
    host: str
    workspace: Path
    lifecycle: HostLifecycle


def prepare(scenario: Scenario, options: SimOptions) -> Prepared:
    """Check everything before the session starts; raises ScenarioError, HookTomlError."""
    host = options.host or scenario.host or "gemini"
    if options.host and scenario.host and options.host != scenario.host:
        raise scenario.error(
            "host", f"the scenario is written for {scenario.host!r}, not {options.host!r}"
        )
    workspace = (options.workspace or scenario.workspace).resolve()
    if not workspace.is_dir():
        raise scenario.error("workspace", f"{workspace} is not a directory")
    load_hook_toml(workspace)  # a bad hook.toml stops us here, before any hook runs
    try:
        lifecycle = create_lifecycle(host, scenario, options, workspace)
    except ValueError as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise scenario.error("host", str(exc)) from None
    lifecycle.check(scenario)
    return Prepared(scenario, host, workspace, lifecycle)


async def simulate(
    scenario: Scenario,
    options: SimOptions | None = None,
    *,
    console: Console | None = None,
    on_event: Callable[[TurnEvent], None] | None = None,
) -> SimResult:
    """Play ``scenario``; ``console`` gets the live transcript (else it is only kept)."""
    options = options or SimOptions()
    ready = prepare(scenario, options)
    lifecycle = ready.lifecycle
    recorder = Console(
        file=io.StringIO(), record=True, width=160, color_system=None, highlight=False
    )
    events: list[dict[str, Any]] = []
    printers = [TranscriptPrinter(recorder, host=render_host_record)]
    if console is not None:
        printers.append(TranscriptPrinter(console, host=render_host_record))

    def collect(event: TurnEvent) -> None:
        events.append(event.to_json())
        for printer in printers:
            printer(event)
        if on_event is not None:
            on_event(event)

    session = TurnSession(
        ready.workspace,
        # turn hooks and host hooks see one session id (a lifecycle may not have one)
        session_id=getattr(lifecycle, "session_id", None),
        session_source="simulator",
        rollout_path=options.rollout_path,
        subscribers=[collect],
        env=options.env,
    )
    ctx = SimContext(scenario, session, ready.workspace, options)
    warnings = lifecycle.warnings()
    for warning in warnings:
        ctx.record(None, "note", {"message": f"hooks: {warning}"})
    try:
        await lifecycle.start(ctx)
        for index, step in enumerate(scenario.steps):
            if session.stopped:
                ctx.record(
                    None,
                    "skipped",
                    {"message": f"{len(scenario.steps) - index} step(s): the session was stopped"},
                )
                break
            if step.kind == "compress":
                assert step.compress is not None
                await lifecycle.compress(ctx, step.compress, None)
                continue
            assert step.user is not None
            await session.submit(step.user, _runner(ctx, lifecycle, step, scenario, index))
            if len(session.turns) > scenario.max_turns:
                break
        await lifecycle.end(ctx)
    finally:
        session.close()
    transcript = recorder.export_text()
    results = evaluate(scenario.expect, Facts(events, transcript))
    if len(session.turns) > scenario.max_turns:
        results.append(_turn_bound_failure(scenario, len(session.turns)))
    rollout = str(session.rollout.path) if session.rollout is not None else None
    return SimResult(
        scenario, ready.host, lifecycle.profile_name, events, transcript, results, rollout, warnings
    )


def _turn_bound_failure(scenario: Scenario, turns: int) -> ExpectationResult:
    """The bound on turns, reported as an expectation that failed."""
    bound = Expectation("max_turns", scenario.max_turns, {}, scenario.lines.get("max_turns"), -1)
    return ExpectationResult(
        bound, False, f"the scenario reached {turns} turns, more than max_turns"
    )


def _runner(
    ctx: SimContext, lifecycle: HostLifecycle, step: StepSpec, scenario: Scenario, index: int
) -> Callable[[Turn], Any]:
    """The agent for one step: the step's replies for its user turn, ``hook_turns[k]`` for
    the k-th turn a HookInput starts after it."""
    hook_turns = list(step.hook_turns)
    counter = {"hook": 0}

    async def run_turn(turn: Turn) -> str | None:
        if turn.index > scenario.max_turns:
            ctx.record(turn, "note", {"message": f"max_turns ({scenario.max_turns}) reached"})
            ctx.session.interrupt()  # ends this submission at its next await
            await asyncio.sleep(0)
            return None
        if turn.is_hook_input_turn:
            k = counter["hook"]
            counter["hook"] += 1
            replies = hook_turns[k] if k < len(hook_turns) else ()
            label = f"steps[{index}].hook_turns[{k}]"
        else:
            replies = step.model
            label = f"steps[{index}].model"
        queue = ReplyQueue(replies, scenario.default_reply, label)
        return await lifecycle.run_turn(ctx, turn, step, queue)

    return run_turn


def simulate_sync(
    scenario: Scenario, options: SimOptions | None = None, *, console: Console | None = None
) -> SimResult:
    return asyncio.run(simulate(scenario, options, console=console))
