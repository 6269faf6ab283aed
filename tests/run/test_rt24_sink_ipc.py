"""The red team's findings of session 24 (briefs/s24/rt-run-findings.md) against `hookwise
run` that this branch answers (#3, #5, #8, #9, #11), each tried as the attacker did: real
processes in a real session, the log or the guard checked after."""

from __future__ import annotations

import json
import os
import textwrap

from tests.run.test_redteam_run import Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]


def _records(lab: Lab) -> list[dict[str, object]]:
    log = lab.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


FORGE = textwrap.dedent(
    """
    # rt24 #5 (forge_records.py): a plain process inside, never a hook, writes as the
    # supervisor, as a hook, at any time, as another session
    import json, os, socket
    path = os.environ["HOOKWISE_RUN_AUDIT"]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    for record in (
        {"time": "2026-11-27T23:59:00Z", "source": "run", "run_session": os.environ["HOOKWISE_RUN"],
         "event": "audit_capped", "decision": "info", "marker": "forged-1"},
        {"time": "2020-01-01T00:00:00Z", "source": "hook", "host": "claude", "decision": "allow",
         "input": {"command": "git push --force origin main"}, "marker": "forged-2",
         "sender": {"pid": 1, "hook": True}},
        {"time": "2026-11-27T23:59:02Z", "source": "run", "run_session": "other",
         "event": "session_end", "decision": "info", "marker": "forged-3"},
    ):
        s.sendto(json.dumps(record).encode(), path)
    print("session", os.environ["HOOKWISE_RUN"], "pid-inside", os.getpid())
    """
)


def test_records_from_inside_carry_what_the_kernel_says_of_their_sender(lab: Lab) -> None:
    """rt24 #5: three forged datagrams were written verbatim, as the supervisor's
    (``"source": "run"``), as a hook's ``allow``, as another session's. Now every record from
    inside is stamped by the sink with its sender (pid and uid from SCM_CREDENTIALS, whether
    it said it is a hook, this session, the time received), a claim to be the supervisor's
    is kept as ``claimed_source``, and a ``sender`` of the record's own is renamed; a real
    hook's record is stamped ``hook: true``."""
    (lab.root / "forge.py").write_text(FORGE)
    (lab.root / "payload.json").write_text(lab.payload())
    result = lab.run("python3 $R/forge.py; hookwise hook --platform claude < $R/payload.json")
    assert result.returncode == 2, (result.stdout, result.stderr)
    session = result.stdout.split("session ", 1)[1].split()[0]
    records = _records(lab)
    forged = [r for r in records if str(r.get("marker", "")).startswith("forged")]
    assert len(forged) == 3, records
    for record in forged:
        sender = record["sender"]
        assert isinstance(sender, dict)
        assert record.get("source") != "run"
        assert sender["hook"] is False and sender["run_session"] == session
        assert isinstance(sender["pid"], int) and sender["pid"] > 1  # its pid outside
        assert sender["uid"] == os.getuid() and str(sender["received"]).startswith("20")
    assert [r.get("claimed_source") for r in forged] == ["run", None, "run"]
    assert forged[1]["claimed_sender"] == {"pid": 1, "hook": True}
    hooks = [r for r in records if r.get("rule") == "no-rm"]
    assert len(hooks) == 1 and hooks[0]["sender"]["hook"] is True, records
    # the supervisor's own records are the only ones marked "run"
    assert all("sender" not in r for r in records if r.get("source") == "run")
