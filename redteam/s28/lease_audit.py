"""Outside a session: a read lease (fcntl F_SETLEASE) on the audit log makes any open of it
for writing wait up to fs.lease-break-time (45 s); does the hook wait? (it opens O_NONBLOCK)"""
import fcntl, json, os, signal, subprocess, sys, time
signal.signal(signal.SIGIO, signal.SIG_IGN)  # keep the lease through the break notice
home = os.environ["HOME"]; proj = os.environ["PROJ"]
log = f"{home}/.local/state/hookwise/audit.jsonl"
fd = os.open(log, os.O_RDONLY)
fcntl.fcntl(fd, 1024, fcntl.F_RDLCK)  # F_SETLEASE
event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": proj, "session_id": "s",
         "tool_input": {"command": "rm -rf build"}}
t = time.monotonic()
p = subprocess.run([f"{home}/.local/share/hookwise/hook", "--platform", "claude"],
                   input=json.dumps(event).encode(), capture_output=True, timeout=60)
print(f"lease held: rc={p.returncode} {time.monotonic() - t:.2f} s {p.stdout[:90]!r} {p.stderr[-160:]!r}")
