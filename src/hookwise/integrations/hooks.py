"""``hooks_from``: a project's existing Claude Code / Gemini CLI / Codex hooks guard a
framework agent.

The project's hook settings load through the host runtime (:mod:`hookwise.host`) with that
host's own trust rules (Claude Code's workspace trust, Gemini's trusted folders, Codex's
hook hashes; an untrusted project's hooks do not run, as in the CLI). Each framework event
fires as the equivalent host event, for the equivalent tool (a framework's shell tool is
``Bash`` for Claude Code and Codex hooks, ``run_shell_command`` for Gemini CLI hooks; see
:mod:`hookwise.integrations.tools`), and the host's own reading of the hooks' answers (exit
2 + stderr, ``permissionDecision``, ``decision: block``...) becomes a :class:`Verdict`.
"""

from __future__ import annotations

import asyncio
import os
import threading
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from hookwise.integrations.json_data import jsonable
from hookwise.integrations.tools import hook_tool_name
from hookwise.integrations.verdict import Verdict
from hookwise.policy.tool_input import canonical_input
from hookwise.protocol.hosts import input_fields, tool_response_text

if TYPE_CHECKING:
    from hookwise.host.outcome import Outcome as HostOutcome
    from hookwise.host.system import FireResult, HookSystem

# The framework events, as Claude Code names them: before a tool, after it, a prompt, a stop.
_CLAUDE_EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop")


def events(host: str) -> tuple[str, str, str, str]:
    """The host's own names of the framework events (its tables, through migrate's reading
    of each host's event for each of Claude Code's: Gemini CLI's BeforeTool...)."""
    from hookwise.config.migrate_hosts import migrate_host

    own = migrate_host(host).from_claude
    before, after, prompt, stop = (own[name] for name in _CLAUDE_EVENTS)
    return before, after, prompt, stop


class HookedGate(Protocol):
    """The Gate whose events the hooks are fired for, as far as the bridge reads it (the
    Gate creates its bridge, so the bridge knows it only by this shape)."""

    @property
    def framework(self) -> str: ...

    @property
    def cwd(self) -> str: ...

    @property
    def env(self) -> dict[str, str]: ...

    @property
    def session_id(self) -> str: ...

    def canonical_tool(self, tool: str) -> str: ...


