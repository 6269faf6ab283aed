"""One exec the kernel refuses (ELOOP), whose path the supervisor must resolve first: the
time this call waits is the time the supervisor's one thread spent on it, and every exec and
signal of the session queued behind it waited as long. usage: stall_exec.py PATHFILE [n]"""

import os
import sys
import time

path = open(sys.argv[1]).read().strip()
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1):
    began = time.monotonic()
    try:
        os.execv(path, [path])
    except OSError as exc:
        print(f"exec refused ({exc.strerror}) after {time.monotonic() - began:.2f} s (from {time.time() - time.monotonic() + began:.2f})", flush=True)
