"""Windsurf / Cascade (from its published reference, protocol/reference/windsurf.py; nothing
observed): ``{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`` ->
canonical events; a deny is exit 2 with the reason on stderr (shown), its only answer.

``tool_info`` per action: ``pre_run_command`` ``{command_line, cwd}``; ``pre_read_code``
``{file_path}``; ``pre_write_code`` ``{file_path, edits}``; ``pre_mcp_tool_use``
``{mcp_server_name, mcp_tool_name, mcp_tool_arguments}`` (an MCP call: its server and
tool read from these fields, protocol/hosts.py ``mcp_fields``, whatever they hold, and
decided as ``mcp__<server>__<tool>``); ``pre_user_prompt`` ``{user_prompt}``.
"""

from __future__ import annotations

from hookwise.policy.adapters.base import DecodeError, field_call, make_events
from hookwise.policy.adapters.exit2_answer import exit2_answer_problem, exit2_encode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.adapters.base import Answer
    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "windsurf"


def _tool(
    name: str, info: dict[str, Any], payload: dict[str, Any], table: dict[str, Any]
) -> tuple[str | None, dict[str, Any]]:
    kind = name.split("_", 1)[1] if "_" in name else name
    if kind == "run_command":
        command = info.get("command_line", info.get("command"))
        raw: dict[str, Any] = {"command": command} if isinstance(command, str) else {}
        if isinstance(info.get("cwd"), str):
            raw["dir_path"] = info["cwd"]
        return "run_command", raw
    if kind in ("read_code", "write_code"):
        raw = {k: v for k, v in info.items() if k in ("file_path", "edits", "content")}
        return kind, raw
    if kind == "mcp_tool_use":  # its parts by name (mcp_fields): exact, whatever they hold
        args = field_call(table.get("mcp_fields", {}).get(kind), info, payload, table["title"])
        return "mcp_tool_use", args if args is not None else {}
    return None, {}


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    name = payload.get("agent_action_name")
    if not isinstance(name, str) or not name:
        raise DecodeError("a Windsurf payload without agent_action_name")
    events = tables[HOST]["events"]
    spec = events.get(name)
    if spec is None:
        raise DecodeError(f"unknown Windsurf action {name!r}; expected one of: {', '.join(events)}")
    payload.setdefault("hook_event_name", name)
    trajectory = payload.get("trajectory_id")
    if isinstance(trajectory, str):
        payload.setdefault("session_id", trajectory)
    info = payload.get("tool_info")
    info = info if isinstance(info, dict) else {}
    prompt = info.get("user_prompt") if name == "pre_user_prompt" else None
    host_tool, raw = (
        (None, {}) if name == "pre_user_prompt" else _tool(name, info, payload, tables[HOST])
    )
    fields = (host_tool, raw, prompt if isinstance(prompt, str) else None, None)
    return make_events(
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


def shaped(payload: dict[str, Any]) -> dict[str, Any]:
    """A Claude-shaped payload (``tools/payloads.py``) as Windsurf sends it: the event is
    the action, a shell command ``tool_info.command_line``, a prompt ``user_prompt``."""
    info: dict[str, Any] = {}
    raw = payload.get("tool_input")
    if isinstance(raw, dict):
        if isinstance(raw.get("command"), str):
            info = {"command_line": raw["command"], "cwd": payload.get("cwd", "")}
        else:
            info = {k: v for k, v in raw.items() if k in ("file_path", "edits", "content")}
    if isinstance(payload.get("prompt"), str):
        info["user_prompt"] = payload["prompt"]
    return {
        "agent_action_name": payload.get("hook_event_name", ""),
        "trajectory_id": payload.get("session_id", "hookwise-test"),
        "execution_id": "hookwise-test",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": info,
    }


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    return exit2_encode(HOST, decision, events, tables, settings)


answer_problem = exit2_answer_problem
