"""What a process left by an earlier tool call runs: it polls /proc, and as soon as a hook's
shell has exec'd (its command line is the registered command), it makes one exec of the
farm's path (stall_exec.py): the shell's own next exec, the launcher, then waits behind the
supervisor's realpath. No signal, no write: one refused exec per hook call.
usage: on_hook.py PATHFILE SECONDS [EXECS per hook, 2]"""

import os
import sys
import time

path = open(sys.argv[1]).read().strip()
end = time.monotonic() + float(sys.argv[2])
per_hook = int(sys.argv[3]) if len(sys.argv) > 3 else 2
seen: set[int] = set()
while time.monotonic() < end:
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in seen:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                line = handle.read()
        except OSError:
            continue
        if b"uid_map" in line and b"hookwise" in line:  # the registered command's shell
            seen.add(int(name))
            for _ in range(per_hook):
                if os.fork() == 0:
                    try:
                        os.execv(path, [path])
                    except OSError:
                        os._exit(0)
    time.sleep(0.001)
