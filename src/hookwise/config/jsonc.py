"""JSON with comments, as the hosts read their settings files, and span-preserving edits.

Reading: ``strip_json_comments`` (comments become spaces, so offsets stay), then
``JSON.parse`` with JavaScript values and key order, and a located error (line, column,
JSON path) instead of a throw. Editing: the members of an object with their exact spans,
so a change rewrites one value or inserts one member and leaves every other byte as the
user wrote it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

from hookwise.protocol.jsvalue import (
    JS_WHITESPACE,
    JSON,
    UNDEFINED,
    js_json_parse,
    js_string,
    json_type_name,
)

__all__ = [
    "JsonSyntaxError",
    "Member",
    "insert_member",
    "line_indent",
    "locate_json_error",
    "object_members",
    "parse_json_text",
    "parse_jsonc",
    "scan_value_end",
    "scan_ws",
    "strip_json_comments",
]


def strip_json_comments(text: str) -> str:
    """strip-json-comments 3.1 with ``whitespace: true``: comments become spaces.

    Line breaks inside comments are kept, so line:column positions stay valid. As in the
    library, only characters that are not ECMAScript whitespace are blanked (a no-break space
    in a comment survives and then fails the JSON parse, as it does in the CLI).
    """
    out: list[str] = []
    inside_string = False
    inside_comment: str | None = None  # "single" | "multi"
    offset = 0
    i = 0
    n = len(text)

    def blank(start: int, end: int | None = None) -> str:
        return "".join(c if c in JS_WHITESPACE else " " for c in text[start:end])

    while i < n:
        char = text[i]
        pair = text[i : i + 2]
        if not inside_comment and char == '"' and not _is_escaped(text, i):
            inside_string = not inside_string
        if inside_string:
            i += 1
            continue
        if not inside_comment and pair == "//":
            out.append(text[offset:i])
            offset = i
            inside_comment = "single"
            i += 2
            continue
        if inside_comment == "single" and pair == "\r\n":
            i += 1
            inside_comment = None
            out.append(blank(offset, i))
            offset = i
            i += 1
            continue
        if inside_comment == "single" and char == "\n":
            inside_comment = None
            out.append(blank(offset, i))
            offset = i
        elif not inside_comment and pair == "/*":
            out.append(text[offset:i])
            offset = i
            inside_comment = "multi"
            i += 2
            continue
        elif inside_comment == "multi" and pair == "*/":
            i += 1
            inside_comment = None
            out.append(blank(offset, i + 1))
            offset = i + 1
            i += 1
            continue
        i += 1
    out.append(blank(offset) if inside_comment else text[offset:])
    return "".join(out)


def _is_escaped(text: str, quote: int) -> bool:
    index = quote - 1
    count = 0
    while index >= 0 and text[index] == "\\":
        index -= 1
        count += 1
    return count % 2 == 1


@dataclass(frozen=True)
class JsonSyntaxError:
    """Where a JSON text stops being JSON: 1-based line and column, and the JSON path."""

    message: str
    line: int
    column: int
    path: str  # "hooks.BeforeTool[0].hooks[1]", "" for the root

    def describe(self, origin: str) -> str:
        where = f"at {self.path}" if self.path else "at the top level"
        return f"{origin}:{self.line}:{self.column}: invalid JSON {where}: {self.message}"


def parse_json_text(text: str) -> tuple[JSON, JsonSyntaxError | None]:
    """``JSON.parse`` (JS values and key order), with a located error instead of a throw."""
    try:
        return js_json_parse(text), None
    except ValueError as exc:
        located = locate_json_error(text)
        if located is not None:
            return UNDEFINED, located
        return UNDEFINED, JsonSyntaxError(str(exc), 1, 1, "")


def parse_jsonc(text: str) -> tuple[JSON, JsonSyntaxError | None]:
    """A settings file: comments stripped, then ``JSON.parse`` (no trailing commas)."""
    return parse_json_text(strip_json_comments(text))


_NUMBER_RE: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_JSON_WS: Final = " \t\n\r"
_ESCAPES: Final = frozenset('"\\/bfnrt')
_HEX: Final = frozenset("0123456789abcdefABCDEF")


class _JsonStopError(Exception):
    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


def locate_json_error(text: str) -> JsonSyntaxError | None:
    """Find the first syntax error of a JSON text, with its position and JSON path.

    Iterative, so that deeply nested input cannot exhaust the stack.
    """
    # Each frame: [kind, key or index, expecting] where kind is "{" or "[".
    stack: list[list[JSON]] = []
    pos = 0
    n = len(text)

    def skip(p: int) -> int:
        while p < n and text[p] in _JSON_WS:
            p += 1
        return p

    def describe_char(p: int) -> str:
        return "end of file" if p >= n else repr(text[p])

    def scan_string(p: int) -> int:
        p += 1
        while True:
            if p >= n:
                raise _JsonStopError(p, "unterminated string")
            c = text[p]
            if c == '"':
                return p + 1
            if c == "\\":
                if p + 1 >= n:
                    raise _JsonStopError(p, "unterminated string")
                e = text[p + 1]
                if e == "u":
                    digits = text[p + 2 : p + 6]
                    if len(digits) < 4 or any(d not in _HEX for d in digits):
                        raise _JsonStopError(p, "bad \\u escape (expected 4 hex digits)")
                    p += 6
                    continue
                if e not in _ESCAPES:
                    raise _JsonStopError(p, f"invalid escape \\{e}")
                p += 2
                continue
            if ord(c) < 0x20:
                raise _JsonStopError(p, "control character in string (escape it)")
            p += 1

    def scan_value(p: int) -> int:
        """Scan a scalar, or open a container (pushing a frame); return the new position."""
        if p >= n:
            raise _JsonStopError(p, "expected a value, got end of file")
        c = text[p]
        if c == "{":
            stack.append(["{", None, "key_or_end"])
            return p + 1
        if c == "[":
            stack.append(["[", 0, "value_or_end"])
            return p + 1
        if c == '"':
            return scan_string(p)
        for word in ("true", "false", "null"):
            if text.startswith(word, p):
                return p + len(word)
        match = _NUMBER_RE.match(text, p)
        if match and match.end() > p:
            end = match.end()
            if end < n and text[end] in ".eE":
                raise _JsonStopError(end, "malformed number")
            return end
        if text.startswith("NaN", p) or text.startswith("Infinity", p):
            raise _JsonStopError(p, "NaN and Infinity are not JSON")
        if c == "'":
            raise _JsonStopError(p, "strings must use double quotes")
        raise _JsonStopError(p, f"expected a value, got {describe_char(p)}")

    try:
        pos = scan_value(skip(0))
        while True:
            pos = skip(pos)
            if not stack:
                if pos < n:
                    raise _JsonStopError(
                        pos, f"unexpected {describe_char(pos)} after the JSON value"
                    )
                return None
            frame = stack[-1]
            kind, state = frame[0], frame[2]
            char = text[pos] if pos < n else ""
            if kind == "{":
                if state in ("key_or_end", "key"):
                    if char == "}" and state == "key_or_end":
                        stack.pop()
                        pos += 1
                        continue
                    if char == "}":
                        raise _JsonStopError(
                            pos, "trailing comma before '}' (JSON has no trailing commas)"
                        )
                    if char != '"':
                        raise _JsonStopError(
                            pos, f"expected a double-quoted key, got {describe_char(pos)}"
                        )
                    end = scan_string(pos)
                    frame[1] = js_json_parse(text[pos:end])
                    pos = skip(end)
                    if pos >= n or text[pos] != ":":
                        raise _JsonStopError(
                            pos, f"expected ':' after the key, got {describe_char(pos)}"
                        )
                    frame[2] = "after_value"
                    pos = scan_value(skip(pos + 1))
                    continue
                if char == ",":
                    frame[2] = "key"
                    pos += 1
                    continue
                if char == "}":
                    stack.pop()
                    pos += 1
                    continue
                raise _JsonStopError(
                    pos, f"expected ',' or '}}' after a member, got {describe_char(pos)}"
                )
            # array
            if state in ("value_or_end", "value"):
                if char == "]" and state == "value_or_end":
                    stack.pop()
                    pos += 1
                    continue
                if char == "]":
                    raise _JsonStopError(
                        pos, "trailing comma before ']' (JSON has no trailing commas)"
                    )
                frame[2] = "after_value"
                pos = scan_value(pos)
                continue
            if char == ",":
                frame[2] = "value"
                index = frame[1]
                frame[1] = (index if isinstance(index, int) else 0) + 1
                pos += 1
                continue
            if char == "]":
                stack.pop()
                pos += 1
                continue
            raise _JsonStopError(
                pos, f"expected ',' or ']' after an element, got {describe_char(pos)}"
            )
    except _JsonStopError as stop:
        line = text.count("\n", 0, stop.pos) + 1
        column = stop.pos - (text.rfind("\n", 0, stop.pos) + 1) + 1
        return JsonSyntaxError(stop.message, line, column, _json_path(stack))


def _json_path(stack: list[list[JSON]]) -> str:
    out = ""
    for kind, key, state in stack:
        if kind == "{":
            if state == "after_value" and key is not None:
                text = js_string(key)
                out += f".{text}" if re.fullmatch(r"[A-Za-z_$][\w$]*", text) else f"[{key!r}]"
        else:
            out += f"[{key}]"
    return out.lstrip(".")


# --------------------------------------------------------------------------- editing


def scan_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WS:
        i += 1
    return i


def scan_value_end(text: str, i: int) -> int:
    """End of the (valid JSON) value starting at ``i``."""
    if text[i] == '"':
        i += 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        return i + 1
    if text[i] in "{[":
        depth = 0
        while True:
            c = text[i]
            if c == '"':
                i = scan_value_end(text, i)
                continue
            if c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
    while i < len(text) and text[i] not in ",}] \t\n\r":
        i += 1
    return i


@dataclass(frozen=True)
class Member:
    key: str
    key_start: int
    value_start: int
    value_end: int


def object_members(text: str, open_brace: int) -> tuple[list[Member], int]:
    """Members of the (valid JSON) object at ``open_brace`` and the index of its ``}``."""
    members: list[Member] = []
    i = scan_ws(text, open_brace + 1)
    if text[i] == "}":
        return members, i
    while True:
        key_end = scan_value_end(text, i)
        key = js_string(js_json_parse(text[i:key_end]))
        value_start = scan_ws(text, scan_ws(text, key_end) + 1)
        value_end = scan_value_end(text, value_start)
        members.append(Member(key, i, value_start, value_end))
        i = scan_ws(text, value_end)
        if text[i] == ",":
            i = scan_ws(text, i + 1)
            continue
        return members, i


def line_indent(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    match = re.match(r"[ \t]*", text[start:])
    return match.group(0) if match else ""


def insert_member(original: str, stripped: str, open_brace: int, key: str, value: str) -> str:
    """Add ``"key": value`` as the last member of the object at ``open_brace``."""
    members, close = object_members(stripped, open_brace)
    member = f"{json.dumps(key, ensure_ascii=False)}: {value}"
    newline = "\r\n" if "\r\n" in original else "\n"
    if not members:
        inner = original[open_brace + 1 : close]
        if "\n" in inner or "\n" not in original[open_brace:]:
            return original[: open_brace + 1] + member + original[open_brace + 1 :]
        indent = line_indent(original, open_brace) + "  "
        return f"{original[: open_brace + 1]}{newline}{indent}{member}{original[open_brace + 1 :]}"
    last = members[-1]
    if "\n" in stripped[open_brace:close]:
        indent = line_indent(original, last.key_start)
        text = f",{newline}{indent}{member}"
    else:
        text = f", {member}"
    return original[: last.value_end] + text + original[last.value_end :]


# --------------------------------------------------------------------------- span editing


@dataclass
class JsonNode:
    """A JSON value's span in the text; objects keep (key, key start) per member."""

    kind: str  # "object" | "array" | "scalar"
    start: int
    end: int
    children: list[JsonNode] = field(default_factory=list)
    keys: list[tuple[str, int]] = field(default_factory=list)

    def member(self, key: str) -> tuple[int, JsonNode] | None:
        """The last member named ``key`` (JSON.parse keeps the last duplicate)."""
        for index in range(len(self.keys) - 1, -1, -1):
            if self.keys[index][0] == key:
                return index, self.children[index]
        return None

    def span(self, index: int) -> tuple[int, int]:
        """Start and end of element ``index`` (an object member starts at its key)."""
        child = self.children[index]
        return (self.keys[index][1] if self.kind == "object" else child.start), child.end


