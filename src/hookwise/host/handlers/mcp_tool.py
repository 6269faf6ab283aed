"""``type: "mcp_tool"``: a tool of a configured MCP server called with the hook's input
(Claude Code: hooks reference, "MCP tool hook fields"; Codex 0.169: codex-rs/hooks; the
server lists: ``config/claude/mcp.py``, ``config/codex/mcp.py``).

* ``input``'s string values take ``${path}`` from the hook's JSON input
  (``"${tool_input.file_path}"``), by the host's ``McpHookRules`` (protocol tables): on
  Claude Code a missing path is the empty string and a non-string value its JSON text; on
  Codex a string that is one whole placeholder keeps the value's JSON type and a missing path
  fails the hook. Only strings are substituted; nothing reaches a shell.
* The tool's text content is read as a command hook's stdout (exit 0). A server that is not
  configured, will not start or answer, or a tool answering ``isError: true`` is a
  non-blocking error; with ``onFailure: "block"`` (Claude Code 2.1.330 reads this key; its
  reference does not document it) such a failure blocks instead, as an exit 2 would.
* The server is the session's (``mcp_client.McpSessions``): started on the first call and
  kept, as both hosts keep their servers connected.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Mapping
from typing import Final

from hookwise.config.mcp_servers import McpServer, McpServers
from hookwise.host.handlers.mcp_client import McpCallError, McpSessions
from hookwise.host.process import ProcessResult
from hookwise.protocol.dialect import McpHookRules
from hookwise.protocol.jsvalue import JSON

_PATH: Final = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")
_MISSING: Final = object()
# the rules a handler gets when the host's table names none (Claude Code's)
TEXT_RULES: Final = McpHookRules(
    typed_placeholders=False, missing_placeholder_fails=False, text_join="", on_failure_key=None
)


class PlaceholderError(Exception):
    """A placeholder names nothing in the hook's input (the host fails the hook)."""


def _lookup(payload: Mapping[str, JSON], path: str) -> JSON | object:
    value: JSON = dict(payload)
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
    return value


def _as_text(value: JSON | object) -> str:
    if value is _MISSING:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _fill(text: str, payload: Mapping[str, JSON], rules: McpHookRules) -> JSON:
    whole = _PATH.fullmatch(text)
    if whole is not None and rules.typed_placeholders:
        value = _lookup(payload, whole.group(1))
        if value is _MISSING:
            raise PlaceholderError(f"hook input placeholder `${{{whole.group(1)}}}` was not found")
        return value  # type: ignore[return-value,unused-ignore]  # not _MISSING

    def one(match: re.Match[str]) -> str:
        value = _lookup(payload, match.group(1))
        if value is _MISSING and rules.missing_placeholder_fails:
            raise PlaceholderError(f"hook input placeholder `${{{match.group(1)}}}` was not found")
        return _as_text(value)

    return _PATH.sub(one, text)


def substitute(value: JSON, payload: Mapping[str, JSON], rules: McpHookRules = TEXT_RULES) -> JSON:
    """``input`` with ``${path}`` in every string value taken from the hook's input;
    PlaceholderError where the rules fail a missing path."""
    if isinstance(value, str):
        return _fill(value, payload, rules)
    if isinstance(value, list):
        return [substitute(v, payload, rules) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, payload, rules) for k, v in value.items()}
    return value


def _text(result: Mapping[str, JSON], join: str) -> str:
    content = result.get("content")
    parts = content if isinstance(content, list) else []
    return join.join(
        str(p.get("text", "")) for p in parts if isinstance(p, dict) and p.get("type") == "text"
    )


def _failed(
    config: Mapping[str, JSON], rules: McpHookRules, why: str, started: float
) -> ProcessResult:
    key = rules.on_failure_key
    blocks = key is not None and config.get(key) == "block"
    message = f"MCP tool hook error: {why}"
    return ProcessResult(
        "", message, exit_code=2 if blocks else 1, duration_ms=(time.monotonic() - started) * 1000
    )


def _call(
    sessions: McpSessions,
    server: McpServer,
    tool: str,
    arguments: JSON,
    *,
    env: Mapping[str, str],
    cwd: str,
    timeout_s: float,
) -> dict[str, JSON]:
    connection = sessions.connection(server, env, cwd, timeout_s)
    return connection.request("tools/call", {"name": tool, "arguments": arguments}, timeout_s)


async def run_mcp_tool(
    config: Mapping[str, JSON],
    payload: Mapping[str, JSON],
    known: McpServers,
    *,
    sessions: McpSessions,
    rules: McpHookRules,
    env: Mapping[str, str],
    cwd: str,
    timeout_ms: float,
) -> ProcessResult:
    """One MCP tool hook, as the host reads it (see the module's rules)."""
    started = time.monotonic()
    name = config.get("server")
    tool = config.get("tool")
    if not isinstance(name, str) or not isinstance(tool, str):
        return _failed(config, rules, "the hook needs 'server' and 'tool'", started)
    server = known.servers.get(name)
    if server is None:
        why = known.unavailable.get(name, "no such server is configured")
        return _failed(config, rules, f"MCP server {name!r} is not connected ({why})", started)
    try:
        arguments = substitute(config.get("input", {}), payload, rules)
    except PlaceholderError as exc:
        return _failed(config, rules, str(exc), started)
    timeout_s = timeout_ms / 1000.0
    try:
        result = await asyncio.wait_for(
            asyncio.to_thread(
                _call, sessions, server, tool, arguments, env=env, cwd=cwd, timeout_s=timeout_s
            ),
            timeout_s,
        )
    except TimeoutError:
        return ProcessResult("", "", timed_out=True, duration_ms=timeout_ms)
    except (McpCallError, OSError) as exc:
        return _failed(config, rules, f"calling {tool!r} on {name!r} failed: {exc}", started)
    text = _text(result, rules.text_join)
    if result.get("isError") is True:
        return _failed(config, rules, f"{tool!r} on {name!r} returned an error: {text}", started)
    return ProcessResult(text, "", exit_code=0, duration_ms=(time.monotonic() - started) * 1000)
