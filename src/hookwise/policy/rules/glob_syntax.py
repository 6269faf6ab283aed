"""Glob syntax: compiling a pattern into the tokens globs.py matches.

Cold: only the policy compiler (loader.py, condition_syntax.py) compiles globs, when a
policy file changes; the hook matches the compiled globs it reads from the policy cache,
so this code stays out of every hook call.

Syntax: ``*`` any run of characters except ``/``; ``**`` any run including ``/`` (``**/``
also matches nothing, so ``**/x`` matches ``x``); ``?`` one character except ``/``;
``[abc]``, ``[a-z]``, ``[!a]`` / ``[^a]`` a character class; ``{a,b}`` alternatives (nested
allowed); ``\\x`` a literal ``x``. The compiled form is described in globs.py.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.policy.rules.globs import Alternative, CompiledGlob, Token

MAX_ALTERNATIVES = 256
GLOB_CHARS = frozenset("*?[{\\")


class GlobError(ValueError):
    """An invalid glob; ``offset`` is the index in the pattern where the problem is."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def is_literal(pattern: str) -> bool:
    """True when the pattern has no glob syntax at all."""
    return not any(ch in GLOB_CHARS for ch in pattern)


def _expand_braces(pattern: str, base: int = 0) -> list[tuple[str, list[int]]]:
    """Brace expansion; each result carries, per character, its offset in the pattern."""
    results: list[tuple[str, list[int]]] = [("", [])]
    i = 0
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= n:
                raise GlobError("a trailing backslash escapes nothing", base + i)
            piece, offs = pattern[i : i + 2], [base + i, base + i + 1]
            results = [(s + piece, o + offs) for s, o in results]
            i += 2
            continue
        if ch == "[":
            end = _class_end(pattern, i)
            if end < 0:
                raise GlobError("unclosed '[' (a character class needs a closing ']')", base + i)
            piece = pattern[i : end + 1]
            offs = list(range(base + i, base + end + 1))
            results = [(s + piece, o + offs) for s, o in results]
            i = end + 1
            continue
        if ch == "{":
            end, parts = _brace_parts(pattern, i)
            if end < 0:
                raise GlobError("unclosed '{' (alternatives need a closing '}')", base + i)
            options: list[tuple[str, list[int]]] = []
            for start, stop in parts:
                options.extend(_expand_braces(pattern[start:stop], base + start))
            results = [(s + t, o + to) for s, o in results for t, to in options]
            if len(results) > MAX_ALTERNATIVES:
                raise GlobError(
                    f"the alternatives expand to more than {MAX_ALTERNATIVES} patterns", base + i
                )
            i = end + 1
            continue
        if ch == "}":
            raise GlobError("'}' without a matching '{' (escape it as '\\}')", base + i)
        results = [(s + ch, [*o, base + i]) for s, o in results]
        i += 1
    return results


def _class_end(pattern: str, start: int) -> int:
    """Index of the ']' closing the class opened at ``start``, or -1."""
    i = start + 1
    n = len(pattern)
    if i < n and pattern[i] in "!^":
        i += 1
    if i < n and pattern[i] == "]":
        i += 1
    while i < n:
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1


def _brace_parts(pattern: str, start: int) -> tuple[int, list[tuple[int, int]]]:
    """(index of the closing '}', [(start, stop) of each comma-separated part])."""
    depth = 0
    parts: list[tuple[int, int]] = []
    part_start = start + 1
    i = start
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            end = _class_end(pattern, i)
            if end < 0:
                return -1, []
            i = end + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                parts.append((part_start, i))
                return i, parts
        elif ch == "," and depth == 1:
            parts.append((part_start, i))
            part_start = i + 1
        i += 1
    return -1, []


def _tokens(text: str, offsets: list[int]) -> Alternative:
    tokens: list[Token] = []
    literal: list[str] = []

    def flush() -> None:
        if literal:
            tokens.append(("L", "".join(literal)))
            literal.clear()

    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            literal.append(text[i + 1])
            i += 2
        elif ch == "*":
            flush()
            if i + 1 < n and text[i + 1] == "*":
                j = i + 2
                while j < n and text[j] == "*":
                    j += 1
                if j < n and text[j] == "/":
                    tokens.append(("**/",))
                    j += 1
                else:
                    tokens.append(("**",))
                i = j
            else:
                tokens.append(("*",))
                i += 1
        elif ch == "?":
            flush()
            tokens.append(("?",))
            i += 1
        elif ch == "[":
            flush()
            end = _class_end(text, i)
            tokens.append(_class_token(text[i + 1 : end], offsets[i]))
            i = end + 1
        else:
            literal.append(ch)
            i += 1
    flush()
    return tuple(tokens)


def _class_token(body: str, offset: int) -> Token:
    negated = False
    if body[:1] in ("!", "^"):
        negated = True
        body = body[1:]
    chars: list[str] = []
    ranges: list[tuple[str, str]] = []
    items: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            items.append(body[i + 1])
            i += 2
        else:
            items.append(body[i])
            i += 1
    if not items:
        raise GlobError("an empty character class matches nothing", offset)
    j = 0
    while j < len(items):
        if j + 2 < len(items) and items[j + 1] == "-":
            lo, hi = items[j], items[j + 2]
            if lo > hi:
                raise GlobError(f"the range {lo}-{hi} is reversed", offset)
            ranges.append((lo, hi))
            j += 3
        else:
            chars.append(items[j])
            j += 1
    return ("C", negated, "".join(chars), tuple(ranges))


def compile_glob(pattern: str) -> CompiledGlob:
    """Compile a glob; raises GlobError (with the offending offset) when it is invalid."""
    if not isinstance(pattern, str):
        raise GlobError("a glob must be a string", 0)
    if pattern == "":
        raise GlobError("an empty glob matches nothing", 0)
    alternatives = []
    for text, offsets in _expand_braces(pattern):
        alternatives.append(_tokens(text, offsets))
    return tuple(dict.fromkeys(alternatives))


def glob_has_slash(compiled: CompiledGlob) -> bool:
    """True when some alternative names a directory part (then it is matched on the path)."""
    for alt in compiled:
        for token in alt:
            if token[0] in ("**", "**/"):
                return True
            if token[0] == "L" and "/" in token[1]:  # type: ignore[operator]
                return True
    return False
