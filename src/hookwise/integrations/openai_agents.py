"""hookwise for the OpenAI Agents SDK (``pip install "hookwise[openai-agents]"``).

Each verdict of the :class:`~hookwise.integrations.gate.Gate` is applied with the SDK's own
mechanism:

- before a function tool: a **tool input guardrail**. ``deny`` answers
  ``reject_content(reason)``: the tool function never runs and the model receives the
  reason as the tool's output. ``stop`` answers ``raise_exception``: the run ends with
  ``ToolInputGuardrailTripwireTriggered`` (``output_info`` is the :class:`Verdict`).
- ``ask``: the tool's **needs_approval**. The run stops with an interruption
  (``result.interruptions``); ``state.approve(item)`` / ``state.reject(item)`` and
  ``Runner.run(agent, state)`` continue it, as for any approval in the SDK.
- rewrite: a guardrail cannot change the arguments (the SDK invokes the tool with the
  model's ``tool_call.arguments``; ``ToolContext.tool_arguments`` is only a copy), so the
  guarded tool's invoker swaps in the rewritten JSON arguments just before the function
  runs. Context rules of ``tool.before`` are appended to the tool's output there too.
- after a tool: a **tool output guardrail** (``reject_content`` replaces the output with
  the reason, or with the output followed by the context).
- prompts: an agent **input guardrail** that runs before the model is called
  (``run_in_parallel=False``); ``deny`` trips it (``InputGuardrailTripwireTriggered``)
  and the prompt never reaches the model.
- the end of a run: an agent **output guardrail**; ``deny`` ("do not stop yet") trips it
  (``OutputGuardrailTripwireTriggered`` carrying the reason): the SDK has no way to send a
  finished agent back to work, so :func:`run_guarded` reruns it with the reason instead.
- a person's answer to an ask: an approval is audited when the approved call reaches the
  input guardrail; a rejection never reaches a tool, so the agent's **hooks**
  (``AgentHooks.on_llm_start``, which sees the SDK's rejection output, and ``on_end``)
  write it, from the run context's approval record.

:func:`guard_agent` wraps every tool of an agent (and of the agents it hands off to) in one
call:

- function tools, as above;
- **MCP server tools**: the SDK turns them into function tools each turn
  (``Agent.get_mcp_tools``); the guarded agent guards each one the same way, named
  ``mcp__<server>__<tool>`` for the rules (``match: {mcp: {server, tool}}``);
- the local **ShellTool** (``ShellTool(executor=...)``): its ``needs_approval`` asks, its
  executor is wrapped (deny returns the reason as the output and nothing runs; a rewrite
  changes the commands; the output goes through ``tool.after``). The call's commands are
  decided together, one per line, as the canonical ``shell`` tool.

Tools it cannot gate make it raise :class:`UnguardedToolError` unless ``strict=False``:
hosted tools that run on OpenAI's servers (web/file search, code interpreter, hosted MCP,
image generation, a ShellTool with a hosted environment), ``ComputerTool`` (its actions go
straight to the computer object, with no approval or guardrail point),
``LocalShellTool`` and ``ApplyPatchTool``.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any, cast

from hookwise.integrations import require
from hookwise.integrations.errors import RunStoppedError
from hookwise.integrations.gate import Gate, HooksFrom
from hookwise.integrations.verdict import Verdict
from hookwise.policy import canonical

require("agents", "openai-agents")

from agents import (  # noqa: E402 - after the check that names the extra
    Agent,
    AgentHooks,
    FunctionTool,
    GuardrailFunctionOutput,
    InputGuardrail,
    ItemHelpers,
    OutputGuardrail,
    RunContextWrapper,
    Runner,
    ShellActionRequest,
    ShellCommandOutput,
    ShellCommandRequest,
    ShellResult,
    ShellTool,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
    ToolOutputGuardrail,
    ToolOutputGuardrailData,
)
from agents.exceptions import OutputGuardrailTripwireTriggered  # noqa: E402
from agents.result import RunResult  # noqa: E402
from agents.tool_context import ToolContext  # noqa: E402

__all__ = [
    "FRAMEWORK",
    "AgentsGuard",
    "UnguardedToolError",
    "guard_agent",
    "guard_tool",
    "run_guarded",
]

FRAMEWORK = "openai-agents"
GUARDRAIL_NAME = "hookwise"
# Verdicts kept between the approval check, the input guardrail and the invoker of one
# call; a run interrupted and never resumed leaves its entry, so the table is bounded.
_PENDING_LIMIT = 4096

# the attribute of a run's context object that carries the prompt verdict's context
_CONTEXT_ATTR = "_hookwise_prompt_context"
# ... and the stop verdict a ShellTool executor met (the run's, not the guard's: one
# guarded agent may serve several runs at once)
_STOP_ATTR = "_hookwise_stop"
# set while run_guarded sends a finished agent back (its prompt guardrail stays quiet)
_RETURNING: ContextVar[bool] = ContextVar("hookwise_openai_agents_returning", default=False)

Invoker = Callable[[ToolContext[Any], str], Awaitable[Any]]
# what the SDK's shell tool says when a person rejected a call without a message
_REJECTED = "the user rejected this tool call"


class UnguardedToolError(TypeError):
    """:func:`guard_agent` met a tool it cannot put a gate in front of."""


def parse_arguments(raw: str | None) -> dict[str, Any] | None:
    """The model's JSON arguments as an object, or None when they are not one."""
    if raw is None or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _with_context(output: Any, context: str) -> Any:
    """``output`` with ``context`` appended, as the model will read it."""
    if not context:
        return output
    text = output if isinstance(output, str) else json.dumps(output, default=str)
    return f"{text}\n\n{context}" if text else context


