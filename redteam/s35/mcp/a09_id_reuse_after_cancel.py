"""F6: an id cancelled by the client is free again at once for the proxy, though the server
may still answer the cancelled request; a new request under that id gets the old call's
answer, and its own answer is dropped as one "not given".
A: id 10 run_shell `sleep 1; echo ANSWER-OF-A`, cancelled; B: id 10 run_shell `echo ANSWER-OF-B`.
Run: python3 redteam/s35/mcp/a09_id_reuse_after_cancel.py"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
sb = sandbox("a09")
c = Client(sb, [sys.executable, str(HERE / "srv.py")])
c.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
        "params": {"name": "run_shell", "arguments": {"command": "sleep 1; echo ANSWER-OF-A"}}})
time.sleep(0.2)
c.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}})
c.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
        "params": {"name": "run_shell", "arguments": {"command": "echo ANSWER-OF-B"}}})
row("answer the client got for B (id 10)", c.wait(lambda m: m.get("id") == 10, 10))
time.sleep(1.5)
extra = [m for m in c.log if m.get("id") == 10]
print(f"  answers with id 10 in all: {len(extra)}")
c.close()
err = c.p.stderr.read().decode() if c.p.stderr else ""
print("  proxy stderr:", [ln for ln in err.splitlines() if "not given" in ln or "dropped" in ln][:2])
