"""The wire reader: line splitting under any chunking, strict parsing, id keys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.mcp_proxy import framing
from hookwise.mcp_proxy.framing import HEAD_BYTES, LineSplitter, Oversize, WireError, id_key

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@given(st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=8),
       st.lists(st.integers(min_value=0), max_size=10))  # fmt: skip
def test_lines_come_out_whole_however_the_bytes_arrive(lines: list[bytes], cuts: list[int]) -> None:
    data = b"".join(line + b"\n" for line in lines)
    splitter = LineSplitter()
    out: list[Any] = []
    for chunk in _split_at(data, cuts):
        out += splitter.feed(chunk)
    out += splitter.close()
    assert out == lines


@given(st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=8),
       st.integers(min_value=1, max_value=20), st.lists(st.integers(min_value=0), max_size=10))  # fmt: skip
def test_a_line_over_the_limit_is_one_oversize_and_never_a_piece(
    lines: list[bytes], limit: int, cuts: list[int]
) -> None:
    data = b"".join(line + b"\n" for line in lines)
    splitter = LineSplitter(limit)
    out: list[Any] = []
    for chunk in _split_at(data, cuts):
        out += splitter.feed(chunk)
    out += splitter.close()
    assert len(out) == len(lines)
    for line, got in zip(lines, out, strict=True):
        if len(line) > limit:
            assert isinstance(got, Oversize) and got.size == len(line)
            assert got.head == line[:HEAD_BYTES]  # what names the request to answer
        else:
            assert got == line


def test_a_last_line_without_newline_is_kept() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert splitter.close() == [b'{"b"']
    assert splitter.close() == []
    with pytest.raises(ValueError, match="max_bytes"):
        LineSplitter(0)


@given(json_values)
def test_whatever_it_writes_it_reads_back_as_one_line(value: Any) -> None:
    line = framing.dumps(value)
    assert b"\n" not in line and b"\r" not in line and line.isascii()
    assert framing.loads(line) == value


@given(st.binary(max_size=60))
def test_any_bytes_parse_to_a_message_or_a_reason(line: bytes) -> None:
    msg = framing.parse(line)
    assert msg.kind in ("request", "notification", "response", "batch", "invalid")
    if msg.kind == "invalid":
        assert msg.error


@given(st.dictionaries(st.sampled_from(["jsonrpc", "id", "method", "params", "result", "error"]),
                       json_values, max_size=6))  # fmt: skip
def test_classification_follows_json_rpc(value: dict[str, Any]) -> None:
    msg = framing.parse(json.dumps(value).encode())
    has_method = "method" in value
    answer = "result" in value or "error" in value
    if has_method and isinstance(value["method"], str) and not answer:
        assert msg.kind == ("request" if "id" in value else "notification")
        assert msg.method == value["method"]
    elif (
        not has_method and "id" in value and answer and not ("result" in value and "error" in value)
    ):
        assert msg.kind == "response"
    else:
        assert msg.kind == "invalid"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b'{"method":"ping","method":"tools/call"}', "duplicate key 'method'"),
        (b'{"params":{"a":1,"a":2}}', "duplicate key 'a'"),
        (b'{"n":NaN}', "NaN is not JSON"),
        (b'{"n":-Infinity}', "-Infinity is not JSON"),
        (b'{"n":1e400}', "out of range"),
        (b"{} {}", "more than one JSON value"),
        (b'{"a":"\xff"}', "not UTF-8 at byte 6"),
        (b'{"a":1', "not JSON"),
        (b"[" * 100000, "not JSON"),
        (b'{"n":' + b"9" * 5000 + b"}", "not JSON this proxy can read"),
    ],
)
def test_what_two_readers_could_read_differently_is_refused(line: bytes, why: str) -> None:
    with pytest.raises(WireError, match=why):
        framing.loads(line)
    assert framing.parse(line).kind == "invalid"


def test_whitespace_around_a_message_is_fine() -> None:
    assert framing.parse(b' {"jsonrpc":"2.0","method":"x"}\r').kind == "notification"
    assert framing.blank(b" \t\r") and not framing.blank(b"{}")


@given(json_values, json_values)
def test_id_keys_are_equal_only_for_the_same_json_id(a: Any, b: Any) -> None:
    same = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    if same:
        assert id_key(a) == id_key(b)
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if id_key(a) == id_key(b) and not numbers:
        assert same


def test_id_keys_keep_types_apart() -> None:
    keys = {id_key(v) for v in (1, "1", True, None, [1], {"1": 1}, 1.5)}
    assert len(keys) == 7
    assert id_key(1) == id_key(1.0)  # a JavaScript peer writes 1.0 back as 1


@settings(max_examples=300, deadline=None)
@given(
    args=st.dictionaries(st.text(max_size=20), st.text(max_size=2000), max_size=8),
    pick=st.integers(min_value=0, max_value=8),
)
def test_a_question_shows_every_decided_argument_whole_on_its_own_lines(
    args: dict[str, str], pick: int
) -> None:
    """elicit.describe: whatever else the model adds, the decided keys appear whole and
    the text has no line break or non-ASCII character but its own."""
    from hookwise.mcp_proxy.elicit import describe

    decided = sorted(args)[:pick]
    text = describe("write_file", args, decided)
    assert all(ch == "\n" or 32 <= ord(ch) < 127 for ch in text)
    lines = text.split("\n")
    for at, key in enumerate(decided, start=1):
        assert lines[at] == f"  {json.dumps(key)}: {json.dumps(args[key])}"


@given(st.integers(min_value=1, max_value=400))
def test_nesting_past_the_limit_is_refused_and_within_it_read(depth: int) -> None:
    """(s24 red team) a Python SDK server drops a line nested past 200 levels unanswered."""
    from hookwise.mcp_proxy.framing import MAX_DEPTH, loads

    line = ('{"a":' * depth + "1" + "}" * depth).encode()
    if depth <= MAX_DEPTH:
        assert loads(line) is not None
    else:
        with pytest.raises(WireError, match="nested deeper"):
            loads(line)


# ---------------------------------------------------------------- the envelope, as Go reads it
_SPELLINGS = st.sampled_from([*sorted(framing.ENVELOPE_KEYS), "content", "data", "x"])


@st.composite
def _variant(draw: Any) -> str:
    """An envelope key, sometimes in another case or with a character Go folds onto it."""
    key = draw(_SPELLINGS)
    how = draw(st.sampled_from(["same", "upper", "title", "long-s", "kelvin"]))
    if how == "upper":
        return key.upper()
    if how == "title":
        return key[:1].upper() + key[1:]
    if how == "long-s" and "s" in key:
        return key.replace("s", "\u017f", 1)
    if how == "kelvin" and "k" in key:
        return key.replace("k", "\u212a", 1)
    return key


@given(st.lists(_variant(), max_size=6), st.lists(_variant(), max_size=6))
def test_an_envelope_is_refused_exactly_when_a_folding_reader_differs(
    top: list[str], inner: list[str]
) -> None:
    message: dict[str, Any] = dict.fromkeys(top, 1)
    params = dict.fromkeys(inner, 1)
    message["params"] = params
    problem = framing.envelope_problem(message)

    def differs(obj: dict[str, Any]) -> bool:
        folded = [k.casefold() for k in obj]
        clash = len(set(folded)) != len(folded)
        known = {k.casefold(): k for k in framing.ENVELOPE_KEYS}
        return clash or any(known.get(k.casefold(), k) != k for k in obj)

    assert (problem is not None) == (differs(message) or differs(params)), (message, problem)


def test_a_response_shaped_line_with_a_method_is_refused() -> None:
    line = {"jsonrpc": "2.0", "id": 9, "result": {}, "Method": "tools/call", "params": {}}
    assert "'Method'" in str(framing.envelope_problem(line))
    assert framing.envelope_problem({"jsonrpc": "2.0", "id": 1, "result": {"Name": 1}}) is None
