"""Globs the matcher does not read as bash does (red team s28 E): a bracket expression
negated with ``^`` (bash's spelling of ``!``), a POSIX class, equivalence class or
collating symbol (``[[:alpha:]]``, ``[[=e=]]``, ``[[.a.]]``), any pattern once the line
turns on ``dotglob`` (``shopt -s dotglob``, or a ``GLOBIGNORE`` it sets: ``?env`` then
matches ``.env``). Such a word is what it may match: unknown within its literal frame
(``.[^.]*`` is ``.`` then anything), so a rule whose file could stand there makes the
command unverifiable, instead of the matcher's guess of what bash expands. (A pattern a
rule's ``args`` would see as written, ``grep -h . s*``: rules/maybe.pattern_args.)

Cold: needed only for a command with a pattern. Standard library only.
"""

from __future__ import annotations

# options of the line after which bash matches any pattern differently
_REREAD = frozenset(["dotglob"])

Shape = tuple[tuple[str, ...], ...]


def differs(pattern: str, options: frozenset[str]) -> bool:
    """Whether bash expands ``pattern`` otherwise than the matcher reads it."""
    if options & _REREAD:
        return True
    # (globstar: ``**`` walks any depth of directories, red team s31 Q; the matcher reads
    # that itself, PathRef.deep: on disk as bash expands it, elsewhere as any depth)
    at = pattern.find("[")
    while at >= 0:
        body = pattern[at + 1 : at + 3]
        if body[:1] == "^" or body in ("[:", "[=", "[."):
            return True
        at = pattern.find("[", at + 1)
    return False


def frame(pattern: str) -> Shape:
    """The literal pieces of ``pattern`` with each wildcard (``*``, ``?``, a bracket
    expression) as anything: ``.[^.]*`` is ``.`` then anything."""
    out: list[tuple[str, ...]] = []
    literal: list[str] = []

    def wild() -> None:
        if literal:
            out.append(("L", "".join(literal)))
            literal.clear()
        if not out or out[-1] != ("*",):
            out.append(("*",))

    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            literal.append(pattern[i + 1])
            i += 2
            continue
        if ch in "*?":
            wild()
        elif ch == "[":
            end = _bracket_end(pattern, i)
            if end < 0:
                literal.append(ch)
            else:
                wild()
                i = end
        else:
            literal.append(ch)
        i += 1
    if literal:
        out.append(("L", "".join(literal)))
    return tuple(out)


def _bracket_end(pattern: str, start: int) -> int:
    """The index of the ``]`` closing the bracket expression at ``start`` (-1: none, the
    ``[`` is a literal); a ``]`` first in it, and ``[:...:]`` classes, are inside."""
    i = start + 1
    if i < len(pattern) and pattern[i] in "!^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        if pattern[i] == "[" and pattern[i + 1 : i + 2] in (":", "=", "."):
            close = pattern.find(pattern[i + 1] + "]", i + 2)
            if close < 0:
                return -1
            i = close + 2
            continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1
