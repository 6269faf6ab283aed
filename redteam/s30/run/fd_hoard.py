"""Processes of the session each holding many descriptors (dups of one /dev/null: a few bytes
of kernel memory each): the supervisor's pipe-holder check reads the link of every
descriptor of every process of the session, twice, before it kills an intruder
(run/hook_output.intruders). usage: fd_hoard.py PROCESSES FDS SECONDS"""

import os
import resource
import sys
import time

count, fds, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, fds + 64), hard))  # (its own: allowed)
for _ in range(count):
    if os.fork() == 0:
        null = os.open("/dev/null", os.O_RDONLY)
        for _ in range(fds):
            try:
                os.dup(null)
            except OSError:
                break
        time.sleep(seconds)
        os._exit(0)
print(f"{count} processes holding up to {fds} descriptors each", flush=True)
