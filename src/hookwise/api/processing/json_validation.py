"""The one validator of hook JSON answers, for validate-json and for parse-output.

The field set of each event is the host's own table (protocol/claude.py, codex.py,
gemini.py): the top-level fields the host honours, the ``hookSpecificOutput`` keys it
reads, the values a decision may take. Errors (codes INVALID_JSON, INVALID_TYPE,
INVALID_VALUE, REQUIRED_FIELD, EMPTY_REQUIRED_FIELD, EVENT_MISMATCH) are fields the host
cannot use as written; warnings are fields it ignores or reads with surprises (an unknown
key, with a "did you mean" when one is close; a deprecated legacy decision; a
``stopReason`` without ``continue: false``).

Levels. ``strict``: an error makes the answer invalid and the failing field is *not
honoured*: ``rejected`` lists it and ``sanitized`` drops it (a wrong-typed field, a
decision with an unknown value; the whole ``hookSpecificOutput`` when its
``hookEventName`` is missing, empty or names another event; a PermissionRequest
``decision`` without a valid ``behavior``). The rest of the answer still counts.
``lenient``: field errors are reported as warnings and the answer is handed to the host as
written; it then reads what it can, exactly as the real agent would. Invalid JSON and a
document that is not an object are errors at both levels.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from hookwise.api.processing.hook_events import HookEvent, hook_event
from hookwise.host.dialect_answers import parse_object_stdout
from hookwise.protocol.claude import LEGACY_DECISIONS, OUTPUT_CAP_CHARS
from hookwise.protocol.dialect import (
    ANSWER_TYPES,
    SPECIFIC_ANSWER_TYPES,
    VERDICT_TYPES,
    Decision,
    DialectEvent,
    Kind,
)
from hookwise.protocol.gemini import COMMON_ANSWER_FIELDS, EventSpec
from hookwise.protocol.hosts import HOST_TITLES
from hookwise.protocol.jsvalue import JSON, js_json_parse, json_type_name

Level = Literal["strict", "lenient"]
Path = tuple[str, ...]

INVALID_JSON: Final = "INVALID_JSON"
INVALID_TYPE: Final = "INVALID_TYPE"
INVALID_VALUE: Final = "INVALID_VALUE"
REQUIRED_FIELD: Final = "REQUIRED_FIELD"
EMPTY_REQUIRED_FIELD: Final = "EMPTY_REQUIRED_FIELD"
EVENT_MISMATCH: Final = "EVENT_MISMATCH"

ROOT: Final = "root"
# Deeper answers are not read: no hook needs them, and a response that nests them inside
# its own objects could no longer be serialized (pydantic stops at a few hundred levels).
MAX_JSON_DEPTH: Final = 64
SPECIFIC: Final = "hookSpecificOutput"

_GEMINI_TYPES: Final = {"LLMRequest": "object", "LLMResponse": "object"}
_GEMINI_TOP: Final = {
    f.name: (_GEMINI_TYPES.get(f.type, f.type), f.values) for f in COMMON_ANSWER_FIELDS
}
_PYTHON_TYPES: Final[dict[str, type | tuple[type, ...]]] = {
    "string": str,
    "boolean": bool,
    "object": dict,
    "array": list,
}


@dataclass
class AnswerCheck:
    """What the validator found in one answer object."""

    errors: list[dict[str, str]] = field(default_factory=list)
    warnings: list[dict[str, str]] = field(default_factory=list)
    rejected: list[Path] = field(default_factory=list)  # not honoured under strict

    def error(self, path: Path, message: str, code: str, reject: Path | None = None) -> None:
        self.errors.append({"field": _dotted(path), "message": message, "code": code})
        self.rejected.append(path if reject is None else reject)

    def warn(self, path: Path, message: str, suggestion: str | None = None) -> None:
        item = {"field": _dotted(path), "message": message}
        if suggestion:
            item["suggestion"] = suggestion
        self.warnings.append(item)

    def sanitized(self, answer: dict[str, JSON]) -> dict[str, JSON]:
        """The answer without the rejected fields (copies only what changes)."""
        if not self.rejected:
            return answer
        out = dict(answer)
        for path in self.rejected:
            _drop(out, path)
        return out


def _dotted(path: Path) -> str:
    return ".".join(path) if path else ROOT


def _drop(target: dict[str, JSON], path: Path) -> None:
    if len(path) == 1:
        target.pop(path[0], None)
        return
    child = target.get(path[0])
    if isinstance(child, dict):
        child = dict(child)
        target[path[0]] = child
        _drop(child, path[1:])


def _type_ok(kind: str, value: JSON) -> bool:
    if kind == "any":
        return True
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _PYTHON_TYPES[kind])


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The known name ``name`` was probably meant to be (case, ``_`` and typos forgiven)."""
    options = list(candidates)
    for option in options:
        if _norm(option) == _norm(name):
            return option
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.75)
    return close[0] if close else None


