"""Bash's brace expansion of one word, within a budget.

``{rm,-rf,x}`` is ``rm -rf x``, ``{r..r}m`` is ``rm``, ``{{r,x}m,ls}`` is ``rm xm ls``:
the words bash runs. A short line of brace expansions is millions of words (``{1..9}``
seven times is 4.7 million, ``{a,b}`` thirty times a billion): past the budget the
expansion stops and the caller answers the line unverifiable, in time.

It works on the word's source text (quotes kept, so ``'{a,b}'`` and ``\\{a,b}`` stay
literal and ``{a,'b c'}`` is two words), and the caller reads each result as a word again.
Cold: imported for a word with ``{`` in it. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class TooLargeError(Exception):
    """The expansion needs more words than the budget allows."""


def _skip_quoted(text: str, i: int) -> int:
    """The index after the quoted or escaped piece starting at ``i`` (or ``i + 1``)."""
    ch = text[i]
    if ch == "\\":
        return i + 2
    if ch == "'":
        end = text.find("'", i + 1)
        return len(text) if end < 0 else end + 1
    if ch == '"':
        j = i + 1
        while j < len(text) and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        return j + 1
    if ch == "$" and i + 1 < len(text) and text[i + 1] in "({":
        opener = text[i + 1]
        closer = ")" if opener == "(" else "}"
        depth = 0
        j = i + 1
        while j < len(text):
            c = text[j]
            if c in "\\'\"":
                j = _skip_quoted(text, j)
                continue
            if c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return len(text)
    return i + 1


def _closing(text: str, start: int) -> tuple[int, list[int]]:
    """The ``}`` matching the ``{`` at ``start`` and the top-level commas inside (-1: none)."""
    depth = 0
    commas: list[int] = []
    i = start
    while i < len(text):
        if i == start + 1 and text[i] == "}":
            i += 1  # {}...: a brace right after the opening one is text (bash)
            continue
        ch = text[i]
        if ch in "\\'\"" or (ch == "$" and i + 1 < len(text) and text[i + 1] in "({"):
            i = _skip_quoted(text, i)
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if commas or _is_sequence(text[start + 1 : i]):
                    return i, commas
                depth = 1  # {a},b}: no comma yet, so bash reads on to the next brace
        elif ch == "," and depth == 1:
            commas.append(i)
        i += 1
    return -1, commas


def _sequence(inner: str) -> list[str] | None:
    """``1..5``, ``a..e``, ``01..10..3``: the words of a sequence expression (None: not one)."""
    pieces = inner.split("..")
    if len(pieces) not in (2, 3):
        return None
    step_text = pieces[2] if len(pieces) == 3 else "1"
    try:
        step = abs(int(step_text)) or 1
    except ValueError:
        return None
    lo, hi = pieces[0], pieces[1]
    if _integer(lo) and _integer(hi):
        a, b = int(lo), int(hi)
        width = (
            max(len(lo), len(hi))
            if lo.lstrip("-").startswith("0") or hi.lstrip("-").startswith("0")
            else 0
        )
        count = abs(b - a) // step + 1
        if count > _Budget.current.left:
            raise TooLargeError
        values = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [(f"{v:0{width}d}" if width else str(v)) for v in values]
    if len(lo) == 1 and len(hi) == 1 and lo.isalpha() and hi.isalpha() and len(pieces) <= 3:
        a, b = ord(lo), ord(hi)
        count = abs(b - a) // step + 1
        if count > _Budget.current.left:
            raise TooLargeError
        values = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [chr(v) for v in values]
    return None


def _is_sequence(inner: str) -> bool:
    pieces = inner.split("..")
    if len(pieces) not in (2, 3) or (len(pieces) == 3 and not _integer(pieces[2])):
        return False
    lo, hi = pieces[0], pieces[1]
    return (_integer(lo) and _integer(hi)) or (
        len(lo) == 1 and len(hi) == 1 and lo.isalpha() and hi.isalpha()
    )


def _integer(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit()


class _Budget:
    current: _Budget

    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise TooLargeError


def _expand(text: str) -> list[str]:
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "\\'\"" or (ch == "$" and i + 1 < len(text) and text[i + 1] in "({"):
            i = _skip_quoted(text, i)
            continue
        if ch != "{" or (i == 0 and text.startswith("{}")):
            i += 1  # (a word starting {} is find's placeholder: never an expansion)
            continue
        close, commas = _closing(text, i)
        if close < 0:
            i += 1  # unmatched: bash leaves it and tries the next brace
            continue
        inner = text[i + 1 : close]
        if commas:
            bounds = [i, *commas, close]
            alternatives = [text[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
            middles: list[str] = []
            for alternative in alternatives:
                middles.extend(_expand(alternative))
        else:
            found = _sequence(inner)
            if found is None:
                i += 1  # not an expansion: bash leaves this brace as it is
                continue
            middles = found
        head = text[:i]
        tails = _expand(text[close + 1 :])
        _Budget.current.spend(len(middles) * len(tails))
        return [head + middle + tail for middle in middles for tail in tails]
    return [text]


def expand(text: str, budget: int) -> list[str]:
    """The words bash makes of the source text of one word; TooLargeError past ``budget``."""
    _Budget.current = _Budget(budget)
    return _expand(text)


def expand_words(words: list[Any], script: Any, text: str, word: Callable[[str], Any]) -> list[Any]:
    """The parser's words with brace expansion applied, reading each word's source from
    ``text`` (where its offsets point) and each result back with ``word(text)``; past the
    line's budget the word is kept and the line is answered unverifiable."""
    out: list[Any] = []
    for item in words:
        raw = text[item.start : item.end] if 0 <= item.start < item.end <= len(text) else ""
        if "{" not in raw or item.expanded or raw in ("{", "}") or _assignment(item.value):
            out.append(item)
            continue
        try:
            results = expand(raw, max(script.budget_left(), 0))
        except TooLargeError:
            script.past_budget(f"the brace expansion {raw[:40]!r}")
            out.append(item)
            continue
        if results == [raw]:
            out.append(item)
            continue
        script.work += len(results)
        for result in results:
            made = word(result)
            if made.value or made.quoted:
                out.append(made)
    return out


def _assignment(value: str) -> bool:
    name, eq, _ = value.partition("=")
    return bool(eq) and name.rstrip("+").isidentifier()
