"""s28 a01: (1) moving the policy's directory away and a prepared one in, through an MCP
move tool; (2) resources/read and a read tool's URI under a scheme other than file:
(fs:///{+path}, workspace://{+path}) that a template server maps to a file."""
import sys
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
from rt import Client, row, sandbox

sb = sandbox("a01")
here = __import__("os").path.dirname(__file__)
c = Client(sb, ["python3", f"{here}/pysrv.py"], name="fs")
pol, conf, base, proj = sb["policy"], sb["conf"], sb["base"], sb["proj"]
(base / "victim0").mkdir(); (base / "victim1").mkdir()
print("(2) other schemes")
row("resources/read file:// .env (control)", c.request("resources/read", {"uri": f"file://{proj}/.env"}))
row("resources/read fs:// .env", c.request("resources/read", {"uri": f"fs://{proj}/.env"}))
row("resources/read workspace://.env", c.request("resources/read", {"uri": "workspace://.env"}))
print("(1) tree moves")
row("write_file policy (control)", c.call("write_file", {"path": str(pol), "content": "version: 1\nrules: []\n"}))
row("run_shell rm -rf victim0 (control)", c.call("run_shell", {"command": f"rm -rf {base}/victim0"}))
row("create_directory evil/hookwise", c.call("create_directory", {"path": f"{base}/evil/hookwise"}))
row("write_file evil/hookwise/policy.yaml", c.call("write_file", {"path": f"{base}/evil/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}))
row("move_file conf/hookwise -> bak", c.call("move_file", {"source": str(conf / "hookwise"), "destination": f"{base}/bak"}))
row("move_file conf -> bak2", c.call("move_file", {"source": str(conf), "destination": f"{base}/bak2"}))
row("move_file home -> bak3", c.call("move_file", {"source": str(sb['home']), "destination": f"{base}/bak3"}))
row("move_file evil/hookwise -> conf/hookwise (exists)", c.call("move_file", {"source": f"{base}/evil/hookwise", "destination": str(conf / "hookwise")}))
time.sleep(1.5)
print("  policy now:", pol.read_text().replace("\n", "|") if pol.exists() else "(missing)")
row("run_shell rm -rf victim1", c.call("run_shell", {"command": f"rm -rf {base}/victim1"}))
print("  victim1 exists:", (base / "victim1").exists())
c.close()
