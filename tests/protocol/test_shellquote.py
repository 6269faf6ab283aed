"""escapeShellArg / shell-quote ``quote``: the engine's exact text, and what bash makes of it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.protocol.shellquote import escape_shell_arg, quote

FIXTURES = Path(__file__).parent / "fixtures"


def _load() -> list[dict[str, Any]]:
    with open(FIXTURES / "shellquote.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = _load()


@pytest.mark.parametrize("record", RECORDS, ids=[repr(r["arg"]) for r in RECORDS])
def test_matches_recorded_javascript(record: dict[str, Any]) -> None:
    assert quote([record["arg"]]) == record["quote"]
    assert escape_shell_arg(record["arg"]) == record["escapeShellArg"]


@pytest.mark.parametrize(
    ("arg", "expected"),
    [
        ("", ""),  # escapeShellArg: empty stays empty (quote gives '')
        ("abc", "abc"),
        ("a b", "'a b'"),
        ('say "hi"', "'say \"hi\"'"),
        ("it's me", '"it\'s me"'),
        ("it's $HOME!", '"it\'s \\$HOME\\!"'),
        ("$HOME", "\\$HOME"),
        ("a;b", "a\\;b"),
        ("C:;", "C:\\;"),  # a drive-letter prefix keeps its colon bare
        ("C:foo", "C\\:foo"),
        ("x\u00a0y", "'x\u00a0y'"),  # JS \s includes no-break space
        ("x\x85y", "x\x85y"),  # ...but not NEL
        ("/tmp/dir", "/tmp/dir"),
    ],
)
def test_examples(arg: str, expected: str) -> None:
    assert escape_shell_arg(arg) == expected


def test_quote_joins_with_spaces() -> None:
    assert quote(["a b", "", "c"]) == "'a b' '' c"


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_any_text_quotes_to_text(arg: str) -> None:
    out = escape_shell_arg(arg)
    assert (out == "") == (arg == "")
    if arg and all(c.isascii() and (c.isalnum() or c in "_-./+%~") for c in arg):
        assert out == arg


# Characters bash would still interpret after shell-quote's quoting: '!' stays escaped
# inside double quotes, a leading '~' is expanded, NUL cannot be passed in argv.
SAFE_TEXT = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00!"), min_size=1
).filter(lambda s: not s.startswith("~"))


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not on PATH")
@settings(max_examples=150, deadline=None)
@given(SAFE_TEXT)
def test_bash_reads_back_the_argument(arg: str) -> None:
    out = subprocess.run(
        ["bash", "-c", "printf '%s' " + escape_shell_arg(arg)],
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
    ).stdout
    assert out == arg.encode("utf-8")
