"""The matrix of hook answers run through the real CLIs and through hookwise.

A cell is one event and one literal hook answer (exit code, stdout, stderr; see
answer_hook.py). The cells are not picked one by one: each group below is a product of
dimensions, crossed with the four events that can block, minus named exclusions (each with
its reason):

* ``fields``: the top-level ``decision`` against the event's own decision field
  (``hookSpecificOutput.permissionDecision`` on pre-tool, ``decision.behavior`` on a
  permission request, ``additionalContext`` on prompt and stop), each with its own reason
  text, so the cell shows which field won and whose reason reached the model. Every value
  any of the three CLIs knows is crossed, ``ask`` included (headless: nobody to ask).
* ``exit``: the exit code (0, 1, 2, 3) against what is on stdout (nothing, plain text, the
  event's "go" answer, its "no" answer) against stderr (nothing, a reason): exit code
  against JSON, and where the reason of an exit 2 comes from (the JSON, stderr, neither).
* ``continue``: ``continue`` (false, true) against the decision (none, go, no).
* ``encoding``: the "no" answer written with a UTF-8 BOM, CRLF line ends, leading
  whitespace, leading text, trailing garbage, two JSON objects (either order), wrapped in
  an array, encoded as a JSON string, and non-object JSON (null, a number).
* ``pairs``: the answer's fields (reasons absent, empty or given; the event name's case;
  ``updatedInput`` an object or a string; context; ``interrupt``), every pair of values of
  any two of them in some cell (``PAIR_DIMS``).
* ``shape``: how the answer is addressed: ``hookEventName`` missing or naming another
  event, an unknown top-level key, the JSON on stderr (exit 0 and 2), truncated JSON (exit
  0 and 2), ``systemMessage`` alone, a hook command that is not found (exit 127), and, on
  tool events, ``updatedInput`` against the decision.

Events use the Claude Code / Codex names; on Gemini CLI the same points are BeforeTool,
BeforeAgent and AfterAgent, and the same answer is given unchanged (a Claude-style hook
script run on Gemini; Gemini's own forms are the top-level ``decision`` values of the
``fields`` group). Every text carries the token of its audience (observe.py), so what
reached the model can be found whatever the CLI wraps around it.

The fake model asks for one shell call, ``echo hi > marker``. A cell's Stop hook answers
only while ``stop_hook_active`` is false, the loop guard those hosts expect of a Stop hook.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.observe import CONTEXT, REASON, USER

CLIS = ("claude", "codex", "gemini")

PRE, PROMPT, STOP, PERMISSION = "PreToolUse", "UserPromptSubmit", "Stop", "PermissionRequest"
# the cell id's prefix per event
SHORT = {PRE: "pre", PROMPT: "prompt", STOP: "stop", PERMISSION: "perm"}
EVENTS = tuple(SHORT)

# Cells a CLI cannot run, and why (named once, applied by ``exclusions``).
NO_PERMISSION_EVENT = (
    "Gemini CLI has no PermissionRequest event: its ToolPermission notification is advisory"
    " and cannot answer for the user"
)
# A run that waits for a confirmation nobody gives (Gemini's ask, headless) ends here.
ASK_LIMIT_SECONDS = 40.0


@dataclass(frozen=True)
class Cell:
    id: str
    event: str
    answer: dict[str, Any]
    note: str
    # cli -> why this cell is not run on it
    not_on: dict[str, str] = field(default_factory=dict)
    # the run's time limit; None: the runner's default
    limit_s: float | None = None

    def as_json(self) -> dict[str, Any]:
        out = {"id": self.id, "event": self.event, "answer": self.answer, "note": self.note}
        return out | ({"limit_s": self.limit_s} if self.limit_s is not None else {})

    @staticmethod
    def from_json(data: dict[str, Any]) -> Cell:
        limit = data.get("limit_s")
        return Cell(
            str(data["id"]),
            str(data["event"]),
            dict(data["answer"]),
            str(data["note"]),
            limit_s=float(limit) if limit is not None else None,
        )


def text(value: Any) -> str:
    """A JSON value as a hook prints it (one line); a string is printed as it is."""
    return value if isinstance(value, str) else json.dumps(value) + "\n"


def out(exit: int = 0, stdout: Any = "", stderr: Any = "", **extra: Any) -> dict[str, Any]:
    """A hook answer; JSON values are serialised as a hook prints them (one line)."""
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
R_TOP = f"{REASON}: marker files are forbidden (top-level)"
CTX_PLAIN = f"{CONTEXT}: plain text on stdout\n"
CTX_JSON = f"{CONTEXT}: the marker directory is scratch space"
U_TEXT = f"{USER}: note for the user"
U_STOP = f"{USER}: stopping here"
MISSING = f"/bin/sh: 1: {REASON}-missing-hook: not found\n"
REWRITE = {"command": "echo hi > marker-modified"}
# a reason longer than Codex keeps (about 12 KB): where it is cut, and how, shows in the
# text that reaches the model; multi-byte characters test the cut's character boundaries
LONG = f"{REASON}: head of a long reason. " + "Grüße aus Köln, line ✓\n" * 900 + "the tail end"
DENY = specific(PRE, permissionDecision="deny", permissionDecisionReason=R_JSON)


def long_context(chars: int) -> str:
    """A context of exactly ``chars`` characters, in numbered lines: where a CLI cuts it
    (Claude Code: past 10,000 characters only a head is sent) shows in what is left."""
    lines = "".join(f"line {i:05d} of the context\n" for i in range(chars // 26 + 1))
    return (f"{CONTEXT}: head. " + lines)[:chars]


def verdict(**fields: Any) -> dict[str, Any]:
    """A PermissionRequest answer: ``decision`` inside hookSpecificOutput."""
    return specific(PERMISSION, decision=fields)


# Each event's plain "go ahead" and "do not" answers, the two sides of most dimensions.
GO: dict[str, dict[str, Any]] = {
    PRE: specific(PRE, permissionDecision="allow", permissionDecisionReason=U_TEXT),
    PROMPT: specific(PROMPT, additionalContext=CTX_JSON),
    STOP: {"systemMessage": U_TEXT},
    PERMISSION: verdict(behavior="allow"),
}
NO: dict[str, dict[str, Any]] = {
    PRE: DENY,
    PROMPT: {"decision": "block", "reason": R_JSON},
    STOP: {"decision": "block", "reason": R_JSON},
    PERMISSION: verdict(behavior="deny", message=R_JSON),
}

# The top-level decision values any of the CLIs knows (Claude's legacy approve/block,
# Gemini's allow/deny/block/ask), and the event's own decision field's values.
TOP_DECISIONS = ("approve", "block", "allow", "deny", "ask")
SPECIFIC_DECISIONS: dict[str, tuple[str, ...]] = {
    PRE: ("allow", "deny", "ask", "defer"),
    PERMISSION: ("allow", "deny", "ask"),
    PROMPT: ("context",),
    STOP: ("context",),
}


def own_decision(event: str, value: str) -> dict[str, Any]:
    """The event's own decision field set to ``value`` (its reason text: R_JSON)."""
    if event == PRE:
        return specific(PRE, permissionDecision=value, permissionDecisionReason=R_JSON)
    if event == PERMISSION:
        return verdict(behavior=value, message=R_JSON)
    return specific(event, additionalContext=CTX_JSON)


