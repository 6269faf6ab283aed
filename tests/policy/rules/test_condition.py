from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.rules.condition import evaluate, time_view
from hookwise.policy.rules.condition_compile import compile_condition
from hookwise.policy.rules.condition_syntax import TIME_FIELDS, ConditionError, parse_condition
from tests.strategies import json_values

ROOTS: dict[str, Any] = {
    "env": {"CI": "true", "N": "3"},
    "tool": "shell",
    "input": {"command": "git push", "timeout": 30, "flags": ["-f", "-v"], "nested": {"a": [1, 2]}},
    "time": time_view(0),
    "files": ["src/a.py", ".env"],
    "prompt": None,
}


def run(text: str) -> Any:
    """The condition walked once and compiled: both evaluators must agree."""
    node = parse_condition(text)
    walked = evaluate(node, ROOTS.get, re.compile)
    assert compile_condition(node)(ROOTS.get, re.compile) == walked
    return walked


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('env.CI == "true" and tool in ["shell", "write"]', True),
        ("input.timeout > 10 and not (input.timeout >= 31)", True),
        (r'input.command matches "^git\s+push"', True),
        ('input.command glob "git *"', True),
        ("len(input.command) == 8", True),
        ('input["command"] startswith "git"', True),
        ('input.command endswith "push"', True),
        ("input.missing.deep == null", True),
        ("input.nested.a[1] == 2", True),
        ("input.nested.a[5] == null", True),
        ('"-f" in input.flags', True),
        ('"-x" not in input.flags', True),
        ('input.flags contains "-v"', True),
        ("prompt == null", True),
        ("exists(prompt)", False),
        ("int(env.N) == 3", True),
        ("input.timeout == 30.0", True),
        ("true == 1", False),
        ('input.timeout < "40"', False),
        ('lower("ABC") == "abc" and upper("a") == "A"', True),
        ('basename("src/a.py") == "a.py" and dirname("src/a.py") == "src"', True),
        ("any([false, 1]) and not all([true, 0])", True),
        ('str(true) == "true" and str(null) == ""', True),
        ('files[1] == ".env"', True),
        ("time.year == 1970 or time.year == 1969", True),
        ('time.weekday in ["wed", "thu"]', True),
        ("-1 < 0", True),
        ("1_000 == 1000", True),
    ],
)
def test_evaluate(text: str, expected: bool) -> None:
    assert bool(run(text)) is expected


@pytest.mark.parametrize(
    ("text", "offset", "fragment"),
    [
        ("env.CI = 1", 7, "did you mean '=='"),
        ("tool && x", 5, "did you mean 'and'"),
        ("foo.bar", 0, "unknown name 'foo'"),
        ('input.x matches "("', 17, "invalid regular expression"),
        ("time.hours > 3", 0, "did you mean 'hour'"),
        ("len(1, 2)", 0, "takes 1 argument"),
        ('"abc', 0, "unclosed string"),
        ("lenn(x)", 0, "did you mean 'len'"),
        ("tool ==", 7, "ends where a value is expected"),
        ("(tool", 5, "expected ')'"),
        ("tool matches input", 13, "string literal"),
        ("", 0, "empty condition"),
        ("tool $", 5, "unexpected character"),
        ('input glob "[a"', 12, "invalid glob"),
    ],
)
def test_errors_point_at_the_problem(text: str, offset: int, fragment: str) -> None:
    with pytest.raises(ConditionError) as info:
        parse_condition(text)
    assert info.value.offset == offset
    assert fragment in info.value.message


@given(st.text(max_size=60))
def test_any_text_parses_or_raises_condition_error(text: str) -> None:
    try:
        node = parse_condition(text)
    except ConditionError as exc:
        assert 0 <= exc.offset <= len(text)
        return
    evaluate(node, ROOTS.get, re.compile)  # never raises


_TOKENS = st.sampled_from(
    [
        "tool",
        "input",
        ".",
        "command",
        "[",
        "]",
        "(",
        ")",
        "==",
        "!=",
        "<",
        ">=",
        "and",
        "or",
        "not",
        "in",
        "matches",
        '"x"',
        "1",
        "2.5",
        "true",
        "null",
        ",",
        "len",
        "env",
        "CI",
        "time",
        "hour",
        "contains",
        "startswith",
        "-3",
        "files",
        "0",
    ]
)


@given(st.lists(_TOKENS, min_size=1, max_size=14))
def test_token_soup_parses_or_raises_condition_error(tokens: list[str]) -> None:
    text = " ".join(tokens)
    try:
        node = parse_condition(text)
    except ConditionError:
        return
    walked = evaluate(node, ROOTS.get, re.compile)
    assert compile_condition(node)(ROOTS.get, re.compile) == walked  # the same answer


_LEAVES = st.sampled_from(
    [
        ("lit", None),
        ("lit", True),
        ("lit", 0),
        ("lit", 2.5),
        ("lit", "x"),
        ("lit", "-f"),
        ("path", "input", [("lit", "timeout")]),
        ("path", "input", [("lit", "flags")]),
        ("path", "input", [("lit", "nested"), ("lit", "a"), ("lit", 1)]),
        ("path", "env", [("lit", "CI")]),
        ("path", "prompt", []),
        ("path", "files", [("path", "input", [("lit", "timeout")])]),
    ]
)
_OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains", "startswith", "endswith"]
_CALLS = ["len", "lower", "upper", "exists", "int", "str", "any", "all", "basename"]
_TREES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["and", "or"]), inner, inner),
        st.tuples(st.just("not"), inner),
        st.tuples(st.just("cmp"), st.sampled_from(_OPS), inner, inner),
        st.tuples(st.just("matches"), inner, st.sampled_from(["^g", "x+", "[0-9]"])),
        st.tuples(st.just("glob"), inner, st.sampled_from(["*", "git *", "*.py"])),
        st.tuples(st.just("list"), st.lists(inner, max_size=3)),
        st.tuples(
            st.just("call"), st.sampled_from(_CALLS), st.lists(inner, min_size=1, max_size=1)
        ),
    ),
    max_leaves=12,
)


@given(_TREES)
def test_walking_a_condition_and_its_closure_agree(node: Any) -> None:
    """The hook walks a rule's condition on its first use, processes that decide many
    events compile it: any tree the parser can build must give the same answer both ways."""
    from hookwise.policy.rules.glob_syntax import compile_glob

    def prepared(item: Any) -> Any:  # globs are compiled by the parser; so here
        if not isinstance(item, tuple):
            return item
        if item[0] == "glob":
            return ("glob", prepared(item[1]), compile_glob(item[2]))
        if item[0] in ("list",):
            return ("list", [prepared(i) for i in item[1]])
        if item[0] in ("call", "path"):
            return (item[0], item[1], [prepared(i) for i in item[2]])
        return tuple(prepared(i) for i in item)

    tree = prepared(node)
    try:
        walked = evaluate(tree, ROOTS.get, re.compile)
    except (TypeError, ValueError) as exc:  # the closure must fail the same way
        with pytest.raises(type(exc)):
            compile_condition(tree)(ROOTS.get, re.compile)
        return
    assert compile_condition(tree)(ROOTS.get, re.compile) == walked


@given(json_values, json_values)
def test_comparisons_of_any_values_never_raise(left: Any, right: Any) -> None:
    roots = {"input": {"a": left, "b": right}}
    for op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains", "startswith"):
        node = parse_condition(f"input.a {op} input.b")
        assert evaluate(node, roots.get, re.compile) in (True, False)
    json.dumps(left)


def test_time_view_gives_every_time_field() -> None:
    assert set(time_view(0)) == set(TIME_FIELDS)
