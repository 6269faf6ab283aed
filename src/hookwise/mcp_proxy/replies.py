"""The messages the proxy writes itself: its errors, a denied call's result, its notices.

Error codes in JSON-RPC's server range say what happened to the server, so a client (or a
person reading its log) can tell the proxy's answer from the server's.
"""

from __future__ import annotations

from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_GONE = -32000  # the server exited, closed its output or never started
SERVER_TIMEOUT = -32001  # no answer within --timeout
SERVER_GARBAGE = -32002  # the server answered with something that is no JSON-RPC message
DENIED = -32003  # the policy denied a request that has no tool result (resources/read)
SERVER_BUSY = -32004  # the server reads nothing and the queue to it is full

LOGGER = "hookwise"


def error(request_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}


def tool_error(request_id: Any, text: str) -> dict[str, Any]:
    """A ``tools/call`` result the model reads: the call did not run, and why."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "result": {"content": [{"type": "text", "text": text}], "isError": True},
    }


def cancelled(request_id: Any, reason: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": request_id, "reason": reason},
    }


def log(level: str, text: str) -> dict[str, Any]:
    """A ``notifications/message`` the client shows in its MCP log."""
    return {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": level, "logger": LOGGER, "data": text},
    }
