"""Cline: a ``hookName`` payload -> canonical events; a decision -> ``{"cancel": true}``.

What Cline obeys (protocol/cline.py, observed with the CLI 3.0.65): only ``cancel: true``
on stdout stops a tool call, and it aborts the whole run (the model reads nothing more); exit
codes and Claude's JSON are ignored; ``contextModification`` reaches the model (the
policy's context) and ``overrideInput`` replaces the tool's input (a rewrite; observed). So a
deny, an ``ask`` (Cline cannot ask: the ``ask_fallback``, deny by default) and a stop are
all a cancel with the reason in ``errorMessage``, always with exit 0; a rewrite is an
``overrideInput`` (a cancel where a call has several command lines: the rewrite covers one);
an allow is no answer.
Every failure of hookwise is a cancel too (policy/blind_deny.py, from the table: exit codes do
nothing on its PreToolUse), and the hook file install
writes prints one itself when hookwise cannot run at all.

The pre-tool payload names the tool twice: ``tool_call {name, input}`` (real JSON), and
``preToolUse {toolName, parameters}`` whose values are JSON strings; ``run_commands`` holds a
list of command lines that Cline runs one by one, so each is an event of its own (joined,
a quote left open by one line would hide the next from the policy).
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.adapters.base import (
    Answer,
    DecodeError,
    ask_denied_reason,
    field_call,
    make_events,
    resolve_ask,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "cline"

# hookName as Cline sends it -> the event (protocol/cline.py HOOK_NAMES; the hot path cannot
# import protocol, and this map is the adapter's reading of the payload)
_HOOK_NAMES = {
    "tool_call": "PreToolUse",
    "tool_result": "PostToolUse",
    "agent_start": "TaskStart",
    "agent_end": "TaskComplete",
    "agent_resume": "TaskResume",
    "agent_abort": "TaskCancel",
    "agent_error": "TaskError",
    "prompt_submit": "UserPromptSubmit",
    "session_shutdown": "SessionShutdown",
}


def _parameters(raw: object) -> dict[str, Any]:
    """``preToolUse.parameters``: each value JSON-encoded as a string."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str) and value[:1] in ("[", "{", '"'):
            try:
                out[str(key)] = fastjson.loads(value)
                continue
            except ValueError:
                pass
        out[str(key)] = value
    return out


def _prompt(payload: dict[str, Any]) -> object:
    """The prompt: ``userPromptSubmit.prompt`` as 3.x sends it (a top-level ``prompt``
    where a caller gave one)."""
    block = payload.get("userPromptSubmit")
    if isinstance(block, dict) and "prompt" in block:
        return block["prompt"]
    return payload.get("prompt")


def _tool(payload: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    call = payload.get("tool_call")
    if isinstance(call, dict) and isinstance(call.get("name"), str):
        raw = call.get("input")
        return call["name"], raw if isinstance(raw, dict) else {}
    for key in ("preToolUse", "postToolUse"):
        block = payload.get(key)
        if isinstance(block, dict) and isinstance(block.get("toolName"), str):
            return block["toolName"], _parameters(block.get("parameters"))
    return None, {}


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    hook = payload.get("hookName")
    if not isinstance(hook, str) or not hook:
        raise DecodeError("a Cline payload without hookName")
    events = tables[HOST]["events"]
    name = _HOOK_NAMES.get(hook, hook)
    spec = events.get(name)
    if spec is None:
        raise DecodeError(f"unknown Cline hook {hook!r}; expected one of: {', '.join(events)}")
    payload.setdefault("hook_event_name", name)
    task = payload.get("taskId")
    if isinstance(task, str):
        payload.setdefault("session_id", task)
    call = payload.get("tool_call")
    if isinstance(call, dict) and isinstance(call.get("id"), str):
        payload.setdefault("tool_use_id", call["id"])
    host_tool, raw = _tool(payload) if "tool" in spec["canonical"][0] else (None, {})
    if host_tool is not None:
        specs = tables[HOST].get("mcp_fields", {})
        args = field_call(specs.get(host_tool), raw, payload, tables[HOST]["title"])
        if args is not None:  # use_mcp_tool: the server's own call, by its parts
            payload["_hookwise_mcp_fields"] = raw
            raw = args
    prompt = _prompt(payload) if name == "UserPromptSubmit" else None
    inputs = [raw]
    commands = raw.get("commands")
    if host_tool == "run_commands" and commands is not None:
        # each line its own event; commands hookwise cannot read are not let through
        if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
            raise DecodeError("Cline's run_commands.commands is not a list of command lines")
        inputs = [{**raw, "command": c} for c in commands] or [raw]
    out: list[Event] = []
    for one in inputs:
        fields = (host_tool, one, prompt if isinstance(prompt, str) else None, None)
        out.extend(
            make_events(
                HOST,
                name,
                list(spec["canonical"]),
                payload,
                fields,
                env=env,
                now=now,
                tools=tables[HOST]["tools"],
                table=tables[HOST],
            )
        )
    return out


def _override(
    updated: dict[str, Any], events: list[Event], spec: dict[str, Any]
) -> dict[str, Any] | None:
    """The tool's new input as ``overrideInput`` (Cline 3.0.65 runs the call with it,
    observed): ``run_commands`` gets its one line back as ``commands``; None when Cline
    cannot take it (a call of several lines: the rewrite covers one of them)."""
    if "overrideInput" not in spec["specific"]:
        return None
    given = events[0].payload.get("_hookwise_mcp_fields") if events else None
    if isinstance(given, dict):  # use_mcp_tool: the server's arguments go back as JSON text
        return {**given, "arguments": fastjson.dumps(updated)}
    lines = [e for e in events if e.name == "tool.before"]
    if not lines or lines[0].host_tool != "run_commands":
        return updated
    if len(lines) != 1 or not isinstance(updated.get("command"), str):
        return None
    out = {k: v for k, v in updated.items() if k != "command"}
    out["commands"] = [updated["command"]]
    return out


def cancel(reason: str) -> str:
    return fastjson.dumps({"cancel": True, "errorMessage": reason})


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    spec = tables[HOST]["events"][events[0].host_event]
    notes: list[str] = []
    verdict = decision.decision
    reason = decision.reason or "blocked by policy"
    if verdict == "ask":
        if resolve_ask(decision, settings) == "deny":
            verdict, reason = "deny", ask_denied_reason(decision)
            notes.append("cline cannot ask; answered as a cancel")
        else:
            verdict = None
            notes.append("cline cannot ask; no answer (the call runs)")
    override = None
    if decision.updated_input is not None and verdict != "deny":
        override = _override(decision.updated_input, events, spec)
        if override is None:
            verdict = "deny"
            reason = (
                "hookwise: Cline cannot take this rewrite (several command lines in one call, "
                f"and the policy allows it only rewritten: {decision.reason or 'rewrite rule'})"
            )
            notes.append("cline cannot rewrite this input; answered as a cancel")
    if decision.stop is not None and verdict != "deny":
        verdict, reason = "deny", decision.stop
    out: dict[str, Any] = {}
    if override is not None and verdict != "deny":
        out["overrideInput"] = override
    if decision.contexts:
        if "contextModification" in spec["specific"] and verdict != "deny":
            out = {**out, "cancel": False, "contextModification": "\n\n".join(decision.contexts)}
        else:
            notes.append(f"cline cannot pass context to the model on {events[0].host_event}")
    if verdict == "deny":
        if spec["decision"] != "cancel":
            notes.append(f"cline cannot block on {events[0].host_event}; recorded only")
            return Answer("", "", 0, notes)
        notes.append("a Cline cancel aborts the whole run, not only this call")
        return Answer(cancel(reason), "", 0, notes)
    return Answer(fastjson.dumps(out) if out else "", "", 0, notes)


# the event -> the hookName the 3.x CLI sends for it
_SENT_AS = {event: hook for hook, event in _HOOK_NAMES.items()}


def shaped(payload: dict[str, Any]) -> dict[str, Any]:
    """A Claude-shaped payload (``tools/payloads.py``: ``hook_event_name``, ``tool_name``,
    ``tool_input``...) as the Cline CLI 3.x sends it (doctor's self-test, ``hookwise test``)."""
    event = str(payload.get("hook_event_name", ""))
    cwd = payload.get("cwd", "/workspace")
    out: dict[str, Any] = {
        "clineVersion": "",
        "hookName": _SENT_AS.get(event, event),
        "timestamp": "2026-01-01T00:00:00.000Z",
        "taskId": payload.get("session_id", "hookwise-test"),
        "workspaceRoots": [cwd],
        "userId": "unknown",
    }
    tool, raw = payload.get("tool_name"), payload.get("tool_input")
    if isinstance(tool, str) and isinstance(raw, dict):
        if isinstance(raw.get("command"), str) and tool in ("Bash", "run_commands"):
            tool, raw = "run_commands", {"commands": [raw["command"]]}
        call_id = payload.get("tool_use_id", "hookwise-test")
        out["tool_call"] = {"id": call_id, "name": tool, "input": raw}
        params = {k: fastjson.dumps(v) for k, v in raw.items()}
        out["preToolUse"] = {"toolName": tool, "parameters": params}
    if isinstance(payload.get("prompt"), str):
        out["userPromptSubmit"] = {"prompt": payload["prompt"], "attachments": []}
    return out


def answer_problem(event: str, stdout: str, stderr: str, exit_code: int | None) -> str | None:
    """Why Cline would not read this answer (it reads only a JSON object on stdout)."""
    text = stdout.strip()
    if not text:
        return None
    try:
        value = fastjson.loads(text)
    except ValueError:
        return "not a JSON object on stdout: Cline ignores it and runs the tool"
    if not isinstance(value, dict):
        return "not a JSON object on stdout: Cline ignores it and runs the tool"
    return None