def _check_type(check: AnswerCheck, path: Path, kind: str, value: JSON) -> bool:
    if _type_ok(kind, value):
        return True
    check.error(path, f"must be {_article(kind)}, got {json_type_name(value)}", INVALID_TYPE)
    return False


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeio" else f"a {kind}"


def _check_value(
    check: AnswerCheck, path: Path, value: str, allowed: Iterable[str], host: str
) -> None:
    options = tuple(allowed)
    if value not in options:
        listed = ", ".join(repr(o) for o in options)
        check.error(
            path, f"{value!r} is not a value {host} reads here; expected {listed}", INVALID_VALUE
        )


def _check_long(check: AnswerCheck, path: Path, value: JSON) -> None:
    if isinstance(value, str) and len(value) > OUTPUT_CAP_CHARS:
        check.warn(path, f"longer than {OUTPUT_CAP_CHARS} characters: the host cuts it short")


# --------------------------------------------------------------------------- Claude / Codex


def _top_allowed(dialect: str, event: DialectEvent) -> dict[str, str]:
    names = [*event.common_fields, SPECIFIC]
    if event.decision in (Decision.BLOCK, Decision.PERMISSION):
        names += ["decision", "reason"]
    return {n: ANSWER_TYPES.get(n, "any") for n in names}


def _acting_decisions(event: DialectEvent) -> tuple[str, ...]:
    """The top-level ``decision`` values that decide on ``event`` (its table): on a
    permission event those its host does not leave inert, on a block event "block"."""
    if event.decision is Decision.PERMISSION:
        return tuple(v for v in event.decision_values if v not in event.inert_decisions)
    return tuple(v for v in event.decision_values if v == "block")


def _check_dialect(
    check: AnswerCheck, dialect: str, event: DialectEvent, answer: dict[str, JSON]
) -> None:
    host = HOST_TITLES[dialect]
    if not event.json_honoured:
        check.warn((), f"{host} discards JSON output for {event.name}")
    allowed = _top_allowed(dialect, event)
    for key, value in answer.items():
        kind = allowed.get(key)
        if kind is None:
            _unknown(
                check,
                (key,),
                key,
                allowed=allowed,
                elsewhere=event.specific_fields,
                host=host,
                event=event.name,
                top=True,
            )
            continue
        if not _check_type(check, (key,), kind, value):
            continue
        _check_long(check, (key,), value)
        if key == "decision":
            # the values the host's schema takes (its table): any other fails the answer
            _check_value(check, (key,), value, event.decision_values, host)
            if value in event.decision_values and value not in _acting_decisions(event):
                check.warn((key,), f"{host} takes {value!r} on {event.name} and does nothing")
    _check_flow(check, dialect, event, answer, host)
    specific = answer.get(SPECIFIC)
    if isinstance(specific, dict):
        _check_dialect_specific(check, dialect, event, specific, host=host, top=allowed)


def _check_flow(
    check: AnswerCheck, dialect: str, event: DialectEvent, answer: dict[str, JSON], host: str
) -> None:
    stop = answer.get("continue")
    if stop is False and not event.stop_supported:
        check.warn(("continue",), f"{host} ignores continue: false on {event.name}")
    elif stop is False and not answer.get("stopReason"):
        check.warn(
            ("stopReason",),
            "continue is false without a stopReason",
            "add stopReason: the message the user sees when the agent stops",
        )
    if "stopReason" in answer and stop is not False:
        check.warn(("stopReason",), "stopReason is only used when continue is false")
    decision = answer.get("decision")
    legacy = LEGACY_DECISIONS.get(decision) if isinstance(decision, str) else None
    if legacy and event.decision is Decision.PERMISSION and decision in _acting_decisions(event):
        check.warn(
            ("decision",),
            f"top-level decision {decision!r} is deprecated for {event.name}",
            f'use hookSpecificOutput.permissionDecision "{legacy}"',
        )
    if event.decision is Decision.BLOCK and decision == "block" and not answer.get("reason"):
        required = " (required on Stop events)" if event.kind is Kind.STOP else ""
        check.warn(
            ("reason",),
            f'decision "block" without a reason{required}: the agent is not told why',
            "add reason",
        )
    if not answer:
        check.warn((), "empty JSON output: nothing changes")


