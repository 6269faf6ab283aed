"""A word with parts known only when it runs, read from its text: what files it can name.

``cat ~/.netrc${x}``, ``> zz.pth$1``, ``cp t ../hw/bin/hookwise$(true)``: in a fresh shell
each such part may be empty, and wherever the line does not choose it, any text. So the
word names every path its known parts allow with the unknown parts filled by anything,
the plain path (every part empty) among them (red team s35 D). This module gives that
reading for a word's raw text, where the parser left no shape (a redirection's target, a
word a program's reading was rewritten into): its pieces, its shape for rules/maybe.py
(``("L", text)`` known, ``("*",)`` any text) and its value with every unknown part empty.

Cold: imported only for a word holding ``$`` or a backquote. Standard library only.
"""

from __future__ import annotations

Shape = tuple[tuple[str, ...], ...]

_SPECIAL = frozenset("@*#?$!-0123456789")


def _closing(text: str, start: int, opener: str, closer: str) -> int:
    """The index just past the ``closer`` matching the ``opener`` before ``start``
    (quotes skipped); len(text) when unbalanced (the rest is then unknown)."""
    depth = 1
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'":
            end = text.find("'", i + 1)
            i = len(text) if end < 0 else end + 1
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _expansion_end(text: str, i: int) -> int:
    """The end of the expansion at ``text[i]`` (a ``$`` or a backquote); ``i`` when a
    ``$`` there expands nothing (a literal dollar)."""
    if text[i] == "`":
        end = text.find("`", i + 1)
        return len(text) if end < 0 else end + 1
    after = text[i + 1 : i + 2]
    if after == "{":
        return _closing(text, i + 2, "{", "}")
    if after == "(":
        return _closing(text, i + 2, "(", ")")
    if after == "[":
        return _closing(text, i + 2, "[", "]")
    if after in _SPECIAL and after:
        return i + 2
    j = i + 1
    while j < len(text) and (text[j].isalnum() or text[j] == "_"):
        j += 1
    return j if j > i + 1 else i


def pieces(word: str) -> list[tuple[str, bool]]:
    """The word's pieces as bash reads it, quotes removed: (text, known). An unknown
    piece's text is the expansion as written (``${x:-README}``, ``$(true)``)."""
    out: list[tuple[str, bool]] = []
    literal: list[str] = []
    quoted = False

    def flush() -> None:
        if literal:
            out.append(("".join(literal), True))
            literal.clear()

    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "\\" and i + 1 < len(word):
            nxt = word[i + 1]
            if not quoted or nxt in '$`"\\':
                literal.append(nxt)
            else:
                literal.append(ch + nxt)
            i += 2
            continue
        if ch == "'" and not quoted:
            end = word.find("'", i + 1)
            end = len(word) if end < 0 else end
            literal.append(word[i + 1 : end])
            i = end + 1
            continue
        if ch == '"':
            quoted = not quoted
            i += 1
            continue
        if ch in "$`":
            end = _expansion_end(word, i)
            if end > i:
                flush()
                out.append((word[i:end], False))
                i = end
                continue
        literal.append(ch)
        i += 1
    flush()
    return out


def is_open(word: str) -> bool:
    """Whether the word holds a part known only when it runs."""
    return ("$" in word or "`" in word) and any(not known for _t, known in pieces(word))


def _default(piece: str) -> str | None:
    """What ``${name:-word}``/``${name-word}``/``${name:=word}`` gives with ``name``
    unset, when ``word`` is plain text; ``""`` for any other expansion (unset: empty)."""
    if not piece.startswith("${") or not piece.endswith("}"):
        return ""
    body = piece[2:-1]
    j = 0
    while j < len(body) and (body[j].isalnum() or body[j] == "_"):
        j += 1
    for operator in (":-", ":=", "-", "="):
        if j and body[j:].startswith(operator):
            value = body[j + len(operator) :]
            return None if any(c in value for c in "$`\\'\"") else value
    return ""


def emptied(word: str) -> str | None:
    """The word's value with every unknown part unset (a fresh shell's), None when that
    is not plain text here (a default that expands again)."""
    out: list[str] = []
    for text, known in pieces(word):
        value = text if known else _default(text)
        if value is None:
            return None
        out.append(value)
    return "".join(out)


def shape(word: str, unknown: tuple[str, ...] = ("*",)) -> Shape:
    """The word as known pieces and ``unknown`` for each unknown one (``("*",)`` any
    text; ``("N",)`` text within one name)."""
    out: list[tuple[str, ...]] = []
    for text, known in pieces(word):
        if not known:
            if not out or out[-1] != unknown:
                out.append(unknown)
        elif out and out[-1][0] == "L":
            out[-1] = ("L", out[-1][1] + text)
        elif text:
            out.append(("L", text))
    return tuple(out)


def names_something(found: Shape) -> bool:
    """Whether a shape's known parts name a file or directory (more than ``/`` and
    ``.``): ``$x.env``, ``~/.netrc$x``, not ``$DIR/`` or ``"$f"`` (a word wholly the
    environment's is the user's own choice, not the line's)."""
    return any(token[0] == "L" and token[1].strip("/.") for token in found)
