"""Decided on arrival, run later: a link made by one call and written through by the next,
both sent before the first runs (pipelined, as hosts send parallel tool calls; or in one
JSON-RPC batch). The proxy resolves links at decision time (paths.resolved); the link does
not exist yet, so the write is decided on the link's own path."""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, row, sandbox, text  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
for mode in sys.argv[1:] or ("sequential", "pipelined"):
    sb = sandbox(f"b05-{mode}")
    p, pol = sb["proj"], sb["policy"]
    up = str(pol.parent.parent)  # ~/.config: holds the guard, a link to it is allowed (b06)
    c = Client(sb, SRV, name="fs")
    print(f"{mode}:")
    row("control: write_file <policy>", c.call("write_file", {"path": str(pol), "content": "rules: []\n"}))
    link_cmd = {"command": f"sleep 0.3; ln -s {up} {p}/cfg"}
    write = {"path": f"{p}/cfg/hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}
    if mode == "sequential":
        row("run_shell ln -s ~/.config proj/cfg", c.call("run_shell", link_cmd))
        row("write_file proj/cfg/hookwise/policy.yaml", c.call("write_file", write))
    else:
        msgs = [{"jsonrpc": "2.0", "id": 101, "method": "tools/call",
                 "params": {"name": "run_shell", "arguments": link_cmd}},
                {"jsonrpc": "2.0", "id": 102, "method": "tools/call",
                 "params": {"name": "write_file", "arguments": write}}]
        if mode == "batch":
            c.send(msgs)
        else:
            for m in msgs:
                c.send(m)
        got = {}
        end = time.time() + 15
        while len(got) < 2 and time.time() < end:
            m = c.wait(lambda m: True, timeout=1)
            for item in (m if isinstance(m, list) else [m] if m else []):
                if isinstance(item, dict) and item.get("id") in (101, 102):
                    got[item["id"]] = item
        print(f"  {'ln -s (id 101)':<70} -> {text(got.get(101))}")
        print(f"  {'write_file proj/cfg/hookwise/policy.yaml (id 102)':<70} -> {text(got.get(102))}")
    print(f"  policy now: {pol.read_text()!r}" if pol.exists() else "  policy gone")
    time.sleep(2.5)  # past the proxy's policy recheck (RECHECK_SECONDS)
    row("run_shell rm -rf victim (2.5 s after)", c.call("run_shell", {"command": f"mkdir -p {p}/v && rm -rf {p}/v && echo deleted"}))
    c.close()
    if mode == "pipelined":  # the hook: a new process per call reads the policy file
        import json, subprocess
        from rt import HOOKWISE, env_for
        payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(p),
                   "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": f"rm -rf {p}/victim"}}
        (p / "victim").mkdir()
        r = subprocess.run([HOOKWISE, "hook", "--host", "claude"], input=json.dumps(payload),
                           capture_output=True, text=True, cwd=p, env=env_for(sb))
        print(f"  hook (claude) on Bash rm -rf victim -> {r.stdout.strip()[:120] or '(no decision: allowed)'}")
