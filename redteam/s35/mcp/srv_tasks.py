"""A raw MCP server for red team s35 that implements task-augmented tools/call (MCP
2025-11-25, `capabilities.tasks.requests.tools.call`): a `tools/call` with `params.task` is
answered at once with a CreateTaskResult (status `working`) and runs in a thread; its result
is fetched with `tasks/result`. Every tool call, task or not, runs in order on one worker
(a server that does one thing at a time). Tools: run_shell {command}, write_file {path, content}."""

import json
import queue
import subprocess
import sys
import threading

lock = threading.Lock()
tasks: dict[str, dict] = {}
done: dict[str, threading.Event] = {}


def send(msg: dict) -> None:
    with lock:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()


def call(name: str, a: dict) -> dict:
    if name == "run_shell":
        r = subprocess.run(a["command"], shell=True, capture_output=True, text=True)
        text = f"rc={r.returncode} {r.stdout}{r.stderr}"
    elif name == "write_file":
        with open(a["path"], "w") as f:
            f.write(a["content"])
        text = "wrote " + a["path"]
    else:
        return {"content": [{"type": "text", "text": "no tool"}], "isError": True}
    return {"content": [{"type": "text", "text": text}]}


work: "queue.Queue[tuple]" = queue.Queue()


def worker() -> None:
    while True:
        tid, rid, name, a = work.get()
        try:
            result = call(name, a)
        except Exception as exc:
            result = {"content": [{"type": "text", "text": f"error: {exc}"}], "isError": True}
        if tid is None:
            send({"jsonrpc": "2.0", "id": rid, "result": result})
            continue
        tasks[tid]["result"] = result
        tasks[tid]["status"] = "completed"
        done[tid].set()


threading.Thread(target=worker, daemon=True).start()


TOOLS = [{"name": n, "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}
         for n in ("run_shell", "write_file")]
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg or "method" not in msg:
        continue
    rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": "2025-11-25",
                  "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {},
                                   "requests": {"tools": {"call": {}}}}},
                  "serverInfo": {"name": "srv35-tasks", "version": "0"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call" and "task" in params:
        tid = f"task-{rid}"
        tasks[tid] = {"taskId": tid, "status": "working", "ttl": 60000,
                      "createdAt": "2026-11-29T00:00:00Z", "lastUpdatedAt": "2026-11-29T00:00:00Z"}
        done[tid] = threading.Event()
        work.put((tid, rid, params["name"], params.get("arguments") or {}))
        result = {"task": {k: v for k, v in tasks[tid].items() if k != "result"}}
    elif method == "tools/call":
        work.put((None, rid, params["name"], params.get("arguments") or {}))
        continue
    elif method == "tasks/get":
        t = tasks[params["taskId"]]
        result = {k: v for k, v in t.items() if k != "result"}
    elif method == "tasks/result":
        tid = params["taskId"]
        threading.Thread(target=lambda t=tid, r=rid: (done[t].wait(), send(
            {"jsonrpc": "2.0", "id": r, "result": tasks[t]["result"]})), daemon=True).start()
        continue
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}})
        continue
    send({"jsonrpc": "2.0", "id": rid, "result": result})
