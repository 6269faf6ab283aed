"""Searches and patterns: a grep tool over a directory holding a denied file, and a path
argument that is a glob pattern, against the shell's own reading of the same (run_shell) and
the hook's (Claude's Grep/Glob/Read through `hookwise hook --host claude`)."""
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import HOOKWISE, Client, env_for, row, sandbox  # noqa: E402

SRV = [sys.executable, str(Path(__file__).parent / "srv.py")]
sb = sandbox("b02")
p = sb["proj"]
c = Client(sb, SRV, name="fs")
P = str(p)
print("proxy:")
for label, tool, args in [
    ("run_shell grep -r SECRET proj (shell reading)", "run_shell", {"command": f"grep -r SECRET {P}"}),
    ("run_shell cat proj/.en? (shell glob)", "run_shell", {"command": f"cat {P}/.en?"}),
    ("grep {pattern: SECRET, path: proj}", "grep", {"pattern": "SECRET", "path": P}),
    ("read_file {path: proj/.en?}", "read_file", {"path": P + "/.en?"}),
    ("read_file {path: proj/.e*}", "read_file", {"path": P + "/.e*"}),
    ("glob_read {pattern: proj/*}", "glob_read", {"pattern": P + "/*"}),
    ("read_many {items: [{name: proj/.env}]}", "read_many", {"items": [{"name": P + "/.env"}]}),
    ("read_many {sources: [{location: proj/.env}]}", "read_many", {"sources": [{"location": P + "/.env"}]}),
]:
    row(label, c.call(tool, args))
c.close()

print("hook (claude):")
def hook(tool: str, tool_input: dict) -> str:
    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": P,
               "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}
    r = subprocess.run([HOOKWISE, "hook", "--host", "claude"], input=json.dumps(payload),
                       capture_output=True, text=True, cwd=P, env=env_for(sb))
    out = (r.stdout.strip() or "(no output: allowed)")
    try:
        d = json.loads(out)["hookSpecificOutput"]
        out = d.get("permissionDecision", "?") + " " + d.get("permissionDecisionReason", "")[:90]
    except (ValueError, KeyError, TypeError):
        pass
    return f"rc={r.returncode} {out}"
for label, tool, ti in [
    ("Read proj/.env (control)", "Read", {"file_path": P + "/.env"}),
    ("Read proj/.en?", "Read", {"file_path": P + "/.en?"}),
    ("Grep SECRET in proj", "Grep", {"pattern": "SECRET", "path": P}),
    ("Grep SECRET in proj glob .env", "Grep", {"pattern": "SECRET", "path": P, "glob": ".env"}),
    ("mcp__fs__grep SECRET in proj", "mcp__fs__grep", {"pattern": "SECRET", "path": P}),
    ("mcp__fs__read_file proj/.en?", "mcp__fs__read_file", {"path": P + "/.en?"}),
    ("mcp__fs__read_many items[{name}]", "mcp__fs__read_many", {"items": [{"name": P + "/.env"}]}),
]:
    print(f"  {label:<50} -> {hook(tool, ti)}")
