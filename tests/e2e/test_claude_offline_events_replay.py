"""The records of ``tests.e2e.record_claude_offline_events`` (Claude Code 2.1.330, ``-p``,
offline) replayed through hookwise, no CLI needed: each recorded answer fired at hookwise's
runtime with the recorded input, and its effect (``fire --json``'s) held to what the CLI did.
The inputs themselves are checked field by field in ``test_claude_events_replay.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.system import HookSystem
from tests.e2e import clis

FIXTURES = Path(__file__).parent / "fixtures" / "claude-offline"
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))}
QUIET = {"exit": 0, "stdout": "", "stderr": ""}


def fired(run: str, event: str) -> list[dict[str, Any]]:
    return [f["input"] for f in RECORDS[run]["fired"] if f["event"] == event]


def effect(run: str, event: str, tmp_path: Path, matcher: str | None = None) -> dict[str, Any]:
    """hookwise's effect of the run's answer on ``event``, fired with the recorded input."""
    (sent,) = concrete(fired(run, event), tmp_path)
    answer = concrete(RECORDS[run]["answers"].get(event, QUIET), tmp_path)
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": clis.hook_command(answer)}]}
    if matcher is not None:
        group["matcher"] = matcher
    hs = HookSystem.from_hooks({event: [group]}, dialect="claude", cwd=str(tmp_path))
    args = {k: v for k, v in sent.items() if k not in ("session_id", "transcript_path")}
    args.pop("hook_event_name")
    Path(str(args["cwd"])).mkdir(parents=True, exist_ok=True)  # the hook runs there
    result = hs.fire_sync(event, args)
    out: dict[str, Any] = json.loads(
        json.dumps(result.effect.to_json()).replace(str(tmp_path), "$RUN")
    )
    out["ran"] = len(result.runs)
    return out


def concrete(value: Any, root: Path) -> Any:
    """A recorded value with the run's directory (``$RUN``) under ``root``."""
    return json.loads(json.dumps(value).replace("$RUN", str(root)))


def test_the_records_are_of_the_pinned_cli() -> None:
    assert len(RECORDS) == 11
    for name, record in RECORDS.items():
        assert record["cli_version"] == "2.1.330", name
        assert record.get("timed_out") is not True, name


def test_cwd_changed_answers_watch_paths_and_the_watched_file_fires(tmp_path: Path) -> None:
    (cwd,) = fired("cwd-watch", "CwdChanged")
    assert cwd["new_cwd"] == cwd["old_cwd"] + "/sub"  # a Bash `cd sub` moved the session
    got = effect("cwd-watch", "CwdChanged", tmp_path)
    watched = got["output"]["watchPaths"]
    answer = json.loads(RECORDS["cwd-watch"]["answers"]["CwdChanged"]["stdout"])
    assert watched == answer["hookSpecificOutput"]["watchPaths"]
    (change,) = fired("cwd-watch", "FileChanged")
    # the path hookwise hands the host to watch is the one whose change the CLI reported
    assert watched == [change["file_path"]] and change["event"] == "add"
    # FileChanged's matcher names the file: hookwise compares it with the basename
    name = Path(change["file_path"]).name
    assert effect("cwd-watch", "FileChanged", tmp_path, matcher=name)["ran"] == 1
    assert effect("cwd-watch", "FileChanged", tmp_path, matcher="other.txt")["ran"] == 0


@pytest.mark.parametrize("run", ["permission-denied", "permission-denied-retry"])
def test_permission_denied_without_a_classifier_verdict(run: str, tmp_path: Path) -> None:
    (denied,) = fired(run, "PermissionDenied")
    assert denied["reason"] == "Classifier unavailable" and not RECORDS[run]["tool_ran"]
    got = effect(run, "PermissionDenied", tmp_path)
    # the CLI told the model the same whether the hook said retry or not: no verdict, no retry
    assert RECORDS[run]["tool_results"] == RECORDS["permission-denied"]["tool_results"]
    assert got["decision"] == "none"
    if run.endswith("retry"):
        assert any("retry ignored" in d for d in got["diagnostics"])


def test_a_retry_after_a_classifier_verdict_is_the_hooks(tmp_path: Path) -> None:
    """The same answer on a denial the classifier did judge: hookwise reports the retry."""
    (denied,) = fired("permission-denied-retry", "PermissionDenied")
    answer = RECORDS["permission-denied-retry"]["answers"]["PermissionDenied"]
    hs = HookSystem.from_hooks(
        {
            "PermissionDenied": [
                {"hooks": [{"type": "command", "command": clis.hook_command(answer)}]}
            ]
        },
        dialect="claude",
        cwd=str(tmp_path),
    )
    args = {k: denied[k] for k in ("tool_name", "tool_input", "tool_use_id")}
    got = hs.fire_sync("PermissionDenied", {**args, "reason": "downloads piped to a shell"})
    assert got.effect.to_json()["decision"] == "retry"


