#!/usr/bin/env python3
"""Play a host: run the hookwise hook command registered in .claude/settings.json (or
.gemini/settings.json) through `bash -c`, as Claude Code / Gemini CLI do, with a tool-call
payload, and print exit code, stdout and stderr.  Usage: fakehost.py [claude|gemini] CMD"""
import json, os, subprocess, sys

host = sys.argv[1]
command = sys.argv[2]
proj = os.environ.get("PROJ", os.getcwd())
if host == "claude":
    settings = json.load(open(os.path.join(proj, ".claude/settings.json")))
    hook = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    payload = {"session_id": "s1", "transcript_path": "/tmp/x", "cwd": os.getcwd(),
               "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}, "permission_mode": "default"}
    env = dict(os.environ, CLAUDE_PROJECT_DIR=proj)
else:
    settings = json.load(open(os.path.join(proj, ".gemini/settings.json")))
    hook = settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    payload = {"session_id": "s1", "transcript_path": "/tmp/x", "cwd": os.getcwd(),
               "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
               "tool_input": {"command": command}, "timestamp": "2026-01-01T00:00:00Z"}
    env = dict(os.environ, GEMINI_PROJECT_DIR=proj, CLAUDE_PROJECT_DIR=proj)
p = subprocess.run(["bash", "-c", hook], input=json.dumps(payload).encode(), capture_output=True,
                   env=env, timeout=60)
print(f"[{host}] {command!r} -> exit {p.returncode}")
print("  stdout:", p.stdout.decode(errors="replace").strip()[:400])
print("  stderr:", p.stderr.decode(errors="replace").strip()[:400])
