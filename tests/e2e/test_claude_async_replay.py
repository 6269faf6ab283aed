"""The records of ``tests.e2e.record_claude_async`` (Claude Code 2.1.330, offline) replayed
through hookwise, no CLI needed: the same ``async: true`` hooks fired on the same call; the
call goes on at once whatever they answer, a finished hook's context is what the next model
request gets (``HookSystem.take_async_context``), and the end of the session ends the ones
still running."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.system import HookSystem
from tests.e2e.record_claude_async import SLEEP_S
from tests.e2e.record_claude_handlers import CONTEXT, REASON

FIXTURES = Path(__file__).parent / "fixtures" / "claude-async"
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))}
CALL = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}


def test_the_records_are_of_the_pinned_cli() -> None:
    assert set(RECORDS) == {"async-pre", "async-pre-quick", "async-post", "async-post-quick"}
    for record in RECORDS.values():
        assert record["cli_version"] == "2.1.330" and record["exit_code"] == 0


def test_what_the_real_cli_did() -> None:
    """The facts the runtime follows, as recorded."""
    for record in RECORDS.values():
        # not awaited: the deny / block / exit 2 did nothing, the reason reached nobody
        assert record["async_started"] and record["tool_ran"], record["run"]
        assert not record["model_read"]["reason"], record["run"]
    # done before the next model request: its context joined it
    assert RECORDS["async-pre-quick"]["async_done_before_exit"]
    assert RECORDS["async-pre-quick"]["model_read"]["context"]
    # still sleeping when the session ended: ended, never finished
    for name in ("async-pre", "async-post"):
        assert not RECORDS[name]["async_done"], name
    # done only after the last model request went out (right after the call): unread
    assert not RECORDS["async-post-quick"]["model_read"]["context"]


def _fire(record: dict[str, Any], root: Path) -> tuple[HookSystem, Any, float]:
    hooks = json.loads(json.dumps(record["hooks"]).replace("$RUN", str(root)))
    (event,) = hooks
    args: dict[str, Any] = dict(CALL)
    if event == "PostToolUse":
        args["tool_response"] = ""
    hs = HookSystem.from_hooks(hooks, dialect="claude")
    started = time.monotonic()
    result = hs.fire_sync(event, args)
    return hs, result, time.monotonic() - started


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_replayed_as_recorded(tmp_path: Path, name: str) -> None:
    record = RECORDS[name]
    hs, result, seconds = _fire(record, tmp_path)
    outcome = result.effect.outcome
    said = " ".join(str(x) for x in (outcome.reason_for_model, outcome.additional_context))
    assert outcome.proceed is record["tool_ran"] is True
    assert REASON not in said and CONTEXT not in said
    if record["async_done"]:
        # let it finish, as it did before the CLI's next request (or its exit)
        deadline = time.monotonic() + 10
        late: list[str] = []
        while not late and time.monotonic() < deadline:
            time.sleep(0.05)
            late = hs.take_async_context()
        assert late == [CONTEXT]
        assert hs.take_async_context() == []  # handed over once
        hs.close()
    else:
        assert seconds < SLEEP_S  # not waited for
        hs.close()  # the session ends while it sleeps
        time.sleep(SLEEP_S + 0.5)
        assert not (tmp_path / "async-done").exists()
        assert hs.take_async_context() == []


def test_codex_reads_nothing_of_a_finished_async_hook(tmp_path: Path) -> None:
    """The same finished hook on Codex: its context reaches nothing (codex-handlers)."""
    codex_hooks = json.loads(
        json.dumps(RECORDS["async-pre-quick"]["hooks"]).replace("$RUN", str(tmp_path))
    )
    with HookSystem.from_hooks(codex_hooks, dialect="codex") as codex:
        codex.fire_sync("PreToolUse", CALL)
        deadline = time.monotonic() + 10
        while not (tmp_path / "async-done").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        assert (tmp_path / "async-done").exists() and codex.take_async_context() == []