# what the MCP server got back, per run, against hookwise's decision on the event the
# answer was given on (no answer: the CLI cancels, having no one to ask in -p)
ELICITATION_RUNS = {
    "elicitation-none": "Elicitation",
    "elicitation-accept": "Elicitation",
    "elicitation-exit2": "Elicitation",
    "elicitation-result": "ElicitationResult",
}


@pytest.mark.parametrize("run", sorted(ELICITATION_RUNS))
def test_elicitation_answers_are_predicted(run: str, tmp_path: Path) -> None:
    record = RECORDS[run]
    (server_got,) = record["server_got"]
    got = effect(run, ELICITATION_RUNS[run], tmp_path)
    action = got["decision"] if got["decision"] != "none" else "cancel"
    if ELICITATION_RUNS[run] == "ElicitationResult" or got["decision"] != "none":
        assert action == server_got["action"]
        assert got.get("output", {}).get("content") == server_got.get("content")
    else:
        # no hook decided: in -p the CLI cancels, and the result hook sees that cancel
        assert server_got == {"action": "cancel"}
        (result,) = fired(run, "ElicitationResult")
        assert result["action"] == "cancel"
    # the model reads what the server made of the answer
    assert record["tool_results"] == ["ELICITED " + json.dumps(server_got, sort_keys=True)]


def test_an_answered_elicitation_has_no_result_event() -> None:
    """A hook that decides the elicitation replaces the dialog; ElicitationResult, the
    dialog's outcome, fires only when the CLI itself answered (a cancel in -p)."""
    for run in ("elicitation-accept", "elicitation-exit2"):
        assert fired(run, "Elicitation") and not fired(run, "ElicitationResult"), run
    for run in ("elicitation-none", "elicitation-result"):
        assert fired(run, "ElicitationResult"), run


def test_worktree_create_the_hooks_path_is_where_the_session_runs(tmp_path: Path) -> None:
    record = RECORDS["worktree-create"]
    (made,) = fired("worktree-create", "WorktreeCreate")
    assert made["name"] == "feat"  # -w feat
    got = effect("worktree-create", "WorktreeCreate", tmp_path)
    path = got["output"]["worktreePath"]
    # every later event runs in the path the hook printed, and the model's pwd says so
    later = [f["input"]["cwd"] for f in record["fired"][1:]]
    assert later and set(later) == {path}
    assert record["tool_results"] == [path]
    # the hook replaced git's worktree: the repository has none but its own
    assert record["worktrees"] == ["$RUN/proj"]


def test_worktree_create_failing_ends_the_run_before_the_session(tmp_path: Path) -> None:
    record = RECORDS["worktree-create-fails"]
    assert [f["event"] for f in record["fired"]] == ["WorktreeCreate"]
    assert record["exit_code"] == 1 and record["tool_results"] == []
    assert "WORKTREE-HOOK-FAILED" in record["stderr"]
    got = effect("worktree-create-fails", "WorktreeCreate", tmp_path)
    assert got["outcome"]["proceed"] is False
    assert not got.get("output", {}).get("worktreePath")
    assert "WORKTREE-HOOK-FAILED" in (got["outcome"]["message_for_user"] or "")


@pytest.mark.parametrize("run", ["config-change", "config-change-block"])
def test_config_change_in_an_interactive_session(run: str, tmp_path: Path) -> None:
    """The project's settings changed while ``claude`` ran in a terminal: ConfigChange fired
    with the file; a block kept the old settings (the hook the change added never ran), as
    hookwise predicts (proceed: the change applies)."""
    record = RECORDS[run]
    (change,) = fired(run, "ConfigChange")
    assert change["source"] == "project_settings"
    assert change["file_path"] == "$RUN/proj/.claude/settings.json"
    got = effect(run, "ConfigChange", tmp_path)
    assert got["outcome"]["proceed"] is record["changed_settings_applied"]
    assert record["changed_settings_applied"] is (run == "config-change")


def test_an_interactive_startup_has_the_model_and_a_headless_one_not() -> None:
    """SessionStart's ``model``: present on an interactive startup, absent from ``claude -p``'s
    (the simulator plays a headless run: tests/sim/test_claude_recorded_steps.py)."""
    from hookwise.protocol.claude import CLAUDE

    (interactive,) = fired("config-change", "SessionStart")
    (headless,) = fired("cwd-watch", "SessionStart")
    assert interactive["source"] == headless["source"] == "startup"
    assert "model" in interactive and "model" not in headless
    rule = CLAUDE.event("SessionStart").headless_sent_only_when
    assert [(field, on) for field, on, values in rule if "startup" not in values] == [
        ("model", "source")
    ]