Row = tuple[str, dict[str, Any], str]  # id suffix, answer, note


def _fields(event: str) -> Iterator[Row]:
    """Top-level decision x the event's own decision field (both absent: no answer)."""
    for top, own in itertools.product((None, *TOP_DECISIONS), (None, *SPECIFIC_DECISIONS[event])):
        if top is None and own is None:
            continue
        answer: dict[str, Any] = {}
        if top is not None:
            answer |= {"decision": top, "reason": R_TOP}
        if own is not None:
            answer |= own_decision(event, own)
        top_note = f"top-level decision {top}" if top else "no top-level decision"
        own_note = f"own field {own}" if own else "no own field"
        yield (
            f"fields-top_{top or 'none'}-own_{own or 'none'}",
            out(0, answer),
            f"{top_note}, {own_note}",
        )


def _exit(event: str) -> Iterator[Row]:
    """Exit code x stdout x stderr."""
    stdouts: dict[str, Any] = {"none": "", "text": CTX_PLAIN, "go": GO[event], "no": NO[event]}
    stderrs: dict[str, Any] = {"none": "", "reason": R_STDERR}
    for code, (so, so_value), (se, se_value) in itertools.product(
        (0, 1, 2, 3), stdouts.items(), stderrs.items()
    ):
        yield (
            f"exit{code}-out_{so}-err_{se}",
            out(code, so_value, se_value),
            f"exit {code}, stdout {so}, stderr {se}",
        )


