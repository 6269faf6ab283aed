"""``arg_roles.nested_members``: every member of a tool call's arguments at any depth,
through strings holding JSON, bounded (issue 28, session 35 finding 1)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.arg_roles import MAX_DEPTH, nested_members, unaccounted

_KEYS = st.sampled_from(["a", "options", "spec", "items", "with", "meta", "x"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=20,
)


def _bury(value: Any, path: list[tuple[str, bool]], leaf: dict[str, Any]) -> Any:
    """``leaf`` placed in ``value`` along ``path`` (key, as JSON text?)."""
    if not path:
        return leaf
    key, as_text = path[0]
    inner = _bury(None, path[1:], leaf)
    held: Any = json.dumps(inner) if as_text else inner
    return {key: held, "other": value}


@given(_JSON.filter(lambda v: isinstance(v, dict)))
def test_any_json_arguments_are_read_without_error(args: dict[str, Any]) -> None:
    members, short = nested_members(args)
    assert short is None
    assert all(isinstance(key, str) for _top, key, _value in members)


@settings(max_examples=200)
@given(
    _JSON,
    st.lists(st.tuples(_KEYS, st.booleans()), min_size=1, max_size=10),
    st.sampled_from(["cmd", "run", "bash_command", "script", "shellCmd"]),
)
def test_a_command_buried_anywhere_makes_an_unmapped_tool_unverifiable(
    noise: Any, path: list[tuple[str, bool]], key: str
) -> None:
    args = _bury(noise, path, {key: "rm -rf ~"})
    why = unaccounted("mcp__x__do_it", args, mapped=False)
    assert why is not None and repr(key) in why, (args, why)


def test_past_the_bound_the_reading_stops_and_says_why() -> None:
    args: Any = "v"
    for _ in range(MAX_DEPTH + 5):
        args = {"k": args}
    _members, short = nested_members({"top": args})
    assert short is not None and "deeper" in short
    deep_text = {"top": "[" * 50_000 + "]" * 50_000}
    assert "too deep" in (nested_members(deep_text)[1] or "")


def test_text_to_write_is_not_decoded() -> None:
    content = json.dumps({"mcpServers": {"x": {"command": "npx", "args": ["srv"]}}})
    assert nested_members({"path": ".mcp.json", "content": content}) == ([], None)
    assert unaccounted("write", {"path": ".mcp.json", "content": content}) is None