def prompt_text(value: Any) -> str:
    """The latest user text of a run's input (a string or a list of input items)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        return ""
    for item in reversed(value):
        if not isinstance(item, Mapping) or item.get("role") != "user":
            continue
        content = item.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            parts = [
                str(part.get("text", ""))
                for part in content
                if isinstance(part, Mapping) and part.get("type") in ("input_text", "text")
            ]
            return "\n".join(p for p in parts if p)
    return ""


def shell_arguments(commands: list[str]) -> str:
    """A ShellTool call's commands as the JSON arguments the Gate decides: one command
    line, a command per line (the shell parser reads each line as a command)."""
    return json.dumps({"command": "\n".join(str(c) for c in commands)})


def _approval(context: RunContextWrapper[Any], tool: str, call_id: str) -> bool | None:
    """A person's answer to a call in the run's approval record (None: not answered)."""
    try:
        return context.is_tool_approved(tool, call_id)
    except Exception:
        return None


def _bounded_put(table: OrderedDict[str, Any], key: str, value: Any) -> None:
    table[key] = value
    while len(table) > _PENDING_LIMIT:
        table.popitem(last=False)


def final_text(output: Any) -> str:
    """An agent's final output as text (structured outputs as JSON)."""
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    dump = getattr(output, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    return json.dumps(output, default=str)


class AgentsGuard:
    """The SDK-side pieces for one :class:`Gate`: guardrails, the approval check, the
    invoker wrapper. Build it once per agent (the Gate carries the agent's name)."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self._pending: OrderedDict[str, Verdict] = OrderedDict()
        # SDK tool name -> the name the Gate decides it under (MCP tools, a ShellTool)
        self._names: dict[str, str] = {}
        self._guarded: set[str] = set()  # SDK names of the tools behind this guard
        # call id -> (SDK tool name, Gate arguments, verdict) of a call a person was asked
        self._asked: OrderedDict[str, tuple[str, dict[str, Any], Verdict]] = OrderedDict()
        self._settled: OrderedDict[str, None] = OrderedDict()  # call ids decided here
        self._mcp_classes: dict[type[Any], type[Any]] = {}
        self.tool_input_guardrail: ToolInputGuardrail[Any] = ToolInputGuardrail(
            guardrail_function=self._tool_input, name=GUARDRAIL_NAME
        )
        self.tool_output_guardrail: ToolOutputGuardrail[Any] = ToolOutputGuardrail(
            guardrail_function=self._tool_output, name=GUARDRAIL_NAME
        )
        # not in parallel: the model must not see a prompt the policy blocks
        self.input_guardrail: InputGuardrail[Any] = InputGuardrail(
            guardrail_function=self._prompt, name=GUARDRAIL_NAME, run_in_parallel=False
        )
        self.output_guardrail: OutputGuardrail[Any] = OutputGuardrail(
            guardrail_function=self._end, name=GUARDRAIL_NAME
        )

    # ------------------------------------------------------------------ decisions
    @staticmethod
    def _key(tool: str, args: Mapping[str, Any] | None, call_id: str) -> str | None:
        """Which call a kept verdict belongs to: the id *and* what is called, so a model
        that reuses an id cannot lend one call's verdict to another."""
        if not call_id or args is None:
            return None
        return json.dumps([call_id, tool, args], sort_keys=True, default=str)

    def gate_name(self, tool: str) -> str:
        """The name the Gate decides an SDK tool under (rules match it)."""
        return self._names.get(tool, tool)

    async def decide(self, tool: str, raw_arguments: str | None, call_id: str) -> Verdict:
        """The verdict for one call, decided once: the approval check, the guardrail and
        the invoker of the same call share it."""
        args = parse_arguments(raw_arguments)
        key = self._key(tool, args, call_id)
        found = self._pending.get(key) if key else None
        if found is not None:
            return found
        if args is None:
            # fail closed: a gate that cannot read the arguments does not let them through
            verdict = Verdict(
                "deny", reason=f"hookwise: the arguments of {tool} are not a JSON object"
            )
        else:
            verdict = await self.gate.abefore_tool(self.gate_name(tool), args, call_id=call_id)
        if call_id:
            _bounded_put(self._settled, call_id, None)
        if key:
            _bounded_put(self._pending, key, verdict)
        return verdict

    async def decide_again(self, tool: str, raw_arguments: str | None, call_id: str) -> Verdict:
        """A call a person approved since it was asked (maybe long ago), decided again: a
        deny by now wins over the yes. A second ask is not written to the audit log: the
        approval's own record says what the policy says now."""
        self._forget(tool, raw_arguments, call_id)
        args = parse_arguments(raw_arguments)
        if args is None:
            return await self.decide(tool, raw_arguments, call_id)  # the fail-closed deny
        verdict, _ask = await self.gate.abefore_tool_held(
            self.gate_name(tool), args, call_id=call_id
        )
        key = self._key(tool, args, call_id)
        if key:
            _bounded_put(self._pending, key, verdict)
        return verdict

    def _note_ask(
        self, tool: str, raw_arguments: str | None, call_id: str, verdict: Verdict
    ) -> None:
        if call_id:
            _bounded_put(
                self._asked, call_id, (tool, parse_arguments(raw_arguments) or {}, verdict)
            )

    # ------------------------------------------------------------------ a person's answers
    def check_answers(
        self, context: RunContextWrapper[Any], items: list[Any] | None = None
    ) -> None:
        """Audit the rejections the SDK recorded since the last look (it never calls a
        tool, a guardrail or the approval check for a rejected call): the calls this guard
        asked about, and, for a run resumed from a saved state by another process, the
        function calls in the model's input that this guard never decided. Also ends the
        run for a ``stop`` a shell executor met (an executor cannot end it itself)."""
        for call_id, (tool, args, verdict) in list(self._asked.items()):
            answer = _approval(context, tool, call_id)
            if answer is None:
                continue
            self._asked.pop(call_id, None)
            if answer is False:
                self._record_rejected(context, tool, args, verdict, call_id)
        for item in items or ():
            if not isinstance(item, Mapping) or item.get("type") != "function_call":
                continue
            given, name = item.get("call_id"), item.get("name")
            if not isinstance(given, str) or not isinstance(name, str):
                continue
            if given in self._settled:
                continue
            _bounded_put(self._settled, given, None)
            if name in self._guarded and _approval(context, name, given) is False:
                args = parse_arguments(item.get("arguments")) or {}
                self._record_rejected(context, name, args, None, given)
        stopped = getattr(context, _STOP_ATTR, None)
        if isinstance(stopped, Verdict):
            setattr(context, _STOP_ATTR, None)
            raise RunStoppedError(stopped.stop or stopped.reason, stopped)

    def _record_rejected(
        self,
        context: RunContextWrapper[Any],
        tool: str,
        args: dict[str, Any],
        verdict: Verdict | None,
        call_id: str,
    ) -> None:
        try:
            message = context.get_rejection_message(tool, call_id)
        except Exception:
            message = None
        rejected = Verdict(
            "deny", reason=message or _REJECTED, rule_id=verdict.rule_id if verdict else ""
        )
        self.gate.record_approval(
            self.gate_name(tool), args, rejected, "needs_approval: rejected", call_id=call_id
        )

    def _forget(self, tool: str, raw_arguments: str | None, call_id: str) -> Verdict | None:
        key = self._key(tool, parse_arguments(raw_arguments), call_id)
        return self._pending.pop(key, None) if key else None

    def approval_for(
        self, tool: FunctionTool
    ) -> Callable[[RunContextWrapper[Any], dict[str, Any], str], Awaitable[bool]]:
        """The ``needs_approval`` callable for ``tool`` (its own setting still applies)."""
        own = tool.needs_approval
        name = tool.name

        async def needs_approval(
            context: RunContextWrapper[Any], params: dict[str, Any], call_id: str
        ) -> bool:
            raw = json.dumps(params)
            verdict = await self.decide(name, raw, call_id)
            if verdict.action == "ask":
                self._note_ask(name, raw, call_id, verdict)
                return True
            if verdict.action == "deny":
                return False  # the input guardrail rejects it; nobody needs to be asked
            if isinstance(own, bool):
                return own
            return bool(await own(context, params, call_id))

        return needs_approval

    async def _tool_input(self, data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        verdict = await self.decide(ctx.tool_name, ctx.tool_arguments, ctx.tool_call_id)
        if verdict.action == "ask" and self._approved(ctx):
            verdict = await self.decide_again(ctx.tool_name, ctx.tool_arguments, ctx.tool_call_id)
            self._record_approved(ctx.tool_name, ctx.tool_arguments, verdict, ctx.tool_call_id)
        if verdict.stop is not None:
            self._forget(ctx.tool_name, ctx.tool_arguments, ctx.tool_call_id)
            return ToolGuardrailFunctionOutput.raise_exception(output_info=verdict)
        if verdict.action == "deny":
            self._forget(ctx.tool_name, ctx.tool_arguments, ctx.tool_call_id)
            return ToolGuardrailFunctionOutput.reject_content(
                verdict.reason or "hookwise: denied by policy", output_info=verdict
            )
        if verdict.action == "ask" and not self._approved(ctx):
            if self._before_approval(ctx):
                # pre-approval guardrails (RunConfig.tool_execution): the SDK asks next
                return ToolGuardrailFunctionOutput.allow(output_info=verdict)
            # the tool is about to run although nobody approved it (its needs_approval
            # was replaced after guarding): refuse rather than run an unapproved call
            self._forget(ctx.tool_name, ctx.tool_arguments, ctx.tool_call_id)
            return ToolGuardrailFunctionOutput.reject_content(
                f"{verdict.reason or 'this call needs approval'} (not approved)",
                output_info=verdict,
            )
        return ToolGuardrailFunctionOutput.allow(output_info=verdict)

    def _record_approved(
        self, tool: str, raw_arguments: str | None, verdict: Verdict, call_id: str
    ) -> None:
        """Audit the person's yes (the SDK's approval), with what the policy says now."""
        self._asked.pop(call_id, None)
        args = parse_arguments(raw_arguments) or {}
        resolved = (
            verdict if verdict.action != "ask" else dataclasses.replace(verdict, action="allow")
        )
        self.gate.record_approval(
            self.gate_name(tool), args, resolved, "needs_approval: approved", call_id=call_id
        )

    @staticmethod
    def _approved(ctx: ToolContext[Any]) -> bool:
        try:
            return ctx.is_tool_approved(ctx.tool_name, ctx.tool_call_id) is True
        except Exception:
            return False

    @staticmethod
    def _before_approval(ctx: ToolContext[Any]) -> bool:
        config = getattr(ctx, "run_config", None)
        execution = getattr(config, "tool_execution", None)
        if not getattr(execution, "pre_approval_tool_input_guardrails", False):
            return False
        try:
            return ctx.is_tool_approved(ctx.tool_name, ctx.tool_call_id) is None
        except Exception:
            return False

    async def _tool_output(self, data: ToolOutputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        args = parse_arguments(ctx.tool_arguments) or {}
        verdict = await self.gate.aafter_tool(
            self.gate_name(ctx.tool_name), args, data.output, call_id=ctx.tool_call_id
        )
        if verdict.stop is not None:
            return ToolGuardrailFunctionOutput.raise_exception(output_info=verdict)
        if verdict.action == "deny":
            return ToolGuardrailFunctionOutput.reject_content(
                verdict.reason or "hookwise: the tool's output was withheld by policy",
                output_info=verdict,
            )
        if verdict.context:
            # the only way an output guardrail changes what the model reads
            return ToolGuardrailFunctionOutput.reject_content(
                _with_context(data.output, verdict.context), output_info=verdict
            )
        return ToolGuardrailFunctionOutput.allow(output_info=verdict)

    def _prompt(
        self, context: RunContextWrapper[Any], agent: Agent[Any], value: Any
    ) -> GuardrailFunctionOutput:
        if _RETURNING.get():
            # run_guarded sending the agent back: the user's prompt was decided already
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)
        verdict = self.gate.prompt(prompt_text(value))
        blocked = verdict.action == "deny" or verdict.stop is not None
        # an input guardrail cannot change the input: the context rides with the run's
        # context object to the agent's instructions (see _instructions)
        setattr(context, _CONTEXT_ATTR, "" if blocked else verdict.context)
        return GuardrailFunctionOutput(output_info=verdict, tripwire_triggered=blocked)

    def _end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any
    ) -> GuardrailFunctionOutput:
        verdict = self.gate.end(final_text(output))
        return GuardrailFunctionOutput(
            output_info=verdict, tripwire_triggered=verdict.action == "deny"
        )

    # ------------------------------------------------------------------ wrapping
    @staticmethod
    def _instructions(original: Any) -> Callable[[RunContextWrapper[Any], Agent[Any]], Any]:
        """The agent's instructions followed by the context the prompt's verdict added."""

        async def instructions(context: RunContextWrapper[Any], agent: Agent[Any]) -> str | None:
            base = original
            if callable(original):
                base = original(context, agent)
                if inspect.isawaitable(base):
                    base = await base
            extra = getattr(context, _CONTEXT_ATTR, "")
            if not extra:
                return cast("str | None", base)
            return f"{base}\n\n{extra}" if base else str(extra)

        return instructions

    def _invoker(self, inner: Invoker) -> Invoker:
        async def invoke(ctx: ToolContext[Any], arguments: str) -> Any:
            verdict = self._forget(ctx.tool_name, arguments, ctx.tool_call_id)
            if verdict is None:
                # the guardrail did not run for this call (or ran in another process
                # before a resume): decide here, the gate must not be skipped
                verdict = await self.decide(ctx.tool_name, arguments, ctx.tool_call_id)
                self._forget(ctx.tool_name, arguments, ctx.tool_call_id)
                if verdict.action == "deny" or verdict.stop is not None:
                    return verdict.reason or "hookwise: denied by policy"
                if verdict.action == "ask" and not self._approved(ctx):
                    return f"{verdict.reason or 'this call needs approval'} (not approved)"
            if verdict.args is not None:
                arguments = json.dumps(verdict.args)
            output = await inner(ctx, arguments)
            return _with_context(output, verdict.context)

        return invoke

    def guard_tool(self, tool: FunctionTool) -> FunctionTool:
        """A copy of ``tool`` behind the gate (the original is left unchanged)."""
        if not isinstance(tool, FunctionTool):
            raise UnguardedToolError(
                f"hookwise cannot gate {type(tool).__name__} {getattr(tool, 'name', '')!r}: "
                "only function tools run through the SDK's guardrails"
            )
        if any(g is self.tool_input_guardrail for g in tool.tool_input_guardrails or []):
            return tool
        self._guarded.add(tool.name)
        return dataclasses.replace(
            tool,
            on_invoke_tool=self._invoker(tool.on_invoke_tool),
            # first, so no other guardrail's side effects happen for a denied call
            tool_input_guardrails=[self.tool_input_guardrail, *(tool.tool_input_guardrails or [])],
            tool_output_guardrails=[
                *(tool.tool_output_guardrails or []),
                self.tool_output_guardrail,
            ],
            needs_approval=self.approval_for(tool),
        )

    def guard_shell(self, tool: ShellTool) -> ShellTool:
        """A copy of a local ``ShellTool`` behind the gate: ``needs_approval`` asks, the
        executor is wrapped (see the module docstring). A hosted one cannot be gated."""
        if tool.executor is None:
            raise UnguardedToolError(
                f"hookwise cannot gate ShellTool {tool.name!r}: its environment is hosted, "
                "so its commands run on OpenAI's servers, out of hookwise's reach"
            )
        if getattr(tool.executor, "_hookwise_guard", None) is self:
            return tool
        name = tool.name
        # rules see the canonical shell tool, whatever the agent named it
        self._names[name] = name if self.gate.canonical_tool(name) == canonical.SHELL else "shell"
        self._guarded.add(name)
        own = tool.needs_approval
        inner = tool.executor

        async def needs_approval(
            context: RunContextWrapper[Any], action: ShellActionRequest, call_id: str
        ) -> bool:
            raw = shell_arguments(action.commands)
            verdict = await self.decide(name, raw, call_id)
            if verdict.action == "ask":
                self._note_ask(name, raw, call_id, verdict)
                return True
            if verdict.action == "deny":
                return False  # the executor answers with the reason; nobody is asked
            if isinstance(own, bool):
                return own
            answer = own(context, action, call_id)
            return bool(await answer if inspect.isawaitable(answer) else answer)

        async def executor(request: ShellCommandRequest) -> str | ShellResult:
            return await self._run_shell(name, inner, request)

        executor._hookwise_guard = self  # type: ignore[attr-defined]
        return dataclasses.replace(tool, executor=executor, needs_approval=needs_approval)

    async def _run_shell(
        self, name: str, inner: Callable[[ShellCommandRequest], Any], request: ShellCommandRequest
    ) -> str | ShellResult:
        data = request.data
        call_id = data.call_id
        raw = shell_arguments(data.action.commands)
        verdict = self._forget(name, raw, call_id)
        if verdict is None:
            verdict = await self.decide(name, raw, call_id)
            self._forget(name, raw, call_id)
        if verdict.action == "ask":
            if _approval(request.ctx_wrapper, name, call_id) is not True:
                return f"{verdict.reason or 'this call needs approval'} (not approved)"
            verdict = await self.decide_again(name, raw, call_id)
            self._forget(name, raw, call_id)
            self._record_approved(name, raw, verdict, call_id)
        if verdict.stop is not None:
            # the run ends before the model is asked again (check_answers raises it)
            setattr(request.ctx_wrapper, _STOP_ATTR, verdict)
            return verdict.stop
        if verdict.action == "deny":
            return verdict.reason or "hookwise: denied by policy"
        command = "\n".join(data.action.commands)
        if verdict.args is not None and isinstance(verdict.args.get("command"), str):
            command = verdict.args["command"]
            action = dataclasses.replace(data.action, commands=[command])
            request = dataclasses.replace(request, data=dataclasses.replace(data, action=action))
        result = inner(request)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, ShellResult):
            text = "\n".join(f"{o.stdout}{o.stderr}" for o in result.output)
        else:
            text = str(result)
        after = await self.gate.aafter_tool(
            self.gate_name(name), {"command": command}, text, call_id=call_id
        )
        if after.stop is not None:
            setattr(request.ctx_wrapper, _STOP_ATTR, after)
        if after.action == "deny":
            return after.reason or "hookwise: the tool's output was withheld by policy"
        context = "\n\n".join(c for c in (verdict.context, after.context) if c)
        if not context:
            return cast("str | ShellResult", result)
        if isinstance(result, ShellResult):
            extra = ShellCommandOutput(stdout=context, command="hookwise")
            return dataclasses.replace(result, output=[*result.output, extra])
        return str(_with_context(text, context))

    def _mcp_class(self, cls: type[Agent[Any]]) -> type[Agent[Any]]:
        """``cls`` whose MCP tools (made into function tools each turn) come guarded; a
        class, not an instance attribute, so the SDK's clones of the agent keep it."""
        made = self._mcp_classes.get(cls)
        if made is None:
            guard = self

            class Guarded(cls):  # type: ignore[valid-type,misc]
                async def get_mcp_tools(self, run_context: RunContextWrapper[Any]) -> list[Any]:
                    tools = await super().get_mcp_tools(run_context)
                    return [guard.guard_mcp_tool(t) for t in tools]

            Guarded.__name__ = cls.__name__
            Guarded.__qualname__ = cls.__qualname__
            made = self._mcp_classes[cls] = Guarded
        return made

    def guard_mcp_tool(self, tool: Any) -> Any:
        """An MCP server's tool (a function tool the SDK made) behind the gate, named
        ``mcp__<server>__<tool>`` for the rules. Anything else fails closed."""
        if not isinstance(tool, FunctionTool):
            raise UnguardedToolError(
                f"hookwise cannot gate MCP tool {getattr(tool, 'name', tool)!r} "
                f"({type(tool).__name__}): only function tools run through the guardrails"
            )
        binding = getattr(tool, "_mcp_tool_binding", None)
        if not (isinstance(binding, tuple) and len(binding) >= 2 and all(binding[:2])):
            # without its server the rules naming MCP servers could not see the call
            raise UnguardedToolError(
                f"hookwise cannot tell which MCP server tool {tool.name!r} belongs to "
                "(the SDK gave it no server binding); refusing to run it unguarded"
            )
        self._names[tool.name] = f"mcp__{binding[0]}__{binding[1]}"
        return self.guard_tool(tool)

    def _hooks(self, hooks: Any) -> AgentHooks[Any]:
        if isinstance(hooks, _GuardHooks) and hooks.guard is self:
            return hooks
        return _GuardHooks(self, hooks)

    def guard_agent(
        self,
        agent: Agent[Any],
        *,
        strict: bool = True,
        prompts: bool = True,
        end: bool = True,
        _seen: dict[int, Agent[Any]] | None = None,
    ) -> Agent[Any]:
        """A copy of ``agent`` with every tool it can gate guarded (function tools, MCP
        servers' tools, a local ShellTool), the prompt and end guardrails and the hooks
        that audit a person's rejections added, and the agents it hands off to guarded
        the same way."""
        seen = {} if _seen is None else _seen
        if id(agent) in seen:
            return seen[id(agent)]
        unguarded: list[Any] = [
            t
            for t in agent.tools
            if not isinstance(t, FunctionTool)
            and not (isinstance(t, ShellTool) and t.executor is not None)
        ]
        if unguarded and strict:
            names = ", ".join(
                f"{type(t).__name__} {getattr(t, 'name', '')!r}".strip() for t in unguarded
            )
            raise UnguardedToolError(
                f"hookwise cannot gate these tools of agent {agent.name!r}: {names}. Remove "
                "them, wrap them in function tools, or pass strict=False to run them "
                "unguarded."
            )
        tools = [
            self.guard_tool(t)
            if isinstance(t, FunctionTool)
            else self.guard_shell(t)
            if isinstance(t, ShellTool) and t.executor is not None
            else t
            for t in agent.tools
        ]
        inputs = list(agent.input_guardrails)
        if prompts and self.input_guardrail not in inputs:
            inputs.insert(0, self.input_guardrail)
        outputs = list(agent.output_guardrails)
        if end and self.output_guardrail not in outputs:
            outputs.append(self.output_guardrail)
        guarded = agent.clone(
            tools=tools,
            input_guardrails=inputs,
            output_guardrails=outputs,
            hooks=self._hooks(agent.hooks),
        )
        if agent.mcp_servers:
            guarded.__class__ = self._mcp_class(type(agent))
        if prompts:
            guarded.instructions = self._instructions(agent.instructions)
        seen[id(agent)] = guarded
        handoffs: list[Any] = []
        for handoff in agent.handoffs:
            if isinstance(handoff, Agent):
                handoffs.append(
                    self.guard_agent(handoff, strict=strict, prompts=prompts, end=end, _seen=seen)
                )
            else:
                handoffs.append(handoff)
                if strict:
                    raise UnguardedToolError(
                        f"hookwise cannot reach the agent behind handoff "
                        f"{getattr(handoff, 'tool_name', handoff)!r} of agent {agent.name!r}: "
                        "hand off to a guarded Agent directly, or pass strict=False"
                    )
        guarded.handoffs = handoffs
        return guarded