def _check_dialect_specific(
    check: AnswerCheck,
    dialect: str,
    event: DialectEvent,
    specific: dict[str, JSON],
    *,
    host: str,
    top: dict[str, str],
) -> None:
    base: Path = (SPECIFIC,)
    name = specific.get("hookEventName")
    if "hookEventName" not in specific:
        check.error(
            (SPECIFIC, "hookEventName"), "is required in hookSpecificOutput", REQUIRED_FIELD, base
        )
        return
    if not isinstance(name, str):
        check.error(
            (SPECIFIC, "hookEventName"),
            f"must be a string, got {json_type_name(name)}",
            INVALID_TYPE,
            base,
        )
        return
    if not name:
        check.error((SPECIFIC, "hookEventName"), "must not be empty", EMPTY_REQUIRED_FIELD, base)
        return
    if name != event.name:
        check.error(
            (SPECIFIC, "hookEventName"),
            f"is {name!r} but the event is {event.name!r}: {host} ignores this hookSpecificOutput",
            EVENT_MISMATCH,
            base,
        )
        return
    if not event.specific_fields:
        check.warn(base, f"{host} reads no hookSpecificOutput fields for {event.name}")
    allowed = {"hookEventName", *event.specific_fields}
    for key, value in specific.items():
        path = (SPECIFIC, key)
        if key not in allowed:
            _unknown(
                check,
                path,
                key,
                allowed=allowed,
                elsewhere=top,
                host=host,
                event=event.name,
                top=False,
            )
            continue
        kind = SPECIFIC_ANSWER_TYPES.get(key, "any")
        if key == "hookEventName" or not _check_type(check, path, kind, value):
            continue
        _check_long(check, path, value)
        if key == "permissionDecision":
            _check_value(check, path, value, event.permission_values, host)
        elif key == "decision" and event.decision is Decision.PERMISSION_REQUEST:
            _check_verdict(check, path, value, host)
    if specific.get("permissionDecision") == "deny" and "updatedInput" in specific:
        check.warn((SPECIFIC, "updatedInput"), "ignored with permissionDecision deny")


def _check_verdict(check: AnswerCheck, path: Path, verdict: dict[str, JSON], host: str) -> None:
    if "behavior" not in verdict:
        check.error(
            (*path, "behavior"), "is required in a PermissionRequest decision", REQUIRED_FIELD, path
        )
    for key, value in verdict.items():
        sub = (*path, key)
        kind = VERDICT_TYPES.get(key)
        if kind is None:
            suggestion = did_you_mean(key, VERDICT_TYPES)
            check.warn(
                sub,
                f"unknown field {key!r}",
                f"did you mean {suggestion!r}?" if suggestion else None,
            )
            continue
        reject = path if key == "behavior" else sub
        if not _type_ok(kind, value):
            check.error(
                sub, f"must be {_article(kind)}, got {json_type_name(value)}", INVALID_TYPE, reject
            )
        elif key == "behavior" and value not in ("allow", "deny"):
            check.error(
                sub,
                f"{value!r} is not a value {host} reads here; expected 'allow', 'deny'",
                INVALID_VALUE,
                path,
            )


def _unknown(
    check: AnswerCheck,
    path: Path,
    key: str,
    *,
    allowed: Collection[str],
    elsewhere: Collection[str],
    host: str,
    event: str,
    top: bool,
) -> None:
    """An unknown key: a warning, pointing at the right place or the closest name."""
    if key == "decision" and "permissionDecision" in allowed:
        check.warn(path, f"{host} does not read {key!r} here on {event}", "use permissionDecision")
        return
    if key in elsewhere and key != SPECIFIC:
        where = "into hookSpecificOutput" if top else "to the top level"
        check.warn(path, f"{host} does not read {key!r} here on {event}", f"move {key!r} {where}")
        return
    suggestion = did_you_mean(key, allowed)
    check.warn(
        path,
        f"unknown field {key!r}: {host} ignores it on {event}",
        f"did you mean {suggestion!r}?" if suggestion else None,
    )


# --------------------------------------------------------------------------- Gemini


