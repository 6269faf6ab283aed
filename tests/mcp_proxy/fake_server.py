"""A scripted stdio MCP server for the proxy's tests: a real process that records every line
it receives (``FAKE_SERVER_LOG``) and misbehaves on request.

``python fake_server.py MODE``; MODE is ``echo`` (answers every tools/call with its
arguments), ``crash`` (exits 3 on a tools/call, after a line on stderr), ``hang`` (never
answers a tools/call), ``garbage`` (answers a tools/call with a truncated line naming its
id), ``spoof`` (also answers an id it was never sent), ``big`` (a tools/call gets an image
of ``size`` bytes), ``noread`` (stops reading its input at the first tools/call, as a
single-threaded server busy in a long tool), ``progress`` (two progress notifications before each answer),
``stdout-noise`` (a line of plain text on stdout before every answer), ``batch`` (a batch
is answered with an array), ``resources`` (echo, and one resource, ``RESOURCE`` below, whose
content is ``RESOURCE_TEXT``).
"""

from __future__ import annotations

import base64
import json
import os
import sys
import time
from typing import Any

MODE = sys.argv[1] if len(sys.argv) > 1 else "echo"
LOG = os.environ.get("FAKE_SERVER_LOG")
# FAKE_SERVER_TOOLS: more tools' names, a JSON list (how a host names such a tool)
TOOLS = [
    {"name": n, "inputSchema": {"type": "object"}}
    for n in ("greet", "run_command", "write_file", "delete_file", "image",
              *json.loads(os.environ.get("FAKE_SERVER_TOOLS") or "[]"))
]  # fmt: skip
RESOURCE = "file:///secret/notes.txt"
RESOURCE_TEXT = "RESOURCE-CONTENT-SECRET"


def send(value: Any) -> None:
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


def record(line: str) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(line.rstrip("\n") + "\n")


def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
    method = msg.get("method")
    if "id" not in msg or method is None:
        return None
    rid = msg["id"]
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}, **({"resources": {}} if MODE == "resources" else {})},
            "serverInfo": {"name": "fake", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        params = msg["params"]
        if MODE == "crash":
            sys.stderr.write("fake server: cannot go on\n")
            sys.stderr.flush()
            sys.exit(3)
        if MODE == "hang":
            return None
        if MODE == "noread":
            time.sleep(3600)
        if MODE == "garbage":
            sys.stdout.write('{"jsonrpc":"2.0","id":' + json.dumps(rid) + ',"result":{"cont\n')
            sys.stdout.flush()
            return None
        if MODE == "progress":
            token = params.get("_meta", {}).get("progressToken")
            for n in (1, 2):
                send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {"progressToken": token, "progress": n, "total": 2},
                    }
                )
                time.sleep(0.3)
        if params.get("name") == "image":
            size = int(params.get("arguments", {}).get("size", 16))
            data = base64.b64encode(bytes(range(256)) * (size // 256 + 1))[:size].decode()
            content = [{"type": "image", "data": data, "mimeType": "image/png"}]
        else:
            content = [{"type": "text", "text": json.dumps(params.get("arguments"))}]
        result = {"content": content}
    elif MODE == "resources" and method == "resources/list":
        result = {"resources": [{"uri": RESOURCE, "name": "notes", "mimeType": "text/plain"}]}
    elif MODE == "resources" and method == "resources/read":
        uri = msg["params"].get("uri")
        result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": RESOURCE_TEXT}]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main() -> None:
    for line in sys.stdin:
        record(line)
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, list):
            out = [a for a in (answer(m) for m in msg) if a is not None]
            if out:
                send(out)
            continue
        reply = answer(msg)
        if reply is None:
            continue
        if MODE == "stdout-noise":
            sys.stdout.write("server log: working\n")
        if MODE == "spoof":
            send({"jsonrpc": "2.0", "id": 99, "result": {"content": [], "spoofed": True}})
        send(reply)


if __name__ == "__main__":
    main()
