"""Red team s28 run (issue 23): #2 and #3, as real processes under the Gemini-like host
(gemini_like_host.py: loads the project's env file at its start as Gemini CLI does, and runs
the hook through ``bash -c``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwise.policy import env_origin
from tests.policy.trust.test_trust_model import World
from tests.policy.trust.test_trust_s27 import TRUSTED, _host, _shell


@pytest.fixture
def world(tmp_path: Path) -> World:
    made = World(tmp_path)
    made.policy(TRUSTED)
    assert made.cli("policy", "trust").returncode == 0
    return made


@pytest.mark.parametrize("escape", ["\\r", "\\n", "\\\\r"], ids=["cr", "lf", "backslash"])
def test_2_a_dropped_value_with_cr_or_lf_is_remembered(world: World, escape: str) -> None:
    """s28 #2: dotenv makes ``\\r`` in a double-quoted value a CR; the memory of drops
    skipped such values, so after ``mv .env notes.txt`` the variable was taken (under a host
    that does not name its project, where the memory is all there is)."""
    real = escape.replace("\\n", "\n").replace("\\r", "\r")  # (as dotenv's parse)
    empty = world.root / f"e{real}mpty.yaml"
    empty.write_text("version: 1\n")
    (world.repo / ".env").write_text(f'HOOKWISE_POLICY="{world.root}/e{escape}mpty.yaml"\n')
    steps = [
        _shell(world, "rm -rf build"),
        {"mv": [str(world.repo / ".env"), str(world.repo / "notes.txt")]},
        _shell(world, "rm -rf build"),
    ]
    answers = _host(world, steps, LIKE_UNNAMED="1")
    assert [a["decision"] for a in answers] == ["deny", "deny"], answers
    assert "since moved or emptied" in answers[1]["stderr"]


@pytest.mark.parametrize(
    "value",
    ["a\rb", "a\nb", "a\\nb", "a\\\nb", "\r\n", "x\x1cy\x85z\u2028", "\udcff-bytes", "v" * 70000],
)
def test_2_any_value_is_remembered_as_itself(tmp_path: Path, value: str) -> None:
    """The record holds any value (escaped) and finds only that value."""
    env = {"HOME": str(tmp_path), "HOOKWISE_POLICY": value}
    env_origin.remember(env, "1-1", [("HOOKWISE_POLICY", value)])
    assert [n for n, _ in env_origin.remembered(env, "1-1")] == ["HOOKWISE_POLICY"]
    for other in (value + "x", value[:-1], value.replace("\\", "/")):
        if other != value:
            moved = {**env, "HOOKWISE_POLICY": other}
            assert env_origin.remembered(moved, "1-1") == [], repr(other)


CONDITIONED = """\
version: 1
rules:
  - id: no-force-push
    match: {tool: shell, command: git push --force}
    when: 'env.CI != "true"'
    action: deny
    reason: Push to a new branch instead.
"""


@pytest.mark.parametrize(
    ("proc", "relaunch"),
    [(True, ""), (True, "1"), (False, "")],
    ids=["proc", "relaunched", "no-proc"],
)
def test_3_a_condition_reads_the_environment_the_host_was_started_with(
    tmp_path: Path, proc: bool, relaunch: str
) -> None:
    """s28 #3: ``CI=true`` in the project ``.env`` (a literal write the guard allows) switched
    off docs/policy.md's own example rule. A condition now reads what the host was started
    with (without /proc: a variable a project env file sets is unset for it)."""
    from tests.policy.trust.test_trust_s27 import _without_proc

    world = World(tmp_path)
    world.policy(CONDITIONED)
    assert world.cli("policy", "trust").returncode == 0
    push = _shell(world, "git push --force origin main")
    prefix = [] if proc else _without_proc()
    assert [a["decision"] for a in _host(world, [push], prefix=prefix)] == ["deny"]  # control
    (world.repo / ".env").write_text("SECRET=hunter2\nCI=true\n")
    answers = _host(world, [push], prefix=prefix, LIKE_RELAUNCH=relaunch)
    assert [a["decision"] for a in answers] == ["deny"], answers
    if proc:  # the person who starts the agent with CI=true switches it off, as written
        (world.repo / ".env").unlink()
        answers = _host(world, [push], prefix=prefix, CI="true", LIKE_RELAUNCH=relaunch)
        assert [a["decision"] for a in answers] == [None], answers


F_SETLEASE = 1024  # fcntl.h (Linux)


def test_5_a_lease_on_the_audit_log_loses_no_record(world: World) -> None:
    """s28 #5: a read lease on the audit log (a read-only open by its owner, SIGIO ignored)
    made the hook's non-blocking open fail with EAGAIN, and the record was lost, said on
    stderr only. Now it is kept beside the log, doctor says so, and the next call that can
    write the log appends it."""
    import fcntl
    import json
    import os
    import signal

    from hookwise.policy import audit

    log = world.home / ".state" / "hookwise" / "audit.jsonl"
    assert world.shell("rm -rf build", host="gemini")["decision"] == "deny"
    assert log.is_file()
    before = len(log.read_text().splitlines())
    held = signal.signal(signal.SIGIO, signal.SIG_IGN)  # the lessee keeps it through the break
    fd = os.open(log, os.O_RDONLY)
    try:
        try:
            fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK)
        except OSError as exc:
            pytest.skip(f"no leases here: {exc}")
        answer = world.shell("rm -rf build", host="gemini")
        assert answer["decision"] == "deny"  # the answer holds, as before
        assert "is kept in" in answer["stderr"], answer["stderr"]
        assert len(log.read_text().splitlines()) == before
        kept = audit.pending(str(log))
        assert len(kept) == 1 and json.loads(Path(kept[0]).read_text())["decision"] == "deny"
        doctor = world.cli("doctor", "--json", "--no-self-test")
        assert "1 record(s) are kept in" in doctor.stdout, doctor.stdout[-2000:]
    finally:
        os.close(fd)
        signal.signal(signal.SIGIO, held)
    assert world.shell("git status", host="gemini")["exit"] == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(lines) == before + 2  # this call's record, then the kept one
    assert [r["decision"] for r in lines[before:]] == ["none", "deny"]
    assert audit.pending(str(log)) == []
