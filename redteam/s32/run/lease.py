"""Take a write lease on FILE (this user's: no privilege needed) and never give it up: every
open of FILE by another process, even for reading, waits in the kernel until the lease
holder lets go or /proc/sys/fs/lease-break-time passes (then the kernel breaks it), the
opener's system call blocked all that time. Re-takes the lease after each break.
usage: lease.py FILE SECONDS"""

import fcntl
import os
import signal
import sys
import time

F_SETLEASE, F_WRLCK = 1024, 1
path, seconds = sys.argv[1], float(sys.argv[2])
signal.signal(signal.SIGIO, lambda *_: None)  # (the break notice: ignored, not acted on)
end = time.monotonic() + seconds
taken = 0
while time.monotonic() < end:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.fcntl(fd, F_SETLEASE, F_WRLCK)
        taken += 1
        if taken == 1:
            print(f"lease.py: write lease on {path}", file=sys.stderr, flush=True)
        while time.monotonic() < end:  # held through the break notice, until the kernel
            time.sleep(0.05)  # removes it (lease-break-time): then taken again
            if fcntl.fcntl(fd, 1025) == 2:  # F_GETLEASE: F_UNLCK, broken (F_RDLCK 0: breaking)
                break
    except OSError as exc:
        print(f"lease.py: {exc}", file=sys.stderr, flush=True)
        time.sleep(0.05)
    finally:
        os.close(fd)
