"""The one sanitising reader for JSON that comes from outside: hook output, stored rows.

A hook's stdout is untrusted data. The host readers (``js_json_parse`` and the dialects)
give what ``JSON.parse`` would, and JavaScript can hold values the service cannot answer
with or store: lone surrogates (``"\\ud800"``), numbers that overflow to Infinity
(``1e999``, a 400-digit integer), nesting deep enough to exhaust a stack. Every route
hands hook output to ``read_hook_stdout`` first; when the text holds none of these it is
passed on untouched (the common case costs one parse), otherwise the cleaned value is
written back as JSON and each change is reported, so the answer stays data.

``dumps_stored`` / ``loads_stored`` are the database's JSON codec (api/storage/db.py): what is
written is clean, and a row written by an older version or by hand is read back cleaned,
so one bad row cannot break a list.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final

from hookwise.api.processing.json_validation import MAX_JSON_DEPTH, too_deep_message
from hookwise.protocol.jsvalue import JSON, MAX_SAFE_INTEGER, js_object

REPLACEMENT: Final = "\ufffd"
# A str holds code points, so a surrogate in one is always lone (JSON's valid pairs
# decode to one astral code point).
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
MAX_NOTES: Final = 5  # per stream: enough to say what happened, not a flood


@dataclass(frozen=True, slots=True)
class HookText:
    """A stream as the host readers should see it, and what was changed to get there."""

    text: str
    notes: tuple[str, ...] = ()  # what was changed (warnings)
    unread: str | None = None  # why the JSON was not read at all (an error)


def clean_str(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD (they cannot be encoded)."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


class _Scan:
    """One cleaning walk: the cleaned value and what had to change (with JSON paths)."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.too_deep = False

    def note(self, path: str, what: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(f"{path}: {what}")

    def clean(self, value: JSON, path: str = "", depth: int = 0) -> JSON:
        """Iterative enough: depth is bounded by MAX_JSON_DEPTH before recursing further."""
        if isinstance(value, str):
            cleaned = clean_str(value)
            if cleaned is not value:
                self.note(path, "lone surrogate replaced by U+FFFD")
            return cleaned
        if isinstance(value, float) and not math.isfinite(value):
            self.note(path, "number out of range, read as null")
            return None
        if not isinstance(value, dict | list):
            return value
        if depth >= MAX_JSON_DEPTH:
            self.too_deep = True
            return None
        if isinstance(value, list):
            return [self.clean(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
        out: dict[str, JSON] = {}
        for key, item in value.items():
            name = clean_str(key)
            if name is not key:
                self.note(f"{path}.{name}", "lone surrogate in a key replaced by U+FFFD")
            out[name] = self.clean(item, f"{path}.{name}", depth + 1)
        return out


def _js_int(text: str) -> int | float:
    """``JSON.parse``'s number: exact up to 2**53, a double beyond (Infinity past 1e308),
    without Python's limit on the digits of an int."""
    if len(text) <= 16:
        return int(text)
    value = float(text)
    if value.is_integer() and abs(value) <= MAX_SAFE_INTEGER:
        return int(text)
    return value


def _reject_constant(name: str) -> float:
    raise ValueError(f"Unexpected token {name[0]} in JSON")


class _Duplicates:
    """``object_pairs_hook`` that builds JS objects and remembers repeated keys."""

    def __init__(self) -> None:
        self.keys: list[str] = []

    def __call__(self, pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
        if len(pairs) > 1:
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen and len(self.keys) < MAX_NOTES:
                    self.keys.append(clean_str(key))
                seen.add(key)
        return js_object(pairs)


# What a hazard needs in the text: a surrogate escape, a non-finite literal, an exponent
# of three digits or 309 digits in a row. Text without one (nearly all of it) and without
# deep nesting is passed on unparsed; duplicate keys are then left to the host's reader,
# which keeps the last value as JSON.parse does.
HAZARD: Final = re.compile(r"\\u[dD][89a-fA-F]|NaN|Infinity|[eE][+-]?\d{3}|\d{309}")


def might_be_hostile(text: str) -> bool:
    return bool(HAZARD.search(text)) or text.count("[") + text.count("{") > MAX_JSON_DEPTH


def _looks_like_json(stripped: str) -> bool:
    """Objects, arrays, strings and numbers (a bare ``1e999`` is Infinity too)."""
    return bool(stripped) and stripped[0] in '{["-0123456789'


def read_hook_stdout(stdout: str, stream: str = "stdout") -> HookText:
    """A hook's stdout, safe for every host reader and for the answer.

        Text that is not JSON only loses its lone surrogates. JSON that nests deeper than
        MAX_JSON_DEPTH is not read at all (the text becomes empty, ``unread`` says why). Otherwise
        lone surrogates become U+FFFD, numbers out of range become null (what
        ``JSON.stringify`` makes of Infinity) and duplicate keys keep their last value (as
        ``JSON.parse``), each reported in ``notes`` (duplicates only when the text holds a
    hazard too) as ``"<stream>.<path>: <what>"``.
    """
    text = clean_str(stdout)
    notes: list[str] = []
    if text is not stdout:
        notes.append(f"{stream}: lone surrogates replaced by U+FFFD")
    stripped = text.strip()
    if not _looks_like_json(stripped) or not might_be_hostile(stripped):
        return HookText(text, tuple(notes))
    duplicates = _Duplicates()
    decoder = json.JSONDecoder(
        object_pairs_hook=duplicates, parse_int=_js_int, parse_constant=_reject_constant
    )
    try:
        value = decoder.decode(stripped)
    except RecursionError:
        return HookText("", tuple(notes), too_deep_message())
    except ValueError:  # not JSON: the host reader says so in its own words
        return HookText(text, tuple(notes))
    notes.extend(f"{stream}.{key}: duplicate key, the last value counts" for key in duplicates.keys)
    scan = _Scan()
    cleaned = scan.clean(value)
    if scan.too_deep:
        return HookText("", tuple(notes), too_deep_message())
    if not scan.notes:
        return HookText(text, tuple(notes))
    notes.extend(f"{stream}{n}" for n in scan.notes)
    return HookText(json.dumps(cleaned, ensure_ascii=False), tuple(notes))


def clean_value(value: Any) -> tuple[Any, tuple[str, ...]]:
    """Any decoded JSON value made answerable: (cleaned, notes); too deep -> None."""
    scan = _Scan()
    cleaned = scan.clean(value)
    notes = [n.removeprefix(".") for n in scan.notes]
    if scan.too_deep:
        notes.append(too_deep_message())
    return cleaned, tuple(notes)


def value_problem(value: Any) -> str | None:
    """What makes a request value unanswerable (naming its path), or None when it is fine."""
    _, notes = clean_value(value)
    return notes[0] if notes else None


def dumps_stored(value: Any) -> str:
    """The database's JSON serializer: only clean, finite JSON is ever written."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate cannot be stored (PostgreSQL refuses it)
    except (ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return json.dumps(clean_value(value)[0], allow_nan=False, ensure_ascii=False)
    return text


def _null_constant(_name: str) -> None:
    return None


def loads_stored(text: str | bytes | None) -> Any:
    """The database's JSON deserializer: a bad stored document reads as clean data (or
    None when it is not JSON at all), never as an error that breaks a whole list."""
    if text is None:
        return None
    try:
        value = json.loads(text, parse_constant=_null_constant)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict | list | str | float):
        value, _ = clean_value(value)
    return value


__all__ = [
    "HookText",
    "clean_str",
    "clean_value",
    "dumps_stored",
    "loads_stored",
    "read_hook_stdout",
    "value_problem",
]
