"""Claude Code's and Codex's hook lifecycles, played offline with the dialect runtime.

Both hosts share one loop; each event fires only when the host has it (Codex has no
Notification or PostToolUseFailure; its SessionEnd's ``reason`` is always "other"). Per
session: SessionStart (its context becomes the first history entry), the steps,
SessionEnd. A ``compress`` fires PreCompact (a block skips the compaction) and then
PostCompact. Per turn, after TurnStart:

1. UserPromptSubmit with the turn's input: ``continue: false`` ends the turn before the
   prompt is sent, a block erases the prompt, context (JSON or plain stdout) is added.
2. Model calls, each after Codex's PreModelRequest (advisory: recorded, never obeyed),
   with the context of Claude's ``async: true`` hooks done by then; each reply's function
   calls go through
   PreToolUse (deny/ask/defer block the call and the reason reaches the model,
   ``updatedInput`` rewrites it, context is added to the result, defer and
   ``continue: false`` stop the turn), PermissionRequest and Notification when the
   call needs approval (``confirm:``; without a hook decision the scripted ``approve``
   answers), the scripted result, then PostToolUse (a block's reason is feedback added
   to the result, context too, ``continue: false`` stops) or, for a result with an
   ``error``, PostToolUseFailure.
   After the reply's calls, PostToolBatch (Claude Code): a block or ``continue: false``
   ends the loop before the next model request, context joins it. Each assistant message
   with text fires MessageDisplay once (as ``claude -p``; display-only, the history keeps
   the original). Before SessionStart, InstructionsLoaded fires for the workspace's
   CLAUDE.md, and before that Setup for a scenario's ``session.setup`` (its context joins
   the history); a typed ``/name`` of the scenario's ``commands`` fires
   UserPromptExpansion right after UserPromptSubmit (a block ends the turn, the model
   reads the expansion); a reply's ``api_error`` fires StopFailure in place of Stop (its
   answer discarded) and the turn ends ``failed`` (recorded order:
   tests/e2e/fixtures/claude-events/events.json, claude-handlers/stop-failure.json).
3. No function call left: Stop. A block (or Stop context) sends the reason back as a new
   prompt, and Stop fires again with ``stop_hook_active: true``; the turn gives up after
   ``max_model_calls`` model calls, as a real CLI would loop for as long as it runs.

The decisions are the dialect runtime's (`hookwise.host.claude_dialect`,
`hookwise.host.codex_dialect`): exit codes, JSON fields and precedence exactly as each CLI
reads them. Subagent events are not played (scenarios have no subagents).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from hookwise.host.dialect_answers import DialectEffect
from hookwise.host.runtimes import TABLE_RUNTIMES
from hookwise.host.system import HookSystem
from hookwise.protocol.claude import API_ERROR_PREFIX, SLASH_EXPANSION
from hookwise.protocol.hosts import HOST_TITLES, claude_events
from hookwise.protocol.jsvalue import JSON
from hookwise.protocol.profiles import DEFAULT_PROFILE
from hookwise.sim import common
from hookwise.sim.context import ReplyQueue, SimContext, SimOptions
from hookwise.sim.scenario import ApiErrorSpec, Scenario, StepSpec, ToolCallSpec
from hookwise.turns.session import Turn

__all__ = ["DialectLifecycle", "claude_lifecycle", "codex_lifecycle", "table_lifecycle"]

_TRIGGERS = ("manual", "auto")
_COMPACT_SUMMARY = "(the simulator does not summarise)"


def _example_model(host: str) -> str:
    """The model the host's protocol module names for a session (``EXAMPLE_MODEL``), else a
    made-up one."""
    import importlib

    from hookwise.protocol.hosts import host as host_info

    model = getattr(importlib.import_module(host_info(host).module), "EXAMPLE_MODEL", None)
    return model if isinstance(model, str) else "fake-model"


def dialect_action(effect: DialectEffect) -> str:
    """One word for the effect, as the Gemini effects have: stop, block, retry, proceed."""
    outcome = effect.outcome
    if outcome.stop_session:
        return "stop"
    if not outcome.proceed:
        return "retry" if effect.event in ("Stop", "SubagentStop") else "block"
    return "proceed"


class DialectLifecycle:
    def __init__(
        self, dialect: str, scenario: Scenario, options: SimOptions, workspace: Path
    ) -> None:
        runtime = TABLE_RUNTIMES[dialect]
        self.name = dialect
        self.title = HOST_TITLES[dialect]
        self.spec = runtime.spec
        self.event_names = tuple(self.spec.events)
        self.profile_name = dialect
        if options.profile or scenario.profile:
            raise scenario.error(
                "profile", f"profiles apply to the gemini host only, not to {self.title}"
            )
        self.scenario = scenario
        self.model = scenario.model_name or _example_model(dialect)
        names = claude_events(dialect)
        self._mapping = names[0] if names else None
        self._aliases = names[1] if names else {}
        self.system = self._load(scenario, options, workspace)
        self.workspace = workspace
        self.history: list[common.Content] = []
        self._tool_uses = 0
        self._messages = 0
        self._prompts = 0
        self._batch: list[dict[str, JSON]] = []  # the reply's calls, for PostToolBatch

    def _load(self, scenario: Scenario, options: SimOptions, workspace: Path) -> HookSystem:
        if scenario.settings == "project":
            from hookwise.host.loading import load_hook_system

            system = load_hook_system(
                workspace,
                home=options.home,
                env=options.env,
                dialect=self.name,
                bypass_hook_trust=options.bypass_hook_trust,
                trust_workspace=options.trust_workspace,
            )
        else:
            system = HookSystem.from_hooks({}, dialect=self.name, cwd=str(workspace))
            if options.env is not None:
                system.execution.base_env = dict(options.env)
        common.add_inline_hooks(system, scenario, self.spec)
        return system

    def check(self, scenario: Scenario) -> None:
        common.check_scenario(scenario, self.title, self.spec.events, _TRIGGERS, self._has)

    @property
    def session_id(self) -> str:
        return self.system.session_id

    def warnings(self) -> list[str]:
        return list(self.system.warnings)

    # -- firing --------------------------------------------------------------------------

    def _has(self, event: str) -> bool:
        return bool(self._host_events(event))

    async def _fire(
        self, ctx: SimContext, turn: Turn | None, event: str, **fields: JSON
    ) -> DialectEffect:
        """Fire with the fields the host's event takes (the others are dropped)."""
        if turn is not None:
            fields.setdefault("turn_id", turn.id)
        chosen: DialectEffect | None = None
        for name in self._host_events(event):
            wanted = self.spec.event(name).input_fields
            args = {key: value for key, value in fields.items() if key in wanted}
            for theirs, ours in self._aliases.items():
                if theirs in wanted and ours in fields:
                    args[theirs] = fields[ours]
            if "model" in self.spec.common_input:
                args["model"] = self.model  # a common field of every event (Codex)
            for field, on, values in self.spec.event(name).headless_sent_only_when:
                if args.get(on) not in values:  # a headless run leaves it out here
                    args.pop(field, None)
            result = await self.system.fire(name, args)
            effect = result.effect
            assert isinstance(effect, DialectEffect)
            record = common.fire_record(result, DEFAULT_PROFILE)
            record["effect"]["action"] = dialect_action(effect)
            ctx.record(turn, "hook_event", record)
            # several host events at one point (Copilot's two pre-tool keys, both fired in
            # file order): the first that stops or blocks decides, else the last; a
            # rewrite reaches the later hooks and stays (observed: they chain)
            if chosen is None or (chosen.outcome.proceed and not chosen.outcome.stop_session):
                updated = effect.outcome.updated_input
                if updated is None and chosen is not None:
                    updated = chosen.outcome.updated_input
                elif updated is not None:
                    fields["tool_input"] = updated
                chosen = replace(effect, outcome=replace(effect.outcome, updated_input=updated))
        assert chosen is not None, event
        return chosen

    def _host_events(self, event: str) -> tuple[str, ...]:
        """The host's events at the point Claude Code calls ``event``."""
        if self._mapping is None:
            return (event,) if event in self.spec.events else ()
        return tuple(n for n in self._mapping.get(event, ()) if n in self.spec.events)

    # -- session -------------------------------------------------------------------------

    async def start(self, ctx: SimContext) -> None:
        if self.scenario.setup is not None and self._has("Setup"):
            # ``claude --init`` / ``--maintenance``: before the memory files and the session
            # (recorded order); only its additionalContext counts, and it joins the session
            effect = await self._fire(ctx, None, "Setup", trigger=self.scenario.setup)
            context = effect.outcome.additional_context
            if context:
                self.history.append({"role": "user", "parts": [{"text": context}]})
        memory = self.workspace / "CLAUDE.md"
        if self._has("InstructionsLoaded") and memory.is_file():
            await self._fire(
                ctx,
                None,
                "InstructionsLoaded",
                file_path=str(memory),
                memory_type="Project",
                load_reason="session_start",
            )
        if self.scenario.start is None or not self._has("SessionStart"):
            return
        effect = await self._fire(
            ctx, None, "SessionStart", source=self.scenario.start, model=self.model
        )
        context = effect.outcome.additional_context
        if context:
            self.history.append({"role": "user", "parts": [{"text": context}]})

    async def compress(self, ctx: SimContext, trigger: str, turn: Turn | None) -> None:
        if self._has("PreCompact"):
            effect = await self._fire(
                ctx, turn, "PreCompact", trigger=trigger, custom_instructions=""
            )
            if not effect.outcome.proceed or effect.outcome.stop_session:
                ctx.record(turn, "note", {"message": "compaction skipped: PreCompact blocked it"})
                return
        if self._has("PostCompact"):
            await self._fire(
                ctx, turn, "PostCompact", trigger=trigger, compact_summary=_COMPACT_SUMMARY
            )

    async def _interrupt(self, ctx: SimContext, state: common.TurnState) -> None:
        """The user interrupts the turn: Interrupt fires where the host has it (advisory:
        only its systemMessage counts), and the turn ends without Stop."""
        message = None
        if self._has("Interrupt"):
            effect = await self._fire(ctx, state.turn, "Interrupt")
            message = effect.outcome.message_for_user
        state.end("interrupted", message)

    async def end(self, ctx: SimContext) -> None:
        if self.scenario.end is not None and self._has("SessionEnd"):
            await self._fire(ctx, None, "SessionEnd", reason=self.scenario.end)
        ctx.record(None, "final_history", {"contents": common.plain(self.history)})
        # the session ends: its MCP servers and any background (async) hooks with it
        self.system.close()

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
        kept: list[dict[str, Any]] = [{"text": turn.user_text}] if turn.user_text else []
        parts: list[dict[str, Any]] = [{"text": text} for text in turn.model_input()]
        if "prompt_id" in self.spec.session_input:
            # the host names each submitted prompt; every event after it carries the name
            self._prompts += 1
            name = f"{self.system.session_id}/prompt/{self._prompts}"
            self.system.session_input["prompt_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, name))
        effect = await self._fire(ctx, turn, "UserPromptSubmit", prompt=turn.prompt())
        outcome = effect.outcome
        if outcome.stop_session:
            state.end("stopped", outcome.message_for_user)
            return
        if not outcome.proceed:
            state.end("blocked", outcome.message_for_user or outcome.reason_for_model)
            return
        if outcome.additional_context:
            context = {"text": outcome.additional_context}
            parts.append(context)
            kept.append(context)
        if not turn.is_hook_input_turn and not await self._expand(ctx, state, parts, kept):
            return
        pending: list[common.Content] = [{"role": "user", "parts": parts}]
        persisted: list[common.Content] = [{"role": "user", "parts": kept}] if kept else []
        if step.interrupt and not turn.is_hook_input_turn:
            await self._interrupt(ctx, state)
            return
        stop_hook_active = False
        while True:
            if common.out_of_budget(ctx, state, self.scenario.max_model_calls):
                break
            if self._has("PreModelRequest"):
                # advisory (Codex): recorded, and nothing it answers changes the request
                await self._fire(ctx, turn, "PreModelRequest")
            late = self.system.take_async_context()
            if late:
                # background hooks done by now: their context joins this request (Claude)
                joined = {"role": "user", "parts": [{"text": text} for text in late]}
                pending.append(joined)
                persisted.append(joined)
                ctx.record(turn, "async_context", {"texts": list(late)})
            reply = common.next_reply(ctx, state, queue)
            request = {"model": self.model, "contents": [*self.history, *pending]}
            ctx.record(turn, "model_call", {"source": "model", "request": common.plain(request)})
            if reply.api_error is not None:
                await self._api_failure(ctx, state, reply.api_error)
                break
            chunks = common.chunks(reply)
            text = "".join(common.text(chunk) for chunk in chunks)
            ctx.record(turn, "model_reply", {"text": text, "chunks": chunks, "synthetic": False})
            if text:
                turn.agent_message(text)
                state.last_text = text
                await self._display(ctx, turn, text)
            model_parts = [part for chunk in chunks for part in common.parts(chunk)]
            model_content = {"role": "model", "parts": model_parts}
            pending.append(model_content)
            persisted.append(model_content)
            calls = _calls(chunks, list(reply.calls))
            if calls:
                self._batch = []
                responses, stopped = await common.run_calls(
                    ctx, turn, calls, lambda call: self._tool(ctx, state, call)
                )
                pending.append({"role": "user", "parts": responses})
                persisted.append({"role": "user", "parts": responses})
                if stopped or await self._after_batch(ctx, state, pending):
                    break
                continue
            stop = await self._fire(
                ctx,
                turn,
                "Stop",
                stop_hook_active=stop_hook_active,
                last_assistant_message=text,
            )
            if stop.outcome.stop_session:
                state.end("stopped", stop.outcome.message_for_user)
                break
            if stop.outcome.proceed:
                break
            prompt = stop.outcome.reason_for_model or stop.outcome.additional_context or ""
            retry = {"role": "user", "parts": [{"text": prompt}]}
            pending.append(retry)
            persisted.append(retry)
            stop_hook_active = True
            ctx.record(turn, "retry", {"prompt": prompt})
        self.history.extend(persisted)

    async def _expand(
        self,
        ctx: SimContext,
        state: common.TurnState,
        parts: list[dict[str, Any]],
        kept: list[dict[str, Any]],
    ) -> bool:
        """A typed ``/name args`` of a scenario command: UserPromptExpansion after
        UserPromptSubmit (recorded order), then the model reads the expanded prompt. A
        block ends the turn (the user reads the reason); context is added. False: ended."""
        turn = state.turn
        typed = turn.user_text
        if not typed or not typed.startswith("/") or not self._has("UserPromptExpansion"):
            return True
        name, _, args = typed[1:].partition(" ")
        command = self.scenario.commands.get(name)
        if command is None:
            return True  # not a command of the scenario: sent as typed
        args = args.strip()
        effect = await self._fire(
            ctx,
            turn,
            "UserPromptExpansion",
            expansion_type=SLASH_EXPANSION,
            command_name=name,
            command_args=args,
            command_source=command.source,
            prompt=typed,
        )
        outcome = effect.outcome
        if outcome.stop_session:
            state.end("stopped", outcome.message_for_user)
            return False
        if not outcome.proceed:
            state.end("blocked", outcome.message_for_user or outcome.reason_for_model)
            return False
        expanded = {"text": command.prompt.replace("$ARGUMENTS", args)}
        for texts in (parts, kept):
            if texts and texts[0].get("text") == typed:
                texts[0] = expanded
        if outcome.additional_context:
            context = {"text": outcome.additional_context}
            parts.append(context)
            kept.append(context)
        return True

    async def _api_failure(
        self, ctx: SimContext, state: common.TurnState, failure: ApiErrorSpec
    ) -> None:
        """The model request failed: StopFailure instead of Stop, and the turn ends. The
        CLI discards the hooks' answers (the table says so: the effect proceeds)."""
        message = f"{API_ERROR_PREFIX}{failure.message}"
        ctx.record(state.turn, "api_error", {"error": failure.error, "message": failure.message})
        if self._has("StopFailure"):
            await self._fire(
                ctx,
                state.turn,
                "StopFailure",
                error=failure.error,
                last_assistant_message=message,
            )
        state.end("failed", message)

    async def _display(self, ctx: SimContext, turn: Turn, text: str) -> None:
        """MessageDisplay, once per assistant message with text (as ``claude -p`` does):
        display-only, so the history keeps the original."""
        if not self._has("MessageDisplay"):
            return
        self._messages += 1
        effect = await self._fire(
            ctx,
            turn,
            "MessageDisplay",
            message_id=f"message-{self._messages:04d}",
            index=0,
            final=True,
            delta=text,
        )
        shown = effect.output.get("displayContent")
        if isinstance(shown, str):
            ctx.record(turn, "display", {"original": text, "shown": shown})

    async def _after_batch(
        self, ctx: SimContext, state: common.TurnState, pending: list[common.Content]
    ) -> bool:
        """PostToolBatch before the next model request: a block or ``continue: false``
        ends the loop (True); context joins the next request."""
        if not self._has("PostToolBatch") or not self._batch:
            return False
        effect = await self._fire(ctx, state.turn, "PostToolBatch", tool_calls=list(self._batch))
        outcome = effect.outcome
        if outcome.stop_session or not outcome.proceed:
            reason = outcome.reason_for_model or outcome.message_for_user
            state.end("stopped" if outcome.stop_session else "blocked", reason)
            return True
        if outcome.additional_context:
            pending.append({"role": "user", "parts": [{"text": outcome.additional_context}]})
        return False

    # -- tools ---------------------------------------------------------------------------

    async def _tool(
        self, ctx: SimContext, state: common.TurnState, call: ToolCallSpec
    ) -> tuple[dict[str, Any], bool]:
        turn = state.turn
        self._tool_uses += 1
        use_id = f"toolu_{self._tool_uses:04d}"
        args: dict[str, Any] = dict(call.args)
        record: dict[str, Any] = {"name": call.name, "args": args}
        pre = await self._fire(
            ctx, turn, "PreToolUse", tool_name=call.name, tool_input=args, tool_use_id=use_id
        )
        batched: dict[str, JSON] = {"tool_name": call.name, "tool_input": args}
        batched["tool_use_id"] = use_id
        self._batch.append(batched)
        outcome = pre.outcome
        if outcome.stop_session or not outcome.proceed:
            reason = outcome.reason_for_model or outcome.message_for_user or "blocked by a hook"
            status = "stopped" if outcome.stop_session else "blocked"
            ctx.record(turn, "tool_call", {**record, "status": status, "reason": reason})
            if outcome.stop_session:
                state.end("stopped", reason)
            return common.function_response(call.name, {"error": reason}), outcome.stop_session
        if outcome.updated_input is not None:
            record["original_args"] = args
            args = dict(outcome.updated_input)
            record["args"] = args
        contexts = [outcome.additional_context] if outcome.additional_context else []
        if call.confirm is not None:
            denied = await self._permission(ctx, turn, call, args)
            if denied is not None:
                ctx.record(turn, "tool_call", {**record, "status": "denied", "reason": denied})
                return common.function_response(call.name, {"error": denied}), False
        result = common.tool_response(
            call.result if call.result is not None else self.scenario.tools.get(call.name, "")
        )
        error = result.get("error")
        if isinstance(error, dict) and self._has("PostToolUseFailure"):
            after = await self._fire(
                ctx,
                turn,
                "PostToolUseFailure",
                tool_name=call.name,
                tool_input=args,
                tool_use_id=use_id,
                error=str(error.get("message", "")),
                is_interrupt=False,
            )
        else:
            after = await self._fire(
                ctx,
                turn,
                "PostToolUse",
                tool_name=call.name,
                tool_input=args,
                tool_response=_host_response(result),
                tool_use_id=use_id,
            )
        contexts += [
            text
            for text in (after.outcome.reason_for_model, after.outcome.additional_context)
            if text
        ]
        body = common.response_body(result)
        if contexts and "output" in body:
            body["output"] = "\n\n".join([str(body["output"]), *contexts])
        elif contexts:
            body["error"] = "\n\n".join([str(body["error"]), *contexts])
        batched["tool_input"] = args
        batched["tool_response"] = _host_response(result)
        status = "stopped" if after.outcome.stop_session else "ran"
        ctx.record(turn, "tool_call", {**record, "status": status, "result": result})
        if after.outcome.stop_session:
            state.end("stopped", after.outcome.message_for_user)
        return common.function_response(call.name, body), after.outcome.stop_session

    async def _permission(
        self, ctx: SimContext, turn: Turn, call: ToolCallSpec, args: dict[str, Any]
    ) -> str | None:
        """The permission dialog: a PermissionRequest hook may decide, else the user (after
        a Notification) answers as scripted. The reason for a denial, or None."""
        if self._has("PermissionRequest"):
            effect = await self._fire(
                ctx, turn, "PermissionRequest", tool_name=call.name, tool_input=args
            )
            if effect.decision == "deny":
                return effect.outcome.reason_for_model or "denied by a PermissionRequest hook"
            if effect.decision == "allow":
                if effect.outcome.updated_input is not None:
                    args.clear()
                    args.update(effect.outcome.updated_input)
                return None
        if self._has("Notification"):
            await self._fire(
                ctx,
                turn,
                "Notification",
                message=f"{self.title} needs your permission to use {call.name}",
                title="Permission needed",
                notification_type="permission_prompt",
            )
        return None if call.approve else common.DENIED


def _calls(chunks: list[dict[str, Any]], scripted: list[ToolCallSpec]) -> list[ToolCallSpec]:
    """The function calls of a reply, with the scripted results of the calls it named."""
    calls: list[ToolCallSpec] = []
    for chunk in chunks:
        for part in common.parts(chunk):
            call = part.get("functionCall")
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                continue
            spec = next((c for c in scripted if c.name == call["name"]), None)
            if spec is not None:
                scripted.remove(spec)
                calls.append(spec)
            else:
                args = call.get("args")
                calls.append(
                    ToolCallSpec(
                        call["name"], cast(dict[str, Any], args) if isinstance(args, dict) else {}
                    )
                )
    return calls


def _host_response(result: dict[str, JSON]) -> JSON:
    """What a Claude Code / Codex hook sees as ``tool_response``: the tool's output text."""
    content = result.get("llmContent", "")
    return content if isinstance(content, str) else common.plain(content)


def table_lifecycle(name: str) -> Callable[[Scenario, SimOptions, Path], DialectLifecycle]:
    """The lifecycle of a host whose runtime is driven by its event table."""
    return lambda scenario, options, workspace: DialectLifecycle(name, scenario, options, workspace)


def claude_lifecycle(scenario: Scenario, options: SimOptions, workspace: Path) -> DialectLifecycle:
    return DialectLifecycle("claude", scenario, options, workspace)


def codex_lifecycle(scenario: Scenario, options: SimOptions, workspace: Path) -> DialectLifecycle:
    return DialectLifecycle("codex", scenario, options, workspace)
