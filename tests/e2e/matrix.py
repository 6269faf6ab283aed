"""The matrix of hook answers run through the real CLIs and through hookwise.

A cell is one event and one literal hook answer (exit code, stdout, stderr; see
answer_hook.py). Events use the Claude Code / Codex names; on Gemini CLI the same points
are BeforeTool, BeforeAgent and AfterAgent, and the same answer is given unchanged (a
Claude-style hook script run on Gemini). Every text carries the token of its audience
(observe.py), so what reached the model can be found whatever the CLI wraps around it.

The fake model asks for one shell call, ``echo hi > marker``. A cell's Stop hook answers
only while ``stop_hook_active`` is false, the loop guard those hosts expect of a Stop hook.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.observe import CONTEXT, REASON, USER

CLIS = ("claude", "codex", "gemini")


@dataclass(frozen=True)
class Cell:
    id: str
    event: str
    answer: dict[str, Any]
    note: str
    # cli -> why this cell is not run on it
    not_on: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "event": self.event, "answer": self.answer, "note": self.note}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Cell:
        return Cell(str(data["id"]), str(data["event"]), dict(data["answer"]), str(data["note"]))


def out(exit: int = 0, stdout: Any = "", stderr: Any = "", **extra: Any) -> dict[str, Any]:
    """A hook answer; JSON values are serialised as a hook prints them (one line)."""

    def text(value: Any) -> str:
        return value if isinstance(value, str) else json.dumps(value) + "\n"

    answer: dict[str, Any] = {"exit": exit}
    if stdout != "":
        answer["stdout"] = text(stdout)
    if stderr != "":
        answer["stderr"] = text(stderr)
    return answer | extra


def specific(event: str | None, **fields: Any) -> dict[str, Any]:
    """``{"hookSpecificOutput": {"hookEventName": event, **fields}}`` (no name when None)."""
    body = fields if event is None else {"hookEventName": event, **fields}
    return {"hookSpecificOutput": body}


R_STDERR = f"{REASON}: marker files are forbidden (stderr)\n"
R_JSON = f"{REASON}: marker files are forbidden (json)"
CTX_PLAIN = f"{CONTEXT}: plain text on stdout\n"
CTX_JSON = f"{CONTEXT}: the marker directory is scratch space"
U_TEXT = f"{USER}: note for the user"
MISSING = f"/bin/sh: 1: {REASON}-missing-hook: not found\n"
PRE = "PreToolUse"
REWRITE = {"command": "echo hi > marker-modified"}
DENY = specific(PRE, permissionDecision="deny", permissionDecisionReason=R_JSON)
STOP_ALL = {"continue": False, "stopReason": U_TEXT}
TRUNCATED = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"'


Row = tuple[str, dict[str, Any], str]  # id, answer, note


def _pre_tool_rows() -> list[Row]:
    rows: list[Row] = []
    for code in (0, 1, 2, 3, 127):
        stderr = MISSING if code == 127 else R_STDERR
        rows.append((f"pre-exit{code}", out(code), f"exit {code}, no output"))
        rows.append((f"pre-exit{code}-stderr", out(code, stderr=stderr), f"exit {code}, stderr"))
    allow = specific(PRE, permissionDecision="allow", permissionDecisionReason=U_TEXT)
    ask = specific(PRE, permissionDecision="ask", permissionDecisionReason=R_JSON)
    nameless = specific(None, permissionDecision="deny", permissionDecisionReason=R_JSON)
    misnamed = specific("PostToolUse", permissionDecision="deny", permissionDecisionReason=R_JSON)
    return [
        *rows,
        ("pre-exit0-stdout-text", out(0, CTX_PLAIN), "exit 0, plain text on stdout"),
        ("pre-json-allow", out(0, allow), "permissionDecision allow"),
        ("pre-json-deny", out(0, DENY), "permissionDecision deny"),
        ("pre-json-ask", out(0, ask), "permissionDecision ask (headless: nobody to ask)"),
        (
            "pre-json-defer",
            out(0, specific(PRE, permissionDecision="defer")),
            "permissionDecision defer",
        ),
        ("pre-json-deny-no-event-name", out(0, nameless), "deny without hookEventName"),
        ("pre-json-deny-wrong-event-name", out(0, misnamed), "deny with hookEventName PostToolUse"),
        (
            "pre-json-deny-unknown-key",
            out(0, {**DENY, "policyVersion": 1}),
            "deny plus an unknown top-level key",
        ),
        (
            "pre-legacy-block",
            out(0, {"decision": "block", "reason": R_JSON}),
            "legacy top-level decision block",
        ),
        (
            "pre-legacy-approve",
            out(0, {"decision": "approve", "reason": U_TEXT}),
            "legacy top-level decision approve",
        ),
        (
            "pre-toplevel-deny",
            out(0, {"decision": "deny", "reason": R_JSON}),
            "top-level decision deny (the Gemini form)",
        ),
        (
            "pre-universal-deny",
            out(0, {"decision": "block", "reason": R_JSON, **DENY}),
            "decision block and permissionDecision deny together",
        ),
        (
            "pre-updated-input-allow",
            out(0, specific(PRE, permissionDecision="allow", updatedInput=REWRITE)),
            "updatedInput with allow",
        ),
        (
            "pre-updated-input-only",
            out(0, specific(PRE, updatedInput=REWRITE)),
            "updatedInput without a decision",
        ),
        (
            "pre-additional-context",
            out(0, specific(PRE, additionalContext=CTX_JSON)),
            "additionalContext, no decision",
        ),
        ("pre-continue-false", out(0, STOP_ALL), "continue false with stopReason"),
        ("pre-system-message", out(0, {"systemMessage": U_TEXT}), "systemMessage only"),
        ("pre-malformed-json", out(0, TRUNCATED), "truncated JSON on stdout, exit 0"),
        (
            "pre-malformed-json-exit2",
            out(2, TRUNCATED),
            "truncated JSON on stdout, exit 2, no stderr",
        ),
        ("pre-json-on-stderr", out(0, stderr=DENY), "deny JSON on stderr only, exit 0"),
        ("pre-json-on-stderr-exit2", out(2, stderr=DENY), "deny JSON on stderr only, exit 2"),
        (
            "pre-exit2-json-allow",
            out(2, specific(PRE, permissionDecision="allow"), R_STDERR),
            "exit 2 with an allow on stdout and a reason on stderr",
        ),
        (
            "pre-exit2-json-deny",
            out(2, DENY, R_STDERR),
            "exit 2 with a deny on stdout and a reason on stderr",
        ),
        ("pre-exit1-json-deny", out(1, DENY), "exit 1 with a deny on stdout"),
    ]


def _prompt_rows() -> list[Row]:
    ups = "UserPromptSubmit"
    return [
        ("prompt-exit0-stdout-text", out(0, CTX_PLAIN), "exit 0, plain text on stdout"),
        ("prompt-exit1-stderr", out(1, stderr=R_STDERR), "exit 1, stderr"),
        ("prompt-exit2", out(2), "exit 2, no output"),
        ("prompt-exit2-stderr", out(2, stderr=R_STDERR), "exit 2, stderr"),
        ("prompt-legacy-block", out(0, {"decision": "block", "reason": R_JSON}), "decision block"),
        (
            "prompt-additional-context",
            out(0, specific(ups, additionalContext=CTX_JSON)),
            "additionalContext",
        ),
        (
            "prompt-additional-context-no-event-name",
            out(0, specific(None, additionalContext=CTX_JSON)),
            "additionalContext without hookEventName",
        ),
        ("prompt-continue-false", out(0, STOP_ALL), "continue false with stopReason"),
        (
            "prompt-malformed-json",
            out(0, '{"decision": "block", "reason": "' + CTX_JSON),
            "truncated JSON on stdout (plain text, so the context token)",
        ),
    ]


def _stop_rows() -> list[Row]:
    once = {"quiet_if_stop_hook_active": True}
    block = {"decision": "block", "reason": R_JSON}
    context = specific("Stop", additionalContext=CTX_JSON)
    return [
        ("stop-exit0", out(0, **once), "exit 0, no output"),
        ("stop-exit0-stdout-text", out(0, CTX_PLAIN, **once), "plain text on stdout"),
        ("stop-exit2", out(2, **once), "exit 2, no output"),
        ("stop-exit2-stderr", out(2, stderr=R_STDERR, **once), "exit 2, stderr"),
        ("stop-legacy-block", out(0, block, **once), "decision block (go on working)"),
        ("stop-additional-context", out(0, context, **once), "additionalContext"),
        ("stop-continue-false", out(0, STOP_ALL, **once), "continue false with stopReason"),
    ]


def cells() -> list[Cell]:
    groups = (("PreToolUse", _pre_tool_rows()), ("UserPromptSubmit", _prompt_rows()))
    groups += (("Stop", _stop_rows()),)
    return [Cell(i, event, answer, note) for event, rows in groups for i, answer, note in rows]


def runs(clis: tuple[str, ...] = CLIS, matrix: list[Cell] | None = None) -> list[tuple[str, Cell]]:
    """(cli, cell) pairs of the matrix (or of ``matrix``), without cells a CLI cannot run."""
    chosen = cells() if matrix is None else matrix
    return [(cli, cell) for cli in clis for cell in chosen if cli not in cell.not_on]
