"""Gemini CLI's hook lifecycle, played offline: all 11 events where the CLI fires them.

Per session: SessionStart (its context becomes the first history entry), then the
steps, then SessionEnd. A ``compress`` step (or a turn's ``compress``) fires PreCompress;
under ``gemini-cli`` PreCompress (``auto``) also fires before every model call, as the
engine's compression check does whatever the token count.

Per turn (after TurnStart, whose HookInput is part of the turn's input):

1. BeforeAgent with the turn's input as ``prompt``: ``stop`` ends the turn (the input
   stays in history), ``block`` drops it, ``additionalContext`` adds a part.
2. Model calls, each: BeforeModel (``stop``; ``block`` with a synthetic response that is
   used instead of calling the model, or without one, which ends the turn; a changed
   request), BeforeToolSelection (its ``toolConfig`` restricts which functions the model
   may call: a scripted call it forbids is dropped and recorded as ``restricted``), the
   scripted reply, and AfterModel once per streamed chunk (``stop``/``block`` end the
   turn, a replacement chunk is what the agent sees).
3. Function calls, each: BeforeTool (``block``/``stop`` give the model the tool error;
   ``ask``, or a call marked ``confirm``, fires Notification and takes the scripted
   approval; rewritten ``tool_input`` is what runs), the scripted result, AfterTool
   (replacement, ``additionalContext``, ``tailToolCallRequest``, ``stop``).
4. No function call left: AfterAgent. A deny sends the reason back as a new prompt with
   ``stop_hook_active: true`` (``clearContext`` resets the history first); the turn
   gives up after ``max_model_calls`` model calls.

The profile decides the disputed details exactly as the host runtime does (see
docs/profiles.md): under ``gemini-cli`` a blocked AfterModel chunk is still shown, a
replaced chunk leaves history with the original, a rewritten tool input gets the
engine's ``[System]`` note; under ``documented`` they follow the hooks reference.
HookInput is part of the request of its turn only: the history the next turn sends
holds the user's own text, never a HookInput.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, cast

from hookwise.host.effect import (
    Effect,
    ModelRequestEffect,
    ModelResponseEffect,
    PromptEffect,
    ResponseEffect,
    SessionStartEffect,
    ToolCallEffect,
    ToolResultEffect,
    ToolSelectionEffect,
)
from hookwise.host.system import HookSystem
from hookwise.protocol.gemini import EVENT_NAMES, EVENTS
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string, truthy
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile
from hookwise.sim import common
from hookwise.sim.common import fire_record
from hookwise.sim.context import ReplyQueue, SimContext, SimOptions
from hookwise.sim.scenario import ReplySpec, Scenario, StepSpec, ToolCallSpec
from hookwise.turns.session import Turn

__all__ = ["GeminiLifecycle"]

MODIFIED_INPUT_NOTE = "\n\n[System] Tool input parameters were modified by a hook before execution."
MAX_TAIL_CALLS = 5
DEFAULT_MODEL = "gemini-2.5-pro"


def _values(event: str, field: str) -> tuple[str, ...]:
    return next(f.values for f in EVENTS[event].input_fields if f.name == field)


class GeminiLifecycle:
    name = "gemini"
    event_names = EVENT_NAMES

    def __init__(self, scenario: Scenario, options: SimOptions, workspace: Path) -> None:
        self.scenario = scenario
        chosen = options.profile or scenario.profile
        try:
            self.profile = Profile.parse(chosen) if chosen else DEFAULT_PROFILE
        except ValueError as exc:
            raise scenario.error("profile", str(exc)) from None
        self.profile_name = self.profile.value
        self.system = self._load(scenario, options, workspace)
        self.history: list[common.Content] = []
        self.declared = common.declared_tools(scenario)

    # -- setup ---------------------------------------------------------------------------

    def _load(self, scenario: Scenario, options: SimOptions, workspace: Path) -> HookSystem:
        session_kwargs: dict[str, Any] = {"cwd": str(workspace)}
        if scenario.settings == "project":
            from hookwise.host.loading import load_hook_system

            system = load_hook_system(
                workspace,
                profile=self.profile,
                home=options.home,
                env=options.env,
                dialect="gemini",
                bypass_hook_trust=options.bypass_hook_trust,
                trust_workspace=options.trust_workspace,
            )
        else:
            system = HookSystem.from_hooks({}, profile=self.profile, **session_kwargs)
            if options.env is not None:
                system.execution.base_env = dict(options.env)
        common.add_inline_hooks(system, scenario, None)
        return system

    def check(self, scenario: Scenario) -> None:
        sources, reasons = _values("SessionStart", "source"), _values("SessionEnd", "reason")
        triggers = _values("PreCompress", "trigger")
        if scenario.start is not None and scenario.start not in sources:
            raise scenario.error(
                "session.start",
                f"must be one of {', '.join(sources)} (or null), got {scenario.start!r}",
            )
        if scenario.end is not None and scenario.end not in reasons:
            raise scenario.error(
                "session.end",
                f"must be one of {', '.join(reasons)} (or null), got {scenario.end!r}",
            )
        common.check_scenario(scenario, "Gemini", EVENT_NAMES, triggers)

    @property
    def session_id(self) -> str:
        return self.system.session_id

    def warnings(self) -> list[str]:
        return list(self.system.warnings)

    # -- firing --------------------------------------------------------------------------

    async def _fire(
        self, ctx: SimContext, turn: Turn | None, event: str, args: dict[str, JSON]
    ) -> Effect:
        result = await self.system.fire(event, args)
        ctx.record(turn, "hook_event", fire_record(result, self.profile))
        return result.effect

    # -- session -------------------------------------------------------------------------

    async def start(self, ctx: SimContext) -> None:
        if self.scenario.start is None:
            return
        effect = await self._fire(ctx, None, "SessionStart", {"source": self.scenario.start})
        if isinstance(effect, SessionStartEffect) and effect.history_part:
            self.history.append({"role": "user", "parts": [{"text": effect.history_part}]})

    async def compress(self, ctx: SimContext, trigger: str, turn: Turn | None) -> None:
        await self._fire(ctx, turn, "PreCompress", {"trigger": trigger})

    async def end(self, ctx: SimContext) -> None:
        if self.scenario.end is not None:
            await self._fire(ctx, None, "SessionEnd", {"reason": self.scenario.end})
        ctx.record(None, "final_history", {"contents": common.plain(self.history)})

    # -- a turn --------------------------------------------------------------------------

    async def run_turn(
        self, ctx: SimContext, turn: Turn, step: StepSpec, queue: ReplyQueue
    ) -> str | None:
        return await common.play_turn(ctx, turn, lambda state: self._turn(ctx, state, step, queue))

    async def _turn(
        self, ctx: SimContext, state: common.TurnState, step: StepSpec, queue: ReplyQueue
    ) -> None:
        turn = state.turn
        if step.compress is not None and not turn.is_hook_input_turn:
            await self.compress(ctx, step.compress, turn)
        prompt = turn.prompt()
        before = await self._fire(ctx, turn, "BeforeAgent", {"prompt": prompt})
        assert isinstance(before, PromptEffect)
        kept: list[dict[str, Any]] = (
            [{"text": turn.user_text}] if turn.user_text is not None else []
        )
        if before.action == "stop":
            if kept:
                self.history.append({"role": "user", "parts": kept})
            state.end("stopped", before.reason)
            return
        if before.action == "block":
            state.end("blocked", before.reason)
            return
        parts: list[Any] = [{"text": text} for text in turn.model_input()]
        if before.appended_part:
            parts.append(before.appended_part)
            kept.append(cast(dict[str, Any], before.appended_part))
        # The request carries the HookInputs; the history keeps the user's own parts.
        pending: list[common.Content] = [{"role": "user", "parts": parts}]
        persisted: list[common.Content] = [{"role": "user", "parts": kept}] if kept else []
        if step.interrupt and not turn.is_hook_input_turn:
            state.end("interrupted")  # Gemini CLI has no hook event for it
            return
        stop_hook_active = False
        while True:
            if common.out_of_budget(ctx, state, self.scenario.max_model_calls):
                break
            reply = await self._model_call(ctx, state, pending, persisted, queue)
            if reply is None:
                break
            text, calls = reply
            if text:
                state.last_text = text
            if calls:
                responses, stopped = await common.run_calls(
                    ctx, turn, calls, lambda call: self._tool(ctx, state, call, None, 0)
                )
                pending.append({"role": "user", "parts": responses})
                persisted.append({"role": "user", "parts": responses})
                if stopped:
                    break
                continue
            after = await self._fire(
                ctx,
                turn,
                "AfterAgent",
                {"prompt": prompt, "prompt_response": text, "stop_hook_active": stop_hook_active},
            )
            assert isinstance(after, ResponseEffect)
            if after.action == "stop":
                state.end("stopped", after.reason)
                if after.clear_context:
                    self.history.clear()
                    persisted.clear()
                break
            if after.action != "retry":
                break
            retry = cast(list[Any], after.retry_prompt)
            if after.clear_context:
                self.history.clear()
                pending.clear()
                persisted.clear()
            pending.append({"role": "user", "parts": retry})
            persisted.append({"role": "user", "parts": retry})
            prompt = "".join(
                js_string(part.get("text", "")) for part in retry if isinstance(part, dict)
            )
            stop_hook_active = True
            ctx.record(turn, "retry", {"prompt": prompt})
        self.history.extend(persisted)

    async def _model_call(
        self,
        ctx: SimContext,
        state: common.TurnState,
        pending: list[common.Content],
        persisted: list[common.Content],
        queue: ReplyQueue,
    ) -> tuple[str, list[ToolCallSpec]] | None:
        """One model call with BeforeModel, BeforeToolSelection and AfterModel; None when
        the turn ends here."""
        turn = state.turn
        request: dict[str, Any] = {
            "model": self.scenario.model_name or DEFAULT_MODEL,
            "contents": copy.deepcopy([*self.history, *pending]),
            "config": {"tools": [{"functionDeclarations": [{"name": n} for n in self.declared]}]},
        }
        if self.profile is Profile.GEMINI_CLI:
            # the engine's compression check before every request fires PreCompress first,
            # whatever the token count (recorded: tests/e2e/fixtures/gemini-events)
            await self._fire(ctx, turn, "PreCompress", {"trigger": "auto"})
        before = await self._fire(ctx, turn, "BeforeModel", {"llm_request": request})
        assert isinstance(before, ModelRequestEffect)
        if before.action == "stop":
            state.end("stopped", before.reason)
            return None
        synthetic = before.action == "block" and truthy(before.synthetic_response)
        if before.action == "block" and not synthetic:
            state.end("blocked", before.reason)
            return None
        script: ReplySpec | None = None
        if synthetic:
            chunks = [
                common.with_finish(cast(dict[str, Any], copy.deepcopy(before.synthetic_response)))
            ]
        else:
            if isinstance(before.request, dict):
                request = cast(dict[str, Any], before.request)
            selection = await self._fire(ctx, turn, "BeforeToolSelection", {"llm_request": request})
            assert isinstance(selection, ToolSelectionEffect)
            if selection.changed:
                config = dict(request.get("config") or {})
                if selection.tool_config is not UNDEFINED:
                    config["toolConfig"] = selection.tool_config
                if selection.tools is not UNDEFINED:
                    config["tools"] = selection.tools
                request = {**request, "config": config}
            script = common.next_reply(ctx, state, queue)
            chunks = common.chunks(script)
        ctx.record(
            turn,
            "model_call",
            {
                "source": "synthetic" if synthetic else "model",
                "request": common.plain(request),
                "chunks": len(chunks),
            },
        )
        shown: list[dict[str, Any]] = []
        original: list[dict[str, Any]] = []
        ended = False
        for chunk in chunks:
            if synthetic:
                shown.append(chunk)
                continue
            effect = await self._fire(
                ctx, turn, "AfterModel", {"llm_request": request, "llm_response": chunk}
            )
            assert isinstance(effect, ModelResponseEffect)
            if effect.action in ("stop", "block"):
                if isinstance(effect.response, dict):
                    shown.append(cast(dict[str, Any], effect.response))
                state.end("stopped" if effect.action == "stop" else "blocked", effect.reason)
                ended = True
                break
            original.append(chunk)
            shown.append(
                cast(dict[str, Any], effect.response)
                if isinstance(effect.response, dict)
                else chunk
            )
        text = "".join(common.text(chunk) for chunk in shown)
        ctx.record(
            turn,
            "model_reply",
            {"text": text, "chunks": common.plain(shown), "synthetic": synthetic},
        )
        if text:
            turn.agent_message(text)
            state.last_text = text
        if ended:
            return None  # a blocked or stopped response is not recorded in the history
        calls = self._allowed_calls(ctx, turn, request, shown, script)
        kept_chunks = original if (self.profile is Profile.GEMINI_CLI and not synthetic) else shown
        parts = [part for chunk in kept_chunks for part in common.parts(chunk)]
        allowed_names = {call.name for call in calls}
        parts = [
            p
            for p in parts
            if "functionCall" not in p or p["functionCall"].get("name") in allowed_names
        ]
        model_content = {"role": "model", "parts": parts}
        pending.append(model_content)
        persisted.append(model_content)
        return text, calls

    def _allowed_calls(
        self,
        ctx: SimContext,
        turn: Turn,
        request: dict[str, Any],
        shown: list[dict[str, Any]],
        script: ReplySpec | None,
    ) -> list[ToolCallSpec]:
        """The function calls of the shown response that the tool config allows."""
        scripted = list(script.calls) if script is not None else []
        calls: list[ToolCallSpec] = []
        for chunk in shown:
            for part in common.parts(chunk):
                call = part.get("functionCall") if isinstance(part, dict) else None
                if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                    continue
                name = call["name"]
                args = call.get("args") if isinstance(call.get("args"), dict) else {}
                spec = next((c for c in scripted if c.name == name), None)
                if spec is not None:
                    scripted.remove(spec)
                calls.append(
                    ToolCallSpec(
                        name,
                        cast(dict[str, Any], args),
                        spec.result if spec is not None else None,
                        spec.approve if spec is not None else True,
                        spec.confirm if spec is not None else None,
                    )
                )
        allowed = _allowed_names(request)
        if allowed is None:
            return calls
        kept = []
        for call in calls:
            if call.name in allowed:
                kept.append(call)
            else:
                ctx.record(
                    turn,
                    "tool_call",
                    {
                        "name": call.name,
                        "args": call.args,
                        "status": "restricted",
                        "reason": "not allowed by the tool config (BeforeToolSelection):"
                        f" allowed {sorted(allowed)}",
                    },
                )
        return kept

    # -- tools ---------------------------------------------------------------------------

    async def _tool(
        self,
        ctx: SimContext,
        state: common.TurnState,
        call: ToolCallSpec,
        original_name: str | None,
        depth: int,
    ) -> tuple[dict[str, Any], bool]:
        turn = state.turn
        args: dict[str, Any] = dict(call.args)
        fire_args: dict[str, JSON] = {"tool_name": call.name, "tool_input": args}
        if original_name is not None:
            fire_args["original_request_name"] = original_name
        before = await self._fire(ctx, turn, "BeforeTool", fire_args)
        assert isinstance(before, ToolCallEffect)
        record: dict[str, Any] = {"name": call.name, "args": args}
        if before.action in ("block", "stop"):
            error = before.error or "Tool execution blocked"
            status = "stopped" if before.action == "stop" else "blocked"
            ctx.record(turn, "tool_call", {**record, "status": status, "reason": error})
            if before.action == "stop":
                state.end("stopped", error)
            return common.function_response(call.name, {"error": error}), before.action == "stop"
        if before.action == "ask" or call.confirm is not None:
            details = _confirmation(call, args)
            await self._fire(ctx, turn, "Notification", {"confirmation_details": details})
            if not call.approve:
                ctx.record(
                    turn, "tool_call", {**record, "status": "denied", "reason": common.DENIED}
                )
                return common.function_response(call.name, {"error": common.DENIED}), False
        rewritten = isinstance(before.tool_input, dict)
        if rewritten:
            args = cast(dict[str, Any], before.tool_input)
            record["original_args"] = record["args"]
            record["args"] = args
        response = common.tool_response(
            call.result if call.result is not None else self.scenario.tools.get(call.name, "")
        )
        after_args: dict[str, JSON] = {
            "tool_name": call.name,
            "tool_input": args,
            "tool_response": response,
        }
        if original_name is not None:
            after_args["original_request_name"] = original_name
        after = await self._fire(ctx, turn, "AfterTool", after_args)
        assert isinstance(after, ToolResultEffect)
        result = cast(dict[str, Any], common.plain(after.tool_result))
        if (
            rewritten
            and self.profile is Profile.GEMINI_CLI
            and isinstance(result.get("llmContent"), str)
        ):
            result["llmContent"] += MODIFIED_INPUT_NOTE
        status = {"stop": "stopped", "replace": "replaced"}.get(after.action, "ran")
        ctx.record(turn, "tool_call", {**record, "status": status, "result": result})
        if after.action == "stop":
            state.end("stopped", result.get("llmContent"))
            return common.function_response(call.name, common.response_body(result)), True
        tail = after.tail_tool_call
        if isinstance(tail, dict) and isinstance(tail.get("name"), str):
            if depth >= MAX_TAIL_CALLS:
                ctx.record(
                    turn,
                    "note",
                    {"message": f"tail tool call chain cut after {MAX_TAIL_CALLS} calls"},
                )
            else:
                tail_args = tail.get("args")
                tail_call = ToolCallSpec(
                    cast(str, tail["name"]),
                    cast(dict[str, Any], tail_args) if isinstance(tail_args, dict) else {},
                )
                return await self._tool(
                    ctx, state, tail_call, original_name or call.name, depth + 1
                )
        return common.function_response(call.name, common.response_body(result)), False


# --- Gemini API objects ------------------------------------------------------------------


def _allowed_names(request: dict[str, Any]) -> set[str] | None:
    """Which functions the model may call under the request's tool config; None: any."""
    config = request.get("config")
    if not isinstance(config, dict):
        return None
    declared: set[str] = set()
    tools = config.get("tools")
    restricted = False
    if isinstance(tools, list):
        restricted = True
        for tool in tools:
            declarations = tool.get("functionDeclarations") if isinstance(tool, dict) else None
            for declaration in declarations if isinstance(declarations, list) else []:
                if isinstance(declaration, dict) and isinstance(declaration.get("name"), str):
                    declared.add(declaration["name"])
    calling = config.get("toolConfig")
    calling = calling.get("functionCallingConfig") if isinstance(calling, dict) else None
    if isinstance(calling, dict):
        if calling.get("mode") == "NONE":
            return set()
        names = calling.get("allowedFunctionNames")
        if isinstance(names, list):
            allowed = {n for n in names if isinstance(n, str)}
            return allowed & declared if restricted else allowed
    return declared if restricted else None


def _confirmation(call: ToolCallSpec, args: dict[str, Any]) -> dict[str, JSON]:
    kind = call.confirm or _default_confirm(call.name)
    details: dict[str, JSON] = {"type": kind, "title": call.name}
    if kind == "exec":
        command = args.get("command")
        if isinstance(command, str):
            details["command"] = command
            details["rootCommand"] = command.split()[0] if command.split() else ""
    elif kind == "edit":
        path = args.get("file_path")
        if isinstance(path, str):
            details["filePath"] = path
            details["fileName"] = Path(path).name
    elif kind == "mcp":
        details["toolName"] = call.name
    return details


def _default_confirm(name: str) -> str:
    if name == "run_shell_command":
        return "exec"
    if name in ("write_file", "replace", "edit"):
        return "edit"
    if name.startswith("mcp_") or "__" in name:
        return "mcp"
    return "info"
