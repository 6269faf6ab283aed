"""Red team s32 #4: a process of a session holds the sessions' shared ``run.lock`` (opened
read-only, ``flock -x``): every later ``hookwise run`` waited at its start, unbounded. The
wait is bounded now and the refusal names the holder."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hookwise.run import placeholders

HOLDER = (
    "import fcntl, os, sys, time\n"
    "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "time.sleep(60)\n"
)


def test_a_held_run_lock_fails_the_start_naming_the_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / placeholders.LOCK_NAME
    lock.write_bytes(b"")
    lock.chmod(0o600)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        monkeypatch.setattr(placeholders, "LOCK_WAIT", 0.5)
        outcome: list[BaseException | None] = []

        def start() -> None:
            try:
                placeholders.Journal(str(tmp_path), "s1")
                outcome.append(None)
            except OSError as exc:
                outcome.append(exc)

        began = time.monotonic()
        thread = threading.Thread(target=start, daemon=True)
        thread.start()
        thread.join(timeout=10)
        assert outcome, "the session's start still waits for the held lock"
        error = outcome[0]
        assert isinstance(error, OSError), "the start went on while another process held it"
        assert time.monotonic() - began < 5
        assert str(lock) in str(error.strerror)
        assert f"pid {holder.pid}" in str(error.strerror)
    finally:
        holder.kill()
        holder.wait()
    # released: the next start takes it at once
    journal = placeholders.Journal(str(tmp_path), "s2")
    journal.finish([])
