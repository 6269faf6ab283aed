"""The expansions hookwise reads the way bash does, checked against bash itself with
random inputs: brace expansion (braces.py), values assigned on the line (variables.py),
printf/echo output (printf_format.py); and that a word's shape overlaps a rule's glob
whenever some string matches both (policy/rules/maybe.py)."""

from __future__ import annotations

import contextlib
import re
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.rules.glob_syntax import compile_glob
from hookwise.policy.rules.globs import glob_match
from hookwise.policy.rules.maybe import overlap
from hookwise.shell.braces import TooLargeError, expand
from hookwise.shell.parser import split_command
from hookwise.shell.printf_format import echo_output, printf_output


def _bash_words(line: str) -> list[str] | None:
    done = subprocess.run(["bash", "-c", line], capture_output=True, timeout=10, check=False)
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]


# commas and nesting; sequences apart, well formed (bash's reading of a malformed
# sequence inside nested braces is its own: not a way to spell a program)
_BRACE = st.one_of(
    st.text(alphabet="{},ab1-", min_size=1, max_size=14),
    st.lists(
        st.sampled_from(["{a..c}", "{1..3}", "{3..1}", "{01..3}", "{a..e..2}", "x", "{p,q}"]),
        min_size=1,
        max_size=3,
    ).map("".join),
)


@given(_BRACE)
@settings(max_examples=150, deadline=None)
def test_brace_expansion_is_bash_s(word: str) -> None:
    expected = _bash_words(f"printf '%s\\0' {word}")
    if expected is None:
        return
    try:
        found = expand(word, 10_000)
    except TooLargeError:
        return
    assert [w for w in found if w] == [w for w in expected if w], word


@given(st.text(alphabet="{},.ab1-", max_size=30), st.integers(min_value=1, max_value=50))
@settings(max_examples=200, deadline=None)
def test_brace_expansion_never_raises_and_keeps_its_budget(word: str, budget: int) -> None:
    with contextlib.suppress(TooLargeError):
        assert len(expand(word, budget)) <= budget + 1


_VALUE = st.text(alphabet="ab -,x", max_size=8)
_USE = st.sampled_from(
    ['$v', '"$v"', "${v:-d}", '"${v:-d}"', "${#v}", "${v:1}", "${v:0:2}", "${v^^}",
     "x$v", '"x$v"', "${v:+y}", "${v-z}"]
)  # fmt: skip


@given(_VALUE, _USE, st.sampled_from(["", "IFS=,; "]))
@settings(max_examples=150, deadline=None)
def test_a_value_assigned_on_the_line_is_read_as_bash_reads_it(
    value: str, use: str, ifs: str
) -> None:
    quoted = "'" + value + "'"
    line = f"{ifs}v={quoted}; printf '%s\\0' start {use}"
    expected = _bash_words(line)
    if expected is None:
        return
    commands = [c for c in split_command(line).commands if c.program == "printf"]
    assert commands, line
    argv = commands[0].argv
    if any(commands[0].dynamic):
        return  # not resolved (an operator it does not read): unknown, never wrong
    assert argv[2:] == expected, line


_FORMAT = st.lists(
    st.sampled_from(["a", " ", "%s", "%b", "%d", "%%", "\\n", "\\t", "\\x41", "\\101",
                     "\\0", "\\\\", "-"]),
    max_size=6,
).map("".join)  # fmt: skip
_ARG = st.lists(st.sampled_from(["a", "\\n", "\\x42", "\\0101", "1", "-"]), max_size=4).map("".join)


@given(_FORMAT, st.lists(_ARG, max_size=3))
@settings(max_examples=150, deadline=None)
def test_printf_output_is_bash_s(fmt: str, args: list[str]) -> None:
    found = printf_output(["--", fmt, *args])
    if found is None:
        return
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in [fmt, *args])
    done = subprocess.run(["bash", "-c", f"printf -- {quoted}"], capture_output=True,
                          timeout=10, check=False)  # fmt: skip
    if done.returncode == 0:
        assert found == done.stdout.decode("utf-8", "surrogateescape"), (fmt, args)


@given(st.lists(_ARG, max_size=3), st.sampled_from([[], ["-e"], ["-n"], ["-E"]]))
@settings(max_examples=100, deadline=None)
def test_echo_output_is_bash_s(args: list[str], options: list[str]) -> None:
    quoted = " ".join("'" + w + "'" for w in [*options, *args])
    done = subprocess.run(["bash", "-c", f"echo {quoted}"], capture_output=True, timeout=10,
                          check=False)  # fmt: skip
    expected = done.stdout.decode("utf-8", "surrogateescape")
    found = echo_output([*options, *args])
    assert found + ("" if "-n" in options else "\n") == expected or "\\0" in "".join(args)


_GLOB = st.lists(st.sampled_from(["a", "b", ".", "/", "*", "?", "**"]), min_size=1, max_size=5).map(
    "".join
)
_TOKEN = st.sampled_from([("L", "a"), ("L", "b."), ("L", "/"), ("*",), ("D",)])
_TEXT = st.text(alphabet="ab./-1", max_size=6)


def _shape_regex(shape: tuple[tuple[str, ...], ...]) -> str:
    out = []
    for token in shape:
        if token[0] == "L":
            out.append(re.escape(token[1]))
        elif token[0] == "D":
            out.append("-?[0-9]+")
        else:
            out.append(".*")
    return "".join(out)


@given(_GLOB, st.lists(_TOKEN, min_size=1, max_size=3), _TEXT)
@settings(max_examples=300, deadline=None)
def test_overlap_is_never_missed(glob: str, tokens: list[tuple[str, ...]], text: str) -> None:
    """Sound: a string both the glob and the shape match means they overlap."""
    shape = tuple(tokens)
    compiled = compile_glob(glob)
    if glob_match(compiled, text) and re.fullmatch(_shape_regex(shape), text):
        assert overlap(compiled, shape), (glob, shape, text)
