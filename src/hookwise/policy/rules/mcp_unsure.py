"""An MCP tool whose name does not say its server: the rules that read the server or the
tool, under each reading of the name.

Gemini CLI names server S's tool T ``mcp_S_T`` and sends ``mcp_context`` (the server and the
tool) only when it finds the server's settings. Without it the hook reads the name as
Gemini's policy engine does (the server up to the first ``_``: canonical.mcp_readings), but
``mcp_my_fs_write_file`` may as well be ``my_fs``'s ``write_file``: a guarding rule that
holds for another reading (``mcp: {server: my_fs}``) makes the call unverifiable, not
allowed. A name Gemini cut past 63 characters (``...``) stands for no server and tool at
all: every guarding rule that reads them makes the call unverifiable.

Other hosts name MCP tools their own way (protocol/hosts.py ``mcp_names``, ``mcp_fields``;
policy/adapters/base.mcp_call puts the readings in the payload, canonical.MCP_CALL): a
name read at each separator, a name the host may have cut or hashed, a server or tool
whose characters the host made ``_`` with no mark (``my.fs`` is ``my_fs`` to Droid), a
payload that names no server (Cursor's beforeMCPExecution), a host whose naming has no
record (a tool outside its table may be an MCP tool). Each guarding rule that would hold
under one of these, read as loosely as the host's name allows (the part not told left
out, its names made ``_`` where the host makes them so), makes the call unverifiable.
Loaded only for such a name.
"""

from __future__ import annotations

from hookwise.policy.canonical import CUT_MARK, MCP_CALL, Event, kept_in_names, mcp_readings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["NAMED", "WHY", "mcp_unsure"]

# how each reason starts (rules/maybe.unverifiable_for picks its advice by it)
WHY = "Gemini CLI sent no mcp_context"
NAMED = "the host's name for this MCP call does not tell its server and tool"


def _reads_mcp(rule: dict[str, Any]) -> bool:
    """Whether ``rule`` reads an MCP tool's server or tool (a matcher or a condition)."""
    conditions = str(rule.get("when_src", ""))
    return "mcp" in rule["m"] or "mcp_server" in conditions or "mcp_tool" in conditions


def mcp_unsure(
    rules: list[dict[str, Any]],
    ev: Event,
    skip: set[int],
    guarding: Callable[[dict[str, Any]], bool],
    match: Callable[[dict[str, Any], Event], bool],
) -> list[tuple[int, Event, list[str]]]:
    """(position, ``ev``, why) of each guarding rule (``guarding``) not in ``skip`` that
    holds for another reading of ``ev``'s name, or, for a cut name, reads the server or
    the tool; none when the name says its server (``mcp__S__T``, an ``mcp_context``)."""
    call = ev.payload.get(MCP_CALL)
    if isinstance(call, dict):
        return _named(rules, ev, skip, guarding, match, call)
    host_tool = ev.host_tool or ""
    if not host_tool.startswith("mcp_") or host_tool.startswith("mcp__"):
        return []
    if isinstance(ev.payload.get("mcp_context"), dict):
        return []
    found: list[tuple[int, Event, list[str]]] = []
    if CUT_MARK in host_tool:
        why = (
            f"{WHY}, and it cut the name {host_tool!r} past 63 characters: its MCP server "
            "and tool cannot be told, and the rule reads them"
        )
        for position, rule in enumerate(rules):
            if position not in skip and guarding(rule) and _reads_mcp(rule):
                found.append((position, ev, [why]))
        return found
    taken = set(skip)
    for server, tool in mcp_readings(host_tool, ev.payload)[1:]:
        other = ev.as_mcp((server, tool))
        for position, rule in enumerate(rules):
            if position in taken or not guarding(rule) or not _reads_mcp(rule):
                continue
            if match(rule, other):
                taken.add(position)
                why = (
                    f"{WHY}, so {host_tool!r} may be tool {tool!r} of MCP server {server!r}, "
                    "and then the rule holds"
                )
                found.append((position, ev, [why]))
    return found


