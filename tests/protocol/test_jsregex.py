"""``new RegExp(source).test(subject)`` as V8 answers it, through Python's re."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.protocol.jsregex import (
    JSRegexUnsupportedError,
    compile_js_regex,
    js_regex_test,
    to_utf16,
)

FIXTURES = Path(__file__).parent / "fixtures"


def _load() -> list[dict[str, Any]]:
    with open(FIXTURES / "regex.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = _load()


def _check(record: dict[str, Any]) -> str | None:
    """None if we agree with V8 on the record; a description otherwise ('unsupported: ...')."""
    try:
        pattern = compile_js_regex(record["pattern"])
    except JSRegexUnsupportedError as exc:
        return f"unsupported: {exc}"
    if (pattern is not None) != record["valid"]:
        return f"V8 valid={record['valid']}, ours={pattern and pattern.pattern!r}"
    if pattern is None:
        return None
    for subject, index in zip(record["subjects"], record["index"], strict=True):
        match = pattern.search(to_utf16(subject))
        got = None if match is None else match.start()
        if got != index:
            return f"{subject!r}: V8 index {index}, ours {got} ({pattern.pattern!r})"
    return None


@pytest.mark.parametrize("record", RECORDS, ids=[repr(r["pattern"]) for r in RECORDS])
def test_matches_recorded_v8(record: dict[str, Any]) -> None:
    problem = _check(record)
    if problem is not None and problem.startswith("unsupported"):
        # Only the documented limits may be refused, and they are never silently answered.
        assert any(w in problem for w in ("lookbehind", "look-behind", "repetition")), problem
        return
    assert problem is None, problem


def test_few_recorded_patterns_are_unsupported() -> None:
    valid = [r for r in RECORDS if r["valid"]]
    unsupported = [r for r in valid if (_check(r) or "").startswith("unsupported")]
    assert len(valid) > 900
    assert len(unsupported) <= len(valid) // 50


# --------------------------------------------------------------------------- semantics


def _test(source: str, subject: str) -> bool | None:
    pattern = compile_js_regex(source)
    return None if pattern is None else js_regex_test(pattern, subject)


@pytest.mark.parametrize(
    ("source", "subject", "expected"),
    [
        ("shell", "run_shell_command", True),  # unanchored, like RegExp.test
        ("^shell$", "run_shell_command", False),
        ("read_.*", "read_file", True),
        ("a$", "a\n", False),  # JS $ is the very end; re's $ also matches before a final \n
        (".", "\r", False),  # JS . excludes \r \u2028 \u2029 too
        (".", "\u2028", False),
        ("\\d", "\u0660", False),  # ASCII digits only
        ("\\w", "é", False),
        ("\\bé", "é", False),  # \b is ASCII in JS
        ("\\s", "\ufeff", True),
        ("\\s", "\x85", False),
        ("\\s", "\u00a0", True),
        ("\\B", "", True),  # re's \B never matches an empty string
        ("[^]", "\n", True),
        ("[]", "a", False),
        ("[^]", "", False),
        ("a\\/b", "a/b", True),
        ("\\cJ", "\n", True),
        ("\\c", "\\c", True),  # \c without a letter is a literal backslash
        ("[\\c_]", "\x1f", True),
        ("\\x41\\u0042", "AB", True),
        ("\\x4", "x4", True),  # incomplete: identity escape
        ("\\u{41}", "u" * 41, True),  # no u flag: 'u' repeated 41 times
        ("\\0", "\0", True),
        ("\\101", "A", True),  # legacy octal
        ("\\1(a)", "a", True),  # forward reference: empty
        ("(a)\\1", "aa", True),
        ("(a)?\\1b", "b", True),  # unset group: empty
        ("\\8", "8", True),
        ("(?<n>a)\\k<n>", "aa", True),
        ("\\k", "k", True),  # no named groups: identity
        ("\\A", "A", True),  # Annex B identity escapes, not re anchors
        ("\\Z", "Z", True),
        ("\\p{L}", "p{L}", True),
        ("a{", "a{", True),
        ("a{1,", "a{1,", True),
        ("x{,2}", "x{,2}", True),
        ("]", "]", True),
        ("(?<=mcp__)git", "mcp__git", True),
        ("(?<=^|_)file", "read_file", True),
        ("(?<=\\w+)_file", "read_file", True),
        ("(?<!read_)file", "read_file", False),
        ("(?=a)*b", "b", True),
        ("[\\d-z]", "-", True),
        ("😀", "😀", True),
        ("^.$", "😀", False),  # two UTF-16 units
        ("^..$", "😀", True),
        ("[😀]", "\ud83d", True),
    ],
)
def test_js_semantics(source: str, subject: str, expected: bool) -> None:
    assert _test(source, subject) is expected


@pytest.mark.parametrize(
    "source",
    [
        "(?P<x>a)",
        "(?i)shell",
        "(?i:a)",
        "(?#comment)",
        "(?>a)",
        "a++",
        "a**",
        "a{2,1}",
        "{1}",
        "x{1}{2}",
        "(",
        ")",
        "[",
        "[z-a]",
        "\\",
        "(?<a>x)(?<a>y)",
        "(?<a>x)\\k<b>",
        "(?<a>x)\\k",
        "(?<a>x)[\\k]",
        "(?<=a)*",
        "^*",
        "\\b+",
        "(?<1>a)",
        "(?<a-b>a)",
        "run_shell_command(",
    ],
)
def test_rejected_like_v8(source: str) -> None:
    assert compile_js_regex(source) is None


def test_named_groups_keep_python_usable_names() -> None:
    pattern = compile_js_regex("(?<tool>\\w+)__(?<$x>\\w+)")
    assert pattern is not None
    assert "tool" in pattern.groupindex
    match = pattern.search("mcp__git")
    assert match is not None and match.group(1) == "mcp" and match.group(2) == "git"


def test_compiled_patterns_are_cached() -> None:
    assert compile_js_regex("read_.*") is compile_js_regex("read_.*")


def test_variable_lookbehind_re_cannot_do_is_refused() -> None:
    with pytest.raises(JSRegexUnsupportedError):
        compile_js_regex("(?<=a(b)+)c")
    with pytest.raises(JSRegexUnsupportedError):
        compile_js_regex("(?<=a.*)c")


def test_backreference_re_would_answer_differently_is_refused() -> None:
    # JS clears group 1 when the second iteration starts, so \1 is empty: true in V8.
    with pytest.raises(JSRegexUnsupportedError, match="repetition"):
        compile_js_regex("^(?:(a)|b)+\\1$")
    # Every iteration sets the group: re agrees with JS.
    assert _test("^(?:(a)b)+\\1$", "abab" + "a") is True


def test_to_utf16() -> None:
    assert to_utf16("abc") == "abc"
    assert to_utf16("a😀") == "a\ud83d\ude00"


# --------------------------------------------------------------------------- properties

REGEX_ALPHABET = st.sampled_from(
    [*"()[]{}?*+|^$.\\-,:=!<>kcxubBdDwWsS0123456789aP#/", "\ud800", "😀", "é", "\n", "(?<n>"]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(REGEX_ALPHABET, max_size=14).map("".join) | st.text(max_size=12))
def test_any_source_compiles_to_pattern_none_or_refusal(source: str) -> None:
    try:
        pattern = compile_js_regex(source)
    except JSRegexUnsupportedError:
        return
    assert pattern is None or isinstance(pattern, re.Pattern)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=10), st.text(max_size=10))
def test_escaped_literal_matches_itself(literal: str, noise: str) -> None:
    source = "".join("\\" + c if c in "\\^$.|?*+()[]{}/" else c for c in literal)
    pattern = compile_js_regex(source)
    assert pattern is not None
    assert js_regex_test(pattern, noise + literal + noise)


# --------------------------------------------------------------------------- live node

LIVE_TOKENS = [
    *"abcx1_-. ^$|*+?{},20",
    *["(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "\\k<n>", "[", "]", "[^"],
    *["\\d", "\\w", "\\s", "\\b", "\\B", "\\1", "\\2", "\\0", "\\c", "\\x41", "\\u0061", "😀"],
]
LIVE_SUBJECT = [*"abcx12_- \n\r.é😀\\{}", "\u2028", "\ufeff"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_live_against_node() -> None:
    seed = int(os.environ.get("HOOKWISE_FUZZ_SEED", "1"))  # set it to explore further
    rng = random.Random(seed)
    cases = []
    for _ in range(400):
        source = "".join(rng.choice(LIVE_TOKENS) for _ in range(rng.randint(1, 10)))
        subjects = [
            "".join(rng.choice(LIVE_SUBJECT) for _ in range(rng.randint(0, 7))) for _ in range(8)
        ]
        cases.append({"pattern": source, "subjects": subjects})
    proc = subprocess.run(
        ["node", str(FIXTURES / "regex_oracle.js")],
        input="".join(json.dumps(c) + "\n" for c in cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    problems = []
    for line in proc.stdout.split("\n"):
        if not line:
            continue
        out = json.loads(line)
        record = {"pattern": out["pattern"], "valid": out["valid"]}
        if out["valid"]:
            record["subjects"] = out["subjects"]
            record["index"] = [None if r is None else r["index"] for r in out["results"]]
        problem = _check(record)
        if problem is not None and not problem.startswith("unsupported"):
            problems.append(f"{out['pattern']!r}: {problem}")
    assert not problems, f"seed {seed}: " + "\n".join(problems)