class _GuardHooks(AgentHooks[Any]):
    """The agent's hooks (``inner``, the app's own, still called) plus the guard's look
    at a person's answers before each model call and at the end of the agent's turn."""

    def __init__(self, guard: AgentsGuard, inner: AgentHooks[Any] | None) -> None:
        self.guard = guard
        self.inner = inner

    async def on_start(self, context: Any, agent: Any) -> None:
        if self.inner is not None:
            await self.inner.on_start(context, agent)

    async def on_end(self, context: Any, agent: Any, output: Any) -> None:
        self.guard.check_answers(context)
        if self.inner is not None:
            await self.inner.on_end(context, agent, output)

    async def on_handoff(self, context: Any, agent: Any, source: Any) -> None:
        if self.inner is not None:
            await self.inner.on_handoff(context, agent, source)

    async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
        if self.inner is not None:
            await self.inner.on_tool_start(context, agent, tool)

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: Any) -> None:
        if self.inner is not None:
            await self.inner.on_tool_end(context, agent, tool, result)

    async def on_llm_start(
        self, context: Any, agent: Any, system_prompt: str | None, input_items: list[Any]
    ) -> None:
        self.guard.check_answers(context, input_items)
        if self.inner is not None:
            await self.inner.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        if self.inner is not None:
            await self.inner.on_llm_end(context, agent, response)


