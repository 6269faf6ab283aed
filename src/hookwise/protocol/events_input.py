"""The stdin object of each event, built from the agent's arguments.

Key order and optional keys follow hookEventHandler.ts, because hooks that echo or
hash their input see exactly the bytes Gemini CLI would send.
"""

from __future__ import annotations

from hookwise.protocol import llm
from hookwise.protocol.gemini import event_spec
from hookwise.protocol.jsvalue import JSON, UNDEFINED, json_type_name, truthy
from hookwise.protocol.profiles import Profile

_JSON_TYPES = {
    "string": (str,),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "LLMRequest": (dict,),
    "LLMResponse": (dict,),
}

# What the agent passes when firing (the model events take Gemini API objects).
_ARG_TYPES: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "BeforeTool": (
        ("tool_name", "string", True),
        ("tool_input", "object", True),
        ("mcp_context", "object", False),
        ("original_request_name", "string", False),
    ),
    "AfterTool": (
        ("tool_name", "string", True),
        ("tool_input", "object", True),
        ("tool_response", "object", True),
        ("mcp_context", "object", False),
        ("original_request_name", "string", False),
    ),
    "BeforeAgent": (("prompt", "string", True),),
    "AfterAgent": (
        ("prompt", "string", True),
        ("prompt_response", "string", True),
        ("stop_hook_active", "boolean", False),
    ),
    "BeforeModel": (("llm_request", "object", True),),
    "AfterModel": (("llm_request", "object", True), ("llm_response", "object", True)),
    "BeforeToolSelection": (("llm_request", "object", True),),
    "SessionStart": (("source", "string", True),),
    "SessionEnd": (("reason", "string", True),),
    "PreCompress": (("trigger", "string", True),),
    "Notification": (
        ("notification_type", "string", False),
        ("message", "string", False),
        ("details", "object", False),
        ("confirmation_details", "object", False),
    ),
}


def validate_event_args(event: str, args: dict[str, JSON]) -> list[str]:
    """Every way ``args`` departs from the event's schema, as readable messages."""
    spec = event_spec(event)
    problems: list[str] = []
    known = {name for name, _, _ in _ARG_TYPES[event]}
    for name, kind, required in _ARG_TYPES[event]:
        if name not in args:
            if required:
                problems.append(f"missing field '{name}' (expected {kind})")
            continue
        value = args[name]
        if not isinstance(value, _JSON_TYPES[kind]):
            problems.append(f"field '{name}' must be {kind}, got {json_type_name(value)}")
            continue
        allowed = next((f.values for f in spec.input_fields if f.name == name), ())
        if allowed and value not in allowed:
            problems.append(f"field '{name}' must be one of {', '.join(allowed)}, got {value!r}")
    if event == "Notification" and "confirmation_details" not in args:
        for name in ("notification_type", "message", "details"):
            if name not in args:
                problems.append(f"missing field '{name}' (or give 'confirmation_details')")
    for name in args:
        if name not in known:
            problems.append(f"unknown field '{name}' (expected: {', '.join(sorted(known))})")
    return problems


def _serializable_details(details: JSON) -> dict[str, JSON]:
    """hookSystem.ts toSerializableDetails: the JSON-safe part of a confirmation."""
    d = details if isinstance(details, dict) else {}
    base: dict[str, JSON] = {"type": d.get("type", UNDEFINED), "title": d.get("title", UNDEFINED)}
    kind = d.get("type")
    keys = {
        "edit": (
            "fileName",
            "filePath",
            "fileDiff",
            "originalContent",
            "newContent",
            "isModifying",
        ),
        "exec": ("command", "rootCommand"),
        "mcp": ("serverName", "toolName", "toolDisplayName"),
        "info": ("prompt", "urls"),
    }.get(kind if isinstance(kind, str) else "", ())
    return {**base, **{k: d.get(k, UNDEFINED) for k in keys}}


def notification_message(details: JSON) -> str:
    d = details if isinstance(details, dict) else {}
    title = d.get("title", UNDEFINED)
    from hookwise.protocol.jsvalue import js_string

    verbs = {"edit": "editing", "exec": "execution", "mcp": "MCP", "info": "information"}
    kind = d.get("type")
    if isinstance(kind, str) and kind in verbs:
        return f"Tool {js_string(title)} requires {verbs[kind]}"
    return "Tool requires confirmation"


def build_event_input(
    event: str, base: dict[str, JSON], args: dict[str, JSON], profile: Profile
) -> dict[str, JSON]:
    """Base fields, then the event's own, as HookEventHandler.fire*Event builds them."""
    a = args
    if event in ("BeforeTool", "AfterTool"):
        out = {
            **base,
            "tool_name": a.get("tool_name", UNDEFINED),
            "tool_input": a.get("tool_input", UNDEFINED),
        }
        if event == "AfterTool":
            out["tool_response"] = a.get("tool_response", UNDEFINED)
        if truthy(a.get("mcp_context")):
            out["mcp_context"] = a["mcp_context"]
        if truthy(a.get("original_request_name")):
            out["original_request_name"] = a["original_request_name"]
        return out
    if event == "BeforeAgent":
        return {**base, "prompt": a.get("prompt", UNDEFINED)}
    if event == "AfterAgent":
        stop = a.get("stop_hook_active", UNDEFINED)
        return {
            **base,
            "prompt": a.get("prompt", UNDEFINED),
            "prompt_response": a.get("prompt_response", UNDEFINED),
            "stop_hook_active": False if stop is None or stop is UNDEFINED else stop,
        }
    if event == "SessionStart":
        return {**base, "source": a.get("source", UNDEFINED)}
    if event == "SessionEnd":
        return {**base, "reason": a.get("reason", UNDEFINED)}
    if event == "PreCompress":
        return {**base, "trigger": a.get("trigger", UNDEFINED)}
    if event == "Notification":
        if "confirmation_details" in a:
            details = a["confirmation_details"]
            return {
                **base,
                "notification_type": "ToolPermission",
                "message": notification_message(details),
                "details": _serializable_details(details),
            }
        return {
            **base,
            "notification_type": a.get("notification_type", UNDEFINED),
            "message": a.get("message", UNDEFINED),
            "details": a.get("details", UNDEFINED),
        }
    if event in ("BeforeModel", "BeforeToolSelection"):
        return {**base, "llm_request": llm.to_hook_llm_request(a.get("llm_request", {}), profile)}
    if event == "AfterModel":
        return {
            **base,
            "llm_request": llm.to_hook_llm_request(a.get("llm_request", {}), profile),
            "llm_response": llm.to_hook_llm_response(a.get("llm_response", {}), profile),
        }
    raise KeyError(event)
