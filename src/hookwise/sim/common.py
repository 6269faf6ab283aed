"""What every host lifecycle of the simulator shares: turn state, Gemini-API-shaped model
chunks and function responses (the simulator's neutral conversation format), records."""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

from hookwise.config.model import Source
from hookwise.config.registry import HooksObject, build_registry
from hookwise.host.dialect_answers import DialectEffect
from hookwise.host.execute import HookRun
from hookwise.host.system import FireResult, HookSystem
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.jsvalue import JSON, UNDEFINED, drop_undefined, js_string
from hookwise.protocol.profiles import Profile
from hookwise.sim.context import ReplyQueue, SimContext
from hookwise.sim.scenario import ReplySpec, Scenario, ScenarioError, ToolCallSpec
from hookwise.turns.session import Turn

DENIED = "[Operation Cancelled] Reason: User did not allow tool call"

Content = dict[str, Any]


def plain(value: object) -> Any:
    """JSON for records: UNDEFINED members dropped."""
    return drop_undefined(cast(JSON, value))


class TurnState:
    """What one turn has done so far, for the records and the outcome."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.outcome = "completed"
        self.reason: str | None = None
        self.model_calls = 0
        self.last_text: str | None = None

    def end(self, outcome: str, reason: JSON = None) -> None:
        self.outcome = outcome
        self.reason = js_string(reason) if reason is not None and reason is not UNDEFINED else None


def fire_record(result: FireResult, profile: Profile) -> dict[str, Any]:
    """A ``hook_event`` record: the event, the hooks that ran, the effect, the stdin."""
    effect = result.effect
    data: dict[str, Any] = {
        "event": result.event,
        "hooks": [run_record(run) for run in result.runs],
        "effect": plain(effect.to_json()),
        "input": plain(result.input),
    }
    tool = result.input.get("tool_name")
    if isinstance(tool, str):
        data["tool"] = tool
    message = (
        effect.outcome.message_for_user
        if isinstance(effect, DialectEffect)
        else effect.user_message(profile)
    )
    if message:
        data["system_message"] = message
    if result.error:
        data["error"] = result.error
    if result.warnings:
        data["warnings"] = list(result.warnings)
    return data


def run_record(run: HookRun) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": run.entry.name,
        "success": run.success,
        "exit_code": run.exit_code,
        "duration_ms": round(run.duration_ms, 3),
    }
    if run.output is not None:
        out["output"] = plain(run.output)
    if run.stderr:
        out["stderr"] = run.stderr
    if run.error:
        out["error"] = run.error
    return out


def declared_tools(scenario: Scenario) -> list[str]:
    """Every tool name the scenario mentions: its ``tools`` and every scripted call."""
    names = list(scenario.tools)
    calls = [
        *scenario.default_reply.calls,
        *(
            call
            for step in scenario.steps
            for replies in (step.model, *step.hook_turns)
            for reply in replies
            for call in reply.calls
        ),
    ]
    for call in calls:
        if call.name not in names:
            names.append(call.name)
    return names


def chunk(parts: list[dict[str, Any]], finish: str | None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate]}


def chunks(reply: ReplySpec) -> list[dict[str, Any]]:
    """The streamed GenerateContentResponse chunks of a scripted reply."""
    if reply.raw is not None:
        return [copy.deepcopy(item) for item in reply.raw]
    pieces: list[list[dict[str, Any]]] = [[{"text": text}] for text in reply.chunks]
    if reply.calls:
        pieces.append(
            [{"functionCall": {"name": c.name, "args": copy.deepcopy(c.args)}} for c in reply.calls]
        )
    if not pieces:
        pieces.append([{"text": ""}])
    last = len(pieces) - 1
    return [
        chunk(items, reply.finish_reason if i == last else None) for i, items in enumerate(pieces)
    ]


def with_finish(response: dict[str, Any]) -> dict[str, Any]:
    """The engine defaults a synthetic response's finishReason to STOP."""
    candidates = response.get("candidates")
    if isinstance(candidates, list):
        for candidate in candidates:
            if isinstance(candidate, dict) and not candidate.get("finishReason"):
                candidate["finishReason"] = "STOP"
    return response


