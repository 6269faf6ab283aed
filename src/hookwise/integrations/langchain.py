"""hookwise for LangChain v1 agents on LangGraph (``pip install "hookwise[langchain]"``).

:class:`HookwiseMiddleware` is an ``AgentMiddleware`` for
``create_agent(model, tools, middleware=[HookwiseMiddleware(...)])``. Each verdict of the
:class:`~hookwise.integrations.gate.Gate` is applied with LangChain's own mechanism:

- ``wrap_tool_call`` / ``awrap_tool_call`` before and after every tool call: ``deny``
  answers a ``ToolMessage`` (status ``error``) holding the reason and the tool never runs;
  a rewrite changes the tool call's ``args`` (``request.override``) before the tool runs;
  context is appended to the tool's result; after the tool, ``deny`` replaces the result
  with the reason.
- ``ask``: a LangGraph ``interrupt`` shaped like ``HumanInTheLoopMiddleware``'s per-call
  ``ToolApprovalRequest`` (``{"type": "tool_approval", "tool_call_id", "name", "args",
  "description"}``); the run continues with ``Command(resume={"type": "approve"})`` or
  ``Command(resume={"type": "reject", "message": ...})``. That needs a checkpointer, as
  every LangGraph interrupt does; without one the Gate's ``resolve_ask`` decides (the
  approval relay or the policy's ``ask_fallback``: deny unless configured otherwise).
- ``before_agent``: the user's prompt. ``deny`` removes it from the conversation before the
  model sees it and ends the run with an ``AIMessage`` saying why; context is appended to
  the prompt.
- ``after_agent``: the end of a run. ``deny`` ("do not stop yet") adds the reason as a
  user message and jumps back to the model (at most ``max_returns`` times per run).
- ``stop`` (from any event): the tool that raised it does not run, and the run ends at the
  next model call (``wrap_model_call`` answers in the model's place, without tool calls).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Literal, NotRequired, Union, cast

from hookwise.integrations import require
from hookwise.integrations.gate import Gate, Held, HooksFrom
from hookwise.integrations.verdict import Verdict

require("langchain.agents", "langchain")
require("langgraph", "langchain")

from langchain.agents.middleware.human_in_the_loop import (  # noqa: E402
    ApproveDecision,
    RejectDecision,
)
from langchain.agents.middleware.types import (  # noqa: E402
    AgentMiddleware,
    AgentState,
    ModelCallResult,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
    ToolCallRequest,
    hook_config,
)
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
)
from langgraph.config import get_config  # noqa: E402
from langgraph.errors import GraphInterrupt  # noqa: E402
from langgraph.runtime import Runtime  # noqa: E402
from langgraph.types import Command, interrupt  # noqa: E402
from pydantic import Discriminator  # noqa: E402

__all__ = ["FRAMEWORK", "HookwiseMiddleware", "HookwiseState", "tool_approval"]

FRAMEWORK = "langchain"
# LangGraph keeps the checkpointer of a run under this key of the config's "configurable"
_CHECKPOINTER_KEY = "__pregel_checkpointer"

ToolResult = ToolMessage | Command[Any]
Decision = Annotated[Union[ApproveDecision, RejectDecision], Discriminator("type")]  # noqa: UP007


def _halt(left: str | None, right: str | None) -> str | None:
    """Reducer of ``hookwise_halt``: parallel tool calls may each stop the run in one
    step (the first reason is kept); ``""`` clears it at the start of a run."""
    if right is None:
        return left
    if right == "":
        return ""
    return left or right


class HookwiseState(AgentState[Any]):
    """The middleware's private state: why the run must end (``stop``, a blocked prompt),
    and how often the end of this run was refused."""

    hookwise_halt: NotRequired[Annotated[str | None, _halt, PrivateStateAttr]]
    hookwise_returns: NotRequired[Annotated[int, PrivateStateAttr]]


def _text(content: Any) -> str:
    """A message's content as text (strings and text blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts)
    return "" if content is None else str(content)


def _with_context(content: Any, context: str) -> Any:
    """A message content with ``context`` appended, keeping its shape."""
    if not context:
        return content
    if isinstance(content, list):
        return [*content, {"type": "text", "text": context}]
    text = _text(content)
    return f"{text}\n\n{context}" if text else context


def _refusal(call: Mapping[str, Any], reason: str) -> ToolMessage:
    """What the model receives in place of a tool result the policy refused."""
    return ToolMessage(
        content=reason or "hookwise: denied by policy",
        name=call.get("name"),
        tool_call_id=call.get("id") or "",
        status="error",
    )


def _has_checkpointer() -> bool:
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # not inside a graph
        return False
    return configurable.get(_CHECKPOINTER_KEY) is not None


