"""JavaScript value semantics: replayed against V8 and checked with properties."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.protocol.jsvalue import (
    UNDEFINED,
    JSTypeError,
    has_property,
    js_json_parse,
    js_json_stringify,
    js_number_to_string,
    js_string,
    js_trim,
    spread,
    truthy,
)
from tests.strategies import json_values

FIXTURES = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "jsvalue.jsonl")
    .read_text(encoding="utf-8")
    .split("\n")
    if line.strip()
]
NUMBERS = [f for f in FIXTURES if f["kind"] == "number"]
PARSES = [f for f in FIXTURES if f["kind"] == "parse"]


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c["output"])
def test_number_to_string_matches_v8(case: dict[str, Any]) -> None:
    assert js_number_to_string(case["input"]) == case["output"]


@pytest.mark.parametrize("case", PARSES, ids=lambda c: repr(c["input"])[:40])
def test_json_parse_and_stringify_match_v8(case: dict[str, Any]) -> None:
    if not case["ok"]:
        with pytest.raises(ValueError):
            js_json_parse(case["input"])
        return
    assert js_json_stringify(js_json_parse(case["input"])) == case["stringified"]


def test_big_integers_lose_precision_like_doubles() -> None:
    assert js_json_stringify(js_json_parse("12345678901234567890")) == "12345678901234567000"


def test_index_keys_come_first() -> None:
    assert list(js_json_parse('{"b":1,"2":2,"1":3}')) == ["1", "2", "b"]


def test_stringify_escapes_lone_surrogates_and_keeps_other_text() -> None:
    assert js_json_stringify(["\ud800", "é\u2028\x01"]) == '["\\ud800","é\u2028\\u0001"]'
    assert (
        js_json_stringify({"a": UNDEFINED, "b": [UNDEFINED], "c": math.inf})
        == '{"b":[null],"c":null}'
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        (UNDEFINED, False),
        (0, False),
        (0.0, False),
        (math.nan, False),
        ("", False),
        ([], True),
        ({}, True),
        ("0", True),
        (-1, True),
    ],
)
def test_truthiness(value: object, expected: bool) -> None:
    assert truthy(value) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "null"),
        (UNDEFINED, "undefined"),
        (True, "true"),
        (1.0, "1"),
        ([1, None, [2, 3]], "1,,2,3"),
        ({"a": 1}, "[object Object]"),
    ],
)
def test_string_conversion(value: object, expected: str) -> None:
    assert js_string(value) == expected


def test_spread_and_in_operator_on_primitives() -> None:
    assert spread("a😀") == {"0": "a", "1": "\ud83d", "2": "\ude00"}
    assert spread(5) == {} and spread([7]) == {"0": 7}
    with pytest.raises(JSTypeError, match="Cannot use 'in' operator"):
        has_property("abc", "x")
    assert has_property([1], "0") and not has_property({}, "x")


def test_trim_uses_the_ecmascript_whitespace_set() -> None:
    assert js_trim("\ufeff\u3000x\x1c\n") == "x\x1c"


@given(json_values)
def test_stringify_round_trips(value: Any) -> None:
    text = js_json_stringify(value)
    # JS prints the shortest digits, so compare numbers as doubles
    assert json.loads(text, parse_int=float) == json.loads(json.dumps(value), parse_int=float)


@given(st.text())
def test_parse_any_text_gives_a_value_or_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        js_json_parse(text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_text_reads_back_as_the_same_double(value: float) -> None:
    assert float(js_number_to_string(value)) == value
