"""A stand-in for Claude Code: runs the registered command with `sh -c` from its own
process (as Claude Code does), the event on stdin, and the 10 s timeout the install
writes; a timeout is a non-blocking error there, and the tool runs.
usage: host.py COMMAND CWD [calls] [flooders bytes|launcher]: with flooders, starts that
many exec_flood (or, with "launcher", exec_flood_env) next to this file first, all beginning
at once 3 s later, and ends them after."""

import json
import subprocess
import sys
import time

command, cwd = sys.argv[1], sys.argv[2]
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 3
flooders = int(sys.argv[4]) if len(sys.argv) > 4 else 0
size = sys.argv[5] if len(sys.argv) > 5 else "16384"
start = int(time.time()) + 3
here = sys.argv[0].rsplit("/", 1)[0]
if size == "launcher":  # exec_flood_env: the launcher with --platform and a 64 MiB environment
    import os

    launcher = os.path.expanduser("~/.local/share/hookwise/hook")
    flood_argv = [f"{here}/exec_flood_env", launcher, str(start)]
else:  # exec_flood: sh -c with `size` bytes of script
    flood_argv = [f"{here}/exec_flood", size, str(start)]
floods = [subprocess.Popen(flood_argv) for _ in range(flooders)]
# s32: BEFORE="shell command": a tool call's command left running (bash -c, from this host)
import os as _os
if _os.environ.get("BEFORE"):
    subprocess.Popen(["bash", "-c", _os.environ["BEFORE"]])

time.sleep(max(start - time.time(), 0) + 1) if flooders else time.sleep(1)
print(f"{flooders} flooders running", flush=True) if flooders else None
event = json.dumps(
    {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"},
        "cwd": cwd,
        "session_id": "s",
    }
)
for i in range(calls):
    began = time.monotonic()
    child = subprocess.Popen(
        ["/bin/sh", "-c", command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
    )
    # (Popen returns once the shell's exec is done, as node's spawn does: the host's
    # timer starts there)
    spawned = time.monotonic()
    try:
        out, _ = child.communicate(event.encode(), timeout=10)
        took = time.monotonic() - spawned
        print(
            f"hook {i + 1}: spawn {spawned - began:.2f} s, then rc={child.returncode} "
            f"{out[:60]!r} after {took:.2f} s",
            flush=True,
        )
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        took = time.monotonic() - spawned
        print(
            f"hook {i + 1}: spawn {spawned - began:.2f} s, then TIMEOUT after {took:.2f} s: "
            "Claude Code runs the tool",
            flush=True,
        )
if floods:
    # one signal for all of them (each signal is decided by the same busy thread): kill(-1)
    # reaches every process this one sees but init and itself (run with `hookwise run --
    # python3 host.py`, where this is the agent)
    import os
    import signal

    os.kill(-1, signal.SIGKILL)
    for flood in floods:
        flood.wait()