def _continue(event: str) -> Iterator[Row]:
    """continue false/true x the decision (none, go, no)."""
    for flag, (name, decision) in itertools.product(
        (False, True), {"none": {}, "go": GO[event], "no": NO[event]}.items()
    ):
        answer = {"continue": flag, **({"stopReason": U_STOP} if not flag else {}), **decision}
        yield (
            f"continue_{str(flag).lower()}-{name}",
            out(0, answer),
            f"continue {str(flag).lower()} with decision {name}",
        )


def _encodings(event: str) -> Iterator[Row]:
    """The event's "no" answer, encoded in every way a hook might print it."""
    no, go = NO[event], GO[event]
    line = json.dumps(no)
    pretty = json.dumps(no, indent=2)
    encodings = {
        "bom": ("\ufeff" + line + "\n", "a UTF-8 byte-order mark before the JSON"),
        "crlf": (pretty.replace("\n", "\r\n") + "\r\n", "pretty JSON with CRLF line ends"),
        "pretty": (pretty + "\n", "pretty JSON over several lines"),
        "leading_ws": ("\n \t\n  " + line + "\n", "blank lines and spaces before the JSON"),
        "leading_text": ("note: checked\n" + line + "\n", "a text line before the JSON"),
        "trailing_garbage": (line + " trailing words\n", "text after the JSON"),
        "trailing_ws": (line + "\n\n \t \n", "whitespace after the JSON"),
        "no_newline": (line, "no final newline"),
        "two_objects": (line + "\n" + json.dumps(go) + "\n", "the no answer, then the go one"),
        "two_objects_go_first": (
            json.dumps(go) + "\n" + line + "\n",
            "the go answer, then the no one",
        ),
        "array": (json.dumps([no]) + "\n", "the answer inside an array"),
        "json_string": (json.dumps(line) + "\n", "the answer encoded as a JSON string"),
        "null": ("null\n", "JSON null"),
        "number": ("2\n", "a JSON number"),
    }
    for name, (stdout, note) in encodings.items():
        yield f"enc-{name}", out(0, stdout), note


def _shapes(event: str) -> Iterator[Row]:
    """How the answer is addressed and where it is written."""
    no = NO[event]
    inner = no.get("hookSpecificOutput")
    if isinstance(inner, dict):
        fields = {k: v for k, v in inner.items() if k != "hookEventName"}
        yield "shape-no_event_name", out(0, specific(None, **fields)), "no hookEventName"
        other = "PostToolUse" if event != "PostToolUse" else "PreToolUse"
        yield (
            "shape-wrong_event_name",
            out(0, specific(other, **fields)),
            f"hookEventName {other}",
        )
    else:  # the no answer is top-level; address the go answer's context instead
        yield (
            "shape-no_event_name",
            out(0, specific(None, additionalContext=CTX_JSON)),
            "additionalContext without hookEventName",
        )
        yield (
            "shape-wrong_event_name",
            out(0, specific("PostToolUse", additionalContext=CTX_JSON)),
            "additionalContext with hookEventName PostToolUse",
        )
    yield "shape-unknown_key", out(0, {**no, "policyVersion": 1}), "an unknown top-level key"
    yield "shape-wrong_type", out(0, {**no, "systemMessage": 42}), "systemMessage a number"
    yield "shape-on_stderr", out(0, stderr=no), "the answer on stderr, exit 0"
    yield "shape-on_stderr_exit2", out(2, stderr=no), "the answer on stderr, exit 2"
    truncated = json.dumps(no)[:-12]
    yield "shape-truncated", out(0, truncated), "truncated JSON, exit 0"
    yield "shape-truncated_exit2", out(2, truncated), "truncated JSON, exit 2, no stderr"
    yield "shape-system_message", out(0, {"systemMessage": U_TEXT}), "systemMessage alone"
    yield "shape-missing_hook", out(127, stderr=MISSING), "hook command not found (exit 127)"
    if event == PRE:
        for decision in (None, "allow", "ask", "deny"):
            fields = {"updatedInput": REWRITE}
            if decision:
                fields |= {"permissionDecision": decision, "permissionDecisionReason": R_JSON}
            yield (
                f"shape-updated_input-{decision or 'none'}",
                out(0, specific(PRE, **fields)),
                f"updatedInput with {decision or 'no'} decision",
            )
    if event == PRE:
        yield (
            "shape-long_reason",
            out(0, specific(PRE, permissionDecision="deny", permissionDecisionReason=LONG)),
            f"a deny whose reason is {len(LONG.encode())} bytes (multi-byte characters)",
        )
    if event in (PRE, PROMPT):
        for name, chars in (("context_at_cap", 10_000), ("long_context", 30_000)):
            yield (
                f"shape-{name}",
                out(0, specific(event, additionalContext=long_context(chars))),
                f"additionalContext of {chars} characters",
            )
    if event == PERMISSION:
        yield (
            "shape-updated_input-allow",
            out(0, verdict(behavior="allow", updatedInput=REWRITE)),
            "updatedInput with behavior allow",
        )


