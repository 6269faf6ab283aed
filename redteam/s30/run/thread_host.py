"""#4: a process of the session with THREADS threads runs the registered command once
(stdin empty: the hook answers and exits); the supervisor takes it for a host (the parent of
a hook seen) for the rest of its life, and from then on each signal decision reads the
children file of every one of its threads (SignalGuard._protected -> hook_output.children),
each scheduling call the status file of every thread (_named). usage: thread_host.py
THREADS SECONDS (the command in $HOOK_CMD)"""

import os
import subprocess
import sys
import threading
import time

count, seconds = int(sys.argv[1]), float(sys.argv[2])
threading.stack_size(64 * 1024)
stop = threading.Event()
for _ in range(count):
    threading.Thread(target=stop.wait, daemon=True).start()
subprocess.run(["/bin/sh", "-c", os.environ["HOOK_CMD"]], input=b"{}", capture_output=True)
print(f"host with {threading.active_count()} threads, pid {os.getpid()}", flush=True)
time.sleep(seconds)
