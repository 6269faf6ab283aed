"""Probe: a `resources/read` / `prompts/get` without an id (a notification) naming .env is
passed to the server undecided and unaudited, while a `tools/call` without an id is decided
(proxy.py `_client_item`). The raw server logs every line it receives (RT_RAWLOG).
Run: python3 redteam/s35/mcp/a11_idless_resource_read.py"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, audit, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
sb = sandbox("a11")
raw = sb["base"] / "server-in.jsonl"
env = str(sb["proj"] / ".env")
c = Client(sb, ["env", f"RT_RAWLOG={raw}", sys.executable, str(HERE / "srv.py")])
row("resources/read file://.env (with id: control)", c.request("resources/read", {"uri": f"file://{env}"}))
c.send({"jsonrpc": "2.0", "method": "resources/read", "params": {"uri": f"file://{env}"}})
c.send({"jsonrpc": "2.0", "method": "prompts/get", "params": {"name": "p", "arguments": {"path": env}}})
c.send({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": env}}})
time.sleep(1)
c.close()
print("  lines the server received (methods, id):")
import json  # noqa: E402
for line in raw.read_text().splitlines():
    m = json.loads(line)
    if m.get("method") not in ("initialize", "notifications/initialized"):
        print("   ", m.get("method"), "id" in m and m["id"], json.dumps(m.get("params"))[:90])
print("  audit:", [(r.get("tool"), r.get("decision")) for r in audit(sb)])
