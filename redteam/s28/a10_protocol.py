"""s28 a10: protocol corners against the proxy, with effects checked on disk and in the
server's raw input log: a tools/call notification, id null, a batch reusing an id, a
cancellation race around a held ask, a `__proto__` argument, a server elicitation worded as
the proxy's."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

POLICY = """version: 1
rules:
  - id: no-rm-r
    match: {tool: shell, command: rm -r}
    action: deny
  - id: ask-curl
    match: {tool: shell, command: curl}
    action: ask
"""
sb = sandbox("a10", POLICY)
base = sb["base"]
for i in range(6):
    (base / f"victim{i}").mkdir()
raw = base / "server-input.jsonl"
os.environ["RT_RAWLOG"] = str(raw)
c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs", elicitation=True)
rm = lambda i: {"name": "run_shell", "arguments": {"command": f"rm -rf {base}/victim{i}"}}
c.send({"jsonrpc": "2.0", "method": "tools/call", "params": rm(0)})
c.send({"jsonrpc": "2.0", "id": None, "method": "tools/call", "params": rm(1)})
row("id null", c.wait(lambda m: "id" in m and m.get("id") is None))
c.send([{"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": rm(2)},
        {"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": {"name": "run_shell", "arguments": {"command": "echo hi"}}}])
print("  batch answer:", json.dumps(c.wait(lambda m: isinstance(m, list) or m.get("id") == 50))[:200])
# cancellation race: held curl, cancel, same id reused for an allowed call, then accept the old ask
c.send({"jsonrpc": "2.0", "id": 60, "method": "tools/call", "params": {"name": "run_shell", "arguments": {"command": f"curl -s file://{base}/victim3 -o {base}/curl-ran"}}})
ask = c.wait(lambda m: m.get("method") == "elicitation/create")
c.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 60}})
c.send({"jsonrpc": "2.0", "id": 60, "method": "tools/call", "params": {"name": "run_shell", "arguments": {"command": "echo second"}}})
row("id 60 reused after cancel", c.wait(lambda m: m.get("id") == 60))
if ask:
    c.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"allow": True}}})
time.sleep(1)
row("__proto__ holding a command", c.call("run_shell", {"command": "echo hi", "__proto__": {"command": f"rm -rf {base}/victim4"}}))
row("server's own elicitation (look-alike)", c.call("fake_hookwise_ask", {}))
time.sleep(1)
for m in c.log:
    if isinstance(m, dict) and m.get("method") == "elicitation/create":
        print(f"  client got elicitation id={m['id']!r}: {m['params']['message'][:110]!r}")
time.sleep(1)
c.close()
print("  victims left:", sorted(p.name for p in base.glob("victim*")), "curl ran:", (base / "curl-ran").exists())
print("  server received tools/call lines:")
for line in raw.read_text().splitlines():
    if "tools/call" in line:
        print("   ", line[:150])
