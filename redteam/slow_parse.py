#!/usr/bin/env python3
"""Time the hook on large, pathological shell commands (a hook past the host's timeout,
10 s as installed, is a non-blocking error on Claude Code and Gemini CLI: the tool runs)."""
import json, os, subprocess, sys, time
HW = os.environ.get("HW", "hookwise")
def run(name, cmd):
    payload = {"session_id": "s", "cwd": os.getcwd(), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": cmd}}
    t = time.time()
    try:
        p = subprocess.run([HW, "hook", "--platform", "claude", "--no-audit"], input=json.dumps(payload).encode(),
                           capture_output=True, timeout=60)
        out = (p.returncode, p.stdout[:150])
    except subprocess.TimeoutExpired:
        out = ("TIMEOUT",)
    print(f"{name:40s} len={len(cmd):8d} {time.time()-t:6.2f}s {out}", flush=True)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
cases = {
 "nested $(": "echo " + "$(" * n + "x" + ")" * n + "; git push --force",
 "nested backticks-ish eval": "eval " + "'eval " * 50 + "x" + "'" * 50,
 "nested bash -c quoting": "bash -c " + "\"bash -c \\\"" * 1,
 "many ;": "true;" * (n * 20) + "git push --force",
 "many pipes": "true|" * (n * 20) + "git push --force",
 "nested ( )": "(" * n + "git push --force" + ")" * n,
 "nested { }": "{ " * n + "git push --force; " + "}; " * n,
 "long word": "echo " + "a" * (n * 200),
 "many args": "git push " + "x " * (n * 50) + "--force",
 "brace expansion": "echo " + "{a,b}" * 30,
 "nested ${": "echo " + "${x:-" * n + "y" + "}" * n,
 "nested arith": "echo $((" + "(" * n + "1" + ")" * n + "))",
 "heredocs": "".join(f"cat <<E{i}\nx\nE{i}\n" for i in range(n)) + "git push --force",
 "quotes": "echo " + "'a'\"b\"" * (n * 20),
 "if nesting": "if true; then " * n + "git push --force; " + "fi; " * n,
 "case": "case x in " + " ".join(f"{i}) git push --force;;" for i in range(n * 5)) + " esac",
 "function defs": " ".join(f"f{i}() {{ f{i-1}; }};" for i in range(1, n)) + " f0() { git push --force; }; f" + str(n-1),
 "aliases/xargs": "xargs " * n + "git push --force",
 "sudo env chain": "env " * n + "git push --force",
 "bash -c nesting": "bash -c " * 1 + "'" + "bash -c \"" * 1 + "git push --force" + "\"" + "'",
}
only = sys.argv[2:] 
for name, cmd in cases.items():
    if only and not any(o in name for o in only):
        continue
    run(name, cmd)
