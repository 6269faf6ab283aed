"""Benchmark: the pipe-holder look against a descriptor hoard (red team s30 run #3).

A session root with a reader of a pipe (the host), a holder of its write end, and
``--hoarders`` processes of ``--descriptors`` descriptors each (``dup`` of one
``/dev/null``, each within its own hard limit), the red team's 50 x 20,000 by default.
Times :func:`hookwise.run.hook_output.look` and counts the links it reads. Target: the look
reads at most ``LOOK_BUDGET`` links and ends within ``LOOK_SECONDS`` plus its walk, whatever
the hoard (the red team's look read every link twice and outlasted a 10 s timeout)::

    .venv/bin/python bench/holder_look.py [--hoarders 50] [--descriptors 20000]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from hookwise.run import hook_output


def _hoarder(count: int, write_end: int, read_end: int, hold: bool) -> int:
    pid = os.fork()
    if pid:
        return pid
    os.close(read_end)
    if not hold:
        os.close(write_end)
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        null = os.open("/dev/null", os.O_RDONLY)
        for _ in range(min(count, hard) - 16):
            os.dup(null)
    os.write(1, b".")
    time.sleep(600)
    os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hoarders", type=int, default=50)
    parser.add_argument("--descriptors", type=int, default=20000)
    args = parser.parse_args()
    ready_r, ready_w = os.pipe()
    root = os.fork()
    if root == 0:  # the session's root: the reader, the holder, the hoarders below it
        os.close(ready_r)
        os.dup2(ready_w, 1)
        read_end, write_end = os.pipe()
        if os.fork() == 0:
            os.close(write_end)
            os.write(1, b".")
            while os.read(read_end, 4096):
                pass
            os._exit(0)
        _hoarder(0, write_end, read_end, True)
        for _ in range(args.hoarders):
            _hoarder(args.descriptors, write_end, read_end, False)
        os.write(1, f"pipe:[{os.fstat(read_end).st_ino}]\n".encode())
        os.close(read_end)
        os.close(write_end)
        time.sleep(600)
        os._exit(0)
    os.close(ready_w)
    data = b""
    while not data.endswith(b"\n"):
        data += os.read(ready_r, 4096)
    pipe = data.decode().strip(".\n")
    while data.count(b".") < args.hoarders + 2:
        data += os.read(ready_r, 4096)
    counted = [0]
    real = os.readlink

    def counting(path: str) -> str:
        counted[0] += 1
        return real(path)

    os.readlink = counting  # type: ignore[assignment]
    began = time.monotonic()
    found = hook_output.look(root, pipe, set())
    took = time.monotonic() - began
    os.readlink = real  # type: ignore[assignment]
    print(
        f"{args.hoarders} x {args.descriptors} descriptors: look {took:.3f} s, "
        f"{counted[0]} links read (budget {hook_output.LOOK_BUDGET}), "
        f"{len(found.holders)} holder(s), {len(found.unchecked)} unchecked"
    )
    with open(f"/proc/{root}/task/{root}/children") as handle:
        below = [int(word) for word in handle.read().split()]
    for pid in below:
        os.kill(pid, 9)
    os.kill(root, 9)
    os.waitpid(root, 0)
    sys.exit(0)


if __name__ == "__main__":
    main()
