"""The recorded Factory Droid and Cline answer matrix, replayed through hookwise (no CLI).

``fixtures/more-hosts/<host>.jsonl`` holds what the real droid 0.225.2 and cline 3.0.65 did
with each pre-tool hook answer (record_more.py; the first line names version, date and
command). Here:

* the registry's and the protocol tables' claims about each host are checked against the
  records (what a crash, a timeout, exit 2, Claude's JSON, context... did);
* every payload the hosts sent is decoded by hookwise's adapter into the shell call it was;
* for each decision hookwise can make (deny, ask, an allow rule, rewrite, context, a failure),
  the adapter's answer on the recorded payload must be the answer of a recorded cell (texts
  aside), and what the host did with that cell must be what the decision means.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy import canonical
from hookwise.policy.adapters import adapter
from hookwise.policy.adapters.hosts import host_tables
from hookwise.policy.pipeline import Outcome, failure_answer
from hookwise.policy.rules.engine import Decision
from hookwise.protocol.hosts import host, table

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "more-hosts"
HOSTS = ("droid", "cline")
TABLES = host_tables()
REASON = "POLICY-E2E-REASON: writing the marker is not allowed"
CONTEXT = "POLICY-E2E-CONTEXT: the marker lives in the project"


def records(name: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    lines = (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    return head, {r["cell"]: r for r in map(json.loads, lines[1:])}


def _shape(value: Any) -> Any:
    """An answer with its texts replaced by what they carry (the reason, the context)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    if isinstance(value, str):
        if "POLICY-E2E-CONTEXT" in value or "CONTEXT-" in value:
            return "<context>"
        return "<text>"
    return value


def answer_shape(exit_code: int, stdout: str) -> tuple[int, Any]:
    text = stdout.strip()
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = "<not json>"
    return exit_code, _shape(parsed)


def find_cell(cells: dict[str, dict[str, Any]], exit_code: int, stdout: str) -> dict[str, Any]:
    wanted = answer_shape(exit_code, stdout)
    for record in cells.values():
        answer = record["answer"]
        if answer.get("sleep") or record.get("args") is not None:
            continue
        if answer_shape(int(answer.get("exit", 0)), str(answer.get("stdout", ""))) == wanted:
            return record
    raise AssertionError(f"no recorded cell answers like hookwise's {wanted}: record it first")


def events_for(name: str, payload: dict[str, Any]) -> list[canonical.Event]:
    events: list[canonical.Event] = adapter(name).decode(
        json.loads(json.dumps(payload)), TABLES, {}, 0.0
    )
    return events


def decision(kind: str) -> Decision:
    made = Decision()
    made.rule = "replay"
    if kind in ("deny", "ask"):
        made.decision, made.reason = kind, REASON
    elif kind == "allow":
        made.decision, made.allow_rule, made.reason = "allow", "replay", ""
    elif kind == "rewrite":
        made.decision = "allow"
        made.updated_input = {"command": "touch marker-rewritten"}
        made.rewrite_rules = ["replay"]
    elif kind == "context":
        made.contexts = [CONTEXT]
    return made


@pytest.mark.parametrize("name", HOSTS)
def test_the_records_name_their_origin(name: str) -> None:
    head, cells = records(name)
    assert head["host"] == name and head["version"] and head["recorded"]
    assert "record_more" in head["origin"]
    assert all(
        c["version"] == head["version"] and c["hook_calls"] == 1
        for c in map(lambda r: {**r, **r["observed"]}, cells.values())
    ), "a cell of another version, or one where the hook did not fire"


