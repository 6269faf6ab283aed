from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

from hookwise.policy import fastjson
from tests.strategies import json_values


@given(json_values)
def test_round_trip_matches_the_json_module(value: Any) -> None:
    text = fastjson.dumps(value)
    assert text == json.dumps(value, separators=(",", ":"))
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(f"  \n{text}\t ") == json.loads(text)


@pytest.mark.parametrize("text", ["", "{", "[1,]", "{} x", "nul", '"\\x"'])
def test_errors_are_the_json_module_errors(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        fastjson.loads(text)


def test_unserialisable_falls_back_to_json_error() -> None:
    with pytest.raises(TypeError):
        fastjson.dumps({"a": object()})