class HookBridge:
    """The hooks of one project, fired for one Gate's events."""

    def __init__(self, gate: HookedGate, host: str) -> None:
        self.gate = gate
        self.host = host
        self._system: HookSystem | None = None
        self.untrusted: list[str] = []

    @property
    def system(self) -> HookSystem:
        if self._system is None:
            from hookwise.host.loading import load_hook_system

            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                system = load_hook_system(
                    self.gate.cwd,
                    dialect=self.host,
                    env=self.gate.env,
                    session_id=self.gate.session_id,
                )
            self.untrusted = list(system.untrusted)
            for item in caught:
                # an untrusted project's hooks are left out, as the CLI leaves them out
                import sys

                sys.stderr.write(f"hookwise ({self.gate.framework}): {item.message}\n")
            self._system = system
        return self._system

    # -------------------------------------------------------------- building the events
    def _tool_args(self, tool: str, args: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
        """(the event's arguments, the mapped input) for a framework tool call."""
        name = self.gate.canonical_tool(tool)
        mapped = canonical_input(name, args)
        tool_input = jsonable(mapped.args)
        return {"tool_name": hook_tool_name(self.host, name), "tool_input": tool_input}, mapped

    def _before_args(self, tool: str, args: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
        fields, mapped = self._tool_args(tool, args)
        if "tool_use_id" in input_fields(self.host, events(self.host)[0]):
            fields["tool_use_id"] = "hookwise-" + os.urandom(6).hex()
        return fields, mapped

    # -------------------------------------------------------------- firing
    def before_tool(self, tool: str, args: Mapping[str, Any]) -> Verdict:
        fields, mapped = self._before_args(tool, args)
        result = self._fire_sync(events(self.host)[0], fields)
        return self._verdict(result, args, mapped)

    async def abefore_tool(self, tool: str, args: Mapping[str, Any]) -> Verdict:
        fields, mapped = self._before_args(tool, args)
        result = await self.system.fire(events(self.host)[0], fields, validate=False)
        return self._verdict(result, args, mapped)

    def _after_args(self, tool: str, args: Mapping[str, Any], result: Any) -> dict[str, Any]:
        fields, _ = self._tool_args(tool, args)
        response = jsonable(result)
        wrap = tool_response_text(self.host)
        if wrap and not isinstance(response, dict):
            response = dict.fromkeys(wrap, response)
        elif not isinstance(response, (dict, list, str)):
            response = str(response)
        fields["tool_response"] = response
        return fields

    def after_tool(self, tool: str, args: Mapping[str, Any], result: Any) -> Verdict:
        fired = self._fire_sync(events(self.host)[1], self._after_args(tool, args, result))
        return self._verdict(fired, args, None)

    async def aafter_tool(self, tool: str, args: Mapping[str, Any], result: Any) -> Verdict:
        fired = await self.system.fire(
            events(self.host)[1], self._after_args(tool, args, result), validate=False
        )
        return self._verdict(fired, args, None)

    def prompt(self, text: str) -> Verdict:
        fired = self._fire_sync(events(self.host)[2], {"prompt": text})
        return self._verdict(fired, None, None)

    def end(self, final_text: str, stop_hook_active: bool) -> Verdict:
        fields: dict[str, Any] = {"stop_hook_active": stop_hook_active}
        if "prompt_response" in input_fields(self.host, events(self.host)[3]):
            fields.update(prompt="", prompt_response=final_text)  # (Gemini CLI's AfterAgent)
        else:
            fields["last_assistant_message"] = final_text
        fired = self._fire_sync(events(self.host)[3], fields)
        return self._verdict(fired, None, None)

    def _fire_sync(self, event: str, fields: dict[str, Any]) -> FireResult:
        system = self.system
        result: FireResult = run_sync(system.fire(event, fields, validate=False))
        return result

    # -------------------------------------------------------------- reading the answer
    def _outcome(self, result: FireResult) -> HostOutcome:
        from hookwise.host.dialect_answers import DialectEffect
        from hookwise.host.outcome import gemini_outcome

        if isinstance(result.effect, DialectEffect):
            return result.effect.outcome
        return gemini_outcome(result.effect, self.system.profile)

    def _verdict(self, result: FireResult, args: Mapping[str, Any] | None, mapped: Any) -> Verdict:
        outcome = self._outcome(result)
        rule = f"hooks:{self.host}"
        new_args: dict[str, Any] | None = None
        if outcome.updated_input is not None and args is not None and mapped is not None:
            rewritten = dict(outcome.updated_input)
            if "command" not in rewritten and "cmd" in rewritten:
                rewritten["command"] = rewritten.pop("cmd")
            new_args = mapped.back(args, rewritten)
        context = outcome.additional_context or ""
        message = outcome.message_for_user or ""
        if outcome.asks_user:
            return Verdict(
                "ask",
                outcome.reason_for_model or "a project hook asks for confirmation",
                args=new_args,
                context=context,
                rule_id=rule,
                message=message,
            )
        if not outcome.proceed:
            reason = outcome.reason_for_model or message or f"blocked by a {self.host} hook"
            return Verdict(
                "deny",
                reason,
                context=context,
                stop=reason if outcome.stop_session else None,
                rule_id=rule,
                message=message,
            )
        return Verdict(
            "allow",
            args=new_args,
            context=context,
            stop=(outcome.message_for_user or "stopped by a hook")
            if outcome.stop_session
            else None,
            rule_id=rule if (new_args is not None or result.runs) else "",
            message=message,
        )


def run_sync(coroutine: Any) -> Any:
    """Run a coroutine to its end from sync code, also when the calling thread already runs
    an event loop (a sync framework callback inside an async app): then in a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=work, name="hookwise-gate")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


__all__ = ["HookBridge", "events"]
