"""Hosts whose hooks are script files answering with a cancel: Cline's runtime from its table.

What differs from the Claude Code family is the whole reading (protocol/cline.py): the hook
files of every directory the host reads, one after another in the order of their paths
(config/script_hooks.py); stdout's last ``HOOK_CONTROL\\t`` line or the whole of it as the
answer, exit codes ignored; a cancel from any hook stops the call and ends the run, the
texts of the others joined as context, the last ``overrideInput`` as the new input. On the
events the host does not wait for, every answer is ignored.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType

from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.registry import Registry
from hookwise.config.script_hooks import load_script_hooks
from hookwise.host import claude_dialect
from hookwise.host.dialect_answers import DialectEffect, Reading
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.outcome import Outcome
from hookwise.host.plan import MatchContext, Plan
from hookwise.host.runtime import LoadOptions
from hookwise.protocol.dialect import Decision, DialectEvent, Kind
from hookwise.protocol.hosts import host, table
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_json_parse, js_trim


def control_text(prefix: str, stdout: str) -> str:
    """The text the host parses: the last line starting with ``prefix`` (less it), else the
    whole trimmed stdout ('' when there is nothing)."""
    text = js_trim(stdout)
    if not text:
        return ""
    lines = [js_trim(line) for line in text.split("\n")]
    marked = [line[len(prefix) :] for line in lines if line and line.startswith(prefix)]
    return marked[-1] if marked else text


def read_answer(prefix: str, stdout: str) -> Reading:
    """One hook's run as the host reads it: a JSON object, or nothing (with why)."""
    text = control_text(prefix, stdout)
    if not text:
        return Reading("none")
    try:
        value = js_json_parse(text)
    except ValueError as exc:
        return Reading("none", text=text, problem=f"invalid JSON control output: {exc}")
    if isinstance(value, dict):
        return Reading("json", value)
    return Reading("none", problem="the control output is not an object: nothing read")


def _utf16_cut(text: str, limit: int, note: str) -> str:
    """``text`` cut at ``limit`` UTF-16 units (JavaScript's length) with ``note`` after."""
    units = text.encode("utf-16-le", errors="surrogatepass")
    if len(units) <= 2 * limit:
        return text
    kept = units[: 2 * limit].decode("utf-16-le", errors="surrogatepass")
    return kept + note


@dataclass(frozen=True)
class Control:
    """What the host makes of the answers of one event's hooks (merged in order)."""

    cancel: bool = False
    context: str = ""
    reason: str = ""
    override: JSON = UNDEFINED


def merge(answers: Sequence[dict[str, JSON]], facts: ModuleType) -> Control:
    """Each answer as the host reads it, then merged: any cancel cancels, the texts are
    joined by newlines, the last ``overrideInput`` given wins."""
    cancel, contexts, reasons = False, [], []
    override: JSON = UNDEFINED
    for answer in answers:
        ctx = answer.get("context")
        if not isinstance(ctx, str):
            ctx = answer.get("contextModification")
        text = ctx if isinstance(ctx, str) else None
        error = answer.get("errorMessage")
        message = error if isinstance(error, str) and js_trim(error) else None
        if answer.get("cancel") is True:
            cancel = True
            reason = message if message is not None else text
            if reason:
                reasons.append(reason)
        else:
            shown = text if text is not None else message
            if shown:
                contexts.append(_utf16_cut(shown, facts.CONTEXT_LIMIT, facts.CONTEXT_CUT_NOTE))
        if "overrideInput" in answer:
            override = answer["overrideInput"]
    return Control(cancel, "\n".join(contexts), "\n".join(reasons), override)


def conclude(event: DialectEvent, control: Control) -> Outcome:
    """What the agent does: a cancel ends the run (the call does not run, the model is not
    asked again, the reason is the run's error); else the call runs with the context and,
    before a tool, the new input."""
    if control.cancel:
        reason = control.reason if js_trim(control.reason) else None
        return Outcome(proceed=False, message_for_user=reason, stop_session=True)
    context = control.context if js_trim(control.context) else None
    rewritten = control.override if isinstance(control.override, dict) else None
    if event.kind is not Kind.TOOL_BEFORE:
        rewritten = None
    return Outcome(proceed=True, updated_input=rewritten, additional_context=context)