def _as_host_names(globs: list[Any], keeps: str) -> list[Any]:
    """``globs`` (compiled or literal) with every literal character the host does not keep
    made ``_``, as the host makes a server's or tool's name."""
    kept = kept_in_names(keeps)

    def text(value: str) -> str:
        return "".join(c if kept(c) else "_" for c in value)

    out: list[Any] = []
    for glob in globs:
        if isinstance(glob, str):
            out.append(text(glob))
        else:
            out.append(
                tuple(
                    tuple(("L", text(token[1])) if token[0] == "L" else token for token in alt)
                    for alt in glob
                )
            )
    return out


def _unkept_literal(rule: dict[str, Any], keeps: str) -> str | None:
    """The first literal of ``rule``'s MCP server or tool names holding a character the
    host does not keep, or None."""
    spec = rule["m"].get("mcp")
    kept = kept_in_names(keeps)
    for part in ("server", "tool") if isinstance(spec, dict) else ():
        for glob in spec.get(part) or ():
            texts = (
                [glob]
                if isinstance(glob, str)
                else [token[1] for alt in glob for token in alt if token[0] == "L"]
            )
            for text in texts:
                if not all(kept(c) for c in text):
                    return str(text)
    return None


def _loose(rule: dict[str, Any], reading: tuple[str, str], keeps: str) -> dict[str, Any]:
    """``rule`` read as loosely as ``reading`` allows: a part it does not tell ("") left
    out, the names of the others as the host makes them where it changes them unmarked."""
    spec = rule["m"].get("mcp")
    if not isinstance(spec, dict):
        return rule
    loose: dict[str, Any] = {}
    for part, told in (("server", reading[0]), ("tool", reading[1])):
        if part in spec and told:
            loose[part] = _as_host_names(spec[part], keeps) if keeps else spec[part]
    return {**rule, "m": {**rule["m"], "mcp": loose}}


def _named(  # noqa: PLR0917 - mcp_unsure's arguments and the call
    rules: list[dict[str, Any]],
    ev: Event,
    skip: set[int],
    guarding: Callable[[dict[str, Any]], bool],
    match: Callable[[dict[str, Any], Event], bool],
    call: dict[str, Any],
) -> list[tuple[int, Event, list[str]]]:
    """The guarding rules on an MCP server or tool that could hold for a call another host
    named (canonical.MCP_CALL): under no reading at all when the name cannot tell them
    (``why``), else under each reading read loosely (:func:`_loose`)."""
    readings = [(str(r[0]), str(r[1])) for r in call.get("readings", ())]
    why_all = str(call.get("why", ""))
    keeps = str(call.get("keeps", ""))
    host = str(call.get("host", "")) or "the host"
    name = str(ev.payload.get("host_tool_name", ev.host_tool or ""))
    loose_ok = not why_all and readings
    found: list[tuple[int, Event, list[str]]] = []
    for position, rule in enumerate(rules):
        if position in skip or not guarding(rule) or not _reads_mcp(rule):
            continue
        conditions = "mcp_server" in str(rule.get("when_src", "")) or "mcp_tool" in str(
            rule.get("when_src", "")
        )
        reason = ""
        # a host that encodes names (GitHub Copilot CLI) was seen to make each such
        # character of a server's or tool's name "-" (a non-ASCII name "xn--..."): a name
        # with no separator but its own holds no changed name
        encoded = bool(call.get("encoded")) and bool(keeps) and len(readings) > 1
        unkept = _unkept_literal(rule, keeps) if encoded else None
        if not loose_ok:
            reason = f"{NAMED}: {host} {why_all or 'sent no server or tool'}"
        elif unkept is not None:
            reason = (
                f"{NAMED}: the rule names {unkept!r}, and {host} changes each character "
                f"outside [{keeps}] of a server's or tool's name in a way hookwise does not "
                f"make, with no mark: {name!r} may be that name's"
            )
        else:
            for reading in readings:
                unknown = "" in reading
                if (conditions and (keeps or unknown)) or match(
                    _loose(rule, reading, keeps), ev.as_mcp(reading)
                ):
                    server, tool = reading
                    reason = (
                        f"{NAMED}: {host} names it {name!r}, which may be tool {tool or '?'!r} "
                        f"of MCP server {server or '?'!r}"
                        + (f" (it makes each character outside [{keeps}] _)" if keeps else "")
                        + ", and then the rule holds"
                    )
                    break
        if reason:
            found.append((position, ev, [reason]))
    return found
