"""A process left by an earlier tool call: as each hook's shell appears (the registered
command on its command line), it reopens the hook's stdout pipe for writing through
/proc/<pid>/fd/1 and keeps it, so the host reads no end of the pipe until the supervisor's
pipe-holder check kills it. usage: hold_pipe.py SECONDS"""

import os
import sys
import time

end = time.monotonic() + float(sys.argv[1])
seen: set[int] = set()
held: list[int] = []
while time.monotonic() < end:
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in seen:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                line = handle.read()
        except OSError:
            continue
        if b"uid_map" in line and b"hookwise" in line and line.split(b"\0")[1:2] == [b"-c"]:
            seen.add(int(name))
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    ppid = handle.read().rpartition(b")")[2].split()[1].decode()
                with open(f"/proc/{ppid}/cmdline", "rb") as handle:
                    if handle.read() == line:
                        continue  # (the shell's own copy for `$(...)`: not the hook's stdout)
            except (OSError, IndexError):
                continue
            try:
                held.append(os.open(f"/proc/{name}/fd/1", os.O_WRONLY))
                print(f"holding pid {name}'s stdout", flush=True)
            except OSError as exc:
                print(f"pid {name}: {exc}", flush=True)
    time.sleep(0.001)
