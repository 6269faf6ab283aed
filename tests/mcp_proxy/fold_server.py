"""A stdio MCP server that reads its messages as Go's ``encoding/json`` does (mark3labs/mcp-go,
go-sdk before 1.3.1, hand-written structs): each member is matched to a field ignoring case
under Unicode folding (``Arguments``, ``argumentſ`` and ``arguments`` are one field), and the
last one wins. Tools: ``run_shell {command}`` (``sh -c`` in its cwd), ``read_text_file
{path}``, ``write_file {path or uri, content}``, ``echo``; each call it runs is appended to ``$FOLD_SERVER_LOG``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def field(obj: Any, name: str) -> Any:
    """The member Go would put in the field ``name``: the last key that folds to it."""
    found = None
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key.casefold() == name.casefold():
                found = value
    return found


def run(name: Any, args: Any) -> str:
    with open(os.environ["FOLD_SERVER_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"name": name, "arguments": args}) + "\n")
    if name == "run_shell":
        command = str(field(args, "command"))
        done = subprocess.run(["sh", "-c", command], capture_output=True, check=False)
        return done.stdout.decode() + done.stderr.decode()
    if name == "write_file":  # a path, or a file: URI as servers taking resources do
        target = str(field(args, "path") or str(field(args, "uri")).removeprefix("file://"))
        with open(target, "w", encoding="utf-8") as f:
            f.write(str(field(args, "content")))
        return "written"
    if name == "read_text_file":
        with open(str(field(args, "path")), encoding="utf-8") as f:
            return f.read()
    return "echo"


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, request_id = field(msg, "method"), field(msg, "id")
        params = field(msg, "params")
        if method == "initialize":
            result: Any = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}, "resources": {}},
                "serverInfo": {"name": "fold", "version": "1"},
            }
        elif method == "tools/call":
            text = run(field(params, "name"), field(params, "arguments"))
            result = {"content": [{"type": "text", "text": text}]}
        elif method == "resources/read":
            uri = str(field(params, "uri"))
            text = run("read_text_file", {"path": uri.removeprefix("file://")})
            result = {"contents": [{"uri": uri, "text": text}]}
        else:
            result = {}
        if request_id is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}))
            sys.stdout.write("\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
