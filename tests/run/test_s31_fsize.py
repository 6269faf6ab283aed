"""Red team s30 run #7: a tool call outside a session can set ``RLIMIT_FSIZE`` on its host
(``prlimit --pid``), and every later hook inherits it: the append to a log past the limit
failed (EFBIG; Python ignores SIGXFSZ) and the record was lost, said on stderr only. The
hook now raises its soft limit to the hard one; below a hard limit it keeps the record
beside the log (the next hook that can write appends it) and doctor says so. The decision
never changes. Real processes: the real hook under ``prlimit``."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.run.test_redteam_run import HOOKWISE, Lab, lab

__all__ = ["lab"]

pytestmark = pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit")


def _hook(lab: Lab, fsize: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["prlimit", f"--fsize={fsize}", HOOKWISE, "hook", "--platform", "claude"],
        input=lab.payload(),
        cwd=lab.proj,
        env=lab.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _log(lab: Lab) -> Path:
    """The audit log, 8 KB of earlier records: past a 4 KiB limit."""
    log = lab.home / ".local/state/hookwise/audit.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text((json.dumps({"pad": "x" * 200}) + "\n") * 40)
    return log


def _denied(result: subprocess.CompletedProcess[str]) -> bool:
    decision = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]
    return bool(decision == "deny")


def test_a_soft_limit_below_the_log_is_raised_and_the_record_written(lab: Lab) -> None:
    log = _log(lab)
    before = log.read_bytes()
    result = _hook(lab, "4096:unlimited")
    assert _denied(result), result
    after = log.read_bytes()
    assert after.startswith(before) and b'"no rm"' in after[len(before) :], result.stderr
    assert "cannot write the audit log" not in result.stderr, result.stderr


def test_a_hard_limit_keeps_the_record_and_doctor_says_so(lab: Lab) -> None:
    log = _log(lab)
    before = log.read_bytes()
    result = _hook(lab, "4096:4096")
    assert _denied(result), result  # (the decision never changes)
    assert log.read_bytes() == before  # (no part of a line either)
    assert "RLIMIT_FSIZE" in result.stderr and "is kept in" in result.stderr, result.stderr
    doctor = subprocess.run(
        ["sh", "-c", f"{shlex.quote(HOOKWISE)} doctor --host claude --no-self-test"],
        cwd=lab.proj,
        env=lab.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "1 record(s) are kept in" in doctor.stdout and "RLIMIT_FSIZE" in doctor.stdout, (
        doctor.stdout
    )
    # the next hook with no limit appends it, then its own
    again = _hook(lab, "unlimited:unlimited")
    assert _denied(again)
    records = log.read_bytes()[len(before) :].splitlines()
    assert len(records) == 2 and all(b'"no rm"' in line for line in records), records


def test_a_hard_limit_below_one_record_keeps_no_cut_record(lab: Lab) -> None:
    """Red team s31 run #4: with a hard limit smaller than one record, the kept record was
    cut at the limit, then appended to the log with no newline, gluing two records into one
    corrupt line. A record that does not fit is not kept (said on stderr); a cut one left
    by an earlier version is dropped, never appended."""
    log = _log(lab)
    before = log.read_bytes()
    result = _hook(lab, "100:100")
    assert _denied(result), result
    assert log.read_bytes() == before
    assert "does not fit under the file size limit" in result.stderr, result.stderr
    pending = log.parent / "audit.jsonl.pending"
    assert not pending.exists() or not any(pending.iterdir()), list(pending.iterdir())
    pending.mkdir(exist_ok=True)
    (pending / "1-1.jsonl").write_bytes(b'{"cut": "rec')  # as the old code left it
    again = _hook(lab, "unlimited:unlimited")
    assert _denied(again)
    lines = log.read_bytes()[len(before) :].splitlines()
    assert [json.loads(line) for line in lines], lines  # every line whole JSON
    assert b"cut" not in log.read_bytes()
