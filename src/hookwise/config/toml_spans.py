"""Where keys and values are in a TOML text: tomllib gives values, not positions.

One scanner for every TOML file hookwise points into or edits by text (``.agent/hook.toml``'s
error lines, the MCP server entries of Codex's ``config.toml``). Table headers, dotted keys
and inline tables are followed, strings (all four kinds, multi-line included), arrays and
comments are skipped, so a line inside a string that looks like ``[mcp_servers.x]`` is not
taken for a header. Meant for a text tomllib accepted; anything unexpected ends the scan
(``complete`` says so) and what was found until then is kept. Whoever edits from these
spans parses the result back: the scanner locates, tomllib is the judge.
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from dataclasses import dataclass

_BARE = re.compile(r"[A-Za-z0-9_-]")


@dataclass(frozen=True)
class KeyValue:
    """One ``key = value`` of the text, its key as a full path from the document's root."""

    path: tuple[str, ...]
    key_start: int  # the first character of the key as written
    last_part: int  # where the key's last part starts (``fs.command``: at ``command``)
    value_start: int
    value_end: int
    inline: bool  # inside an inline table ``{ ... }``
    line: int


class TomlSpans:
    """The positions of one TOML text's tables and key/value pairs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[tuple[str, ...], int] = {}
        self.values: dict[tuple[str, ...], list[KeyValue]] = {}
        self.complete = False
        with contextlib.suppress(IndexError, ValueError):
            self._document()
            self.complete = True

    def find(self, path: tuple[str, ...]) -> int | None:
        """The line of ``path``, or of its nearest ancestor written down."""
        while path:
            line = self.lines.get(path)
            if line is not None:
                return line
            path = path[:-1]
        return None

    def value(self, path: tuple[str, ...]) -> KeyValue | None:
        """The one pair that sets ``path``; None when none does or several do (an array of
        tables), so an edit never picks one of them by guess."""
        found = self.values.get(path, [])
        return found[0] if len(found) == 1 and self.complete else None

    # -- scanning --

    def _peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else ""

    def _advance(self, count: int = 1) -> None:
        for _ in range(count):
            if self.pos < len(self.text):
                if self.text[self.pos] == "\n":
                    self.line += 1
                self.pos += 1

    def _skip_blank(self, newlines: bool) -> None:
        while True:
            char = self._peek()
            if char in (" ", "\t", "\r") or (newlines and char == "\n"):
                self._advance()
            elif char == "#":
                while self._peek() not in ("", "\n"):
                    self._advance()
            else:
                return

    def _note(self, path: tuple[str, ...], line: int) -> None:
        for end in range(1, len(path) + 1):
            self.lines.setdefault(path[:end], line)

    def _document(self) -> None:
        table: tuple[str, ...] = ()
        while True:
            self._skip_blank(newlines=True)
            char = self._peek()
            if not char:
                return
            if char == "[":
                line = self.line
                double = self._peek(1) == "["
                self._advance(2 if double else 1)
                table, _ = self._key()
                self._skip_blank(newlines=False)
                if self.text[self.pos : self.pos + (2 if double else 1)] != "]" * (
                    2 if double else 1
                ):
                    raise ValueError("header not closed")
                self._advance(2 if double else 1)
                self._note(table, line)
            else:
                self._pair(table, inline=False)

    def _pair(self, table: tuple[str, ...], *, inline: bool) -> None:
        line, start = self.line, self.pos
        key, last = self._key()
        path = table + key
        self._note(path, line)
        self._skip_blank(newlines=False)
        if self._peek() != "=":
            raise ValueError("no '='")
        self._advance()
        self._skip_blank(newlines=False)
        value_start = self.pos
        self._value(path)
        pair = KeyValue(path, start, last, value_start, self.pos, inline, line)
        self.values.setdefault(path, []).append(pair)

    def _key(self) -> tuple[tuple[str, ...], int]:
        parts: list[str] = []
        while True:
            self._skip_blank(newlines=False)
            last = self.pos
            char = self._peek()
            if char in ('"', "'"):
                raw_start = self.pos
                self._string()
                raw = self.text[raw_start : self.pos]
                parts.append(next(iter(tomllib.loads(f"{raw} = 0\n"))))  # escapes decoded
            else:
                start = self.pos
                while _BARE.match(self._peek()):
                    self._advance()
                if self.pos == start:
                    raise ValueError("no key")
                parts.append(self.text[start : self.pos])
            self._skip_blank(newlines=False)
            if self._peek() != ".":
                return tuple(parts), last
            self._advance()

    def _string(self) -> None:
        quote = self._peek()
        if self.text.startswith(quote * 3, self.pos):
            self._advance(3)
            while not self.text.startswith(quote * 3, self.pos):
                if not self._peek():
                    raise ValueError("unterminated string")
                if quote == '"' and self._peek() == "\\":
                    self._advance()
                self._advance()
            while self._peek(3) == quote:  # up to two quotes may end the content
                self._advance()
            self._advance(3)
            return
        self._advance()
        while self._peek() != quote:
            if self._peek() in ("", "\n"):
                raise ValueError("unterminated string")
            if quote == '"' and self._peek() == "\\":
                self._advance()
            self._advance()
        self._advance()

    def _value(self, path: tuple[str, ...]) -> None:
        self._skip_blank(newlines=False)
        char = self._peek()
        if char in ('"', "'"):
            self._string()
        elif char == "[":
            self._advance()
            while True:
                self._skip_blank(newlines=True)
                if self._peek() == "]":
                    self._advance()
                    return
                if self._peek() == ",":
                    self._advance()
                    continue
                self._value(path)
        elif char == "{":
            self._advance()
            while True:
                self._skip_blank(newlines=True)
                char = self._peek()
                if char == "}":
                    self._advance()
                    return
                if char == ",":
                    self._advance()
                    continue
                self._pair(path, inline=True)
        else:
            start = self.pos
            while self._peek() not in ("", "\n", ",", "]", "}", "#"):
                self._advance()
            if self.pos == start:
                raise ValueError("no value")
            # a bare value (number, boolean, date) ends before blanks ahead of a comment
            while self.pos > 0 and self.text[self.pos - 1] in (" ", "\t", "\r"):
                self.pos -= 1


# --------------------------------------------------------------------------- edits


def sibling_after(text: str, pair: KeyValue, key: str, value: str) -> tuple[tuple[int, int], str]:
    """Where and how a new ``key = value`` beside ``pair`` is written (an edit: the span
    to replace, its new text), in the pair's own form: a line under it with the same key
    prefix (``fs.args = ...``), or in an inline table ``, args = ...`` after its value."""
    prefix = text[pair.key_start : pair.last_part]
    if pair.inline:
        return (pair.value_end, pair.value_end), f", {prefix}{key} = {value}"
    line_start = text.rfind("\n", 0, pair.key_start) + 1
    indent = text[line_start : pair.key_start]
    line_end = text.find("\n", pair.value_end)
    at = len(text) if line_end < 0 else line_end + 1
    newline = "" if line_end >= 0 else "\n"
    return (at, at), f"{newline}{indent}{prefix}{key} = {value}\n"


def pair_span(text: str, pair: KeyValue) -> tuple[int, int]:
    """The text that removes ``pair``: its whole line, or in an inline table the pair and
    the comma before it (after it, when it comes first)."""
    if pair.inline:
        before = text[: pair.key_start].rstrip(" \t")
        if before.endswith(","):
            return len(before) - 1, pair.value_end
        after = len(text[pair.value_end :]) - len(text[pair.value_end :].lstrip(" \t"))
        end = pair.value_end + after
        if text[end : end + 1] == ",":
            end += 1 + len(text[end + 1 :]) - len(text[end + 1 :].lstrip(" \t"))
        return pair.key_start, end
    line_start = text.rfind("\n", 0, pair.key_start) + 1
    line_end = text.find("\n", pair.value_end)
    return line_start, len(text) if line_end < 0 else line_end + 1
