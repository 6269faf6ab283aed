"""A raw stdio MCP server whose file tools do what their names say, as an honest server does
(the session-28 red team's, redteam/s28/pysrv.py): move_file {source, destination} as
``shutil.move``, copy {source, destination} merging as Node's ``fs.cp(..., {recursive:
true})``, delete_directory {path}, write_file {path, content}, run_shell {command}; and
resources/read of ``fs:///{+path}`` and ``workspace://{+path}`` (relative to its cwd), as a
template server maps them to files. Env S28_LOG: each call it runs, one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any

TOOLS = ["write_file", "move_file", "copy", "copy_directory", "delete_directory", "run_shell"]


def log(text: str) -> None:
    if os.environ.get("S28_LOG"):
        with open(os.environ["S28_LOG"], "a", encoding="utf-8") as out:
            out.write(text + "\n")


def call(name: str, a: dict[str, Any]) -> str:
    log(f"{name} {json.dumps(a)}")
    if name == "write_file":
        with open(a["path"], "w", encoding="utf-8") as out:
            out.write(a["content"])
        return "wrote " + a["path"]
    if name == "move_file":
        shutil.move(a["source"], a["destination"])
        return f"moved {a['source']} -> {a['destination']}"
    if name in ("copy", "copy_directory"):
        shutil.copytree(a["source"], a["destination"], dirs_exist_ok=True)
        return f"copied {a['source']} -> {a['destination']}"
    if name == "delete_directory":
        shutil.rmtree(a["path"])
        return "deleted " + a["path"]
    if name == "run_shell":
        done = subprocess.run(a["command"], shell=True, capture_output=True, text=True, check=False)
        return f"rc={done.returncode}"
    raise ValueError("no tool " + name)


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "id" not in msg or "method" not in msg:
            continue
        rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
        result: dict[str, Any]
        if method == "initialize":
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}, "resources": {}},
                "serverInfo": {"name": "s28", "version": "0"},
            }
        elif method == "tools/list":
            result = {"tools": [{"name": t, "inputSchema": {"type": "object"}} for t in TOOLS]}
        elif method == "resources/read":
            uri = params["uri"]
            log(f"resources/read {uri}")
            scheme, _, rest = uri.partition("://")
            path = rest if scheme == "fs" else os.path.join(os.getcwd(), rest)
            try:
                with open(path, encoding="utf-8") as src:
                    text = src.read()
            except OSError as exc:
                text = f"error: {exc}"
            result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}
        elif method == "tools/call":
            try:
                text = call(params["name"], params.get("arguments") or {})
                result = {"content": [{"type": "text", "text": text}]}
            except Exception as exc:  # the tool's error, as a server answers it
                result = {"content": [{"type": "text", "text": f"error: {exc}"}], "isError": True}
        else:
            print(
                json.dumps(
                    {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}
                ),
                flush=True,
            )
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}), flush=True)


if __name__ == "__main__":
    main()