def _check_gemini(check: AnswerCheck, spec: EventSpec, answer: dict[str, JSON]) -> None:
    host = HOST_TITLES["gemini"]
    allowed = {*spec.common_fields, SPECIFIC}
    specific_names = {f.name: _GEMINI_TYPES.get(f.type, f.type) for f in spec.answer_fields}
    for key, value in answer.items():
        if key not in allowed:
            _unknown(
                check,
                (key,),
                key,
                allowed=allowed,
                elsewhere=specific_names,
                host=host,
                event=spec.name,
                top=True,
            )
            continue
        kind, values = _GEMINI_TOP[key]
        if not _check_type(check, (key,), kind, value):
            continue
        _check_long(check, (key,), value)
        if values:
            _check_value(check, (key,), value, values, host)
    if (
        answer.get("continue") is False
        and not answer.get("stopReason")
        and not answer.get("reason")
    ):
        check.warn(("stopReason",), "continue is false without a stopReason", "add stopReason")
    if not answer:
        check.warn((), "empty JSON output: nothing changes")
    specific = answer.get(SPECIFIC)
    if not isinstance(specific, dict):
        return
    name = specific.get("hookEventName")
    if name is not None and name != spec.name:
        check.warn((SPECIFIC, "hookEventName"), f"is {name!r} but the event is {spec.name!r}")
    for key, value in specific.items():
        path = (SPECIFIC, key)
        if key == "hookEventName":
            continue
        wanted = specific_names.get(key)
        if wanted is None:
            _unknown(
                check,
                path,
                key,
                allowed=specific_names,
                elsewhere=allowed,
                host=host,
                event=spec.name,
                top=False,
            )
            continue
        _check_type(check, path, wanted, value)


# --------------------------------------------------------------------------- entry points


def deeper_than(value: JSON, limit: int = MAX_JSON_DEPTH) -> bool:
    """Do objects and arrays in ``value`` nest more than ``limit`` levels? (no recursion)"""
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[JSON, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def too_deep_message(limit: int = MAX_JSON_DEPTH) -> str:
    return f"JSON output nests more than {limit} levels: not read"


def check_answer(answer: dict[str, JSON], event: HookEvent | str) -> AnswerCheck:
    """Validate a parsed answer object against the event's table (UnknownHookEventError
    for an unknown event name)."""
    found = event if isinstance(event, HookEvent) else hook_event(event)
    check = AnswerCheck()
    if isinstance(found.spec, DialectEvent):
        _check_dialect(check, found.dialect, found.spec, answer)
    else:
        _check_gemini(check, found.spec, answer)
    return check


def demoted(errors: list[dict[str, str]]) -> list[dict[str, str]]:
    """Errors as lenient warnings: the code kept in the message."""
    return [
        {
            "field": e["field"],
            "message": f"{e['message']} ({e['code']})",
            "suggestion": "honoured as written (lenient validation)",
        }
        for e in errors
    ]


def validate_json(
    json_string: str, hook_event_name: str, level: Level = "strict"
) -> dict[str, Any]:
    """The validate-json answer: {valid, parsed?, errors, warnings}.

    The text is read the way the host reads stdout (JSON only when it starts with ``{``);
    ``parsed`` is the answer the host will honour (under strict: without rejected fields).
    """
    hook_event(hook_event_name)
    answer, problem = parse_object_stdout(json_string)
    if answer is not None and deeper_than(answer):
        error = {"field": ROOT, "message": too_deep_message(), "code": INVALID_JSON}
        return {"valid": False, "errors": [error], "warnings": []}
    if answer is None:
        return _unreadable(json_string, problem)
    check = check_answer(answer, hook_event_name)
    if level == "strict":
        return {
            "valid": not check.errors,
            "parsed": check.sanitized(answer),
            "errors": check.errors,
            "warnings": check.warnings,
        }
    return {
        "valid": True,
        "parsed": answer,
        "errors": [],
        "warnings": demoted(check.errors) + check.warnings,
    }


def _unreadable(text: str, problem: str | None) -> dict[str, Any]:
    if problem is None:  # does not start with "{": JSON of another type, or plain text
        try:
            value = js_json_parse(text)
        except ValueError as exc:
            error = {"field": ROOT, "message": f"not valid JSON: {exc}", "code": INVALID_JSON}
        else:
            error = {
                "field": ROOT,
                "message": f"must be a JSON object, got {json_type_name(value)}",
                "code": INVALID_TYPE,
            }
    else:
        error = {"field": ROOT, "message": problem, "code": INVALID_JSON}
    return {"valid": False, "errors": [error], "warnings": []}
