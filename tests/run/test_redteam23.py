"""The escapes a red team found in `hookwise run` (issue 23, /tmp/redteam23 of session 22),
each run as the attacker ran it: real processes inside a real session, then the guard checked
from outside. Interpreter attacks use a private copy of the interpreter (never the shared one)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.run.test_redteam_run import (
    HOOKWISE,
    MIDWAY_KILLER,
    SLOW_HOST,
    Lab,
    _lost_records,
    lab,
    pytestmark,
)

__all__ = ["lab", "pytestmark"]

NESTED = """\
import os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
p = os.environ["HOOKWISE_RUN_AUDIT"]
s.sendto(b'{"a":' + b"[" * 60000, p)
s.sendto(b'{"decision": "deny", "reason": "RT23-AFTER"}', p)
"""


def test_a_nested_datagram_neither_loses_records_nor_stops_the_lost_hook_watch(lab: Lab) -> None:
    """ESC4: one datagram nested past the recursion limit ended the sink's thread; the records
    after it were lost and `--on-hook-lost=stop` no longer stopped the session."""
    (lab.root / "killer.py").write_text(MIDWAY_KILLER)
    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "nested.py").write_text(NESTED)
    script = (
        "python3 $R/nested.py; sleep 0.5; "
        + SLOW_HOST.format(signal="SIGKILL")
        + "sleep 30; echo NOT-STOPPED"
    )
    argv = [HOOKWISE, "run", "--on-hook-lost=stop", "--", "bash", "-c", script]
    started = time.monotonic()
    result = lab.run(script, argv=argv)
    assert time.monotonic() - started < 25
    assert "NOT-STOPPED" not in result.stdout, result.stderr
    assert "ended the session at the first one (--on-hook-lost=stop)" in result.stderr
    assert len(_lost_records(lab)) == 1
    log = Path(lab.home, ".local/state/hookwise/audit.jsonl").read_text()
    assert "RT23-AFTER" in log
