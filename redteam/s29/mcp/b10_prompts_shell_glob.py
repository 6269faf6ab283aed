"""prompts/get with a path argument (a prompt embedding that file) and the shell's own glob
(`cat proj/.en?`, through the MCP shell tool and the hook's Bash)."""
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import HOOKWISE, Client, env_for, row, sandbox  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b10")
p = str(sb["proj"])
c = Client(sb, SRV, name="fs")
r = c.request("prompts/get", {"name": "review", "arguments": {"path": p + "/.env"}})
print(f"  {'prompts/get review {path: proj/.env}':<70} -> {json.dumps(r.get('result') if r else r)[:130]}")
row("run_shell cat proj/.en?", c.call("run_shell", {"command": f"cat {p}/.en?"}))
row("run_shell cat proj/.env (control)", c.call("run_shell", {"command": f"cat {p}/.env"}))
c.close()
for cmd in (f"cat {p}/.env", f"cat {p}/.en?", f"cat {p}/.e*", f"cat {p}/[.]env"):
    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": p, "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": cmd}}
    out = subprocess.run([HOOKWISE, "hook", "--host", "claude"], input=json.dumps(payload),
                         capture_output=True, text=True, cwd=p, env=env_for(sb)).stdout.strip()
    print(f"  hook Bash {cmd.replace(p, 'proj'):<30} -> {out[:100] or '(no decision: allowed)'}")
