"""The Claude Agent SDK (``claude_agent_sdk``) bridge: hookwise as its ``hooks=`` and
``can_use_tool``.

The SDK drives the Claude Code CLI, which calls Python hook callbacks with the same JSON as
command hooks and takes the same answers. So :class:`ClaudeAgentGuard` decides each event
with the policy (``hookwise hook``'s engine, in process, as host ``claude``: Claude's tool
names, ``events: [PreToolUse]`` and ``host: claude`` rules apply) and answers in Claude's own
hook-output form:

- ``PreToolUse``: ``permissionDecision`` deny (the tool never runs; the reason is the tool
  result the model gets), allow (an ``allow`` rule or a rewrite, with ``updatedInput``), ask,
  ``additionalContext``, and ``continue: false`` for a stop;
- ``PostToolUse``: ``decision: block`` (the model gets the reason with the result) and
  context; ``UserPromptSubmit``: block or context; ``Stop``: block (the agent goes on with
  the reason: retry rules).

``hooks_from="claude"``: the CLI itself runs the project's Claude Code hooks when it loads
the project's settings (``setting_sources`` unset, or naming ``project``/``local``), and
Claude Code keeps the stricter answer; :meth:`ClaudeAgentGuard.options` then leaves them to
it. With ``setting_sources=[]`` (the SDK-isolated setup), hookwise runs them.

``ask``: with the application's own ``can_use_tool`` (its approver), the hook answers
``ask`` and the CLI's permission request reaches :meth:`ClaudeAgentGuard.can_use_tool`, which
hands it to the approver; without one, the policy's ``ask_fallback`` decides
(:meth:`Gate.resolve_ask`). ``can_use_tool`` also answers permission requests the hooks left
open: the policy first (deny -> ``PermissionResultDeny``, rewrite ->
``PermissionResultAllow(updated_input=...)``), then the approver.
"""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, cast

from hookwise.integrations import require
from hookwise.integrations.gate import Gate, HooksFrom
from hookwise.integrations.verdict import Verdict
from hookwise.policy import canonical

require("claude_agent_sdk", "claude-agent-sdk")

from claude_agent_sdk import (  # noqa: E402 - after the check that names the extra
    ClaudeAgentOptions,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ToolPermissionContext,
)
from claude_agent_sdk.types import SyncHookJSONOutput  # noqa: E402

FRAMEWORK = "claude-agent-sdk"
Approver = Callable[
    [str, dict[str, Any], ToolPermissionContext],
    Awaitable[PermissionResultAllow | PermissionResultDeny],
]

# canonical event -> Claude Code's event (the rules' ``events: [PreToolUse]`` apply)
CLAUDE_EVENTS: Mapping[str, str] = {
    canonical.TOOL_BEFORE: "PreToolUse",
    canonical.TOOL_AFTER: "PostToolUse",
    canonical.TOOL_FAILURE: "PostToolUse",
    canonical.PERMISSION_REQUEST: "PermissionRequest",
    canonical.PROMPT: "UserPromptSubmit",
    canonical.AGENT_STOP: "Stop",
}


class ClaudeGate(Gate):
    """A Gate whose events are Claude Code's: host ``claude``, Claude's tool names."""

    @property
    def host(self) -> str:
        return "claude"

    def host_event(self, name: str) -> str:
        return CLAUDE_EVENTS.get(name, name)

    def canonical_tool(self, tool: str) -> str:
        known = canonical.host_tools()["claude"].get(tool)
        return known if known is not None else self.names.canonical(tool)