def parts(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    candidates = chunk.get("candidates")
    if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
        return []
    content = candidates[0].get("content")
    items = content.get("parts") if isinstance(content, dict) else None
    return [p for p in items if isinstance(p, dict)] if isinstance(items, list) else []


def text(chunk: dict[str, Any]) -> str:
    return "".join(
        p["text"] for p in parts(chunk) if isinstance(p.get("text"), str) and not p.get("thought")
    )


def tool_response(result: Any) -> dict[str, JSON]:
    if isinstance(result, dict):
        out: dict[str, JSON] = dict(result)
        out.setdefault("llmContent", "")
        out.setdefault("returnDisplay", out["llmContent"])
        error = out.get("error")
        if isinstance(error, str):
            out["error"] = {"message": error}
        return out
    content = js_string(result)
    return {"llmContent": content, "returnDisplay": content}


def response_body(result: dict[str, Any]) -> dict[str, Any]:
    error = result.get("error")
    if isinstance(error, dict) and error.get("message") is not None:
        return {"error": error["message"]}
    return {"output": result.get("llmContent", "")}


def function_response(name: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": body}}


# --- shared steps of every lifecycle -------------------------------------------------------


def add_inline_hooks(system: HookSystem, scenario: Scenario, dialect: DialectSpec | None) -> None:
    """The scenario's ``hooks`` object, registered as project hooks of ``system``."""
    if scenario.hooks is None:
        return
    where = f"{scenario.path}:{scenario.hooks_line}: hooks"
    objects = [HooksObject(scenario.hooks, Source.PROJECT, where, "scenario")]
    inline = build_registry(objects, dialect=dialect)
    system.registry.entries.extend(inline.entries)
    system.warnings.extend(inline.warnings)


def check_scenario(
    scenario: Scenario,
    host: str,
    events: Iterable[str],
    triggers: tuple[str, ...],
    has: Callable[[str], bool] | None = None,
) -> None:
    """Checks every host makes: compress triggers, the event names of expectations, and
    that the steps only a host with their event can play (Setup, UserPromptExpansion,
    StopFailure) are not given to another host, whose run would silently skip them."""
    names = tuple(events)
    has_event = has or names.__contains__
    _check_played_events(scenario, host, has_event)
    for index, step in enumerate(scenario.steps):
        if step.compress is not None and step.compress not in triggers:
            raise ScenarioError(
                scenario.path,
                step.line,
                f"steps[{index}].compress",
                f"must be one of {', '.join(triggers)}, got {step.compress!r}",
            )
    for expectation in scenario.expect:
        if expectation.check in ("fired", "not_fired") and expectation.value not in names:
            raise ScenarioError(
                scenario.path,
                expectation.line,
                f"expect[{expectation.index}].{expectation.check}",
                f"unknown {host} hook event {expectation.value!r};"
                f" expected one of: {', '.join(names)}",
            )


def _check_played_events(scenario: Scenario, host: str, has: Callable[[str], bool]) -> None:
    def refuse(event: str, key: str, line: int | None) -> ScenarioError:
        return scenario.error(key, f"{host} has no {event} event to play it", line)

    if scenario.setup is not None and not has("Setup"):
        raise refuse("Setup", "session.setup", None)
    if scenario.commands and not has("UserPromptExpansion"):
        raise refuse("UserPromptExpansion", "commands", None)
    if has("StopFailure"):
        return
    if scenario.default_reply.api_error is not None:
        raise refuse("StopFailure", "default_reply.api_error", scenario.default_reply.line)
    for index, step in enumerate(scenario.steps):
        turns = [("model", step.model)]
        turns += [(f"hook_turns[{i}].model", replies) for i, replies in enumerate(step.hook_turns)]
        for where, replies in turns:
            for number, reply in enumerate(replies):
                if reply.api_error is not None:
                    key = f"steps[{index}].{where}[{number}].api_error"
                    raise refuse("StopFailure", key, reply.line)


async def play_turn(
    ctx: SimContext, turn: Turn, body: Callable[[TurnState], Awaitable[None]]
) -> str | None:
    """Run a lifecycle's turn body, always recording how the turn ended."""
    state = TurnState(turn)
    try:
        await body(state)
    finally:
        ctx.record(
            turn,
            "turn_outcome",
            {"outcome": state.outcome, "reason": state.reason, "model_calls": state.model_calls},
        )
    return state.last_text


def out_of_budget(ctx: SimContext, state: TurnState, limit: int) -> bool:
    """True (and the turn ends as ``budget``) once the turn made ``limit`` model calls."""
    if state.model_calls < limit:
        return False
    message = f"turn gave up after {state.model_calls} model calls (max_model_calls)"
    ctx.record(state.turn, "note", {"message": message})
    state.end("budget", f"{state.model_calls} model calls")
    return True


def next_reply(ctx: SimContext, state: TurnState, queue: ReplyQueue) -> ReplySpec:
    """The scripted reply for the next model call (counted), or the default with a note."""
    reply, scripted = queue.next()
    state.model_calls += 1
    if not scripted:
        message = f"no scripted model reply left ({queue.label}); the default reply is used"
        ctx.record(state.turn, "note", {"message": message})
    return reply


async def run_calls(
    ctx: SimContext,
    turn: Turn,
    calls: list[ToolCallSpec],
    run_one: Callable[[ToolCallSpec], Awaitable[tuple[dict[str, Any], bool]]],
) -> tuple[list[dict[str, Any]], bool]:
    """Function responses for the model, and whether a hook stopped the agent (the calls
    after the one that stopped it never run: they are recorded as ``cancelled``)."""
    responses: list[dict[str, Any]] = []
    for index, call in enumerate(calls):
        response, stopped = await run_one(call)
        responses.append(response)
        if stopped:
            for skipped in calls[index + 1 :]:
                ctx.record(
                    turn,
                    "tool_call",
                    {
                        "name": skipped.name,
                        "args": skipped.args,
                        "status": "cancelled",
                        "reason": "the agent was stopped",
                    },
                )
            return responses, True
    return responses, False