def _gain(uncovered: set[tuple[int, int, int, int]], row: list[int | None], k: int, v: int) -> int:
    """How many uncovered pairs value ``v`` at position ``k`` would cover in ``row``."""
    return sum(
        (min(k, m), v if k < m else w, max(k, m), w if k < m else v) in uncovered
        for m, w in enumerate(row)
        if w is not None
    )


def pairwise(dims: dict[str, tuple[str, ...]]) -> list[dict[str, str]]:
    """Rows covering every pair of values of any two dimensions (greedy, deterministic):
    far fewer rows than the product, and every two-field interaction still shows."""
    names = list(dims)
    sizes = [len(dims[n]) for n in names]
    uncovered = {
        (i, a, j, b)
        for i, j in itertools.combinations(range(len(names)), 2)
        for a in range(sizes[i])
        for b in range(sizes[j])
    }
    rows: list[dict[str, str]] = []
    while uncovered:
        i, a, j, b = min(uncovered)
        row: list[int | None] = [None] * len(names)
        row[i], row[j] = a, b
        for k in range(len(names)):
            if row[k] is None:
                row[k] = max(range(sizes[k]), key=lambda v, k=k: (_gain(uncovered, row, k, v), -v))
        values = [int(v) for v in row if v is not None]
        for x, y in itertools.combinations(range(len(names)), 2):
            uncovered.discard((x, values[x], y, values[y]))
        rows.append({n: dims[n][v] for n, v in zip(names, values, strict=True)})
    return rows


# How each event's answer fields vary in the ``pairs`` group (issue 27: the classes of
# answers the CLIs read differently from a field-by-field reading): reasons absent, empty
# or given; the event name in hookSpecificOutput exact, lower-case or camelCase;
# updatedInput an object or a string; context; PermissionRequest's interrupt.
PAIR_DIMS: dict[str, dict[str, tuple[str, ...]]] = {
    PRE: {
        "top": ("none", "approve", "block"),
        "rtop": ("none", "empty", "text"),
        "own": ("none", "allow", "deny"),
        "rown": ("none", "empty", "text"),
        "name": ("exact", "lower", "camel"),
        "upd": ("none", "object", "string"),
        "ctx": ("none", "given"),
    },
    PROMPT: {
        "top": ("none", "block"),
        "rtop": ("none", "empty", "text"),
        "name": ("exact", "lower", "camel"),
        "ctx": ("none", "given"),
        "sys": ("none", "given"),
    },
    STOP: {
        "top": ("none", "block"),
        "rtop": ("none", "empty", "text"),
        "cont": ("none", "false"),
        "sys": ("none", "given"),
        "name": ("none", "exact", "lower"),
    },
    PERMISSION: {
        "beh": ("none", "allow", "deny"),
        "msg": ("none", "empty", "text"),
        "intr": ("none", "true", "false"),
        "upd": ("none", "object", "string"),
        "name": ("exact", "lower"),
    },
}


