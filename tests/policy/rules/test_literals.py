from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.rules.engine import search
from hookwise.policy.rules.literals import required_literal

_REGEX = st.lists(
    st.sampled_from(
        [
            "a",
            "b",
            "ab",
            "(",
            ")",
            "|",
            "*",
            "+",
            "?",
            ".",
            "\\s",
            "[ab]",
            "(?i)",
            "(?:",
            "{2}",
            "x",
            "A",
            "İ",
            "ı",
            "K",
        ]
    ),
    max_size=8,
).map("".join)
_TEXT = st.text(alphabet="abxAB KİıK\u212a", max_size=12)


@given(_REGEX, _TEXT, st.sampled_from([0, re.IGNORECASE]))
def test_the_literal_prefilter_never_changes_the_answer(
    pattern: str, text: str, flags: int
) -> None:
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return
    entry = (pattern, flags, required_literal(pattern, flags))
    assert search(entry, text) is (compiled.search(text) is not None)


def test_examples() -> None:
    assert required_literal(r"git\s+push.*--force") == "--force"
    assert required_literal("(?i)Deploy\\w+") == "deploy"
    assert required_literal("a|b") == ""
    assert required_literal("(abc)+x") == "abc"
    assert required_literal("x(?i:ABC)") == "x"
    assert required_literal("(?i)İstanbul") == ""  # not ASCII under IGNORECASE
