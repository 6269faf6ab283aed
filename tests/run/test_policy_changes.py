"""Policy files below the start written during a session are named when it ends (stderr and
the sessions log), those already there are not (run/policy_changes.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hookwise.run.policy_changes import changed_policies
from tests.run.conftest import World, needs_namespaces


@needs_namespaces
def test_policies_written_during_a_real_session_are_reported(world: World) -> None:
    old = world.project / "old/.hookwise/policy.yaml"
    old.parent.mkdir(parents=True)
    old.write_text("version: 1\n")
    script = (
        "mkdir -p sub/.hookwise deep/er/.hookwise && "
        "printf 'version: 1\\n' > sub/.hookwise/policy.yaml && "
        "printf 'version: 1\\n' > deep/er/.hookwise/policy.local.yaml && "
        "printf 'version: 1\\n' > sub/.hookwise/notes.yaml"
    )
    done = world.run(script)
    assert done.returncode == 0, done.stderr
    written = [
        str(world.project / "deep/er/.hookwise/policy.local.yaml"),
        str(world.project / "sub/.hookwise/policy.yaml"),
    ]
    assert "2 policy file(s) below" in done.stderr, done.stderr
    for path in written:
        assert path in done.stderr
    assert str(old) not in done.stderr
    assert "notes.yaml" not in done.stderr
    log = world.home / ".local/state/hookwise-run/sessions.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    reported = [r for r in records if "policies_written" in r]
    assert len(reported) == 1 and reported[0]["policies_written"] == written
    assert reported[0]["session"] == records[0]["session"]


@needs_namespaces
def test_a_session_that_writes_no_policy_reports_none(world: World) -> None:
    done = world.run("echo x > notes.txt")
    assert done.returncode == 0, done.stderr
    assert "policy file(s)" not in done.stderr
    log = world.home / ".local/state/hookwise-run/sessions.jsonl"
    assert "policies_written" not in log.read_text()


def test_the_walk_stops_at_its_limit_and_says_so(tmp_path: Path) -> None:
    since = time.time() - 1
    for name in ("a", "b", "c"):
        (tmp_path / name / ".hookwise").mkdir(parents=True)
        (tmp_path / name / ".hookwise/policy.yaml").write_text("version: 1\n")
    found, stopped = changed_policies(str(tmp_path), since)
    assert len(found) == 3 and not stopped
    found, stopped = changed_policies(str(tmp_path), since, limit=2)
    assert stopped and len(found) < 3
    assert changed_policies(str(tmp_path), time.time() + 60) == ([], False)


def test_a_link_put_in_place_of_a_policy_directory_is_reported(tmp_path: Path) -> None:
    """Red team s25 #5: sub/.hookwise moved away and replaced by a link to a directory
    older than the session; the files it leads to are old, the link is the change."""
    old = tmp_path / "examples"
    old.mkdir()
    (old / "policy.yaml").write_text("version: 1\n")
    since = time.time() - 0.5
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/.hookwise").symlink_to("../examples")
    found, stopped = changed_policies(str(tmp_path), since)
    assert str(tmp_path / "sub/.hookwise") in found and not stopped
    assert str(tmp_path / "sub/.hookwise/policy.yaml") not in found


@needs_namespaces
def test_a_nested_policy_directory_relinked_in_a_real_session_is_reported(world: World) -> None:
    sub = world.project / "sub/.hookwise"
    sub.mkdir(parents=True)
    (sub / "policy.yaml").write_text("version: 1\n")
    (world.project / "examples").mkdir()
    (world.project / "examples/policy.yaml").write_text("version: 1\n")
    done = world.run("mv sub/.hookwise sub/hw-moved && ln -s ../examples sub/.hookwise")
    assert done.returncode == 0, done.stderr
    assert str(sub) in done.stderr, done.stderr


@needs_namespaces
def test_a_policy_written_above_the_start_or_in_the_home_is_reported(world: World) -> None:
    """Red team s26 #4: `mkdir -p ~/.hookwise` and a policy there succeed inside; the file
    reaches every project of the home after the session, and was not named at its end."""
    script = (
        'mkdir -p "$HOME/.hookwise" ../.hookwise && '
        "printf 'version: 1\\n' > \"$HOME/.hookwise/policy.yaml\" && "
        "printf 'version: 1\\n' > ../.hookwise/policy.local.yaml"
    )
    done = world.run(script)
    assert done.returncode == 0, done.stderr
    for path in (
        world.home / ".hookwise/policy.yaml",
        world.project.parent / ".hookwise/policy.local.yaml",
    ):
        assert str(path) in done.stderr, done.stderr
    log = world.home / ".local/state/hookwise-run/sessions.jsonl"
    assert str(world.home / ".hookwise/policy.yaml") in log.read_text()


def test_ancestors_and_the_home_are_looked_at_without_a_walk(tmp_path: Path) -> None:
    since = time.time() - 1
    start = tmp_path / "a" / "project"
    start.mkdir(parents=True)
    home = tmp_path / "home"
    for directory in (tmp_path / "a", home):
        (directory / ".hookwise").mkdir(parents=True)
        (directory / ".hookwise/policy.yaml").write_text("version: 1\n")
    found, _ = changed_policies(str(start), since, homes=(str(home),))
    assert found == sorted(
        [str(tmp_path / "a/.hookwise/policy.yaml"), str(home / ".hookwise/policy.yaml")]
    )
    assert changed_policies(str(start), time.time() + 5, homes=(str(home),))[0] == []
