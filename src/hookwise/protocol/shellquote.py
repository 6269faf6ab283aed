"""Gemini CLI's ``escapeShellArg`` for bash: shell-quote 1.8.3's ``quote``, character for character.

The engine splices escaped values (paths, for instance) into hook command lines; a hook that
sees a differently quoted command runs differently, so hookwise quotes with the same three
rules, in the same order, rather than with ``shlex.quote``. JS ``\\s`` is the ECMAScript
whitespace set, not Python's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hookwise.protocol.jsvalue import JS_WHITESPACE

__all__ = ["escape_shell_arg", "quote"]

_WS = re.escape(JS_WHITESPACE)
_SINGLE_OK = re.compile(f'["{_WS}\\\\]')  # /["\s\\]/
_DOUBLE_NEEDED = re.compile(f"[\"'{_WS}]")  # /["'\s]/
_DOUBLE_ESCAPES = re.compile(r'(["\\$`!])')
_BARE_ESCAPES = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])")


def _quote_one(word: str) -> str:
    if word == "":
        return "''"
    if _SINGLE_OK.search(word) and "'" not in word:
        return "'" + word + "'"
    if _DOUBLE_NEEDED.search(word):
        return '"' + _DOUBLE_ESCAPES.sub(r"\\\1", word) + '"'
    # A drive-letter prefix like "C:" before a special character keeps its colon bare.
    return _BARE_ESCAPES.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), word)


def quote(args: Iterable[str]) -> str:
    """shell-quote's ``quote(args)`` for string arguments, joined with spaces."""
    return " ".join(_quote_one(arg) for arg in args)


def escape_shell_arg(arg: str) -> str:
    """``escapeShellArg(arg, 'bash')``: empty for an empty string, else ``quote([arg])``."""
    if not arg:
        return ""
    return _quote_one(arg)