@pytest.mark.parametrize("name", HOSTS)
def test_the_tables_say_what_the_host_did(name: str) -> None:
    _, cells = records(name)
    info = host(name)
    seen = {cell: record["observed"] for cell, record in cells.items()}
    # a crashing hook (exit 1) lets the tool run: failure["crash"]
    assert seen["exit1-stderr"]["tool_ran"] is (info.failure["crash"] == "runs")
    # a hook slower than the host's timeout runs the tool: Droid's (3 s here); Cline's is
    # 120 s (its table): an 8 s hook was waited for and its deny ignored, a 125 s one killed
    # and its cancel never read
    slow = cells["slow"]
    assert seen["slow"]["tool_ran"], "a slow hook did not let the tool run"
    assert info.failure["timeout"] == "runs"
    if "cline-past-timeout" in cells:
        past = cells["cline-past-timeout"]
        limit = table(name).events["PreToolUse"].default_timeout_s
        assert slow["seconds"] >= slow["answer"]["sleep"], "Cline did not wait for the hook"
        assert past["answer"]["sleep"] > limit and past["observed"]["tool_ran"]
        assert past["seconds"] >= limit, "Cline gave up on the hook before its timeout"
    specific = TABLES[name]["events"]["PreToolUse"]["specific"]
    if name == "droid":
        assert not seen["exit2-stderr"]["tool_ran"]
        assert "POLICY-E2E-REASON" in seen["exit2-stderr"]["tokens_reached_model"]
        assert not seen["claude-deny"]["tool_ran"]
        assert seen["claude-ask"]["tool_ran"], "Droid's ask blocked: adapters/droid.py sends it"
        assert seen["claude-allow-readonly"]["tool_ran"]
        assert not seen["exit0-empty-readonly"]["tool_ran"], "read-only exec ran without allow"
        assert seen["claude-rewrite"]["rewritten"]
        assert seen["top-block"]["tool_ran"], "Droid obeyed a top-level block"
        assert ("additionalContext" in specific) == bool(
            seen["claude-context"]["tokens_reached_model"]
        )
        assert ("updatedInput" in specific) == seen["claude-rewrite"]["rewritten"]
    else:
        blocked = [c for c, o in seen.items() if not o["tool_ran"] and not o["rewritten"]]
        assert sorted(blocked) == ["cline-cancel", "cline-cancel-exit2", "cline-hook-control"], (
            "Cline stopped a call without a cancel, or ignored one"
        )
        # the answers its table lists beside the cancel, each seen to do what it says
        assert seen["cline-override-input"]["rewritten"] and "overrideInput" in specific
        for cell in ("cline-context", "cline-context-key", "cline-no-cancel"):
            assert seen[cell]["tool_ran"] and seen[cell]["tokens_reached_model"], cell
        for cell in blocked:
            assert seen[cell]["model_turns"] == 1, "the run went on after a cancel"
            assert seen[cell]["host_said"] == {"finishReason": "aborted"}
        assert TABLES[name]["events"]["PreToolUse"]["decision"] == "cancel"
        assert ("contextModification" in specific) == bool(
            seen["cline-context"]["tokens_reached_model"]
        )


@pytest.mark.parametrize("name", HOSTS)
def test_every_recorded_payload_is_the_shell_call_it_was(name: str) -> None:
    _, cells = records(name)
    for cell, record in cells.items():
        events = events_for(name, record["hook_input"])
        assert events, cell
        for event in events:
            assert event.name == canonical.TOOL_BEFORE, cell
            assert event.tool == canonical.SHELL, cell
            assert event.command == record["command"], cell
            assert event.session, cell


INTENTS = ("deny", "ask", "allow", "rewrite", "context", "nothing")


@pytest.mark.parametrize("kind", INTENTS)
@pytest.mark.parametrize("name", HOSTS)
def test_hookwise_answers_in_a_form_the_host_was_seen_to_obey(name: str, kind: str) -> None:
    _, cells = records(name)
    source = cells["claude-rewrite" if kind == "rewrite" else "claude-deny"]["hook_input"]
    events = events_for(name, source)
    settings = {"ask_fallback": "deny"}
    answer = adapter(name).encode(decision(kind), events, TABLES, settings)
    cell = find_cell(cells, answer.exit_code, answer.stdout)
    seen = cell["observed"]
    why = f"{name} {kind}: hookwise answers like cell {cell['cell']}: {seen}"
    stopped = kind in ("deny", "ask")
    if stopped:
        assert not seen["tool_ran"] and not seen["rewritten"], why
        if name == "droid":
            assert "POLICY-E2E-REASON" in seen["tokens_reached_model"], why
        else:
            assert seen["host_said"] == {"finishReason": "aborted"}, why
    elif kind == "rewrite":
        assert seen["rewritten"] and not seen["tool_ran"], why
    else:
        assert seen["tool_ran"], why
    if kind == "context":
        carried = "contextModification" in TABLES[name]["events"]["PreToolUse"]["specific"]
        assert bool(seen["tokens_reached_model"]) == carried, why


@pytest.mark.parametrize("name", HOSTS)
def test_a_payload_hookwise_cannot_read_is_denied_in_a_form_the_host_obeys(name: str) -> None:
    _, cells = records(name)
    outcome = Outcome()
    outcome.host = name
    unplaced = failure_answer(outcome, REASON, TABLES, {}, {})
    cell = find_cell(cells, unplaced.exit_code, unplaced.stdout)
    assert not cell["observed"]["tool_ran"], cell