def event_name(event: str, form: str) -> str:
    return {"lower": event.lower(), "camel": event[0].lower() + event[1:]}.get(form, event)


def pair_answer(event: str, row: dict[str, str]) -> dict[str, Any]:
    """The JSON answer of one ``pairs`` row."""
    answer: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    top, rtop = row.get("top", "none"), row.get("rtop", "none")
    if top != "none":
        answer["decision"] = top
    if rtop != "none":
        answer["reason"] = "" if rtop == "empty" else R_TOP
    if row.get("sys") == "given":
        answer["systemMessage"] = U_TEXT
    if row.get("cont") == "false":
        answer |= {"continue": False, "stopReason": U_STOP}
    if event == PRE:
        if row["own"] != "none":
            fields["permissionDecision"] = row["own"]
        if row["rown"] != "none":
            fields["permissionDecisionReason"] = "" if row["rown"] == "empty" else R_JSON
    if event == PERMISSION:
        verdict_fields: dict[str, Any] = {}
        if row["beh"] != "none":
            verdict_fields["behavior"] = row["beh"]
        if row["msg"] != "none":
            verdict_fields["message"] = "" if row["msg"] == "empty" else R_JSON
        if row["intr"] != "none":
            verdict_fields["interrupt"] = row["intr"] == "true"
        if row["upd"] != "none":
            verdict_fields["updatedInput"] = (
                REWRITE if row["upd"] == "object" else REWRITE["command"]
            )
        if verdict_fields:
            fields["decision"] = verdict_fields
    elif row.get("upd", "none") != "none":
        fields["updatedInput"] = REWRITE if row["upd"] == "object" else REWRITE["command"]
    if row.get("ctx") == "given" or (event == STOP and row["name"] != "none"):
        fields["additionalContext"] = CTX_JSON
    if fields:
        name = row.get("name", "exact")
        head = {} if name == "none" else {"hookEventName": event_name(event, name)}
        answer["hookSpecificOutput"] = head | fields
    return answer


def _pairs(event: str) -> Iterator[Row]:
    """The event's answer fields, pairwise (PAIR_DIMS)."""
    for row in pairwise(PAIR_DIMS[event]):
        suffix = "-".join(f"{k}_{v}" for k, v in row.items())
        note = ", ".join(f"{k} {v}" for k, v in row.items())
        yield f"pair-{suffix}", out(0, pair_answer(event, row)), f"pairwise: {note}"


def _classes(event: str) -> Iterator[Row]:
    """Single cells that tell apart what the ``pairs`` rows mix (issue 27's classes): a
    deny or block without a reason with and without a top-level decision, the event name's
    spellings alone, a rewrite against a top-level block, a string updatedInput alone."""
    rows: dict[str, dict[str, str]] = {}
    if event == PRE:
        for top, rtop in (("none", "none"), ("approve", "none"), ("block", "text")):
            for rown in ("none", "empty"):
                rows[f"deny_{rown}_reason-top_{top}"] = {
                    "top": top,
                    "rtop": rtop,
                    "own": "deny",
                    "rown": rown,
                }
        for name in ("lower", "camel"):
            rows[f"deny-name_{name}"] = {"own": "deny", "rown": "text", "name": name}
        for rtop in ("text", "none"):
            rows[f"rewrite-top_block-rtop_{rtop}"] = {
                "top": "block",
                "rtop": rtop,
                "own": "allow",
                "rown": "text",
                "upd": "object",
            }
        rows["rewrite_string"] = {"own": "allow", "rown": "text", "upd": "string"}
        rows["rewrite_alone"] = {"upd": "object", "ctx": "given"}
        rows["rewrite_alone_string"] = {"upd": "string"}
    elif event in (PROMPT, STOP):
        for rtop in ("none", "empty"):
            rows[f"block_{rtop}_reason"] = {"top": "block", "rtop": rtop}
        for name in ("lower", "camel") if event == PROMPT else ("lower",):  # "stop" is both
            rows[f"context-name_{name}"] = {"name": name, "ctx": "given"}
    else:
        rows["deny_interrupt"] = {"beh": "deny", "msg": "text", "intr": "true"}
        rows["deny_interrupt_no_message"] = {"beh": "deny", "intr": "true"}
        rows["allow_interrupt"] = {"beh": "allow", "intr": "true"}
        rows["allow_updated_string"] = {"beh": "allow", "upd": "string"}
    defaults = {
        PRE: {"top": "none", "rtop": "none", "own": "none", "rown": "none", "name": "exact"},
        PROMPT: {"top": "none", "rtop": "none", "name": "exact"},
        STOP: {"top": "none", "rtop": "none", "name": "none"},
        PERMISSION: {"beh": "none", "msg": "none", "intr": "none", "upd": "none", "name": "exact"},
    }[event]
    for suffix, row in rows.items():
        full = defaults | row
        note = ", ".join(f"{k} {v}" for k, v in row.items())
        yield f"class-{suffix}", out(0, pair_answer(event, full)), f"class: {note}"


