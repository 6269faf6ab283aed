"""A process of many idle threads (each a `children` file the session walk reads).
usage: threads.py COUNT SECONDS"""

import sys
import threading
import time

threading.stack_size(65536)
count, seconds = int(sys.argv[1]), float(sys.argv[2])
stop = threading.Event()
for _ in range(count):
    threading.Thread(target=stop.wait, daemon=True).start()
print(f"threads.py: {count} threads", file=sys.stderr, flush=True)
time.sleep(seconds)