def _gate(
    agent_name: str,
    gate: Gate | None,
    *,
    cwd: str | os.PathLike[str] | None,
    policy: str | os.PathLike[str] | None,
    hooks_from: HooksFrom | None,
    tool_names: Mapping[str, str] | None,
) -> Gate:
    if gate is not None:
        return gate
    return Gate(
        FRAMEWORK,
        agent=agent_name,
        cwd=cwd,
        policy=policy,
        hooks_from=hooks_from,
        tool_names=tool_names,
    )


def guard_agent(
    agent: Agent[Any],
    gate: Gate | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    policy: str | os.PathLike[str] | None = None,
    hooks_from: HooksFrom | None = None,
    tool_names: Mapping[str, str] | None = None,
    strict: bool = True,
) -> Agent[Any]:
    """``agent`` behind hookwise: every tool, its prompts and the end of its runs.

    Without ``gate`` one is made for ``agent.name`` from the other arguments."""
    made = _gate(
        agent.name, gate, cwd=cwd, policy=policy, hooks_from=hooks_from, tool_names=tool_names
    )
    return AgentsGuard(made).guard_agent(agent, strict=strict)


def guard_tool(tool: FunctionTool, gate: Gate) -> FunctionTool:
    """One function tool behind ``gate`` (for agents built tool by tool)."""
    return AgentsGuard(gate).guard_tool(tool)


async def run_guarded(
    agent: Agent[Any],
    input: str | list[Any],
    *,
    max_returns: int = 3,
    **kwargs: Any,
) -> RunResult:
    """``Runner.run`` that honours an end verdict of "do not stop yet": when the output
    guardrail trips, the agent is run again on the same conversation plus the reason, at
    most ``max_returns`` times (then the last tripwire propagates)."""
    current: str | list[Any] = input
    attempt = 0
    while True:
        token = _RETURNING.set(attempt > 0)
        try:
            return await Runner.run(agent, current, **kwargs)
        except OutputGuardrailTripwireTriggered as trip:
            verdict = trip.guardrail_result.output.output_info
            run = trip.run_data
            if not isinstance(verdict, Verdict) or attempt >= max_returns or run is None:
                raise
            history: list[Any] = ItemHelpers.input_to_new_input_list(run.input)
            history.extend(item.to_input_item() for item in run.new_items)
            current = [*history, {"role": "user", "content": verdict.reason}]
            attempt += 1
        finally:
            _RETURNING.reset(token)
