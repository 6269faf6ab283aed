from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.rules.glob_syntax import GlobError, compile_glob, glob_has_slash, is_literal
from hookwise.policy.rules.globs import glob_match


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("*.py", "a.py", True),
        ("*.py", "dir/a.py", False),
        ("**/*.py", "a.py", True),
        ("**/*.py", "x/y/a.py", True),
        ("src/**", "src/a/b.txt", True),
        ("src/**", "lib/a", False),
        ("{a,b}*.{c,d}", "bx.d", True),
        ("{a,b}*.{c,d}", "cx.d", False),
        ("[!a]x", "bx", True),
        ("[!a]x", "ax", False),
        ("[a-c]", "b", True),
        ("[]]", "]", True),
        (".env*", ".env.local", True),
        ("mcp__*__create_*", "mcp__github__create_issue", True),
        ("a**b", "a/x/b", True),
        ("?", "/", False),
        ("\\*", "*", True),
        ("\\*", "a", False),
        ("{src,lib}/**/*.{ts,tsx}", "lib/x/y.tsx", True),
        ("a{b,{c,d}}e", "ade", True),
        ("*", "", True),
    ],
)
def test_glob_match(pattern: str, text: str, expected: bool) -> None:
    assert glob_match(compile_glob(pattern), text) is expected


@pytest.mark.parametrize(
    ("pattern", "offset"),
    [("[abc", 0), ("a{b,c", 1), ("x}", 1), ("ab\\", 2), ("", 0), ("[z-a]", 0), ("[!]", 0)],
)
def test_glob_errors_carry_the_offset(pattern: str, offset: int) -> None:
    with pytest.raises(GlobError) as info:
        compile_glob(pattern)
    assert info.value.offset == offset
    assert info.value.message


def test_helpers() -> None:
    assert is_literal("Bash")
    assert not is_literal("Ba*")
    assert glob_has_slash(compile_glob("src/*.py"))
    assert glob_has_slash(compile_glob("**"))
    assert not glob_has_slash(compile_glob("*.py"))


_SIMPLE = st.text(alphabet="ab*?./", max_size=8)
_TEXT = st.text(alphabet="ab./", max_size=10)


@given(_SIMPLE, _TEXT)
def test_single_star_agrees_with_a_reference(pattern: str, text: str) -> None:
    """Without ** / classes / braces, '*' and '?' are fnmatch's but never cross '/'."""
    if not pattern or "**" in pattern:
        return
    import re

    regex = "".join(
        "[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch) for ch in pattern
    )
    expected = re.fullmatch(regex, text) is not None
    assert glob_match(compile_glob(pattern), text) is expected
    if "/" not in text and "/" not in pattern:
        assert expected == fnmatch.fnmatchcase(text, pattern)


@given(st.text(max_size=30), st.text(max_size=30))
def test_any_pattern_compiles_or_errors_and_matching_never_crashes(pattern: str, text: str) -> None:
    try:
        compiled = compile_glob(pattern)
    except GlobError as exc:
        assert 0 <= exc.offset <= len(pattern)
        return
    assert glob_match(compiled, text) in (True, False)


@given(st.text(alphabet=st.characters(blacklist_characters="*?[]{}\\"), min_size=1, max_size=20))
def test_literals_match_themselves_only(text: str) -> None:
    compiled = compile_glob(text)
    assert glob_match(compiled, text)
    assert not glob_match(compiled, text + "x")


_NAME = st.text(alphabet="ab./_", max_size=6)


@given(
    st.sampled_from(["**/{n}", "**/*{n}", "**/{n}*"]), _NAME, st.text(alphabet="ab./_", max_size=14)
)
def test_last_name_shapes_agree_with_the_general_matcher(shape: str, name: str, text: str) -> None:
    """``**/name``, ``**/*.ext`` and ``**/name*`` are decided on the last name alone (a
    fast path): it must agree with the backtracking matcher on every text."""
    from hookwise.policy.rules.globs import _match_from

    compiled = compile_glob(shape.format(n=name.replace("*", "")))
    if isinstance(compiled, str):
        return
    for alternative in compiled:
        assert glob_match((alternative,), text) is _match_from(alternative, 0, text, 0, set())
