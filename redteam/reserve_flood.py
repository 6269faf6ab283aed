#!/usr/bin/env python3
"""Inside `hookwise run`: use up the session's 64 MiB cap, then the 16 MiB reserve kept for
hooks' records: each of ~300 forked processes says `started` (it is then "a hook" to the
sink) and sends one 60 KiB record. Afterwards a real hook's decision record is refused."""
import os, socket, sys, time
sink = os.environ["HOOKWISE_RUN_AUDIT"]
pad = "x" * (60 * 1024)
def rec(i):
    return ('{"time":"2026-01-01T00:00:00Z","decision":"none","pad":"%s","i":%d}' % (pad, i)).encode()
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
t = time.time()
total = 0
i = 0
while total < 64 * 1024 * 1024:           # the cap, from one process
    r = rec(i); s.sendto(r, sink); total += len(r) + 1; i += 1
kids = 0
for j in range(int(sys.argv[1]) if len(sys.argv) > 1 else 300):   # the reserve, one "hook" each
    pid = os.fork()
    if pid == 0:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        c.sendto(b'{"hookwise_run": "started"}', sink)
        c.sendto(rec(100000 + j), sink)
        os._exit(0)
    os.waitpid(pid, 0)
    kids += 1
def small(j, n):
    body = '{"decision":"none","i":%d,"p":"' % j
    return (body + "x" * max(0, n - len(body) - 2) + '"}').encode()
for size, count in ((4096, 20), (512, 20), (64, 40)):   # fill what the 60 KiB ones left
    for j in range(count):
        pid = os.fork()
        if pid == 0:
            c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            c.sendto(b'{"hookwise_run": "started"}', sink)
            c.sendto(small(j, size), sink)
            os._exit(0)
        os.waitpid(pid, 0)
        kids += 1
print(f"flood: {i} records from one process, then {kids} 'hooks' of one record each, "
      f"{time.time()-t:.1f}s", file=sys.stderr)
