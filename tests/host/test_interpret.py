"""interpret: exit code + stdout + stderr -> answer, in both profiles."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.host.interpret import interpret, interpret_documented, interpret_engine
from hookwise.protocol.gemini import EVENT_NAMES
from hookwise.protocol.profiles import Profile

ENGINE_CASES = [
    # (stdout, stderr, exit, expected output, format) -- gemini-cli-hooks.md §1.4
    ("", "blocked by policy\n", 2, {"decision": "deny", "reason": "blocked by policy"}, "text"),
    ("stdout text\n", "stderr text\n", 2, {"decision": "deny", "reason": "stdout text"}, "text"),
    (
        '{"decision":"allow","systemMessage":"hi"}\n',
        "err\n",
        2,
        {"decision": "allow", "systemMessage": "hi"},
        "json",
    ),
    ("", "warn text\n", 1, {"decision": "allow", "systemMessage": "Warning: warn text"}, "text"),
    ("", "three\n", 3, {"decision": "deny", "reason": "three"}, "text"),
    ("", "", 2, None, None),
    ("plain text\n", "", 0, {"decision": "allow", "systemMessage": "plain text"}, "text"),
    (
        "",
        '{"decision":"deny","reason":"via stderr"}\n',
        0,
        {"decision": "deny", "reason": "via stderr"},
        "json",
    ),
    ('"{\\"decision\\":\\"block\\"}"\n', "", 0, {"decision": "block"}, "json"),
    ("5\n", "", 0, None, None),
    ("null", "", 0, None, None),
    ("[1,2]\n", "", 0, [1, 2], "json"),
    ('"just a string"\n', "", 0, {"decision": "allow", "systemMessage": '"just a string"'}, "text"),
    ("partial\n", "", None, {"decision": "allow", "systemMessage": "partial"}, "text"),
    ("\ufeff{}\u3000", "", 0, {}, "json"),
    (
        "bash: /x: No such file or directory",
        "",
        127,
        {"decision": "deny", "reason": "bash: /x: No such file or directory"},
        "text",
    ),
]


@pytest.mark.parametrize(("stdout", "stderr", "code", "output", "fmt"), ENGINE_CASES)
def test_engine_reading(
    stdout: str, stderr: str, code: int | None, output: object, fmt: str | None
) -> None:
    reading = interpret_engine(stdout, stderr, code)
    assert reading.output == output
    assert reading.output_format == fmt


def test_documented_exit0_json_and_text() -> None:
    assert interpret_documented("BeforeTool", '{"decision":"deny"}', "", 0).output == {
        "decision": "deny"
    }
    text = interpret_documented("BeforeTool", "hello", "", 0)
    assert text.output == {"systemMessage": "hello"}
    assert text.output_format == "text"


def test_documented_exit2_blocks_with_stderr_and_ignores_stdout_json() -> None:
    reading = interpret_documented("BeforeTool", '{"decision":"allow"}', "nope\n", 2)
    assert reading.output == {"decision": "deny", "reason": "nope"}


def test_documented_exit2_on_advisory_event_is_a_message() -> None:
    reading = interpret_documented("SessionStart", "", "careful", 2)
    assert reading.output == {"systemMessage": "careful"}


@pytest.mark.parametrize("code", [1, 3, 127, None])
def test_documented_other_codes_warn_and_continue(code: int | None) -> None:
    reading = interpret_documented("BeforeTool", "x", "oops", code)
    assert reading.output is None
    assert reading.warnings and "oops" in reading.warnings[0]


def test_documented_never_parses_stderr_json() -> None:
    assert interpret_documented("BeforeTool", "", '{"decision":"deny"}', 0).output is None


@given(
    st.text(),
    st.text(),
    st.one_of(st.none(), st.integers(min_value=-(2**31), max_value=2**31)),
    st.sampled_from(list(Profile)),
    st.sampled_from(EVENT_NAMES),
)
def test_any_output_gives_an_answer_or_none(
    stdout: str, stderr: str, code: int | None, profile: Profile, event: str
) -> None:
    reading = interpret(profile, event, stdout, stderr, code)
    assert reading.output is None or isinstance(reading.output, dict | list)
    assert (reading.output is None) == (reading.output_format is None)


@given(st.binary(), st.binary(), st.integers(min_value=0, max_value=255))
def test_any_bytes_decoded_with_replacement(out: bytes, err: bytes, code: int) -> None:
    reading = interpret_engine(out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), code)
    assert reading.output is None or isinstance(reading.output, dict | list)