class _SpanParser:
    """Spans of a text that is already known to be valid JSON (comments blanked)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _JSON_WS:
            i += 1
        return i

    def string_end(self, i: int) -> int:
        i += 1
        while self.text[i] != '"':
            i += 2 if self.text[i] == "\\" else 1
        return i + 1

    def value(self, i: int) -> JsonNode:
        i = self.skip(i)
        char = self.text[i]
        if char == "{":
            node = JsonNode("object", i, i)
            i = self.skip(i + 1)
            while self.text[i] != "}":
                key_end = self.string_end(i)
                key = json.loads(self.text[i:key_end])
                colon = self.skip(key_end)
                child = self.value(colon + 1)
                node.keys.append((key, i))
                node.children.append(child)
                i = self.skip(child.end)
                if self.text[i] == ",":
                    i = self.skip(i + 1)
            node.end = i + 1
            return node
        if char == "[":
            node = JsonNode("array", i, i)
            i = self.skip(i + 1)
            while self.text[i] != "]":
                child = self.value(i)
                node.children.append(child)
                i = self.skip(child.end)
                if self.text[i] == ",":
                    i = self.skip(i + 1)
            node.end = i + 1
            return node
        if char == '"':
            return JsonNode("scalar", i, self.string_end(i))
        end = i
        while end < len(self.text) and self.text[end] not in ",}] \t\n\r":
            end += 1
        return JsonNode("scalar", i, end)


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"{line}:{column}"


def _a(name: str) -> str:
    """ "an object", "a string"... as messages say it ("null" stays bare)."""
    return name if name == "null" else ("an " if name[0] in "aeiou" else "a ") + name


class JsonEditError(ValueError):
    """The file cannot be edited in place (it does not parse, or is not an object)."""


class JsonDocument:
    """A settings file as text, edited in place: only the changed spans move.

    ``jsonc``: comments are allowed (Gemini CLI's settings); they are blanked for parsing,
    which keeps every position, and survive every edit outside hookwise's own entries.
    """

    def __init__(self, text: str, origin: str, *, jsonc: bool) -> None:
        self.origin = origin
        self.jsonc = jsonc
        self.bom = "\ufeff" if text.startswith("\ufeff") else ""
        self.text = text[len(self.bom) :]
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        self.root = self._parse()

    # -- parsing ---------------------------------------------------------------

    def _stripped(self) -> str:
        if not self.jsonc:
            return self.text
        return strip_json_comments(self.text)

    def _parse(self) -> JsonNode:
        stripped = self._stripped()
        value, problem = parse_json_text(stripped)
        if problem is not None:
            raise JsonEditError(problem.describe(self.origin) + "; fix it first (nothing written)")
        if not isinstance(value, dict):
            raise JsonEditError(
                f"{self.origin}:1:1: expected a JSON object at the top level, got "
                f"{_a(json_type_name(value))}; nothing written"
            )
        try:
            return _SpanParser(stripped).value(0)
        except (RecursionError, IndexError, ValueError) as exc:
            raise JsonEditError(f"{self.origin}: cannot edit this file safely: {exc}") from None

    def value_of(self, node: JsonNode) -> Any:
        return json.loads(self._stripped()[node.start : node.end])

    def has_comment(self, start: int, end: int) -> bool:
        return self.jsonc and self._stripped()[start:end] != self.text[start:end]

    def where(self, node: JsonNode) -> str:
        return f"{self.origin}:{_position(self.text, node.start)}"

    def rendered(self) -> str:
        return self.bom + self.text

    # -- formatting ------------------------------------------------------------

    def _line_indent(self, index: int) -> str:
        start = self.text.rfind("\n", 0, index) + 1
        match = re.match(r"[ \t]*", self.text[start:])
        return match.group(0) if match else ""

    def _starts_line(self, index: int) -> bool:
        start = self.text.rfind("\n", 0, index) + 1
        return not self.text[start:index].strip()

    def _unit(self) -> str:
        """The document's indentation step (two spaces when it shows none)."""
        for node in (self.root, *self.root.children):
            if node.kind in ("object", "array") and node.children:
                first, _ = node.span(0)
                if self._starts_line(first):
                    outer, inner = self._line_indent(node.start), self._line_indent(first)
                    if inner.startswith(outer) and len(inner) > len(outer):
                        return inner[len(outer) :]
        return "  "

    def _render(self, value: Any, indent: str) -> str:
        text = json.dumps(value, indent=self._unit(), ensure_ascii=False)
        return text.replace("\n", self.newline + indent)

    # -- edits (each one re-parses: files are small, positions stay exact) -----

    def _replace(self, start: int, end: int, text: str, *more: tuple[int, int, str]) -> None:
        """Replace spans (given in any order, not overlapping), then parse again."""
        for begin, stop, value in sorted([(start, end, text), *more], reverse=True):
            self.text = self.text[:begin] + value + self.text[stop:]
        self.root = self._parse()

    def replace_value(self, node: JsonNode, text: str) -> None:
        """Put ``text`` (JSON) where ``node`` is; every other byte stays."""
        self._replace(node.start, node.end, text)

    def append(self, container: JsonNode, value: Any, key: str | None = None) -> None:
        """Add ``value`` (as member ``key`` of an object) after the container's last element."""
        multiline = "\n" in self.text
        if not container.children:
            outer = self._line_indent(container.start)
            inner = outer + self._unit()
            item = self._element(key, value, inner if multiline else None)
            open_, close = container.start + 1, container.end - 1
            if self.has_comment(open_, close) or self.text[open_:close].strip():
                self._replace(open_, open_, f"{self.newline}{inner}{item}" if multiline else item)
            elif multiline:
                self._replace(open_, close, f"{self.newline}{inner}{item}{self.newline}{outer}")
            else:
                self._replace(open_, close, item)
            return
        first, _ = container.span(0)
        _, last_end = container.span(len(container.children) - 1)
        if "\n" in self.text[container.start : container.end]:
            if self._starts_line(first):
                inner = self._line_indent(first)
            else:
                inner = self._line_indent(container.start) + self._unit()
            item = self._element(key, value, inner)
            self._replace(last_end, last_end, f",{self.newline}{inner}{item}")
        else:
            self._replace(last_end, last_end, ", " + self._element(key, value, None))

    def _element(self, key: str | None, value: Any, indent: str | None) -> str:
        body = (
            self._render(value, indent)
            if indent is not None
            else json.dumps(value, ensure_ascii=False)
        )
        return body if key is None else f"{json.dumps(key, ensure_ascii=False)}: {body}"

    def remove(self, container: JsonNode, index: int) -> None:
        """Remove element ``index`` with its separator (comments around it are kept)."""
        count = len(container.children)
        start, end = container.span(index)
        if count == 1:
            open_, close = container.start + 1, container.end - 1
            if self.has_comment(open_, start):
                self._replace(start, end, "")
            elif self.has_comment(end, close):
                self._replace(open_, end, "")  # what append inserted before the comments
            else:
                self._replace(open_, close, "")
            return
        stripped = self._stripped()
        if index > 0:
            _, previous_end = container.span(index - 1)
            if self.has_comment(previous_end, start):
                comma = stripped.index(",", previous_end, start)
                self._replace(start, end, "", (comma, comma + 1, ""))
            else:
                self._replace(previous_end, end, "")
            return
        following, _ = container.span(1)
        if self.has_comment(end, following):
            comma = stripped.index(",", end, following)
            self._replace(start, end, "", (comma, comma + 1, ""))
        else:
            self._replace(start, following, "")
