"""Google ADK bridge: tool calls, prompts and run ends of ADK agents through hookwise.

Two forms of the same callbacks:

* :class:`HookwisePlugin` (a ``BasePlugin``) for ``Runner(..., plugins=[HookwisePlugin()])``:
  every agent the Runner runs, sub-agents included, and the user's message before the
  invocation starts;
* :class:`HookwiseCallbacks` for one ``LlmAgent``:
  ``LlmAgent(..., **HookwiseCallbacks(agent="coder").agent_callbacks())``.

What each verdict does, with ADK's own mechanisms:

* deny before a tool: the callback returns ``{"error": reason}``, which ADK uses as the tool's
  response without calling the tool; the model reads it in the function response;
* rewrite: the ``args`` dict ADK hands the callback is the one the tool is called with, so it is
  changed in place;
* ask: ADK's tool confirmation (``ToolContext.request_confirmation``): the invocation pauses with
  an ``adk_request_confirmation`` function call for the client; the client's answer
  (``FunctionResponse(name="adk_request_confirmation", response={"confirmed": ...})``) resumes
  it, ADK checks the call is the one asked about, and the call is decided again (a deny still
  wins) before the tool runs. ``ask="relay"`` uses :meth:`Gate.resolve_ask` instead;
* after a tool: deny replaces the response with ``{"error": reason}``; context (of the call's
  verdicts) is added to the response as ``additional_context``;
* the user prompt: deny keeps the prompt from the model (the plugin also replaces it in the
  session with a notice, so later turns do not send it either) and answers with the reason;
  context is added to the request's system instruction;
* the end of the run (a final model answer): deny ("do not stop yet") turns the answer into a
  call of a reserved tool whose response is the reason, so the agent goes on - the mechanism of
  ADK's own ``ReflectAndRetryModelPlugin``;
* ``stop`` ends the invocation (``end_invocation``) after the denied call's response.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from hookwise.integrations import require

require("google.adk", "google-adk")

from google.adk.agents.callback_context import CallbackContext  # noqa: E402
from google.adk.agents.invocation_context import InvocationContext  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.plugins.base_plugin import BasePlugin  # noqa: E402
from google.adk.tools.base_tool import BaseTool  # noqa: E402
from google.adk.tools.function_tool import FunctionTool  # noqa: E402
from google.adk.tools.tool_context import ToolContext  # noqa: E402
from google.genai import types  # noqa: E402

from hookwise.integrations.aio import off_loop  # noqa: E402
from hookwise.integrations.gate import Gate  # noqa: E402
from hookwise.integrations.verdict import Verdict  # noqa: E402

__all__ = ["CONTINUE_TOOL", "FRAMEWORK", "HookwiseCallbacks", "HookwisePlugin"]

FRAMEWORK = "google-adk"
# the reserved tool a denied run end is turned into (never offered to the model)
CONTINUE_TOOL = "hookwise_continue"
CONTEXT_KEY = "additional_context"
_KEEP_PROMPTS = 1024  # prompt verdicts kept per callbacks object (one per invocation)
AskMode = Literal["confirmation", "relay"]
logger = logging.getLogger("hookwise.integrations")


def content_text(content: types.Content | None) -> str:
    """The text parts of a message (function responses and media are not a prompt)."""
    if content is None or not content.parts:
        return ""
    return "\n".join(p.text for p in content.parts if p.text and not p.thought)


def _blocked_notice(reason: str) -> str:
    return f"[hookwise blocked this prompt: {reason}]"


def _end_invocation(context: CallbackContext | ToolContext) -> None:
    context._invocation_context.end_invocation = True


async def _continue(reason: str = "") -> dict[str, str]:
    """Reserved for hookwise: the answer to a run end that the policy sent back to work."""
    return {"hookwise": reason}


_CONTINUE = FunctionTool(func=_continue)  # stateless: one for every request


class HookwiseCallbacks:
    """hookwise's gate as ADK callbacks (see the module docstring).

    ``HookwiseCallbacks(cwd=...)`` builds one :class:`Gate` for ``google-adk`` per ADK agent
    that calls it, named after that agent (the audit log's ``agent``); the keyword arguments
    are the Gate's (``agent``, ``cwd``, ``policy``, ``hooks_from``, ``tool_names``...; a given
    ``agent`` names them all). ``HookwiseCallbacks(gate)`` uses a given Gate for every agent.
    """

    def __init__(
        self, gate: Gate | None = None, *, ask: AskMode = "confirmation", **gate_options: Any
    ) -> None:
        if ask not in ("confirmation", "relay"):
            raise ValueError(
                f"hookwise (google-adk): ask must be 'confirmation' or 'relay'; got {ask!r}"
            )
        if gate is not None and gate_options:
            raise TypeError("hookwise (google-adk): give a Gate or the Gate's options, not both")
        self._options = gate_options
        self._fixed = gate
        if gate is None and "agent" in gate_options:
            self._fixed = Gate(FRAMEWORK, **gate_options)
        self._gates: dict[str, Gate] = {}
        self.ask = ask
        # function call id -> why hookwise answered it itself (its after-tool is not a tool run)
        self._answered: dict[str, str] = {}
        self._context: dict[str, str] = {}  # function call id -> context for the response
        self._prompts: dict[str, Verdict] = {}  # invocation id -> the prompt's verdict
        self._blocked: set[str] = set()  # denied prompt texts, kept out of later requests

    def gate_for(self, agent: str) -> Gate:
        """The Gate of the ADK agent named ``agent``."""
        if self._fixed is not None:
            return self._fixed
        found = self._gates.get(agent)
        if found is None:
            found = self._gates[agent] = Gate(FRAMEWORK, agent=agent, **self._options)
        return found

    @property
    def gate(self) -> Gate:
        """The given Gate, else the first agent's (a fresh one before any agent ran)."""
        if self._fixed is not None:
            return self._fixed
        return next(iter(self._gates.values()), None) or self.gate_for("")

    def agent_callbacks(self) -> dict[str, Any]:
        """Keyword arguments for ``LlmAgent``: the tool, model and prompt callbacks."""
        return {
            "before_tool_callback": self.before_tool,
            "after_tool_callback": self.after_tool,
            "before_model_callback": self.before_model,
            "after_model_callback": self.after_model,
        }

    @staticmethod
    def _tell_user(verdict: Verdict) -> None:
        if verdict.message:
            logger.warning("hookwise (%s): %s", FRAMEWORK, verdict.message)

    # ------------------------------------------------------------------ tools
    async def before_tool(
        self, tool: BaseTool, args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        """Before a tool runs: None lets it run (with ``args`` maybe rewritten in place);
        a dict is the tool's response instead."""
        if tool.name == CONTINUE_TOOL:
            return None
        call_id = tool_context.function_call_id or ""
        gate = self.gate_for(tool_context.agent_name)
        # ADK calls this again with the user's answer: the ask is written once, when the
        # confirmation is requested, and the answer when it comes back
        verdict, held = await gate.abefore_tool_held(tool.name, args, call_id=call_id)
        self._tell_user(verdict)
        if verdict.action == "ask":
            confirmation = tool_context.tool_confirmation
            if self.ask == "relay":
                held.write()
                verdict = await off_loop(
                    gate, gate.resolve_ask, verdict, tool.name, args, may_wait=True
                )
            elif confirmation is None:
                held.write()
                tool_context.request_confirmation(hint=verdict.reason)
                # a pause for the user, not a result for the model to go on with
                tool_context.actions.skip_summarization = True
                self._answered[call_id] = "ask"
                return {"error": f"This tool call needs the user's confirmation: {verdict.reason}"}
            elif not confirmation.confirmed:
                self._answered[call_id] = "rejected"
                reason = f"The user rejected this tool call ({verdict.reason})"
                gate.record_approval(
                    tool.name,
                    args,
                    replace(verdict, action="deny", reason=reason, args=None),
                    "tool confirmation: rejected",
                    call_id=call_id,
                )
                return {"error": reason}
            else:
                gate.record_approval(
                    tool.name,
                    args,
                    replace(verdict, action="allow"),
                    "tool confirmation: approved",
                    call_id=call_id,
                )
        if verdict.action == "deny":
            self._answered[call_id] = "deny"
            if verdict.stop is not None:
                _end_invocation(tool_context)
            return {"error": verdict.reason or f"hookwise denied the call to {tool.name}"}
        if verdict.args is not None:
            args.clear()
            args.update(verdict.args)
        if verdict.context:
            self._context[call_id] = verdict.context
        return None

    async def after_tool(
        self,
        tool: BaseTool,
        args: dict[str, Any],
        tool_context: ToolContext,
        tool_response: dict[str, Any],
    ) -> dict[str, Any] | None:
        """After a tool ran: None keeps the response; a dict replaces it."""
        if tool.name == CONTINUE_TOOL:
            return None
        call_id = tool_context.function_call_id or ""
        before_context = self._context.pop(call_id, "")
        if self._answered.pop(call_id, None) is not None:
            return None  # hookwise answered this call itself: no tool ran
        gate = self.gate_for(tool_context.agent_name)
        verdict = await gate.aafter_tool(tool.name, args, tool_response, call_id=call_id)
        self._tell_user(verdict)
        if verdict.stop is not None:
            _end_invocation(tool_context)
        if verdict.action == "deny":
            return {"error": verdict.reason or f"hookwise withheld the result of {tool.name}"}
        context = "\n\n".join(c for c in (before_context, verdict.context) if c)
        if not context:
            return None
        response: dict[str, Any] = (
            dict(tool_response) if isinstance(tool_response, Mapping) else {"result": tool_response}
        )
        earlier = response.get(CONTEXT_KEY)
        response[CONTEXT_KEY] = f"{earlier}\n\n{context}" if isinstance(earlier, str) else context
        return response

    # ------------------------------------------------------------------ prompts
    async def prompt_verdict(self, agent: str, invocation_id: str, text: str) -> Verdict:
        """The verdict on an invocation's user prompt (decided once per invocation)."""
        known = self._prompts.get(invocation_id)
        if known is None:
            if text:
                known = await off_loop(self.gate_for(agent), self.gate_for(agent).prompt, text)
            else:
                known = Verdict("allow")
            self._tell_user(known)
            while len(self._prompts) >= _KEEP_PROMPTS:  # callbacks have no end-of-run hook
                self._prompts.pop(next(iter(self._prompts)))
            self._prompts[invocation_id] = known
            if known.action == "deny":
                self._blocked.add(text)
        return known

    def _scrub(self, llm_request: LlmRequest) -> None:
        """Denied prompts stay out of every model request, later turns included."""
        if not self._blocked:
            return
        for content in llm_request.contents:
            if content.role != "user" or not content.parts:
                continue
            text = content_text(content)
            if text in self._blocked:
                content.parts = [types.Part(text=_blocked_notice("withheld"))]

    async def before_model(
        self, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        """Before a model call: the invocation's prompt is decided (deny answers with the
        reason instead of the model; context joins the system instruction)."""
        llm_request.tools_dict[CONTINUE_TOOL] = _CONTINUE
        invocation = callback_context._invocation_context
        text = content_text(invocation.user_content)
        verdict = await self.prompt_verdict(
            callback_context.agent_name, invocation.invocation_id, text
        )
        self._scrub(llm_request)
        if verdict.stop is not None:
            _end_invocation(callback_context)
        if verdict.action == "deny" or verdict.stop is not None:
            notice = verdict.reason or verdict.stop or "hookwise blocked this prompt"
            return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=notice)]))
        if verdict.context:
            llm_request.append_instructions([verdict.context])
        return None

    # ------------------------------------------------------------------ the run's end
    async def after_model(
        self, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        """A final answer (no function call, not a fragment) asks the policy whether the
        agent may stop; deny turns it into a call of the reserved continue tool."""
        if llm_response.partial or llm_response.error_code or llm_response.content is None:
            return None
        if llm_response.get_function_calls():
            return None
        text = content_text(llm_response.content)
        gate = self.gate_for(callback_context.agent_name)
        verdict = await off_loop(gate, gate.end, text)
        self._tell_user(verdict)
        if verdict.action != "deny":
            return None
        reason = verdict.reason or "hookwise: do not stop yet"
        parts = list(llm_response.content.parts or [])
        parts.append(
            types.Part(
                function_call=types.FunctionCall(
                    id=f"hookwise-{uuid.uuid4().hex[:16]}",
                    name=CONTINUE_TOOL,
                    args={"reason": reason},
                )
            )
        )
        return llm_response.model_copy(update={"content": types.Content(role="model", parts=parts)})


class HookwisePlugin(BasePlugin):
    """:class:`HookwiseCallbacks` for every agent of a Runner, plus the user's message."""

    def __init__(
        self,
        gate: Gate | None = None,
        *,
        name: str = "hookwise",
        ask: AskMode = "confirmation",
        **gate_options: Any,
    ) -> None:
        super().__init__(name=name)
        self.callbacks = HookwiseCallbacks(gate, ask=ask, **gate_options)

    @property
    def gate(self) -> Gate:
        return self.callbacks.gate

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        text = content_text(user_message)
        if not text:
            return None  # a function response (a tool confirmation), not a prompt
        verdict = await self.callbacks.prompt_verdict(
            getattr(invocation_context.agent, "name", ""), invocation_context.invocation_id, text
        )
        if verdict.action == "deny":
            # the session keeps a notice, never the denied text
            notice = _blocked_notice(verdict.reason)
            return types.Content(role="user", parts=[types.Part(text=notice)])
        return None

    async def before_run_callback(
        self, *, invocation_context: InvocationContext
    ) -> types.Content | None:
        verdict = self.callbacks._prompts.get(invocation_context.invocation_id)
        if verdict is None:
            return None
        if verdict.action == "deny" or verdict.stop is not None:
            reason = verdict.reason or verdict.stop or "hookwise blocked this prompt"
            return types.Content(role="model", parts=[types.Part(text=reason)])
        return None

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        self.callbacks._prompts.pop(invocation_context.invocation_id, None)

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        return await self.callbacks.before_model(callback_context, llm_request)

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        return await self.callbacks.after_model(callback_context, llm_response)

    async def before_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        return await self.callbacks.before_tool(tool, tool_args, tool_context)

    async def after_tool_callback(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        result: dict[str, Any],
    ) -> dict[str, Any] | None:
        return await self.callbacks.after_tool(tool, tool_args, tool_context, result)
