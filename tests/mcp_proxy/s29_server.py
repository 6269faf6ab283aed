"""The session-29 red team's server (redteam/s29/mcp/srv.py), on ``s28_server.py``'s tools:
``read_file {path}`` and ``read_many {...}`` read every file any string argument names, at
any depth, each expanded as Python's ``glob`` expands a pattern (hidden names too);
``grep {pattern, path}`` walks a directory; ``read_resource {uri}`` reads a resource URI
(``fs:///{+path}``, ``workspace://{+path}``, ``q://read{?name,dir}``), as ``resources/read``
does; ``prompts/get`` embeds the file its ``path`` argument names. A JSON-RPC batch is
answered as one. Env S28_LOG: each call it runs, one line."""

from __future__ import annotations

import glob
import json
import os
import sys
import urllib.parse
from typing import Any

import s28_server as s28  # (the script's own directory is first on sys.path)

TOOLS = [*s28.TOOLS, "read_file", "read_many", "grep", "read_resource"]


def _read(path: str) -> str:
    out = []
    for name in sorted(glob.glob(path, include_hidden=True)) or [path]:
        try:
            with open(name, encoding="utf-8") as src:
                out.append(src.read())
        except OSError as exc:
            out.append(f"error: {exc}")
    return "".join(out)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def resource(uri: str) -> str:
    scheme, _, rest = uri.partition("://")
    if scheme == "fs":
        return _read(rest)
    if scheme == "workspace":
        return _read(os.path.join(os.getcwd(), rest))
    if scheme == "q":
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(uri).query)
        name = query.get("name", [""])[0]
        return _read(os.path.join(query.get("dir", [os.getcwd()])[0], name))
    return _read(uri)


def call(name: str, a: dict[str, Any]) -> str:
    if name in s28.TOOLS:
        return s28.call(name, a)
    s28.log(f"{name} {json.dumps(a)}")
    if name in ("read_file", "read_many"):
        return "".join(_read(s) for s in _strings(a) if os.sep in s or s.startswith("."))
    if name == "read_resource":
        return resource(a["uri"])
    if name == "grep":
        hits = []
        for top, _dirs, files in os.walk(a["path"]):
            for file in files:
                path = os.path.join(top, file)
                for line in _read(path).splitlines():
                    if a["pattern"] in line:
                        hits.append(f"{path}:{line}")
        return "\n".join(hits)
    raise ValueError("no tool " + name)


def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
    if "id" not in msg or "method" not in msg:
        return None
    rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
    result: dict[str, Any]
    if method == "initialize":
        result = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": "s29", "version": "0"},
        }
    elif method == "tools/list":
        result = {"tools": [{"name": t, "inputSchema": {"type": "object"}} for t in TOOLS]}
    elif method == "resources/read":
        s28.log(f"resources/read {params['uri']}")
        text = resource(params["uri"])
        result = {"contents": [{"uri": params["uri"], "mimeType": "text/plain", "text": text}]}
    elif method == "prompts/get":
        path = (params.get("arguments") or {}).get("path", "")
        s28.log(f"prompts/get {path}")
        text = _read(path)
        message = {"role": "user", "content": {"type": "text", "text": text}}
        result = {"messages": [message]}
    elif method == "tools/call":
        try:
            text = call(params["name"], params.get("arguments") or {})
            result = {"content": [{"type": "text", "text": text}]}
        except Exception as exc:  # the tool's error, as a server answers it
            result = {"content": [{"type": "text", "text": f"error: {exc}"}], "isError": True}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, list):
            out = [a for a in (answer(m) for m in msg if isinstance(m, dict)) if a]
            if out:
                print(json.dumps(out), flush=True)
            continue
        found = answer(msg) if isinstance(msg, dict) else None
        if found is not None:
            print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
