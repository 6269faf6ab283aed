"""The hook inside ``hookwise run``: it still decides, its records reach the log through the
session's sink (the log itself is read-only there), it writes no compiled state the agent
could have forged, and ``settings.require_confinement`` lets a confined agent work."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from hookwise.policy.tools.payloads import build_payload
from tests.run.conftest import HOOKWISE, World, needs_namespaces

pytestmark = needs_namespaces


def _hook_line(world: World, command: str) -> str:
    """A shell line that feeds a Claude Bash payload for ``command`` to the hook."""
    payload = build_payload(
        "claude",
        "PreToolUse",
        tool="Bash",
        tool_input={"command": command},
        cwd=str(world.project),
        session="s-inside",
    )
    return f"printf %s {shlex.quote(json.dumps(payload))} | {HOOKWISE} hook --platform claude"


def _records(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def _cache_files(world: World) -> set[str]:
    cache = world.home / ".cache/hookwise"
    return {str(p.relative_to(cache)) for p in cache.rglob("*")} if cache.exists() else set()


def test_the_hook_decides_inside_and_its_record_leaves_through_the_sink(world: World) -> None:
    before = len(_records(world.audit_log))
    cache_before = _cache_files(world)
    done = world.run(_hook_line(world, "rm -rf build"))
    assert done.returncode == 2, done.stderr  # inside, a deny exits 2 too (exit_blocking)
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "cannot write" not in done.stderr, done.stderr
    records = _records(world.audit_log)
    assert len(records) == before + 1
    assert records[-1]["decision"] == "deny" and records[-1]["session"] == "s-inside"
    # compiled inside, in memory: nothing new in the cache (read-only there anyway)
    assert _cache_files(world) == cache_before


def test_required_confinement_passes_inside_and_denies_outside(world: World) -> None:
    world.user_policy.write_text(
        world.user_policy.read_text() + "settings:\n  require_confinement: true\n"
    )
    inside = world.run(_hook_line(world, "ls"))
    assert inside.returncode == 0, inside.stderr
    assert "hookwise:unconfined" not in inside.stdout
    assert inside.stdout.strip() == "", inside.stdout  # no rule: no answer, the tool runs
    import subprocess

    outside = subprocess.run(
        ["sh", "-c", _hook_line(world, "ls")],
        capture_output=True,
        text=True,
        env=world.env,
        cwd=world.project,
        timeout=60,
        check=False,
    )
    answer = json.loads(outside.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "hookwise run -- " in answer["permissionDecisionReason"]


def test_retry_counters_still_count_inside(world: World) -> None:
    """The cache directory (where retry counters live) is read-only inside: a counter that
    could not be saved would make a retry rule block every Stop for ever."""
    world.user_policy.write_text(
        "version: 1\nrules:\n  - {id: todo, match: {response: {contains: [TODO]}}, "
        "action: retry, reason: finish, max_retries: 2}\n"
    )
    payload = build_payload("claude", "Stop", response="TODO", cwd=str(world.project))
    line = f"printf %s {shlex.quote(json.dumps(payload))} | {HOOKWISE} hook --platform claude"
    done = world.run(f"for i in 1 2 3; do {line}; echo '|'; done")
    assert done.returncode == 0, done.stderr
    answers = [part.strip() for part in done.stdout.split("|")[:3]]
    decisions = [json.loads(a).get("decision") if a else None for a in answers]
    assert decisions == ["block", "block", None], (decisions, done.stderr)


def test_commands_that_change_the_guard_refuse_inside(world: World) -> None:
    """`hookwise policy init --force` would rewrite and re-trust the team's policy; inside a
    session it and every other guardrail command refuse before writing anything."""
    before = world.snapshot()
    for command in (
        "policy init --force",
        "policy trust",
        "policy untrust",
        "install claude --scope project",
        "uninstall claude --scope project",
        "hooks trust --host claude",
        "migrate --from claude --to gemini --write",
    ):
        done = world.run(f"{HOOKWISE} {command}")
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert "refuses inside `hookwise run`" in done.stderr, (command, done.stderr)
    assert world.snapshot() == before


def test_doctor_and_explain_say_whether_the_session_is_confined(world: World) -> None:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": "ls"}, cwd=str(world.project)
    )
    line = f"printf %s {shlex.quote(json.dumps(payload))} | {HOOKWISE} explain --host claude -"
    inside = world.run(f"{line}; {HOOKWISE} doctor --json")
    assert "confinement: confined by `hookwise run`" in inside.stdout, inside.stderr
    import subprocess

    outside = subprocess.run(
        ["sh", "-c", line],
        capture_output=True,
        text=True,
        env=world.env,
        cwd=world.project,
        timeout=60,
        check=False,
    )
    assert "confinement: not started by `hookwise run`" in outside.stdout, outside.stderr
    report = json.loads(inside.stdout[inside.stdout.index("\n{") :])
    checks = {c["name"]: c for c in report["policy"]["checks"]}
    assert checks["confinement"]["status"] == "ok"


@pytest.mark.parametrize("where", ["above", "below"])
def test_a_policy_written_inside_is_never_trusted_there(world: World, where: str) -> None:
    """settings.trust.projects trusts a whole tree; a policy the agent writes during the
    session (above the project, where no .hookwise/ was guarded, or below the start) must
    not switch a rule off inside, whatever the tree or a hash says."""
    root = world.project.parent
    world.user_policy.write_text(
        "version: 1\nsettings:\n  trust: {projects: [" + str(root) + "]}\nrules:\n"
        "  - id: no-rm\n    match: {tool: shell, command: rm}\n    action: deny\n"
    )
    planted = (root if where == "above" else world.project / "sub") / ".hookwise/policy.yaml"
    cwd = world.project if where == "above" else world.project / "sub"
    (world.project / "sub").mkdir(exist_ok=True)
    takeover = (
        f"mkdir -p {shlex.quote(str(planted.parent))} && printf '%s' "
        + shlex.quote("version: 1\noverrides:\n  - {id: no-rm, enabled: false}\n")
        + f" > {shlex.quote(str(planted))}"
    )
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": "rm -rf x"}, cwd=str(cwd)
    )
    hook = f"printf %s {shlex.quote(json.dumps(payload))} | {HOOKWISE} hook --platform claude"
    done = world.run(f"{takeover} && {hook}")
    assert done.returncode == 2, done.stderr  # the deny (exit_blocking)
    assert planted.exists()  # (the write itself is ordinary work: the file is not guarded)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", done.stdout
