"""A stand-in for Gemini CLI: at start, loads the project env file as Gemini 0.61 does
(the first of .gemini/.env, .env from the cwd up; only unset variables; its own dotenv
parse, gemini_dotenv.js), then, as one long-lived process, runs the registered BeforeTool
command with `bash -c` for each step. A step `!CMD` is a tool call whose hook is run and,
if not denied, CMD is run too (as the host would). usage: gemini_host.py STEP...
"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
proj = os.environ["PROJ"]
settings = json.load(open(os.path.join(proj, ".gemini", "settings.json")))
command = settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
env = dict(os.environ)
d = proj
while True:
    found = next((p for p in (f"{d}/.gemini/.env", f"{d}/.env") if os.path.isfile(p)), None)
    if found or d == "/":
        break
    d = os.path.dirname(d)
if found:
    loaded = json.loads(subprocess.check_output(["node", f"{here}/gemini_dotenv.js", found]))
    for k, v in loaded.items():
        env.setdefault(k, v)
    print(f"(host start: loaded {found}: {sorted(k for k in loaded if k not in os.environ)})")
env.update(GEMINI_PROJECT_DIR=proj, CLAUDE_PROJECT_DIR=proj, GEMINI_CWD=proj)
for step in sys.argv[1:]:
    payload = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
               "tool_input": {"command": step}, "cwd": proj, "session_id": "g1",
               "timestamp": "2026-11-28T00:00:00Z"}
    p = subprocess.run(["bash", "-c", command], input=json.dumps(payload).encode(), env=env,
                       cwd=proj, capture_output=True, timeout=30)
    out = p.stdout.decode().strip()
    denied = p.returncode == 2 or '"deny"' in out
    print(f"[gemini] {step!r} -> exit {p.returncode} {out[:110]}"
          + (f"  (stderr: {p.stderr.decode().strip()[:120]})" if p.stderr.strip() else ""))
    if not denied:
        subprocess.run(["bash", "-c", step], cwd=proj)
