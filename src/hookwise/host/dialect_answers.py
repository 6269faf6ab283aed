"""Shared pieces of the Claude Code and Codex dialects: one hook's reading, the effect.

A reading records how the host classified a hook's run (a JSON answer, plain text, a
blocking exit 2, a failure and why); the dialect modules turn the readings of all hooks
of an event into one DialectEffect whose outcome says what the agent will do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hookwise.host.effect import Effect
from hookwise.host.outcome import Outcome
from hookwise.protocol.dialect import ANSWER_TYPES
from hookwise.protocol.jsvalue import JSON, drop_undefined, js_json_parse


@dataclass(frozen=True)
class Reading:
    """How the host read one hook's run."""

    kind: str  # none | json | text | exit2 | failed | error
    answer: dict[str, JSON] | None = None  # the JSON answer, when the host honours it
    text: str = ""  # plain stdout
    stderr: str = ""
    exit_code: int | None = None
    problem: str | None = None  # why the hook failed or was ignored (shown to the user)
    handler: str = "command"  # the handler's type: a command's stdout and an http body differ


@dataclass(frozen=True)
class DialectEffect(Effect):
    """The effect of a Claude Code or Codex event: the outcome plus how it was reached."""

    dialect: str = ""
    event: str = ""
    decision: str = "none"  # allow | deny | ask | defer | block | none
    outcome: Outcome = field(default_factory=lambda: Outcome(proceed=True))
    diagnostics: tuple[str, ...] = ()
    # what an event's own answer hands the host besides the outcome (a worktree's path,
    # the text to display, an elicitation's content, paths to watch); keys as on the wire
    output: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "type": "HostEffect",  # (the word users meet is host)
            "host": self.dialect,
            "event": self.event,
            "decision": self.decision,
            "outcome": self.outcome.to_json(),
            "diagnostics": list(self.diagnostics),
        }
        if self.output:
            out["output"] = dict(self.output)
        return dict(drop_undefined(out))


def parse_object_stdout(stdout: str) -> tuple[dict[str, JSON] | None, str | None]:
    """Claude's rule: stdout is JSON only when it starts with ``{`` (after blanks).

    Returns (answer, None) for a JSON object, (None, problem) for text that looks like
    JSON but is not valid, and (None, None) for plain text.
    """
    stripped = stdout.strip()
    if not stripped.startswith("{"):
        return None, None
    try:
        value = js_json_parse(stripped)
    except ValueError as exc:
        return None, f"invalid JSON output: {exc}"
    if not isinstance(value, dict):
        return None, "JSON output is not an object"
    return value, None


_JSON_TYPES: dict[str, type] = {"string": str, "boolean": bool, "object": dict, "array": list}


def field_type_problem(fields: dict[str, JSON], types: dict[str, str], where: str) -> str | None:
    """A field of ``fields`` whose JSON type is not the one ``types`` names, or None."""
    for key, kind in types.items():
        expected = _JSON_TYPES.get(kind)
        if key in fields and expected is not None and not isinstance(fields[key], expected):
            return f"{where}{key} must be a {kind}"
    return None


def type_problem(answer: dict[str, JSON]) -> str | None:
    """A top-level answer field of the wrong JSON type (both Claude Code and Codex then
    reject the whole answer; observed with a numeric systemMessage), or None."""
    return field_type_problem(answer, ANSWER_TYPES, "")


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def join(parts: list[str]) -> str | None:
    kept = [p for p in parts if p]
    return "\n".join(kept) if kept else None
