"""``new RegExp(source)`` (no flags, V8 in Node 20) translated to a Python ``re`` pattern.

Gemini CLI matches tool names with ``new RegExp(matcher).test(toolName)`` and falls back to
string equality when the constructor throws. Python's ``re`` reads a different language
(``(?P<x>``, ``(?i)``, ``\\A``, possessive ``a++``) and gives shared syntax other meanings
(``\\d``/``\\w``/``\\b`` are Unicode-aware, ``$`` also matches before a final newline, ``.``
matches ``\\r``), so the source is parsed with the ECMAScript grammar, Annex B (web
compatibility) included, and re-emitted construct by construct.

Strings are UTF-16 to JavaScript: without the ``u`` flag a pattern works on code units, so
``.`` matches half of an astral character and ``😀+`` repeats only its low surrogate. The
translation does the same, so it must be matched against ``to_utf16(subject)`` (which
``js_regex_test`` does); for subjects without astral characters that is the subject itself.

Where ``re`` would answer differently, ``JSRegexUnsupportedError`` is raised rather than
guessing. That covers a lookbehind whose width varies in ways that cannot be split into
fixed-width lookbehinds; a backreference inside a lookbehind to a group on its right (V8
matches lookbehinds right to left); a backreference to a group in a repetition that may leave
it stale (JS clears a group's capture at each iteration and rejects empty iterations past the
minimum, ``re`` does neither: ``/^(?:(a)|b)+\\1$/``); and nesting deeper than about 250
groups. Otherwise ``test`` and the match position agree with V8; the matched text and
captures can still differ where an iteration may match the empty string.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TypeAlias

from hookwise.protocol.jsvalue import JS_WHITESPACE, utf16_units

__all__ = ["JSRegexUnsupportedError", "compile_js_regex", "js_regex_test", "to_utf16"]


class JSRegexUnsupportedError(ValueError):
    """V8 accepts the pattern but Python's ``re`` cannot reproduce it."""


def to_utf16(text: str) -> str:
    """The string as a non-unicode JS regex sees it: astral characters as surrogate pairs."""
    if all(ord(ch) <= 0xFFFF for ch in text):
        return text
    return "".join(utf16_units(text))


def js_regex_test(pattern: re.Pattern[str], subject: str) -> bool:
    """``RegExp.prototype.test`` for a pattern from ``compile_js_regex``."""
    return pattern.search(to_utf16(subject)) is not None


@functools.lru_cache(maxsize=1024)
def compile_js_regex(source: str) -> re.Pattern[str] | None:
    """What ``new RegExp(source)`` accepts, as a Python pattern; None where V8 throws.

    Raises JSRegexUnsupportedError for the few valid patterns ``re`` cannot express (see module).
    """
    try:
        parser = _Parser(utf16_units(source))
        tree = parser.parse()
    except _V8SyntaxError:
        return None
    except RecursionError as exc:
        raise JSRegexUnsupportedError(f"pattern nested too deeply: {source!r}") from exc
    emitter = _Emitter(parser)
    try:
        text = emitter.emit_top(tree)
        return re.compile(text, re.ASCII)
    except (re.error, OverflowError, RecursionError) as exc:
        raise JSRegexUnsupportedError(f"cannot express {source!r} with Python re: {exc}") from exc


# --------------------------------------------------------------------------- syntax tree


@dataclass(slots=True)
class _Unit:
    code: int


@dataclass(slots=True)
class _Set:
    ranges: tuple[tuple[int, int], ...]  # sorted, disjoint, merged
    negated: bool


@dataclass(slots=True)
class _Assert:
    kind: str  # "^", "$", "b", "B"


@dataclass(slots=True)
class _Group:
    body: _Node
    index: int | None  # None: (?:...)
    name: str | None


@dataclass(slots=True)
class _Look:
    body: _Node
    behind: bool
    negative: bool


@dataclass(slots=True)
class _BackRef:
    index: int
    name: str | None
    opened_before: int  # capturing groups opened before it in the source


@dataclass(slots=True)
class _Repeat:
    body: _Node
    min: int
    max: int | None  # None: unbounded
    greedy: bool


@dataclass(slots=True)
class _Seq:
    items: list[_Node]


@dataclass(slots=True)
class _Alt:
    alts: list[_Node]


_Node: TypeAlias = _Unit | _Set | _Assert | _Group | _Look | _BackRef | _Repeat | _Seq | _Alt

