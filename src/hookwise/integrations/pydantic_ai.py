"""pydantic-ai bridge: a capability that puts every tool call of an agent through hookwise.

pydantic-ai (>= 2.68) has a hooks mechanism of its own, capabilities, whose tool hooks run for
every tool of a run (function tools, toolsets, MCP servers) between argument validation and the
tool function. :class:`HookwiseCapability` uses them:

* ``before_tool_execute``: deny raises :class:`~pydantic_ai.exceptions.ToolFailed`, so the tool
  function never runs and the model gets a failed tool result whose text is the reason (a
  ``ModelRetry`` would add retry instructions and spend the tool's retry budget); a rewrite
  returns the new arguments, which are what the function receives; ask raises
  :class:`~pydantic_ai.exceptions.ApprovalRequired` - pydantic-ai's deferred tools: the run ends
  with :class:`~pydantic_ai.tools.DeferredToolRequests` (or a ``HandleDeferredToolCalls``
  capability answers inline), and the call runs only when the next run brings an approval in
  ``DeferredToolResults``; the approved call is decided again (a deny still wins; arguments an
  approver overrode are checked) before it runs. ``ask="relay"`` resolves asks with
  :meth:`Gate.resolve_ask` instead, for agents that cannot pause. The ask is written to the
  audit log once, and the person's answer once: an approval when the approved call comes
  back; a rejection (which never reaches a tool hook) from the resumed run's tool-call node
  (``before_node_run``, whose ``tool_call_results`` hold the ``ToolDenied``), or, for an
  inline ``HandleDeferredToolCalls`` answer, from the denial the next model request
  carries (``before_model_request``).
* ``after_tool_execute``: deny replaces the result with the reason (again a failed tool result);
  context goes to the model next to the result.
* ``before_run``: the user prompt; deny raises :class:`PromptBlockedError` before any model request;
  context is added to the conversation.
* ``after_output_process``: the end of the run; deny ("do not stop yet") raises
  :class:`~pydantic_ai.exceptions.ModelRetry`, so the model gets the reason and goes on (within
  the agent's output retries).

A verdict's ``stop`` ends the run with :class:`RunStoppedError`; its ``message`` (for the user, not
the model) goes to the ``hookwise.integrations`` logger.

The capability sits innermost (``CapabilityOrdering(position="innermost")``): other
capabilities' argument changes happen before the gate decides, so what the gate allowed is what
the tool function receives.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from hookwise.integrations import require

require("pydantic_ai", "pydantic-ai")

from pydantic_ai import CallToolsNode  # noqa: E402
from pydantic_ai.capabilities import AbstractCapability, CapabilityOrdering  # noqa: E402
from pydantic_ai.exceptions import ApprovalRequired, ModelRetry, ToolFailed  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelRequest,
    SystemPromptPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.tools import (  # noqa: E402
    DeferredToolRequests,
    RunContext,
    ToolDefinition,
    ToolDenied,
)

from hookwise.integrations.aio import off_loop  # noqa: E402
from hookwise.integrations.errors import PromptBlockedError, RunStoppedError  # noqa: E402
from hookwise.integrations.gate import Gate  # noqa: E402
from hookwise.integrations.verdict import Verdict  # noqa: E402

if TYPE_CHECKING:
    from pydantic_ai._agent_graph import AgentNode
    from pydantic_ai.agent.abstract import AbstractAgent
    from pydantic_ai.models import ModelRequestContext
    from pydantic_ai.output import OutputContext

__all__ = ["FRAMEWORK", "HookwiseCapability", "PromptBlockedError", "RunStoppedError"]

FRAMEWORK = "pydantic-ai"
AskMode = Literal["approval", "relay"]
_ASKED_LIMIT = 4096  # asks kept for their answer (a paused run may never resume)
logger = logging.getLogger("hookwise.integrations")


def prompt_text(prompt: str | Sequence[Any] | None) -> str:
    """The text of a run's user prompt (pydantic-ai also takes a list of content parts;
    only their text is a prompt the rules can read)."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    return "\n".join(part for part in prompt if isinstance(part, str))


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    dump = getattr(output, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    try:
        return json.dumps(output, default=str)
    except (TypeError, ValueError):
        return str(output)


class HookwiseCapability(AbstractCapability[Any]):
    """hookwise's gate as a pydantic-ai capability (see the module docstring).

    ``HookwiseCapability(cwd=...)`` builds its own :class:`Gate` for the framework
    ``pydantic-ai``, named after the pydantic-ai agent it is given to (its ``name``; the
    keyword arguments are the Gate's: ``agent``, ``cwd``, ``policy``, ``hooks_from``,
    ``tool_names``...); ``HookwiseCapability(gate)`` uses a given one.
    """

    def __init__(
        self, gate: Gate | None = None, *, ask: AskMode = "approval", **gate_options: Any
    ) -> None:
        if ask not in ("approval", "relay"):
            raise ValueError(f"HookwiseCapability: ask must be 'approval' or 'relay'; got {ask!r}")
        if gate is not None and gate_options:
            raise TypeError("HookwiseCapability: give a Gate or the Gate's options, not both")
        self.gate = gate if gate is not None else Gate(FRAMEWORK, **gate_options)
        self.ask = ask
        self._options = None if gate is not None else gate_options
        # tool call id -> (tool, args, verdict) of a call a person was asked about
        self._asked: OrderedDict[str, tuple[str, dict[str, Any], Verdict]] = OrderedDict()

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds a live Gate: not something an agent spec can describe

    def for_agent(self, agent: AbstractAgent[Any, Any]) -> HookwiseCapability:
        """A Gate named after the agent, unless a Gate or a name was given."""
        options = self._options
        if options is None or "agent" in options or not agent.name:
            return self
        return HookwiseCapability(ask=self.ask, agent=agent.name, **options)

    def get_ordering(self) -> CapabilityOrdering:
        return CapabilityOrdering(position="innermost")

    # ------------------------------------------------------------------ helpers
    def _tell_user(self, verdict: Verdict) -> None:
        if verdict.message:
            logger.warning("hookwise (%s): %s", self.gate.framework, verdict.message)

    @staticmethod
    def _add_context(ctx: RunContext[Any], text: str) -> None:
        """Context for the model: into the next request (next to a tool's result)."""
        if text:
            ctx.enqueue(SystemPromptPart(text))

    @staticmethod
    def _stop(verdict: Verdict) -> None:
        if verdict.stop is not None:
            raise RunStoppedError(verdict.stop, verdict)

    # ------------------------------------------------------------------ the run
    async def before_run(self, ctx: RunContext[Any]) -> None:
        text = prompt_text(ctx.prompt)
        if not text:
            return  # a resumed run (deferred tool results) or a history-only run
        verdict = await off_loop(self.gate, self.gate.prompt, text)
        self._tell_user(verdict)
        self._stop(verdict)
        if verdict.action == "deny":
            raise PromptBlockedError(verdict.reason, verdict)
        self._add_context(ctx, verdict.context)

    async def after_output_process(
        self, ctx: RunContext[Any], *, output_context: OutputContext, output: Any
    ) -> Any:
        if isinstance(output, DeferredToolRequests):
            return output  # a pause for approvals, not the end of the run
        verdict = await off_loop(self.gate, self.gate.end, _output_text(output))
        self._tell_user(verdict)
        if verdict.action == "deny":
            raise ModelRetry(verdict.reason or "hookwise: do not stop yet")
        return output

    # ------------------------------------------------------------------ a person's no
    def _rejected(self, call_id: str, tool: str, args: Any, message: str) -> None:
        asked = self._asked.pop(call_id, None)
        rule = asked[2].rule_id if asked is not None else ""
        self.gate.record_approval(
            tool,
            args if isinstance(args, Mapping) else {},
            Verdict("deny", reason=message, rule_id=rule),
            "deferred tool: rejected",
            call_id=call_id,
        )

    async def before_node_run(
        self, ctx: RunContext[Any], *, node: AgentNode[Any]
    ) -> AgentNode[Any]:
        """A resumed run's tool-call node carries the answers (``DeferredToolResults``):
        a rejected call never reaches a tool hook, so its ``ToolDenied`` is audited here."""
        if isinstance(node, CallToolsNode) and node.tool_call_results:
            denied = {
                call_id: result
                for call_id, result in node.tool_call_results.items()
                if isinstance(result, ToolDenied)
            }
            if denied:
                for part in node.model_response.tool_calls:
                    result = denied.get(part.tool_call_id)
                    if result is not None:
                        args = part.args_as_dict() if part.args else {}
                        self._rejected(part.tool_call_id, part.tool_name, args, result.message)
        return node

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        """An ask answered inline (a ``HandleDeferredToolCalls`` capability) and rejected:
        the request now carries the denial as the call's result."""
        if self._asked and ctx.messages:
            last = ctx.messages[-1]
            if isinstance(last, ModelRequest):
                for part in last.parts:
                    if isinstance(part, ToolReturnPart) and part.tool_call_id in self._asked:
                        tool, args, _verdict = self._asked[part.tool_call_id]
                        self._rejected(part.tool_call_id, tool, args, part.model_response_str())
        return request_context

    # ------------------------------------------------------------------ tools
    async def before_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
    ) -> dict[str, Any]:
        tool = call.tool_name
        call_id = call.tool_call_id
        # an approved call comes back here: its ask is not written a second time
        verdict, held = await self.gate.abefore_tool_held(tool, args, call_id=call_id)
        self._tell_user(verdict)
        if verdict.action == "ask":
            if ctx.tool_call_approved:
                # a person approved exactly this call (pydantic-ai's deferred tools)
                self._asked.pop(call_id, None)
                self.gate.record_approval(
                    tool,
                    args,
                    replace(verdict, action="allow"),
                    "deferred tool: approved",
                    call_id=call_id,
                )
            elif self.ask == "relay":
                held.write()
                verdict = await off_loop(
                    self.gate, self.gate.resolve_ask, verdict, tool, args, may_wait=True
                )
            else:
                held.write()
                self._asked[call_id] = (tool, dict(args), verdict)
                while len(self._asked) > _ASKED_LIMIT:
                    self._asked.popitem(last=False)
                raise ApprovalRequired(
                    {"hookwise": {"reason": verdict.reason, "rule": verdict.rule_id}}
                )
        if verdict.action == "deny":
            if verdict.stop is not None:
                raise RunStoppedError(verdict.stop, verdict)
            raise ToolFailed(verdict.reason or f"hookwise denied the call to {tool}")
        self._stop(verdict)
        self._add_context(ctx, verdict.context)
        return verdict.args if verdict.args is not None else args

    async def after_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        result: Any,
    ) -> Any:
        verdict = await self.gate.aafter_tool(
            call.tool_name,
            args if isinstance(args, Mapping) else {},
            result,
            call_id=call.tool_call_id,
        )
        self._tell_user(verdict)
        self._stop(verdict)
        if verdict.action == "deny":
            raise ToolFailed(verdict.reason or f"hookwise withheld the result of {call.tool_name}")
        self._add_context(ctx, verdict.context)
        return result
