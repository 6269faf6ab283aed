"""What xargs reads from its input (xargs_input.input_items) is what the real xargs reads:
blanks with quotes and backslashes, ``-0``, ``-d X``, one line per run with ``-I``."""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell.xargs_input import input_items

TEXT = st.text(alphabet=st.sampled_from(list("ab -'\"\\\n\t,\0")), max_size=14)


def real_items(text: str, options: list[str]) -> list[str]:
    """The items GNU xargs passes (at an unmatched quote it fails, having run the items
    before it)."""
    done = subprocess.run(
        ["xargs", "-r", *options, "printf", "%s\\0"] if "-I" not in options
        else ["xargs", "-r", *options, "printf", "%s\\0", "{}"],
        input=text.encode(), capture_output=True, check=False, timeout=10,
    )  # fmt: skip
    items = done.stdout.decode().split("\0")
    return items[:-1]


@settings(max_examples=60, deadline=None)
@given(TEXT.filter(lambda t: "\0" not in t))
def test_blank_separated_items_are_what_xargs_reads(text: str) -> None:
    read, real = input_items(text, ["xargs"]), real_items(text, [])
    # GNU xargs drops some empty quoted items ('' or ""): `a ''` runs `cmd a`, and input of
    # only such items runs it with fewer of them or not at all; reading them all only
    # over-approximates. The words it passes are the words read, in order.
    assert [i for i in read or [] if i] == [i for i in real if i], text
    assert len(read or []) >= len(real), text


@settings(max_examples=40, deadline=None)
@given(TEXT, st.sampled_from([["-0"], ["--null"], ["-d", ","], ["-d,"], ["-d", "\\n"],
                              ["-n1", "-0"], ["-0", "-n", "1"]]))  # fmt: skip
def test_delimited_items_are_what_xargs_reads(text: str, options: list[str]) -> None:
    real = real_items(text, options)
    mine = input_items(text, ["xargs", *options])
    assert [i for i in (mine or []) if i] == [i for i in real if i], (text, options)


@settings(max_examples=40, deadline=None)
@given(TEXT.filter(lambda t: "\0" not in t and "'" not in t and '"' not in t))
def test_replace_mode_reads_one_line_per_run(text: str) -> None:
    real = real_items(text, ["-I", "{}"])
    mine = input_items(text, ["xargs", "-I", "{}"])
    assert [i.rstrip(" \t\\") for i in mine or []] == [i.rstrip(" \t\\") for i in real], text


@pytest.mark.parametrize(
    ("options", "expected"),
    [(["xargs", "-n10"], None), (["xargs", "-n", "0"], None), (["xargs", "-0n1"], "\0"),
     (["xargs", "-d", "\\t"], "\t"), (["xargs", "-P0"], None), (["xargs", "-a0", "-0"], "\0"),
     (["xargs", "-dxy"], "?")],
)  # fmt: skip
def test_the_delimiter_is_read_past_option_values(options: list[str], expected: str | None) -> None:
    from hookwise.shell.xargs_input import _delimiter

    assert _delimiter(options) == expected