class HookwiseMiddleware(AgentMiddleware[HookwiseState, Any, Any]):
    """hookwise's policy (and, with ``hooks_from``, the project's existing hooks) for a
    LangChain agent. Give a :class:`Gate`, or the Gate's arguments (``agent`` names the
    agent in the audit log)."""

    state_schema = HookwiseState

    def __init__(
        self,
        gate: Gate | None = None,
        *,
        agent: str = "",
        cwd: str | os.PathLike[str] | None = None,
        policy: str | os.PathLike[str] | None = None,
        hooks_from: HooksFrom | None = None,
        tool_names: Mapping[str, str] | None = None,
        ask: Literal["interrupt", "relay"] = "interrupt",
        max_returns: int = 3,
    ) -> None:
        super().__init__()
        if ask not in ("interrupt", "relay"):
            raise ValueError(f"HookwiseMiddleware: ask must be 'interrupt' or 'relay'; got {ask!r}")
        if max_returns < 0:
            raise ValueError("HookwiseMiddleware: max_returns must be 0 or more")
        self.gate = gate or Gate(
            FRAMEWORK,
            agent=agent,
            cwd=cwd,
            policy=policy,
            hooks_from=hooks_from,
            tool_names=tool_names,
        )
        self.ask = ask
        self.max_returns = max_returns
        self.tools = []

    @property
    def name(self) -> str:
        return "HookwiseMiddleware"

    # ------------------------------------------------------------------ tools
    def _ask(self, call: Mapping[str, Any], verdict: Verdict, held: Held) -> Verdict | ToolMessage:
        """An ``ask``: the person's answer through a LangGraph interrupt, or the Gate's
        fallback where the run cannot be interrupted and resumed.

        LangGraph runs the tool step again when the run resumes, so this runs twice for
        one ask: the ask is written to the audit log when the interrupt is raised (the
        first time), and the person's answer when it comes back (the second)."""
        name = str(call.get("name") or "")
        args = dict(call.get("args") or {})
        if self.ask == "relay" or not _has_checkpointer():
            held.write()
            resolved = self.gate.resolve_ask(verdict, name, args)
            return _refusal(call, resolved.reason) if resolved.action != "allow" else resolved
        try:
            decision = interrupt(
                {
                    "type": "tool_approval",
                    "tool_call_id": call.get("id") or "",
                    "name": name,
                    "args": args,
                    "description": verdict.reason or f"hookwise: {name} needs approval",
                    "rule_id": verdict.rule_id,
                },
                response_schema=cast("type[ApproveDecision | RejectDecision]", Decision),
            )
        except GraphInterrupt:
            held.write()  # the run pauses here: the ask, once
            raise
        if decision.get("type") == "approve":
            approved = Verdict(
                "allow", args=verdict.args, context=verdict.context, rule_id=verdict.rule_id
            )
            self.gate.record_approval(
                name, args, approved, "interrupt: approved", call_id=str(call.get("id") or "")
            )
            return approved
        why = decision.get("message") or verdict.reason
        reason = f"User rejected the tool call for `{name}`: {why}"
        rejected = Verdict("deny", reason=reason, rule_id=verdict.rule_id)
        self.gate.record_approval(
            name, args, rejected, "interrupt: rejected", call_id=str(call.get("id") or "")
        )
        return _refusal(call, reason)

    def _before(
        self, request: ToolCallRequest, verdict: Verdict, held: Held
    ) -> tuple[ToolCallRequest, Verdict] | ToolResult:
        """The request to run (maybe rewritten), or the answer in place of the tool."""
        call = request.tool_call
        if verdict.stop is not None:
            return Command(
                update={"messages": [_refusal(call, verdict.stop)], "hookwise_halt": verdict.stop}
            )
        if verdict.action == "deny":
            return _refusal(call, verdict.reason)
        if verdict.action == "ask":
            answered = self._ask(call, verdict, held)
            if isinstance(answered, ToolMessage):
                return answered
            verdict = answered
        if verdict.args is not None:
            request = request.override(tool_call={**call, "args": dict(verdict.args)})
        return request, verdict

    def _after(self, result: ToolResult, before: Verdict, after: Verdict) -> ToolResult:
        """The tool's result as the model will read it."""

        def apply(message: ToolMessage) -> ToolMessage:
            if after.action == "deny":
                return message.model_copy(
                    update={
                        "content": after.reason or "hookwise: output withheld",
                        "status": "error",
                    }
                )
            context = "\n\n".join(c for c in (before.context, after.context) if c)
            if not context:
                return message
            return message.model_copy(update={"content": _with_context(message.content, context)})

        if isinstance(result, ToolMessage):
            out: ToolResult = apply(result)
        elif isinstance(result.update, dict) and isinstance(result.update.get("messages"), list):
            messages = [
                apply(m) if isinstance(m, ToolMessage) else m for m in result.update["messages"]
            ]
            out = Command(
                graph=result.graph,
                update={**result.update, "messages": messages},
                resume=result.resume,
                goto=result.goto,
            )
        else:
            out = result
        if after.stop is not None:
            return self._halted(out, after.stop)
        return out

    @staticmethod
    def _halted(result: ToolResult, reason: str) -> ToolResult:
        if isinstance(result, ToolMessage):
            return Command(update={"messages": [result], "hookwise_halt": reason})
        update = result.update if isinstance(result.update, dict) else {}
        return Command(
            graph=result.graph,
            update={**update, "hookwise_halt": reason},
            resume=result.resume,
            goto=result.goto,
        )

    @staticmethod
    def _output(result: ToolResult) -> Any:
        if isinstance(result, ToolMessage):
            return result.content
        update = result.update if isinstance(result.update, dict) else {}
        for message in update.get("messages") or []:
            if isinstance(message, ToolMessage):
                return message.content
        return None

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolResult],
    ) -> ToolResult:
        call = request.tool_call
        name, call_id = str(call.get("name") or ""), str(call.get("id") or "")
        verdict, held = self.gate.before_tool_held(
            name, dict(call.get("args") or {}), call_id=call_id
        )
        decided = self._before(request, verdict, held)
        if not isinstance(decided, tuple):
            return decided
        request, verdict = decided
        result = handler(request)
        ran = dict(request.tool_call.get("args") or {})
        after = self.gate.after_tool(name, ran, self._output(result), call_id=call_id)
        return self._after(result, verdict, after)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolResult]],
    ) -> ToolResult:
        call = request.tool_call
        name, call_id = str(call.get("name") or ""), str(call.get("id") or "")
        verdict, held = await self.gate.abefore_tool_held(
            name, dict(call.get("args") or {}), call_id=call_id
        )
        decided = self._before(request, verdict, held)
        if not isinstance(decided, tuple):
            return decided
        request, verdict = decided
        result = await handler(request)
        ran = dict(request.tool_call.get("args") or {})
        after = await self.gate.aafter_tool(name, ran, self._output(result), call_id=call_id)
        return self._after(result, verdict, after)

    # ------------------------------------------------------------------ prompt, model, end
    def _prompt_update(self, state: HookwiseState, verdict: Verdict) -> dict[str, Any]:
        update: dict[str, Any] = {"hookwise_halt": "", "hookwise_returns": 0}
        last = _last_human(state["messages"])
        if last is None:
            return update
        if verdict.action == "deny" or verdict.stop is not None:
            reason = verdict.reason or verdict.stop or "hookwise: prompt blocked by policy"
            removal: list[BaseMessage] = [RemoveMessage(id=last.id)] if last.id else []
            update["messages"] = [*removal, AIMessage(content=f"Prompt blocked: {reason}")]
            update["hookwise_halt"] = reason
            update["jump_to"] = "end"
        elif verdict.context:
            update["messages"] = [
                last.model_copy(update={"content": _with_context(last.content, verdict.context)})
            ]
        return update

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: HookwiseState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        last = _last_human(state["messages"])
        verdict = self.gate.prompt(_text(last.content)) if last is not None else Verdict("allow")
        return self._prompt_update(state, verdict)

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(
        self, state: HookwiseState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        last = _last_human(state["messages"])
        verdict = (
            await asyncio.to_thread(self.gate.prompt, _text(last.content))
            if last is not None
            else Verdict("allow")
        )
        return self._prompt_update(state, verdict)

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], ModelResponse[Any]]
    ) -> ModelCallResult[Any]:
        """A ``stop`` raised by a tool call ends the run before the model is asked again.

        (Inside the model node, not a ``before_model`` node: a graph node per model call
        would cost more than the decision itself.)"""
        halted = request.state.get("hookwise_halt")
        if halted:
            return _stopped(str(halted))
        return handler(request)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelCallResult[Any]:
        halted = request.state.get("hookwise_halt")
        if halted:
            return _stopped(str(halted))
        return await handler(request)

    def _end_update(self, state: HookwiseState, verdict: Verdict) -> dict[str, Any] | None:
        if verdict.action != "deny" or verdict.stop is not None:
            return None
        returns = int(state.get("hookwise_returns") or 0)
        if returns >= self.max_returns:
            return None
        reason = verdict.reason or "hookwise: do not stop yet"
        return {
            "messages": [HumanMessage(content=reason)],
            "hookwise_returns": returns + 1,
            "jump_to": "model",
        }

    def _final(self, state: HookwiseState) -> str | None:
        """The final answer, or None when the run ended for another reason (halted)."""
        if state.get("hookwise_halt"):
            return None
        for message in reversed(state["messages"]):
            if isinstance(message, AIMessage):
                return _text(message.content)
        return ""

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: HookwiseState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        text = self._final(state)
        if text is None:
            return None
        return self._end_update(state, self.gate.end(text))

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(
        self, state: HookwiseState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        text = self._final(state)
        if text is None:
            return None
        return self._end_update(state, await asyncio.to_thread(self.gate.end, text))


def _stopped(reason: str) -> AIMessage:
    """The run's last message when the policy stopped it (no tool calls: the run ends)."""
    return AIMessage(content=f"Run stopped by policy: {reason}", name="hookwise")


def _last_human(messages: list[AnyMessage]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None


def tool_approval(interrupt_value: Any) -> Mapping[str, Any] | None:
    """The hookwise approval request in an interrupt's value, or None (for clients that
    handle several kinds of interrupts)."""
    if isinstance(interrupt_value, Mapping) and interrupt_value.get("type") == "tool_approval":
        return interrupt_value
    return None