# --------------------------------------------------------------------------- char sets

_MAX_CODE = 0x10FFFF
_K_INFINITY = 2**31 - 1  # V8 RegExpTree::kInfinity: larger counts are clamped to it
_K_MAX_CAPTURES = (1 << 15) - 1  # more capturing groups: "Too many captures"

Ranges: TypeAlias = tuple[tuple[int, int], ...]


def _normalize(ranges: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(r for r in ranges if r[0] <= r[1]):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    start = 0
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    if start <= _MAX_CODE:
        out.append((start, _MAX_CODE))
    return tuple(out)


_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE: Ranges = _normalize([(ord(ch), ord(ch)) for ch in JS_WHITESPACE])
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": _complement(_DIGIT),
    "w": _WORD,
    "W": _complement(_WORD),
    "s": _SPACE,
    "S": _complement(_SPACE),
}
_LINE_TERMINATORS: Ranges = _normalize([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
_DOT = _Set(_LINE_TERMINATORS, negated=True)

# --------------------------------------------------------------------------- group names

# V8 takes ID_Start/ID_Continue from ICU (Unicode 17 in the Node 20 build the fixtures come
# from); Python's str.isidentifier() uses XID_* of an older Unicode. These are the code points
# V8 accepts beyond Python 3.11's; Python's sets are subsets of V8's.
_EXTRA_ID_START = (
    "37A 88F C5C CDC E33 EB3 1C89-1C8A 309B-309C A7CB-A7CF A7D2 A7D4 A7DA-A7DC A7F1 FC5E-FC63 "
    "FDFA-FDFB FE70 FE72 FE74 FE76 FE78 FE7A FE7C FE7E FF9E-FF9F 105C0-105F3 10940-10959 "
    "10D4A-10D65 10D6F-10D85 10EC2-10EC7 1123F-11240 11380-11389 1138B 1138E 11390-113B5 113B7 "
    "113D1 113D3 11BC0-11BE0 11DB0-11DDB 11F02 11F04-11F10 11F12-11F33 1342F 13441-13446 "
    "13460-143FA 16100-1611D 16D40-16D6C 16EA0-16EB8 16EBB-16ED3 16FF2-16FF6 187F8-187FF 18CFF "
    "18D09-18D1E 18D80-18DF2 1B132 1B155 1DF25-1DF2A 1E030-1E06D 1E4D0-1E4EB 1E5D0-1E5ED 1E5F0 "
    "1E6C0-1E6DE 1E6E0-1E6E2 1E6E4-1E6E5 1E6E7-1E6ED 1E6F0-1E6F4 1E6FE-1E6FF"
)
_EXTRA_ID_PART = (
    "897 CF3 ECE 1ACF-1ADD 1AE0-1AEB 30FB FF65 10D40-10D49 10D69-10D6D 10EFA-10EFF 11241 "
    "113B8-113C0 113C2 113C5 113C7-113CA 113CC-113D0 113D2 113E1-113E2 116D0-116E3 11B60-11B67 "
    "11BF0-11BF9 11DE0-11DE9 11F00-11F01 11F03 11F34-11F3A 11F3E-11F42 11F50-11F5A 13440 "
    "13447-13455 1611E-16139 16D70-16D79 1CCF0-1CCF9 1E08F 1E4EC-1E4F9 1E5EE-1E5EF 1E5F1-1E5FA "
    "1E6E3 1E6E6 1E6EE-1E6EF 1E6F5"
)


def _parse_table(table: str) -> Ranges:
    out: list[tuple[int, int]] = []
    for item in table.split():
        lo, _, hi = item.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return tuple(out)


def _in_ranges(code: int, ranges: Ranges) -> bool:
    return any(lo <= code <= hi for lo, hi in ranges)


@functools.cache
def _extra_start() -> Ranges:
    return _parse_table(_EXTRA_ID_START)


@functools.cache
def _extra_part() -> Ranges:
    return _extra_start() + _parse_table(_EXTRA_ID_PART)


def _is_id_start(code: int) -> bool:
    if 0xD800 <= code <= 0xDFFF:
        return False
    ch = chr(code)
    return ch in "$_" or ch.isidentifier() or _in_ranges(code, _extra_start())


def _is_id_part(code: int) -> bool:
    if 0xD800 <= code <= 0xDFFF:
        return False
    ch = chr(code)
    return ch in "$\u200c\u200d" or ("a" + ch).isidentifier() or _in_ranges(code, _extra_part())


# --------------------------------------------------------------------------- parser


class _V8SyntaxError(Exception):
    """V8 would throw a SyntaxError."""


_HEX = "0123456789abcdefABCDEF"
_OCTAL = "01234567"
_DIGITS = "0123456789"
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}


def _scan_captures(units: list[str]) -> tuple[int, bool]:
    """V8's ScanForCaptures: how many capturing groups, and whether any is named."""
    count = 0
    named = False
    i, n = 0, len(units)
    while i < n:
        c = units[i]
        i += 1
        if c == "\\":
            i += 1
        elif c == "[":
            while i < n:
                c = units[i]
                i += 1
                if c == "\\":
                    i += 1
                elif c == "]":
                    break
        elif c == "(":
            if i < n and units[i] == "?":
                i += 1
                if i >= n or units[i] != "<":
                    continue
                i += 1
                if i < n and units[i] in "=!":
                    continue
                named = True
            count += 1
    return count, named


class _Parser:
    """Recursive descent over UTF-16 units, following V8's regexp-parser in non-unicode mode."""

    def __init__(self, units: list[str]) -> None:
        self.s = units
        self.n = len(units)
        self.i = 0
        self.total, self.has_named = _scan_captures(units)
        self.groups = 0
        self.names: dict[str, int] = {}
        self.group_names: dict[int, str] = {}
        self.named_refs: list[_BackRef] = []

    def fail(self, why: str) -> _V8SyntaxError:
        return _V8SyntaxError(why)

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < self.n else ""

    def parse(self) -> _Node:
        tree = self.disjunction()
        if self.i < self.n:
            raise self.fail("Unmatched ')'")
        for ref in self.named_refs:
            assert ref.name is not None
            if ref.name not in self.names:
                raise self.fail("Invalid named capture referenced")
            ref.index = self.names[ref.name]
        return tree

    def disjunction(self) -> _Node:
        alts = [self.alternative()]
        while self.peek() == "|":
            self.i += 1
            alts.append(self.alternative())
        return alts[0] if len(alts) == 1 else _Alt(alts)

    def alternative(self) -> _Node:
        items: list[_Node] = []
        while self.i < self.n and self.s[self.i] not in "|)":
            items.append(self.term())
        return items[0] if len(items) == 1 else _Seq(items)

    def term(self) -> _Node:
        c = self.s[self.i]
        atom: _Node
        if c in "^$":
            self.i += 1
            return _Assert(c)  # not quantifiable: a following '*' is "Nothing to repeat"
        if c == "\\":
            nxt = self.peek(1)
            if nxt == "":
                raise self.fail("\\ at end of pattern")
            if nxt in ("b", "B"):
                self.i += 2
                return _Assert(nxt)
            atom = self.atom_escape()
        elif c == "(":
            atom = self.group()
            if isinstance(atom, _Look) and atom.behind:
                if self.quantifier() is not None:
                    raise self.fail("Invalid quantifier")
                return atom
        elif c == "[":
            atom = self.char_class()
        elif c == ".":
            self.i += 1
            atom = _DOT
        elif c in "*+?":
            raise self.fail("Nothing to repeat")
        elif c == "{":
            if self.interval() is not None:
                raise self.fail("Nothing to repeat")
            self.i += 1
            atom = _Unit(ord(c))
        else:  # includes ']' and '}', literal in Annex B
            self.i += 1
            atom = _Unit(ord(c))
        quant = self.quantifier()
        if quant is None:
            return atom
        lo, hi, greedy = quant
        return _Repeat(atom, lo, hi, greedy)

    def quantifier(self) -> tuple[int, int | None, bool] | None:
        c = self.peek()
        lo: int
        hi: int | None
        if c == "*":
            lo, hi, self.i = 0, None, self.i + 1
        elif c == "+":
            lo, hi, self.i = 1, None, self.i + 1
        elif c == "?":
            lo, hi, self.i = 0, 1, self.i + 1
        elif c == "{":
            parsed = self.interval()
            if parsed is None:
                return None
            lo, hi, self.i = parsed
            if hi is not None and hi < lo:
                raise self.fail("numbers out of order in {} quantifier")
        else:
            return None
        greedy = True
        if self.peek() == "?":
            self.i += 1
            greedy = False
        return lo, hi, greedy

    def interval(self) -> tuple[int, int | None, int] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` at the cursor: (min, max or None, end), else None."""
        j = self.i + 1
        lo, j = self.decimal(j)
        if lo is None:
            return None
        if j < self.n and self.s[j] == "}":
            return lo, (None if lo >= _K_INFINITY else lo), j + 1
        if j >= self.n or self.s[j] != ",":
            return None
        j += 1
        if j < self.n and self.s[j] == "}":
            return lo, None, j + 1
        hi, j = self.decimal(j)
        if hi is None or j >= self.n or self.s[j] != "}":
            return None
        return lo, (None if hi >= _K_INFINITY else hi), j + 1

    def decimal(self, j: int) -> tuple[int | None, int]:
        start = j
        while j < self.n and self.s[j] in _DIGITS:
            j += 1
        if j == start:
            return None, j
        return min(int("".join(self.s[start:j])), _K_INFINITY), j

    def group(self) -> _Node:
        self.i += 1  # '('
        index: int | None = None
        name: str | None = None
        look: tuple[bool, bool] | None = None  # (behind, negative)
        if self.peek() == "?":
            nxt = self.peek(1)
            if nxt == ":":
                self.i += 2
            elif nxt in ("=", "!"):
                self.i += 2
                look = (False, nxt == "!")
            elif nxt == "<" and self.peek(2) in ("=", "!"):
                look = (True, self.peek(2) == "!")
                self.i += 3
            elif nxt == "<":
                self.i += 2
                index = self.new_group()
                name = self.group_name()
                if name in self.names:
                    raise self.fail("Duplicate capture group name")
                self.names[name] = index
                self.group_names[index] = name
            else:
                raise self.fail("Invalid group")
        else:
            index = self.new_group()
        body = self.disjunction()
        if self.peek() != ")":
            raise self.fail("Unterminated group")
        self.i += 1
        if look is not None:
            return _Look(body, behind=look[0], negative=look[1])
        return _Group(body, index, name)

    def new_group(self) -> int:
        if self.groups >= _K_MAX_CAPTURES:
            raise self.fail("Too many captures")
        self.groups += 1
        return self.groups

    def group_name(self) -> str:
        """A RegExpIdentifierName up to '>' (V8 reads it in unicode mode)."""
        chars: list[str] = []
        while True:
            if self.i >= self.n:
                raise self.fail("Invalid capture group name")
            c = self.s[self.i]
            self.i += 1
            code = ord(c)
            if 0xD800 <= code <= 0xDBFF and 0xDC00 <= ord(self.peek() or "\0") <= 0xDFFF:
                code = 0x10000 + ((code - 0xD800) << 10) + (ord(self.s[self.i]) - 0xDC00)
                self.i += 1
            elif c == "\\":
                if self.peek() != "u":
                    raise self.fail("Invalid capture group name")
                self.i += 1
                code = self.unicode_escape_in_name()
            if not chars:
                if not _is_id_start(code):
                    raise self.fail("Invalid capture group name")
            elif code == ord(">"):
                return "".join(chars)
            elif not _is_id_part(code):
                raise self.fail("Invalid capture group name")
            chars.append(chr(code))

    def unicode_escape_in_name(self) -> int:
        if self.peek() == "{":
            j = self.i + 1
            start = j
            while j < self.n and self.s[j] in _HEX:
                j += 1
            if j == start or j >= self.n or self.s[j] != "}":
                raise self.fail("Invalid Unicode escape")
            value = int("".join(self.s[start:j]), 16)
            if value > 0x10FFFF:
                raise self.fail("Invalid Unicode escape")
            self.i = j + 1
            return value
        lead = self.hex_at(self.i, 4)
        if lead is None:
            raise self.fail("Invalid Unicode escape")
        self.i += 4
        if 0xD800 <= lead <= 0xDBFF and self.peek() == "\\" and self.peek(1) == "u":
            trail = self.hex_at(self.i + 2, 4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                self.i += 6
                return 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
        return lead

    def hex_at(self, j: int, count: int) -> int | None:
        digits = self.s[j : j + count]
        if len(digits) != count or any(d not in _HEX for d in digits):
            return None
        return int("".join(digits), 16)

    def octal(self) -> int:
        """LegacyOctalEscapeSequence at the cursor (an octal digit): at most \\377."""
        value = int(self.s[self.i])
        self.i += 1
        if self.peek() and self.peek() in _OCTAL:
            value = value * 8 + int(self.s[self.i])
            self.i += 1
            if value < 32 and self.peek() and self.peek() in _OCTAL:
                value = value * 8 + int(self.s[self.i])
                self.i += 1
        return value

    def atom_escape(self) -> _Node:
        e = self.s[self.i + 1]
        if e in _CLASS_ESCAPES:
            self.i += 2
            return _Set(_CLASS_ESCAPES[e], negated=False)
        if e in "123456789":
            j = self.i + 1
            while j < self.n and self.s[j] in _DIGITS:
                j += 1
            value = int("".join(self.s[self.i + 1 : j]))
            if value <= self.total:
                self.i = j
                return _BackRef(value, None, self.groups)
            if e in "89":
                self.i += 2
                return _Unit(ord(e))
            self.i += 1
            return _Unit(self.octal())
        if e == "0":
            self.i += 1
            return _Unit(self.octal())
        if e == "k" and self.has_named:
            self.i += 2
            if self.peek() != "<":
                raise self.fail("Invalid named reference")
            self.i += 1
            ref = _BackRef(0, self.group_name(), self.groups)
            self.named_refs.append(ref)
            return ref
        return _Unit(self.char_escape(in_class=False))

    def char_escape(self, *, in_class: bool) -> int:
        """CharacterEscape after the backslash at the cursor (Annex B identity escapes)."""
        self.i += 1
        c = self.s[self.i]
        if c in _CONTROL_ESCAPES:
            self.i += 1
            return _CONTROL_ESCAPES[c]
        if c == "c":
            letter = self.peek(1)
            if letter and ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                self.i += 2
                return ord(letter) & 0x1F
            if in_class and letter and (letter in _DIGITS or letter == "_"):
                self.i += 2
                return ord(letter) & 0x1F
            return 0x5C  # a literal backslash; the 'c' is read next as itself
        if c == "x":
            value = self.hex_at(self.i + 1, 2)
            if value is not None:
                self.i += 3
                return value
        elif c == "u":
            value = self.hex_at(self.i + 1, 4)
            if value is not None:
                self.i += 5
                return value
        elif c == "k" and in_class and self.has_named:
            raise self.fail("Invalid escape")
        self.i += 1
        return ord(c)

    def char_class(self) -> _Node:
        self.i += 1  # '['
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        ranges: list[tuple[int, int]] = []
        dash = (0x2D, 0x2D)
        while True:
            if self.i >= self.n:
                raise self.fail("Unterminated character class")
            if self.s[self.i] == "]":
                self.i += 1
                break
            first = self.class_atom()
            if self.peek() != "-":
                ranges.extend(first)
                continue
            self.i += 1
            if self.i >= self.n:
                raise self.fail("Unterminated character class")
            if self.s[self.i] == "]":
                ranges.extend(first)
                ranges.append(dash)
                continue
            second = self.class_atom()
            if _is_escape_set(first) or _is_escape_set(second):
                ranges.extend(first)
                ranges.append(dash)
                ranges.extend(second)
                continue
            lo, hi = first[0][0], second[0][0]
            if lo > hi:
                raise self.fail("Range out of order in character class")
            ranges.append((lo, hi))
        return _Set(_normalize(ranges), negated)

    def class_atom(self) -> list[tuple[int, int]]:
        """One ClassAtom: a single unit as [(c, c)], or a class escape's ranges (marked)."""
        c = self.s[self.i]
        if c != "\\":
            self.i += 1
            return [(ord(c), ord(c))]
        e = self.peek(1)
        if e == "":
            raise self.fail("\\ at end of pattern")
        if e == "b":
            self.i += 2
            return [(8, 8)]
        if e in _CLASS_ESCAPES:
            self.i += 2
            return [_ESCAPE_MARK, *_CLASS_ESCAPES[e]]
        if e in _OCTAL:
            self.i += 1
            code = self.octal()
            return [(code, code)]
        if e in "89":
            self.i += 2
            return [(ord(e), ord(e))]
        code = self.char_escape(in_class=True)
        return [(code, code)]


# A class escape (\d, \w...) in a class cannot be a range endpoint (Annex B: the '-' is then
# literal); class_atom flags its ranges with this empty marker range, dropped by _normalize.
_ESCAPE_MARK = (1, 0)


def _is_escape_set(atom: list[tuple[int, int]]) -> bool:
    return bool(atom) and atom[0] == _ESCAPE_MARK


# --------------------------------------------------------------------------- emitter

# \b is ASCII under re.ASCII; re's \B fails on the empty string, where JS's matches.
_ASSERTIONS = {"^": r"\A", "$": r"\Z", "b": r"\b", "B": r"(?!\b)"}
_EXPANSION_LIMIT = 256
_UNBOUNDED = 1 << 62


def _lit(code: int) -> str:
    """One code unit as Python pattern text, escaped so it means itself everywhere."""
    if code < 0x80:
        ch = chr(code)
        if ch.isalnum() or ch == "_":
            return ch
        if 0x20 <= code < 0x7F:
            return "\\" + ch
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _set_width(node: _Set) -> int:
    full = node.ranges == ((0, _MAX_CODE),)
    empty = not node.ranges
    return 0 if (empty and not node.negated) or (full and node.negated) else 1


def _set_text(node: _Set) -> str:
    if _set_width(node) == 0:
        return "(?!)"
    ranges = node.ranges
    if not ranges or ranges == ((0, _MAX_CODE),):
        return "(?s:.)"
    if not node.negated and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _lit(ranges[0][0])
    body = "".join(_lit(lo) if lo == hi else f"{_lit(lo)}-{_lit(hi)}" for lo, hi in ranges)
    return "[" + ("^" if node.negated else "") + body + "]"


def _quantifier(node: _Repeat) -> str:
    lo, hi = node.min, node.max
    if (lo, hi) == (0, None):
        text = "*"
    elif (lo, hi) == (1, None):
        text = "+"
    elif (lo, hi) == (0, 1):
        text = "?"
    elif hi is None:
        text = f"{{{lo},}}"
    elif lo == hi:
        text = f"{{{lo}}}"
    else:
        text = f"{{{lo},{hi}}}"
    return text if node.greedy else text + "?"


def _has_captures(node: _Node) -> bool:
    if isinstance(node, _Group):
        return node.index is not None or _has_captures(node.body)
    if isinstance(node, _Look | _Repeat):
        return _has_captures(node.body)
    if isinstance(node, _Seq):
        return any(_has_captures(item) for item in node.items)
    if isinstance(node, _Alt):
        return any(_has_captures(alt) for alt in node.alts)
    return False


def _always_captures(node: _Node, index: int) -> bool:
    """Whether every match of ``node`` sets group ``index``."""
    if isinstance(node, _Group):
        return node.index == index or _always_captures(node.body, index)
    if isinstance(node, _Seq):
        return any(_always_captures(item, index) for item in node.items)
    if isinstance(node, _Alt):
        return all(_always_captures(alt, index) for alt in node.alts)
    if isinstance(node, _Repeat):
        return node.min > 0 and _always_captures(node.body, index)
    if isinstance(node, _Look):
        return not node.negative and _always_captures(node.body, index)
    return False


def _trim_left(node: _Node) -> _Node:
    """A lookbehind body with its leftmost quantifier cut to its minimum count.

    A match of ``X{m,n}Y`` ending at a position contains one of ``X{m}Y`` ending there (its
    last m iterations), so the lookbehind's answer is unchanged; only captures would differ,
    and this is used on bodies without any.
    """
    if isinstance(node, _Repeat):
        if node.min == 0:
            return _Repeat(node.body, 0, 0, node.greedy)
        rest = [_Repeat(node.body, node.min - 1, node.min - 1, node.greedy)] if node.min > 1 else []
        return _Seq([_trim_left(node.body), *rest])
    if isinstance(node, _Seq):
        items = list(node.items)
        while items:
            first = _trim_left(items[0])
            if not _is_nothing(first):
                items[0] = first
                break
            items.pop(0)  # X{0} is gone, and what followed it is now leftmost
        return _Seq(items)
    if isinstance(node, _Group) and node.index is None:
        return _Group(_trim_left(node.body), None, None)
    if isinstance(node, _Alt):
        return _Alt([_trim_left(alt) for alt in node.alts])
    return node


def _is_nothing(node: _Node) -> bool:
    if isinstance(node, _Repeat):
        return node.max == 0
    if isinstance(node, _Seq):
        return all(_is_nothing(item) for item in node.items)
    if isinstance(node, _Group):
        return node.index is None and _is_nothing(node.body)
    return False


class _Emitter:
    """Writes the tree as Python ``re`` text, keeping JS capture numbering."""

    def __init__(self, parser: _Parser) -> None:
        self.js_names = parser.group_names
        self.sets_capture: dict[int, bool] = {}  # id(_BackRef) -> can refer to a capture
        self.loops: list[_Repeat] = []
        self.loops_around: dict[int, list[_Repeat]] = {}  # group -> repeats (max > 1) around it
        self.py_names: dict[int, str] = {}

    def emit_top(self, tree: _Node) -> str:
        self.resolve(tree, frozenset(), backward=False)
        self.name_groups()
        return self.emit(tree)

    # ---- which backreferences can see a capture

    def resolve(self, node: _Node, done: frozenset[int], *, backward: bool) -> frozenset[int]:
        """Walk in matching order; ``done`` = groups that may hold a capture at this point.

        A JS backreference to a group that has not captured yet (forward, enclosing, or
        cleared by a quantifier's new iteration) matches the empty string.
        """
        if isinstance(node, _BackRef):
            self.sets_capture[id(node)] = node.index in done
            return done
        if isinstance(node, _Seq):
            for item in reversed(node.items) if backward else node.items:
                done = self.resolve(item, done, backward=backward)
            return done
        if isinstance(node, _Alt):
            out = done
            for alt in node.alts:
                out |= self.resolve(alt, done, backward=backward)
            return out
        if isinstance(node, _Group):
            if node.index is not None:
                self.loops_around[node.index] = list(self.loops)
            inner = self.resolve(node.body, done, backward=backward)
            return inner | {node.index} if node.index is not None else inner
        if isinstance(node, _Look):
            inner = self.resolve(node.body, done, backward=node.behind)
            return done if node.negative else inner
        if isinstance(node, _Repeat):
            looping = node.max is None or node.max > 1
            if looping:
                self.loops.append(node)
            inner = self.resolve(node.body, done, backward=backward)
            if looping:
                self.loops.pop()
            return done if node.max == 0 else done | inner
        return done

    def name_groups(self) -> None:
        used = {name for name in self.js_names.values() if name.isidentifier()}
        for index, name in self.js_names.items():
            if name.isidentifier():
                self.py_names[index] = name
            else:
                self.py_names[index] = self.fresh_name(index, used)

    def fresh_name(self, index: int, used: set[str]) -> str:
        name = f"_js{index}"
        while name in used:
            name += "_"
        used.add(name)
        return name

    # ---- text

    def emit(self, node: _Node) -> str:
        if isinstance(node, _Unit):
            return _lit(node.code)
        if isinstance(node, _Set):
            return _set_text(node)
        if isinstance(node, _Assert):
            return _ASSERTIONS[node.kind]
        if isinstance(node, _Seq):
            return "".join(self.emit(item) for item in node.items)
        if isinstance(node, _Alt):
            return "|".join(self.emit(alt) for alt in node.alts)
        if isinstance(node, _Group):
            body = self.emit(node.body)
            if node.index is None:
                return f"(?:{body})"
            if node.index in self.py_names:
                return f"(?P<{self.py_names[node.index]}>{body})"
            return f"({body})"
        if isinstance(node, _Look):
            if node.behind:
                return self.lookbehind(node)
            return ("(?!" if node.negative else "(?=") + self.emit(node.body) + ")"
        if isinstance(node, _BackRef):
            return self.backref(node)
        return self.repeat(node)

    def backref(self, node: _BackRef) -> str:
        if not self.sets_capture[id(node)]:
            return "(?:)"
        index = node.index
        if index > node.opened_before:
            raise JSRegexUnsupportedError(
                "backreference inside a lookbehind to a group on its right"
            )
        for loop in self.loops_around[index]:
            # JS clears the group when an iteration starts and rejects empty iterations; re
            # does neither. That is invisible if every iteration sets the group anew, or if
            # the body can only match the empty string.
            lo, hi = self.width(loop.body)
            if hi > 0 and (lo == 0 or not _always_captures(loop.body, index)):
                raise JSRegexUnsupportedError(
                    "backreference to a group that a repetition may leave stale"
                )
        if index < 100:
            ref = f"\\{index}"
        else:
            if index not in self.py_names:
                self.py_names[index] = self.fresh_name(index, set(self.py_names.values()))
            ref = f"(?P={self.py_names[index]})"
        return f"(?:(?({index}){ref}|))"

    def repeat(self, node: _Repeat) -> str:
        body = node.body
        if isinstance(body, _Look):
            # Annex B lets a lookahead be quantified; an iteration matching the empty string
            # past the minimum is rejected, so it is the lookahead once, or nothing.
            text = self.emit(body)
            return f"(?:{text}){{0}}" if node.min == 0 else text
        text = self.emit(body)
        simple = isinstance(body, _Unit | _Group) or (
            isinstance(body, _Set) and _set_width(body) == 1
        )
        if not simple:
            text = f"(?:{text})"
        return text + _quantifier(node)

    # ---- lookbehind: V8 allows any width, re only fixed widths

    def width(self, node: _Node) -> tuple[int, int]:
        if isinstance(node, _Unit):
            return 1, 1
        if isinstance(node, _Set):
            w = _set_width(node)
            return w, w
        if isinstance(node, _Assert | _Look):
            return 0, 0
        if isinstance(node, _BackRef):
            return (0, _UNBOUNDED) if self.sets_capture[id(node)] else (0, 0)
        if isinstance(node, _Group):
            return self.width(node.body)
        if isinstance(node, _Seq):
            lo = hi = 0
            for item in node.items:
                a, b = self.width(item)
                lo, hi = lo + a, min(hi + b, _UNBOUNDED)
            return lo, hi
        if isinstance(node, _Alt):
            widths = [self.width(alt) for alt in node.alts]
            return min(w[0] for w in widths), max(w[1] for w in widths)
        a, b = self.width(node.body)
        if isinstance(node.body, _Look) or node.max == 0 or b == 0:
            return 0, 0  # as re computes it: a repeated zero-width item has width 0
        hi = _UNBOUNDED if node.max is None or b >= _UNBOUNDED else min(b * node.max, _UNBOUNDED)
        return a * node.min, hi

    def fixed(self, node: _Node) -> bool:
        lo, hi = self.width(node)
        return lo == hi

    def lookbehind(self, node: _Look) -> str:
        opener = "(?<!" if node.negative else "(?<="
        body = node.body
        if self.fixed(body):
            return opener + self.emit(body) + ")"
        if isinstance(body, _Alt) and all(self.fixed(alt) for alt in body.alts):
            parts = [opener + self.emit(alt) + ")" for alt in body.alts]
            # Atomic: a lookbehind is never re-entered, so later alternatives must not be
            # tried for their captures when the rest of the pattern fails.
            return "".join(parts) if node.negative else "(?>" + "|".join(parts) + ")"
        if not _has_captures(body):
            alternatives = self.expand(_trim_left(body))
            if alternatives is not None:
                by_width: dict[int, list[str]] = {}
                for alt in alternatives:
                    by_width.setdefault(self.width(alt)[0], []).append(self.emit(alt))
                parts = [opener + "|".join(texts) + ")" for texts in by_width.values()]
                if node.negative:
                    return "".join(parts)
                return "(?:" + "|".join(parts) + ")" if parts else "(?!)"
        raise JSRegexUnsupportedError("lookbehind of variable width")

    def expand(self, node: _Node) -> list[_Node] | None:
        """The body as fixed-width alternatives (no captures inside), or None if too many."""
        if isinstance(node, _Unit | _Set | _Assert | _Look):
            return [node]
        if isinstance(node, _BackRef):
            return None if self.sets_capture[id(node)] else [_Seq([])]
        if isinstance(node, _Group):
            return self.expand(node.body)
        if isinstance(node, _Alt):
            out: list[_Node] = []
            for alt in node.alts:
                expanded = self.expand(alt)
                if expanded is None or len(out) + len(expanded) > _EXPANSION_LIMIT:
                    return None
                out.extend(expanded)
            return out
        if isinstance(node, _Seq):
            return self.product([self.expand(item) for item in node.items])
        if node.max is None or node.max - node.min >= _EXPANSION_LIMIT:
            return None
        body = self.expand(node.body)
        if body is None:
            return None
        if len(body) == 1:
            return [_Repeat(body[0], k, k, node.greedy) for k in range(node.min, node.max + 1)]
        out = []
        for k in range(node.min, node.max + 1):
            expanded = self.product([body] * k)
            if expanded is None or len(out) + len(expanded) > _EXPANSION_LIMIT:
                return None
            out.extend(expanded)
        return out

    def product(self, factors: list[list[_Node] | None]) -> list[_Node] | None:
        combos: list[list[_Node]] = [[]]
        for factor in factors:
            if factor is None:
                return None
            combos = [[*combo, item] for combo in combos for item in factor]
            if len(combos) > _EXPANSION_LIMIT:
                return None
        return [_Seq(combo) for combo in combos]
