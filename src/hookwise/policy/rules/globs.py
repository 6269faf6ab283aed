"""Matching a compiled glob against a tool name or a path, without :mod:`re`.

The policy compiler turns each glob into plain data (glob_syntax.py, which also documents
the syntax) so it can be marshalled into the compiled policy cache; the hook only matches.
A compiled glob is a tuple of alternatives, each a tuple of tokens:

``("L", text)`` literal, ``("?",)`` one character except ``/``, ``("*",)`` a run without
``/``, ``("**",)`` any run, ``("**/",)`` nothing or a run ending in ``/``,
``("C", negated, chars, ranges)`` a class (``ranges`` is a tuple of ``(lo, hi)`` pairs).
The hook's cache (cache_write.py) stores a glob that is one literal as its text alone.
Matching is case-sensitive and whole-string.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the hot path imports no typing
    from typing import TypeAlias

    Token: TypeAlias = tuple[object, ...]
    Alternative: TypeAlias = tuple[Token, ...]
    CompiledGlob: TypeAlias = tuple[Alternative, ...]


def _class_matches(token: Token, ch: str) -> bool:
    _, negated, chars, ranges = token
    assert isinstance(chars, str) and isinstance(ranges, tuple)
    hit = ch in chars or any(lo <= ch <= hi for lo, hi in ranges)
    return hit != negated


def _match_alternative(tokens: Alternative, text: str) -> bool:
    # Fast paths for the shapes policies use most.
    count = len(tokens)
    if count == 1:
        kind = tokens[0][0]
        if kind == "L":
            return text == tokens[0][1]
        if kind == "**":
            return True
        if kind == "*":
            return "/" not in text
    elif count == 2 and tokens[0] == ("*",) and tokens[1][0] == "L":
        suffix = tokens[1][1]
        assert isinstance(suffix, str)
        return text.endswith(suffix) and "/" not in text[: len(text) - len(suffix)]
    elif count == 2 and tokens[0][0] == "L" and tokens[1] == ("**",):
        prefix = tokens[0][1]
        assert isinstance(prefix, str)
        return text.startswith(prefix)
    if 2 <= count <= 3 and tokens[0] == ("**/",):  # **/name, **/*.ext, **/name*
        found = _last_name(tokens, text[text.rfind("/") + 1 :])
        if found is not None:
            return found
    failed: set[tuple[int, int]] = set()
    return _match_from(tokens, 0, text, 0, failed)


def _last_name(tokens: Alternative, name: str) -> bool | None:
    """For ``**/`` then ``L``, ``* L`` or ``L *`` (a literal without "/"): whether the
    path's last ``name`` matches, which decides the whole glob; None for other shapes."""
    second = tokens[1]
    if len(tokens) == 2:
        lit = second[1] if second[0] == "L" else None
        return name == lit if isinstance(lit, str) and "/" not in lit else None
    third = tokens[2]
    if second == ("*",) and third[0] == "L":
        lit = third[1]
        return name.endswith(lit) if isinstance(lit, str) and "/" not in lit else None
    if second[0] == "L" and third == ("*",):
        lit = second[1]
        return name.startswith(lit) if isinstance(lit, str) and "/" not in lit else None
    return None


def _match_from(
    tokens: Alternative, ti: int, text: str, si: int, failed: set[tuple[int, int]]
) -> bool:
    n = len(text)
    while ti < len(tokens):
        token = tokens[ti]
        kind = token[0]
        if kind == "L":
            lit = token[1]
            assert isinstance(lit, str)
            if not text.startswith(lit, si):
                return False
            si += len(lit)
            ti += 1
        elif kind == "?":
            if si >= n or text[si] == "/":
                return False
            si += 1
            ti += 1
        elif kind == "C":
            if si >= n or text[si] == "/" or not _class_matches(token, text[si]):
                return False
            si += 1
            ti += 1
        else:
            key = (ti, si)
            if key in failed:
                return False
            if ti + 1 == len(tokens) and kind == "**":
                return True
            candidates: range | list[int]
            if kind == "*":
                stop = text.find("/", si)
                last = n if stop < 0 else stop
                candidates = range(si, last + 1)
            elif kind == "**":
                candidates = range(si, n + 1)
            else:  # "**/": nothing, or anything ending in "/"
                candidates = [si, *(i + 1 for i in range(si, n) if text[i] == "/")]
            for pos in candidates:
                if _match_from(tokens, ti + 1, text, pos, failed):
                    return True
            failed.add(key)
            return False
    return si == n


def glob_match(compiled: CompiledGlob | str, text: str) -> bool:
    """Whether ``text`` matches the compiled glob (any of its alternatives), or is the
    literal ``compiled`` text."""
    if isinstance(compiled, str):
        return compiled == text
    for alt in compiled:  # noqa: SIM110 - no generator per call on the engine's hottest path
        if _match_alternative(alt, text):
            return True
    return False
