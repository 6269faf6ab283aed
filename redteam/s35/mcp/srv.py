"""A raw stdio MCP server (no SDK) for red team s29 (copied for s35): tools that do what their names say.

Readers (any name in READERS or RT_READERS): read every file an argument names, at any depth
(strings, lists, objects), a glob pattern expanded as Python's glob does (recursive, hidden).
grep {pattern, path}: lines matching under a directory (as ripgrep-style servers do, hidden
files included). link {source, destination}: a hard link. write_file {path, content},
run_shell {command}, rename_tool: makes tools/list answer other names (list_changed sent).
Env RT_LOG: a file each call is appended to."""

import glob
import json
import os
import re
import subprocess
import sys

READERS = {"view", "head", "read_note", "read_many", "glob_read", "read_f\u0456le", "open",
           "download", "get_file", "read_file", "show"}
READERS |= {t for t in os.environ.get("RT_READERS", "").split(",") if t}
TOOLS = sorted(READERS) + ["grep", "link", "write_file", "run_shell", "symlink", "read_resource", "get_resource"]


def open_uri(uri: str) -> str:
    """A template server's mapping: fs:///{+path}, workspace://{+path} (cwd), q://read{?name,dir}."""
    from urllib.parse import parse_qs, urlsplit
    u = urlsplit(uri)
    if u.scheme == "q":
        q = parse_qs(u.query)
        path = os.path.join(q.get("dir", [os.getcwd()])[0], q["name"][0])
    elif u.scheme == "fs":
        path = u.path
    else:
        path = os.path.join(os.getcwd(), u.netloc + u.path)
    return open(path).read()



def log(text: str) -> None:
    if os.environ.get("RT_LOG"):
        with open(os.environ["RT_LOG"], "a") as f:
            f.write(text + "\n")


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


def read_all(a: dict) -> str:
    out = []
    for s in strings(a):
        names = glob.glob(os.path.expanduser(s), recursive=True, include_hidden=True) \
            if any(c in s for c in "*?[") else [os.path.expanduser(s)]
        for n in names:
            if os.path.isfile(n):
                out.append(f"{n}: {open(n).read().strip()}")
    return " | ".join(out) or "nothing read"


def call(name: str, a: dict) -> str:
    log(f"{name} {json.dumps(a)}")
    if name in READERS:
        return read_all(a)
    if name in ("read_resource", "get_resource"):
        return open_uri(a["uri"])
    if name == "grep":
        rx = re.compile(a["pattern"])
        hits = []
        for d, _, fs in os.walk(a.get("path", ".")):
            for f in fs:
                p = os.path.join(d, f)
                try:
                    for line in open(p):
                        if rx.search(line):
                            hits.append(f"{p}:{line.strip()}")
                except (OSError, UnicodeDecodeError):
                    pass
        return "\n".join(hits) or "no match"
    if name == "link":
        os.link(a["source"], a["destination"])
        return f"linked {a['source']} -> {a['destination']}"
    if name == "symlink":
        os.symlink(a["target"], a["link_name"])
        return "symlinked"
    if name == "write_file":
        with open(a["path"], "w") as f:
            f.write(a["content"])
        return "wrote " + a["path"]
    if name == "run_shell":
        r = subprocess.run(a["command"], shell=True, capture_output=True, text=True)
        return f"rc={r.returncode} {r.stdout}{r.stderr}"
    raise ValueError("no tool " + name)


for line in sys.stdin:
    if os.environ.get("RT_RAWLOG"):
        with open(os.environ["RT_RAWLOG"], "a") as f:
            f.write(line)
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg or "method" not in msg:
        continue
    rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18",
                  "capabilities": {"tools": {"listChanged": True}, "resources": {}, "prompts": {}},
                  "serverInfo": {"name": "srv29", "version": "0"}}
    elif method == "tools/list":
        result = {"tools": [{"name": t, "inputSchema": {"type": "object"}} for t in TOOLS]}
    elif method == "prompts/get":  # a prompt embedding the file its argument names
        path = (params.get("arguments") or {}).get("path", "")
        try:
            body = open(path).read()
        except OSError as exc:
            body = f"error: {exc}"
        result = {"messages": [{"role": "user", "content": {"type": "resource", "resource": {
            "uri": "file://" + path, "text": body}}}]}
    elif method == "resources/read":
        try:
            result = {"contents": [{"uri": params["uri"], "text": open_uri(params["uri"])}]}
        except Exception as exc:
            result = {"contents": [{"uri": params["uri"], "text": f"error: {exc}"}]}
    elif method == "tools/call":
        try:
            result = {"content": [{"type": "text", "text": call(params["name"], params.get("arguments") or {})}]}
        except Exception as exc:
            result = {"content": [{"type": "text", "text": f"error: {exc}"}], "isError": True}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}), flush=True)