@dataclass(frozen=True)
class ScriptRuntime(DialectRuntime):
    """A table-driven runtime whose hooks run one after another in the order they were
    found, each given the same input, and whose stdin is the host's own shape."""

    sent_as: Mapping[str, str | None] | None = None
    # event -> the fields the host's loop sends when the caller gives none of them
    event_input: Mapping[str, Mapping[str, JSON]] | None = None
    # Claude Code's tool fields a caller may give, and the host's shape for them
    claude_fields: tuple[str, ...] = ()
    tool_fields: Callable[[str, dict[str, JSON]], dict[str, JSON]] | None = None

    def plan(
        self,
        registry: Registry,
        event: str,
        payload: Mapping[str, JSON],
        context: MatchContext | None = None,
        warnings: list[str] | None = None,
    ) -> Plan | None:
        self.spec.event(event)
        chosen = [e for e in registry.entries if e.event == event and e.enabled]
        return Plan(event, chosen, True) if chosen else None

    def build_input(
        self, event: str, base: Mapping[str, JSON], args: Mapping[str, JSON]
    ) -> dict[str, JSON]:
        """The host's common fields (its name for the event, the session as ``taskId``, the
        directory as ``workspaceRoots``), then the event's own."""
        self.spec.event(event)
        sent = (self.sent_as or {}).get(event) or event
        own = {k: v for k, v in args.items() if k not in self.claude_fields}
        if self.tool_fields is not None and any(k in args for k in self.claude_fields):
            own = {**self.tool_fields(event, dict(args)), **own}
        cwd = base.get("cwd")
        payload: dict[str, JSON] = {
            "clineVersion": "",
            "hookName": sent,
            "timestamp": base.get("timestamp"),
            "taskId": base.get("session_id"),
            "workspaceRoots": [cwd] if isinstance(cwd, str) and cwd else [],
            "userId": "unknown",
        }
        defaults = (self.event_input or {}).get(event, {})
        payload.update({k: copy.deepcopy(v) for k, v in defaults.items() if k not in own})
        payload.update(own)
        return payload


def make_runtime(name: str) -> ScriptRuntime:
    """The runtime of host ``name`` (a ``script`` layout row) from its row and table."""
    import importlib

    info = host(name)
    spec = table(name)
    facts = importlib.import_module(info.module)

    def read(event: DialectEvent, stdout: str, stderr: str, code: int | None) -> Reading:
        return replace(read_answer(facts.CONTROL_PREFIX, stdout), stderr=stderr, exit_code=code)

    def decide(event: DialectEvent, readings: Sequence[Reading]) -> DialectEffect:
        notes = tuple(r.problem for r in readings if r.problem)
        if event.decision is not Decision.CANCEL:
            return DialectEffect(
                dialect=name, event=event.name, outcome=Outcome(proceed=True), diagnostics=notes
            )
        answers = [r.answer for r in readings if r.kind == "json" and r.answer is not None]
        control = merge(answers, facts)
        if control.override is not UNDEFINED and not isinstance(control.override, dict):
            notes += ("overrideInput is not an object: the host passes it as the input as is",)
        return DialectEffect(
            dialect=name,
            event=event.name,
            decision="block" if control.cancel else "none",
            outcome=conclude(event, control),
            diagnostics=notes,
        )

    def load(workspace: str, options: LoadOptions) -> DialectHooks:
        env = dict(options.env)
        if options.home is not None:
            env["HOME"] = os.fspath(options.home)
        return load_script_hooks(name, workspace, env)

    return ScriptRuntime(
        spec,
        read,
        decide,
        claude_dialect.matches,
        None,
        load,
        timeout_unit=info.timeout_unit,
        sent_as=facts.SENT_AS,
        event_input=getattr(facts, "EVENT_INPUT", None),
        claude_fields=(*facts.CLAUDE_FIELDS, "tool_response"),
        tool_fields=facts.tool_fields,
    )
