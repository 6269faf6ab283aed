"""Host tables for the adapters, built from ``hookwise.protocol`` (the one source of truth).

The hot path cannot import ``protocol`` (dataclasses and enums pull in half the standard
library), so the compiler puts these tables into the compiled policy cache and the adapters
read them from there. Every table has the same shape for every host::

    {"events": {host_event: {
        "canonical": [canonical events],   # the base mapping (adapters add conditional ones)
        "decision": "top_decision" | "permission" | "permission_request" | "block" | "context"
                    | "none",              # how the host reads a decision on this event
        "specific": [hookSpecificOutput keys the host reads],
        "common": [top-level keys the host honours],
        "honoured": bool,                  # False: the host discards the JSON answer
        "json_required": bool,             # exit 0 must carry JSON (Codex Stop)
        "stop": bool,                      # continue:false ends the session
        "rewrite_alone": bool,             # a rewrite with no decision is applied, and
                                           # the host decides on the call itself
        "exit2": "block" | "feedback" | "continue" | "user" | "ignored" | "text" | None,
                                           # what exit status 2 does whatever stdout holds;
                                           # "text": it denies when stdout is not one JSON
                                           # answer (Gemini CLI: JSON wins)
    }},
     "timeout_unit": "s" | "ms",           # the unit of a hook's ``timeout``
     "attended": [...] | None,             # protocol.hosts: how to tell an interactive run
     "title": str,                         # the host's name for people
     "tools": {host tool: canonical tool},
     "mcp_names": [prefix, separator, keeps, limit, changed, mark] | None,
     "mcp_fields": {host tool or event: [server key | None, tool key, args key, form]},
     "detect": [[kind, value, except]],    # how detect_platform tells it from another host
     # (what a crash or a timeout does, the registry's ``failure``, is install's and
     # doctor's to say: nothing on the hook's path reads it, so it is not here)
     "blind_exit": None | 0 | 2}           # hookwise's deny when it cannot place a payload

The per-host rows come from the registry (``protocol/hosts.py``): a host is in these tables
because its row says hookwise answers it (``supports`` has ``hook``).
"""

from __future__ import annotations

from typing import Any

from hookwise.policy.canonical import GEMINI_CONDITIONAL, GEMINI_EVENTS, KIND_EVENTS, UNRULED_KINDS


def _gemini() -> dict[str, Any]:
    from hookwise.protocol import gemini

    events: dict[str, Any] = {}
    for name, spec in gemini.EVENTS.items():
        common = list(spec.common_fields)
        events[name] = {
            "canonical": list(GEMINI_EVENTS[name]),
            # raised only for some payloads (the adapter decides per payload)
            "conditional": list(GEMINI_CONDITIONAL.get(name, ())),
            "decision": "top_decision" if "decision" in common else "none",
            "specific": [f.name for f in spec.answer_fields],
            "common": common,
            "honoured": True,
            "json_required": False,
            "stop": "continue" in common,
            # the real engine: JSON on stdout wins over the exit status; text (two JSON
            # objects included) with exit 2 is a deny, the same as a JSON deny
            "exit2": "text" if "decision" in common else None,
            "rewrite_alone": spec.rewrites_alone,
        }
    return {"events": events}


def _dialect(module_name: str, attribute: str) -> dict[str, Any]:
    import importlib

    module = importlib.import_module(module_name)
    spec = getattr(module, attribute)
    events: dict[str, Any] = {}
    for name, event in spec.events.items():
        events[name] = {
            # the families no rule reaches raise nothing (canonical.UNRULED_KINDS)
            "canonical": []
            if event.kind.value in UNRULED_KINDS
            else [KIND_EVENTS[event.kind.value]],
            "decision": event.decision.value,
            "specific": list(event.specific_fields),
            "common": list(event.common_fields),
            "honoured": event.json_honoured,
            "json_required": event.json_required,
            "stop": event.stop_supported and "continue" in event.common_fields,
            "exit2": event.exit2.value,
            "rewrite_alone": event.rewrites_alone,
        }
    return {"events": events, "blind_exit": _blind_exit(spec)}


def _blind_exit(spec: Any) -> int | None:
    """The exit code of hookwise's deny for a payload it cannot place (policy/blind_deny.py),
    from the pre-tool events' exit-2 facts: None where exit 2 + stderr denies with its
    reason (the answer stays that); 2 where an exit 2 needs its stderr (Qwen runs the tool
    after an empty one) and the JSON deny rides along; 0 where an exit 2 hides every
    reason, the JSON's too (Copilot's PascalCase PreToolUse), or where exit codes do nothing
    (Cline: only its JSON cancel stops a call), so the JSON deny carries it."""
    from hookwise.protocol.dialect import Exit2, Kind

    pre = [e for e in spec.events.values() if e.kind is Kind.TOOL_BEFORE]
    if any(e.exit2_text is not None and not e.exit2_json for e in pre):
        return 0
    if any(e.exit2 is Exit2.IGNORED for e in pre):
        return 0
    if any(e.exit2_text is not None or e.exit2_needs_stderr for e in pre):
        return 2
    return None


def host_tables() -> dict[str, Any]:
    """The tables of every host hookwise answers."""
    from hookwise.protocol.hosts import HOSTS, hosts_with

    tables: dict[str, Any] = {}
    for name in hosts_with("hook"):
        info = HOSTS[name]
        # Gemini CLI's protocol module has its own event shape; the others a DialectSpec
        table = _gemini() if info.table_name is None else _dialect(info.module, info.table_name)
        table["timeout_unit"] = info.timeout_unit
        table["attended"] = list(info.attended) if info.attended else None
        table["title"] = info.title
        table["tools"] = dict(info.tools)
        # how it names an MCP tool, and where a payload names one's parts (protocol/hosts.py)
        table["mcp_names"] = list(info.mcp_names) if info.mcp_names is not None else None
        table["mcp_fields"] = {k: list(v) for k, v in info.mcp_fields.items()}
        table["detect"] = [list(marker) for marker in info.detect]
        # the project dotenv files it exports to hooks, in the order it looks (env_origin.py)
        table["env_files"] = list(info.env_files[1])
        tables[name] = table
    return tables


def host_event_names() -> dict[str, tuple[str, ...]]:
    """Event names per host (for validating rule ``events`` and detecting the platform)."""
    return {host: tuple(table["events"]) for host, table in host_tables().items()}
