"""Property tests of how Claude Code and Codex split a hook's stdout into JSON and text.

The rules come from the recorded matrix (tests/e2e, group ``encoding``): Claude Code reads
JSON only between ``{`` and ``}`` (past a BOM and blanks); Codex reads JSON when the text
parses as JSON other than a string or starts with ``{``/``[``, and a BOM is text to it.
Whatever the bytes, both give an answer, a problem or plain text, never an exception.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.host.claude_dialect import BOM, json_stdout
from hookwise.host.codex_dialect import parse_output

# no lone surrogates (not UTF-8) and integers JavaScript holds exactly
TEXT = st.characters(blacklist_categories=("Cs",))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(alphabet=TEXT, max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet=TEXT, max_size=8), inner)
    ),
    max_leaves=10,
)
OBJECTS = st.dictionaries(st.text(alphabet=TEXT, max_size=8), JSON_VALUES, max_size=4)
BLANKS = st.text(alphabet=" \t\r\n", max_size=4)


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_any_text_splits_without_raising(text: str) -> None:
    answer, problem = json_stdout(text)
    assert answer is None or problem is None
    stripped = text.removeprefix(BOM).strip()
    if answer is not None or problem is not None:
        assert stripped.startswith("{") and stripped.endswith("}")
    codex_answer, codex_problem = parse_output(text)
    assert codex_answer is None or codex_problem is None
    assert codex_answer is None or isinstance(codex_answer, dict)


@settings(max_examples=150)
@given(OBJECTS, BLANKS, BLANKS, st.booleans(), st.booleans())
def test_an_object_is_read_by_both_and_a_bom_only_by_claude(
    value: dict[str, object], before: str, after: str, pretty: bool, bom: bool
) -> None:
    text = json.dumps(value, indent=2 if pretty else None)
    if pretty:
        text = text.replace("\n", "\r\n")
    printed = ("\ufeff" if bom else "") + before + text + after
    assert json_stdout(printed) == (value, None)
    codex = parse_output(printed)
    assert codex == ((None, None) if bom else (value, None))


@settings(max_examples=150)
@given(OBJECTS, st.text(min_size=1, max_size=20).filter(lambda t: t.strip() != ""))
def test_text_around_an_object_is_plain_text_to_claude(
    value: dict[str, object], words: str
) -> None:
    text = json.dumps(value)
    tail = text + " " + words
    if not tail.strip().endswith("}"):
        assert json_stdout(tail) == (None, None)
    head = words + "\n" + text
    if not head.strip().startswith("{"):
        assert json_stdout(head) == (None, None)


@settings(max_examples=100)
@given(JSON_VALUES)
def test_codex_json_other_than_an_object_is_a_problem_and_a_string_is_text(
    value: object,
) -> None:
    answer, problem = parse_output(json.dumps(value))
    if isinstance(value, dict):
        assert (answer, problem) == (value, None)
    elif isinstance(value, str):
        assert (answer, problem) == (None, None)
    else:
        assert answer is None and problem == "JSON output is not an object"


def test_two_objects_are_a_problem_to_both() -> None:
    two = '{"a": 1}\n{"b": 2}\n'
    assert json_stdout(two)[1] is not None
    assert parse_output(two)[1] is not None


# ---------------------------------------------- asks_user never goes with proceed

DECISIONS = st.sampled_from(["allow", "deny", "ask", "defer", "approve", "block", "x"])


@st.composite
def answers(draw: st.DrawFn, event: str) -> dict[str, object]:
    answer: dict[str, object] = {}
    if draw(st.booleans()):
        answer["decision"] = draw(DECISIONS)
    if draw(st.booleans()):
        answer["continue"] = draw(st.booleans())
    specific: dict[str, object] = {"hookEventName": event}
    if event == "PermissionRequest":
        if draw(st.booleans()):
            specific["decision"] = {"behavior": draw(DECISIONS), "message": "m"}
    elif draw(st.booleans()):
        specific["permissionDecision"] = draw(DECISIONS)
    if draw(st.booleans()):
        answer["hookSpecificOutput"] = specific
    return answer


@settings(max_examples=300)
@given(
    st.sampled_from(["claude", "codex"]),
    st.sampled_from(["PreToolUse", "PermissionRequest"]),
    st.data(),
    st.sampled_from([0, 1, 2]),
)
def test_an_outcome_that_asks_a_person_never_proceeds(
    host: str, event: str, data: st.DataObject, code: int
) -> None:
    from hookwise.host.runtimes import TABLE_RUNTIMES

    runtime = TABLE_RUNTIMES[host]
    spec = runtime.spec.event(event)
    readings = [
        runtime.read(spec, json.dumps(data.draw(answers(event))), "why", code)
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    if runtime.check is not None:
        readings = [runtime.check(spec, r) for r in readings]
    outcome = runtime.decide(spec, readings).outcome
    assert not (outcome.asks_user and outcome.proceed)
