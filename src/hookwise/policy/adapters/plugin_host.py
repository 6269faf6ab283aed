"""What the OpenCode and Kilo adapters share: hookwise's own plugin is the other end.

The payload is the one ``policy/install/plugin/hookwise.js`` builds (protocol/js_plugin.py)
and the answer is read by that plugin only, so it is always a JSON object (an empty answer
is a failure to the plugin, which then blocks the tool):

- deny: ``permissionDecision: "deny"`` + the reason, which the plugin throws (the model
  reads it as the tool's result);
- ask: the plugin API cannot make the host ask (``permission.ask`` is never triggered), so
  ``ask_fallback`` answers: a deny with the reason, or nothing;
- allow: ``permissionDecision: "allow"`` for an allow rule (the host's own permission
  check still follows: a plugin cannot grant permission);
- rewrite: ``updatedInput``, which the plugin puts in place of the tool's arguments;
- a stop becomes a deny (a plugin cannot end the session), context and messages have no
  channel (noted).
"""

from __future__ import annotations

from hookwise.policy import canonical, fastjson
from hookwise.policy.adapters.base import (
    Answer,
    DecodeError,
    Encoding,
    ask_denied_reason,
    event_name,
    mcp_call,
    mcp_mapped,
    mcp_readings,
    resolve_ask,
    tool_of,
)
from hookwise.policy.canonical import Event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.rules.engine import Decision


def _renamed(renamed: str, own: str, payload: dict[str, Any], table: dict[str, Any]) -> None:
    """The readings of a tool the plugin renamed ``mcp__S__T`` from the host's ``own``
    ``sanitize(S)_T``: each (S, T) both names agree on, the plugin's (the longest server)
    first, then each other split of ``own`` at a ``_`` (two configured servers may both fit:
    ``a`` and ``a_b`` for ``a_b_c``), a rule that holds for one of them unverifiable
    (rules/mcp_unsure.py)."""
    naming = table.get("mcp_names")
    keeps = str(naming[2]) if naming is not None else ""
    kept = canonical.kept_in_names(keeps)
    found: list[list[str]] = []
    for at in range(len(own) - 1, 0, -1):
        server, tool = renamed[5 : 5 + at], renamed[7 + at :]
        if (
            own[at] == "_"
            and renamed.startswith("mcp__")
            and renamed[5 + at : 7 + at] == "__"
            and tool
            and tool == own[at + 1 :]
            and "".join(c if kept(c) else "_" for c in server) == own[:at]
        ):
            found.append([server, tool])
    # the host's own name read at each "_" as well: another configured server may fit it
    others = canonical.mcp_name_readings(naming, own) if naming is not None else None
    for server, tool in others[0] if others is not None else ():
        if [server, tool] not in found and not any(f[1] == tool for f in found):
            found.append([server, tool])
    why = "" if found else f"sent {renamed!r} for {own!r}, which do not agree"
    payload[canonical.MCP_CALL] = {"readings": found, "why": why, "keeps": keeps,
                                   "host": str(table.get("title", ""))}  # fmt: skip


def decode(
    host: str, payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    """The plugin's payload -> one tool.before event, the tool mapped by the host's table."""
    table = tables[host]
    name = event_name(payload)
    spec = table["events"].get(name)
    if spec is None:
        known = ", ".join(table["events"])
        raise DecodeError(f"unknown {host} plugin event {name!r}; expected one of: {known}")
    host_tool, raw_input = tool_of(payload)
    if host_tool is None:
        raise DecodeError(f"the {host} plugin payload has no tool_name")
    if not isinstance(payload.get("tool_input"), dict):
        raise DecodeError(f"the {host} plugin payload's tool_input is not an object")
    own = payload.get("host_tool_name")
    if isinstance(own, str) and own:  # the plugin renamed it by a configured server's name
        _renamed(host_tool, own, payload, table)
    if canonical.MCP_CALL in payload or not host_tool.startswith("mcp__"):
        host_tool = mcp_call(host_tool, payload, table)
    tool = table["tools"].get(host_tool, host_tool)
    mapped = mcp_mapped(host_tool, tool, payload, raw_input)
    if mapped is not None:
        tool = mapped[0]
    events = [
        Event(
            canonical_name,
            host,
            name,
            payload,
            host_tool=host_tool,
            raw_input=raw_input,
            env=env,
            now=now,
            tool=tool,
            mapped_input=None if mapped is None else mapped[1],
        )
        for canonical_name in spec["canonical"]
    ]
    return mcp_readings(events)


def encode(
    host: str,
    decision: Decision,
    events: list[Event],
    tables: dict[str, Any],
    settings: dict[str, Any],
) -> Answer:
    enc = Encoding(host, events, tables)
    hso = enc.hso
    verdict = decision.decision
    reason = decision.reason or "blocked by policy"
    if decision.stop is not None and verdict != "deny":
        verdict, reason = "deny", decision.stop
        enc.notes.append(f"{host} cannot stop the session from a plugin; answered as deny")
    if verdict == "ask":
        if resolve_ask(decision, settings) == "deny":
            verdict, reason = "deny", ask_denied_reason(decision)
            enc.notes.append(f"{host} cannot ask from a plugin; answered as deny")
        else:
            verdict = None
            enc.notes.append(f"{host} cannot ask from a plugin; answered as allow")
    if verdict == "deny":
        hso["permissionDecision"] = "deny"
        hso["permissionDecisionReason"] = reason
    else:
        if verdict == "allow" and decision.allow_rule is not None:
            hso["permissionDecision"] = "allow"
            if decision.reason:
                hso["permissionDecisionReason"] = decision.reason
        if decision.updated_input is not None:
            hso["updatedInput"] = decision.updated_input
    if decision.retry is not None:
        enc.cannot("send the agent back")
    if decision.contexts:
        enc.cannot("pass context to the model")
    shown = [*decision.messages, *decision.warnings]
    if shown:
        enc.cannot("show a message")
    hso_out = {"hookEventName": enc.name, **hso}
    return Answer(fastjson.dumps({"hookSpecificOutput": hso_out}), "", 0, enc.notes)


class PluginAdapter:
    """The adapter of one plugin host: ``decode`` and ``encode`` above, bound to its name
    (each plugin host's module is one of these, so its answer rules stay here)."""

    __slots__ = ("host",)

    def __init__(self, host: str) -> None:
        self.host = host

    def decode(
        self, payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
    ) -> list[Event]:
        return decode(self.host, payload, tables, env, now)

    def encode(
        self,
        decision: Decision,
        events: list[Event],
        tables: dict[str, Any],
        settings: dict[str, Any],
    ) -> Answer:
        return encode(self.host, decision, events, tables, settings)