def _hso(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookEventName": event, **{k: v for k, v in fields.items() if v}}


def _common(verdict: Verdict, out: dict[str, Any]) -> SyncHookJSONOutput:
    if verdict.message:
        out["systemMessage"] = verdict.message
    if verdict.stop is not None:
        out["continue_"] = False  # the SDK sends it as "continue"
        out["stopReason"] = verdict.stop
    return cast("SyncHookJSONOutput", out)


class ClaudeAgentGuard:
    """hookwise for one Claude Agent SDK agent; pass :meth:`options` (or :meth:`hooks` and
    :meth:`can_use_tool`) to ``query()`` / ``ClaudeSDKClient``."""

    def __init__(
        self,
        *,
        agent: str = "",
        cwd: str | os.PathLike[str] | None = None,
        policy: str | os.PathLike[str] | None = None,
        hooks_from: HooksFrom | None = None,
        tool_names: Mapping[str, str] | None = None,
        can_use_tool: Approver | None = None,
        relay: bool = True,
    ) -> None:
        self.gate = ClaudeGate(
            FRAMEWORK,
            agent=agent,
            cwd=cwd,
            policy=policy,
            hooks_from=hooks_from,
            tool_names=tool_names,
            relay=relay,
        )
        self.approver = can_use_tool
        self.cli_runs_hooks = False  # options() found the CLI loading the project's hooks
        # PreToolUse verdicts waiting for the permission request of the same call
        self._pending: OrderedDict[str, Verdict] = OrderedDict()

    # ------------------------------------------------------------------ wiring
    def hooks(self) -> dict[Any, list[HookMatcher]]:
        """The ``hooks=`` of ClaudeAgentOptions: every tool, prompt and stop."""
        return {
            "PreToolUse": [HookMatcher(matcher=None, hooks=[self.pre_tool_use])],
            "PostToolUse": [HookMatcher(matcher=None, hooks=[self.post_tool_use])],
            "UserPromptSubmit": [HookMatcher(hooks=[self.user_prompt_submit])],
            "Stop": [HookMatcher(hooks=[self.stop])],
        }

    def options(self, options: ClaudeAgentOptions | None = None) -> ClaudeAgentOptions:
        """``options`` with hookwise's hooks first in each event and ``can_use_tool`` set
        when there is an approver (``options.can_use_tool`` becomes the approver); ``cwd``
        defaults to the guard's."""
        base = options if options is not None else ClaudeAgentOptions()
        merged: dict[Any, list[HookMatcher]] = {k: list(v) for k, v in (base.hooks or {}).items()}
        for event, matchers in self.hooks().items():
            merged[event] = [*matchers, *merged.get(event, [])]
        if base.can_use_tool is not None and base.can_use_tool != self.can_use_tool:
            self.approver = base.can_use_tool
        sources = base.setting_sources
        if self.gate.hooks_from == self.gate.host and (
            sources is None or "project" in sources or "local" in sources
        ):
            # the hooks are those of the host whose CLI the SDK drives: the CLI loads the
            # project's settings and runs them itself, with its own trust rules; running
            # them here too would run each hook twice
            self.gate.hooks_from = None
            self.cli_runs_hooks = True
        return replace(
            base,
            hooks=merged,
            can_use_tool=self.can_use_tool if self.approver is not None else None,
            cwd=base.cwd if base.cwd is not None else self.gate.cwd,
        )

    # ------------------------------------------------------------------ hook callbacks
    def _session(self, data: Mapping[str, Any]) -> None:
        session = data.get("session_id")
        if isinstance(session, str) and session:
            self.gate.session_id = session

    async def pre_tool_use(
        self, data: Any, tool_use_id: str | None, context: Any
    ) -> SyncHookJSONOutput:
        """PreToolUse: the policy's verdict as ``permissionDecision``."""
        del context
        self._session(data)
        tool = str(data.get("tool_name") or "")
        args = data.get("tool_input")
        args = dict(args) if isinstance(args, Mapping) else {}
        call_id = tool_use_id or str(data.get("tool_use_id") or "")
        verdict = await self.gate.abefore_tool(tool, args, call_id=call_id)
        if verdict.action == "ask":
            if self.approver is None:
                verdict = await asyncio.to_thread(self.gate.resolve_ask, verdict, tool, args)
            elif call_id:
                self._remember(call_id, verdict)
        elif verdict.action == "allow" and not verdict.rule_id and call_id:
            self._remember(call_id, verdict)  # a permission request may follow: no re-audit
        decision: str | None = None
        if verdict.action in ("deny", "ask"):
            decision = verdict.action
        elif verdict.rule_id or verdict.args is not None:
            decision = "allow"  # an allow rule or a rewrite approves; else Claude decides
        specific = _hso(
            "PreToolUse",
            permissionDecision=decision,
            permissionDecisionReason=verdict.reason,
            updatedInput=verdict.args if decision in ("allow", "ask") else None,
            additionalContext=verdict.context,
        )
        out: dict[str, Any] = {}
        if len(specific) > 1:
            out["hookSpecificOutput"] = specific
        return _common(verdict, out)

    async def post_tool_use(
        self, data: Any, tool_use_id: str | None, context: Any
    ) -> SyncHookJSONOutput:
        """PostToolUse: deny withholds nothing that already ran, but the model gets the
        reason (``decision: block``); context is added."""
        del context
        self._session(data)
        args = data.get("tool_input")
        verdict = await self.gate.aafter_tool(
            str(data.get("tool_name") or ""),
            dict(args) if isinstance(args, Mapping) else {},
            data.get("tool_response"),
            call_id=tool_use_id or "",
        )
        out: dict[str, Any] = {}
        if verdict.action == "deny":
            out.update(decision="block", reason=verdict.reason)
        if verdict.context:
            out["hookSpecificOutput"] = _hso("PostToolUse", additionalContext=verdict.context)
        return _common(verdict, out)

    async def user_prompt_submit(
        self, data: Any, tool_use_id: str | None, context: Any
    ) -> SyncHookJSONOutput:
        del tool_use_id, context
        self._session(data)
        text = data.get("prompt")
        verdict = await asyncio.to_thread(self.gate.prompt, text if isinstance(text, str) else "")
        out: dict[str, Any] = {}
        if verdict.action == "deny":
            out.update(decision="block", reason=verdict.reason)
        if verdict.context:
            out["hookSpecificOutput"] = _hso("UserPromptSubmit", additionalContext=verdict.context)
        return _common(verdict, out)

    async def stop(self, data: Any, tool_use_id: str | None, context: Any) -> SyncHookJSONOutput:
        """Stop: deny sends the agent back to work with the reason (retry rules)."""
        del tool_use_id, context
        self._session(data)
        text = data.get("last_assistant_message")
        verdict = await asyncio.to_thread(self.gate.end, text if isinstance(text, str) else "")
        out: dict[str, Any] = {}
        if verdict.action == "deny":
            out.update(decision="block", reason=verdict.reason)
        return _common(verdict, out)

    # ------------------------------------------------------------------ permissions
    def _remember(self, call_id: str, verdict: Verdict) -> None:
        self._pending[call_id] = verdict
        while len(self._pending) > 1024:
            self._pending.popitem(last=False)

    async def can_use_tool(
        self, tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResultAllow | PermissionResultDeny:
        """The CLI's permission request: the policy, then the application's approver."""
        call_id = context.tool_use_id or ""
        verdict = self._pending.pop(call_id, None) if call_id else None
        if verdict is None:
            verdict = await self.gate.abefore_tool(tool_name, tool_input, call_id=call_id)
        if verdict.action == "deny":
            return PermissionResultDeny(message=verdict.reason, interrupt=verdict.stop is not None)
        args = verdict.args if verdict.args is not None else tool_input
        if verdict.action == "allow" and (verdict.rule_id or verdict.args is not None):
            return PermissionResultAllow(updated_input=verdict.args)
        if self.approver is None:
            if verdict.action == "ask":
                resolved = await asyncio.to_thread(
                    self.gate.resolve_ask, verdict, tool_name, tool_input
                )
                if resolved.action == "deny":
                    return PermissionResultDeny(message=resolved.reason)
            return PermissionResultAllow(updated_input=verdict.args)
        answer = await self.approver(tool_name, dict(args), context)
        if verdict.action == "ask":
            approved = isinstance(answer, PermissionResultAllow)
            resolved = replace(
                verdict,
                action="allow" if approved else "deny",
                reason="" if approved else (getattr(answer, "message", "") or verdict.reason),
            )
            self.gate.record_approval(tool_name, args, resolved, "can_use_tool")
        if (
            isinstance(answer, PermissionResultAllow)
            and answer.updated_input is None
            and verdict.args is not None
        ):
            answer = replace(answer, updated_input=verdict.args)
        return answer


def guarded_options(
    options: ClaudeAgentOptions | None = None,
    *,
    agent: str = "",
    cwd: str | os.PathLike[str] | None = None,
    policy: str | os.PathLike[str] | None = None,
    hooks_from: HooksFrom | None = None,
    tool_names: Mapping[str, str] | None = None,
) -> ClaudeAgentOptions:
    """``options`` guarded by hookwise (a :class:`ClaudeAgentGuard` with the defaults);
    ``options.can_use_tool``, when set, is the approver of ``ask`` rules."""
    base = options if options is not None else ClaudeAgentOptions()
    guard = ClaudeAgentGuard(
        agent=agent,
        cwd=cwd if cwd is not None else base.cwd,
        policy=policy,
        hooks_from=hooks_from,
        tool_names=tool_names,
    )
    return guard.options(base)


__all__ = ["FRAMEWORK", "ClaudeAgentGuard", "ClaudeGate", "guarded_options"]
