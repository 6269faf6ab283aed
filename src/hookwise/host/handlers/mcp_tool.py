"""``type: "mcp_tool"``: a tool of a configured MCP server called with the hook's input
(hooks reference, "MCP tool hook fields"; the server list: ``config/claude/mcp.py``).

* ``input``'s string values take ``${path}`` from the hook's JSON input
  (``"${tool_input.file_path}"``); a missing path is the empty string, a non-string value
  its JSON text. Only strings are substituted; nothing reaches a shell.
* The tool's text content is read as a command hook's stdout (exit 0). A server that is not
  configured, will not start or answer, or a tool answering ``isError: true`` is a
  non-blocking error; with ``onFailure: "block"`` (Claude Code 2.1.330 reads this key; its
  reference does not document it) such a failure blocks instead, as an exit 2 would.
* hookwise starts the stdio server for the call and ends it after (Claude Code keeps its
  servers connected for the session: a server with state between calls behaves differently).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Mapping
from typing import Final

from hookwise.config.claude.mcp import McpServer, McpServers
from hookwise.host.process import ProcessResult
from hookwise.protocol.jsvalue import JSON

PROTOCOL_VERSION: Final = "2025-06-18"
_PATH: Final = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")
_LINE_CAP: Final = 16 * 1024 * 1024  # one JSON-RPC message; a longer line is a bad server


class McpCallError(Exception):
    """The call did not give a usable answer (why, for the user)."""


def _lookup(payload: Mapping[str, JSON], path: str) -> str:
    value: JSON = dict(payload)
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def substitute(value: JSON, payload: Mapping[str, JSON]) -> JSON:
    """``input`` with ``${path}`` in every string value taken from the hook's input."""
    if isinstance(value, str):
        return _PATH.sub(lambda m: _lookup(payload, m.group(1)), value)
    if isinstance(value, list):
        return [substitute(v, payload) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, payload) for k, v in value.items()}
    return value


async def _send(writer: asyncio.StreamWriter, message: dict[str, JSON]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")
    await writer.drain()


async def _answer(reader: asyncio.StreamReader, wanted: int) -> dict[str, JSON]:
    """The response to request ``wanted`` (notifications and other ids are skipped)."""
    while True:
        line = await reader.readline()
        if not line:
            raise McpCallError("the server closed its output before answering")
        try:
            message = json.loads(line)
        except ValueError:
            continue  # servers may log to stdout; the SDKs skip such lines too
        if not isinstance(message, dict) or message.get("id") != wanted:
            continue
        error = message.get("error")
        if error is not None:
            text = error.get("message") if isinstance(error, dict) else error
            raise McpCallError(f"the server answered an error: {text}")
        result = message.get("result")
        if not isinstance(result, dict):
            raise McpCallError("the server's answer has no result object")
        return result


async def _call(
    server: McpServer, tool: str, arguments: JSON, env: Mapping[str, str], cwd: str
) -> dict[str, JSON]:
    process = await asyncio.create_subprocess_exec(
        server.command,
        *server.args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**env, **dict(server.env)},
        cwd=cwd if os.path.isdir(cwd) else None,
        limit=_LINE_CAP,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        await _send(
            process.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "hookwise", "version": "1"},
                },
            },
        )
        await _answer(process.stdout, 1)
        await _send(process.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        await _send(
            process.stdin,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": tool, "arguments": arguments},
            },
        )
        return await _answer(process.stdout, 2)
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


def _text(result: Mapping[str, JSON]) -> str:
    content = result.get("content")
    parts = content if isinstance(content, list) else []
    return "".join(
        str(p.get("text", "")) for p in parts if isinstance(p, dict) and p.get("type") == "text"
    )


def _failed(config: Mapping[str, JSON], why: str, started: float) -> ProcessResult:
    blocks = config.get("onFailure") == "block"
    message = f"MCP tool hook error: {why}"
    return ProcessResult(
        "", message, exit_code=2 if blocks else 1, duration_ms=(time.monotonic() - started) * 1000
    )


async def run_mcp_tool(
    config: Mapping[str, JSON],
    payload: Mapping[str, JSON],
    known: McpServers,
    *,
    env: Mapping[str, str],
    cwd: str,
    timeout_ms: float,
) -> ProcessResult:
    """One MCP tool hook, as the host reads it (see the module's rules)."""
    started = time.monotonic()
    name = config.get("server")
    tool = config.get("tool")
    if not isinstance(name, str) or not isinstance(tool, str):
        return _failed(config, "the hook needs 'server' and 'tool'", started)
    server = known.servers.get(name)
    if server is None:
        why = known.unavailable.get(name, "no such server is configured")
        return _failed(config, f"MCP server {name!r} is not connected ({why})", started)
    arguments = substitute(config.get("input", {}), payload)
    try:
        result = await asyncio.wait_for(
            _call(server, tool, arguments, env, cwd), timeout_ms / 1000.0
        )
    except TimeoutError:
        return ProcessResult("", "", timed_out=True, duration_ms=timeout_ms)
    except (McpCallError, OSError) as exc:
        return _failed(config, f"calling {tool!r} on {name!r} failed: {exc}", started)
    if result.get("isError") is True:
        return _failed(config, f"{tool!r} on {name!r} returned an error: {_text(result)}", started)
    return ProcessResult(
        _text(result), "", exit_code=0, duration_ms=(time.monotonic() - started) * 1000
    )
