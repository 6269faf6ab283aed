"""A stdio MCP server whose one tool asks the client for input, for recording Claude Code's
Elicitation and ElicitationResult hooks (``tests.e2e.record_claude_offline_events``).

    python elicit_server.py

Its tool ``ask`` sends ``elicitation/create`` (a form asking for a ``name``) during the
``tools/call`` and answers the call with ``ELICITED `` and the client's answer as JSON, so
the model's next request shows what the client sent back. Every message it reads is appended
to ``$ELICIT_LOG`` when set. Standard library only: the CLI runs it with a bare environment.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

ELICIT_ID = "elicit-1"
MESSAGE = "What name?"
SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _log(message: dict[str, Any]) -> None:
    path = os.environ.get("ELICIT_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(message) + "\n")


def _reply(ident: Any, result: dict[str, Any]) -> None:
    _send({"jsonrpc": "2.0", "id": ident, "result": result})


def main() -> int:
    waiting: list[Any] = []  # the tools/call that waits for the client's answer
    for line in sys.stdin:
        message = json.loads(line)
        _log(message)
        method = message.get("method")
        if method == "initialize":
            version = message["params"].get("protocolVersion", "2025-06-18")
            info = {"name": "asker", "version": "1.0"}
            _reply(
                message["id"],
                {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info},
            )
        elif method == "tools/list":
            tool = {
                "name": "ask",
                "description": "asks for a name",
                "inputSchema": {"type": "object"},
            }
            _reply(message["id"], {"tools": [tool]})
        elif method == "tools/call":
            waiting.append(message["id"])
            params = {"message": MESSAGE, "requestedSchema": SCHEMA}
            _send(
                {
                    "jsonrpc": "2.0",
                    "id": ELICIT_ID,
                    "method": "elicitation/create",
                    "params": params,
                }
            )
        elif method is None and message.get("id") == ELICIT_ID and waiting:
            answer = message.get("result") or {"error": message.get("error")}
            text = "ELICITED " + json.dumps(answer, sort_keys=True)
            _reply(waiting.pop(), {"content": [{"type": "text", "text": text}]})
        elif method is not None and "id" in message:
            _reply(message["id"], {})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