GROUPS = (_fields, _exit, _continue, _encodings, _shapes, _pairs, _classes)


def exclusions(event: str) -> dict[str, str]:
    """The CLIs that cannot run ``event``'s cells, and why."""
    return {"gemini": NO_PERMISSION_EVENT} if event == PERMISSION else {}


def asks(answer: dict[str, Any]) -> bool:
    """The answer asks for a confirmation somewhere (a headless run may wait for it)."""
    return '"ask"' in answer.get("stdout", "") or '\\"ask\\"' in answer.get("stdout", "")


def cells() -> list[Cell]:
    out_cells: list[Cell] = []
    for event, group in itertools.product(EVENTS, GROUPS):
        for suffix, given, note in group(event):
            guard = {"quiet_if_stop_hook_active": True} if event == STOP else {}
            answer = {**given, **guard}
            limit = ASK_LIMIT_SECONDS if asks(answer) else None
            cell_id = f"{SHORT[event]}-{suffix}"
            out_cells.append(Cell(cell_id, event, answer, note, exclusions(event), limit))
    return out_cells


# The live sample `make test` runs on every CLI (test_live.py): each group on each event,
# chosen where the three CLIs answer differently; the replay covers every cell.
SAMPLE = frozenset(
    {
        "pre-fields-top_block-own_allow",  # top-level block against permissionDecision allow
        "pre-fields-top_none-own_ask",  # ask, headless
        "pre-fields-top_ask-own_none",  # Gemini's ask, headless
        "pre-fields-top_deny-own_none",  # Gemini's own form
        "pre-exit2-out_go-err_none",  # exit 2 against an allow, no reason anywhere
        "pre-exit2-out_no-err_reason",  # exit 2: the JSON reason or stderr
        "pre-exit1-out_no-err_none",  # exit 1 against a deny
        "pre-continue_false-no",  # continue false against a deny
        "pre-enc-bom",
        "pre-enc-trailing_garbage",
        "pre-enc-two_objects",
        "pre-shape-wrong_event_name",
        "prompt-exit2-out_none-err_reason",
        "prompt-fields-top_block-own_context",
        "prompt-enc-crlf",
        "stop-fields-top_block-own_none",
        "stop-continue_false-no",
        "stop-exit2-out_none-err_none",
        "perm-fields-top_none-own_deny",
        "perm-exit0-out_none-err_none",  # no decision: the host's own approval
        "perm-exit2-out_no-err_reason",
        # issue 27's classes, where Claude Code and Codex part most
        "pre-class-deny_none_reason-top_none",  # Claude: Blocked by hook; Codex runs it
        "pre-class-rewrite-top_block-rtop_text",  # Codex's rewrite beats the top-level block
        "prompt-class-context-name_lower",  # a misspelt event name
        "perm-class-deny_interrupt",  # Claude ends the session
    }
)


def runs(clis: tuple[str, ...] = CLIS, matrix: list[Cell] | None = None) -> list[tuple[str, Cell]]:
    """(cli, cell) pairs of the matrix (or of ``matrix``), without cells a CLI cannot run.
    GitHub Copilot CLI and Qwen Code run their own matrix (host_matrix.py)."""
    from tests.e2e import host_matrix

    pairs = []
    for cli in clis:
        if matrix is not None:
            chosen = matrix
        else:
            chosen = host_matrix.cells(cli) if cli in host_matrix.HOST_CLIS else cells()
        pairs += [(cli, cell) for cell in chosen if cli not in cell.not_on]
    return pairs
