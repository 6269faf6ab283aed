"""(no session) LIMIT_FLOORS run in the hook's shell: a stack limit too small for the shell
itself kills it (SIGSEGV, 139) before its first `ulimit`. A stand-in host (Python, as
host.py: `/bin/sh -c` for the hook, 10 s, a deny or exit 2 blocks, anything else runs the
tool with `bash -c`); the first tool call, allowed by the hook, is `python3 l.py`, a script
file that sets its parent's (this host's) RLIMIT_STACK to 14 KiB (prlimit from a script:
not read as acting on a process). Then N calls of the denied `echo hi >> marker`.
usage: stack_host.py HOOK_CMD CWD [N, 20] [control]"""

import json
import pathlib
import subprocess
import sys

command, cwd = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
control = sys.argv[4:5] == ["control"]
script = pathlib.Path(cwd, "l.py")
script.write_text(
    "import os, resource\nresource.prlimit(os.getppid(), resource.RLIMIT_STACK, (14336, 14336))\n"
)
marker = pathlib.Path(cwd, "marker")
marker.unlink(missing_ok=True)
calls = ["true" if control else "python3 l.py"] + ["echo hi >> marker"] * n
tally: dict[str, int] = {}
for i, tool in enumerate(calls):
    event = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": tool},
            "cwd": cwd,
            "session_id": "s",
        }
    )
    try:
        hook = subprocess.run(
            ["/bin/sh", "-c", command],
            check=False,
            input=event.encode(),
            capture_output=True,
            cwd=cwd,
            timeout=10,
        )
        rc, out = hook.returncode, hook.stdout
    except subprocess.TimeoutExpired:
        rc, out = 124, b""
    blocked = rc == 2 or b'"permissionDecision":"deny"' in out
    key = f"hook rc={rc} {'blocked' if blocked else 'tool run'}"
    if not blocked:
        ran = subprocess.run(["bash", "-c", tool], check=False, cwd=cwd)
        key += f" (tool rc={ran.returncode})"
    if i == 0:
        print(f"call 1 {tool!r}: {key}")
    else:
        tally[key] = tally.get(key, 0) + 1
for key, count in sorted(tally.items()):
    print(f"{count:3d} x {key}")
lines = marker.read_text().count("hi") if marker.exists() else 0
print(f"marker lines (each one a denied command that ran): {lines}")
script.unlink()
marker.unlink(missing_ok=True)
