"""JavaScript value semantics over JSON data.

The hosts are Node programs: what a hook answer *means* depends on JS truthiness,
``JSON.parse``/``JSON.stringify``, ``String()``, object spread and ``String.prototype.trim``.
Reproducing those exactly is what lets the ``gemini-cli`` profile agree with the real
engine on odd answers (``{"reason": 5}``, ``"hookSpecificOutput": "x"``, numbers like
``1e-7``), so every host-facing parse and render goes through this module.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any, Final, TypeAlias

JSON: TypeAlias = Any
"""A decoded JSON value: None, bool, int, float, str, list or dict (keys are str)."""


class _Undefined:
    """JavaScript ``undefined``: distinct from JSON ``null`` (None)."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()

MAX_SAFE_INTEGER: Final = 2**53 - 1

# ECMAScript WhiteSpace + LineTerminator, the set String.prototype.trim removes.
JS_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


class JSTypeError(TypeError):
    """A TypeError the JavaScript engine would throw at the same place."""


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


# --------------------------------------------------------------------------- parse

_INDEX_KEY = re.compile(r"(?:0|[1-9][0-9]{0,9})\Z")


def _is_array_index(key: str) -> bool:
    return bool(_INDEX_KEY.match(key)) and int(key) < 2**32 - 1


def js_object(pairs: Iterable[tuple[str, JSON]]) -> dict[str, JSON]:
    """Build a dict in JS property order: array-index keys ascending, then insertion order."""
    out: dict[str, JSON] = {}
    for key, value in pairs:
        out[key] = value
    if any(_is_array_index(k) for k in out):
        indexed = sorted((k for k in out if _is_array_index(k)), key=int)
        ordered = {k: out[k] for k in indexed}
        ordered.update((k, v) for k, v in out.items() if not _is_array_index(k))
        return ordered
    return out


def _parse_int(text: str) -> int | float:
    value = int(text)
    if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return value
    return float(text)


def _reject_constant(name: str) -> float:
    raise ValueError(f"Unexpected token {name[0]} in JSON")


_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=js_object,
    parse_int=_parse_int,
    parse_constant=_reject_constant,
)


def js_json_parse(text: str) -> JSON:
    """``JSON.parse``: raises ValueError where the JS engine throws a SyntaxError."""
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except RecursionError as exc:  # deeper than Python's stack; V8 goes further
        raise ValueError("JSON nested too deeply") from exc
    if _skip_ws(text, end) != len(text):
        raise ValueError("Unexpected non-whitespace character after JSON")
    return value


_JSON_WS = re.compile(r"[ \t\n\r]*")


def _skip_ws(text: str, pos: int) -> int:
    match = _JSON_WS.match(text, pos)
    return match.end() if match else pos


# --------------------------------------------------------------------------- numbers


def js_number_to_string(value: float | int) -> str:
    """``Number.prototype.toString()`` (ECMAScript Number::toString, radix 10)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return str(value)
        value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest_digits(abs(value))
    k = len(digits)
    n = exponent  # value = 0.digits * 10**n
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        body = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def _shortest_digits(value: float) -> tuple[str, int]:
    """Shortest round-trip digits and the decimal point position (value = 0.d * 10**n)."""
    text = repr(value)
    mantissa, _, exp_text = text.partition("e")
    exp = int(exp_text) if exp_text else 0
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    raw = whole + frac
    point = len(whole) + exp
    stripped = raw.lstrip("0")
    point -= len(raw) - len(stripped)
    stripped = stripped.rstrip("0")
    return stripped, point


# --------------------------------------------------------------------------- stringify

_ESCAPES: Final = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')


def _escape_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def _quote(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def js_json_stringify(value: JSON) -> str:
    """``JSON.stringify(value)`` (compact). ``UNDEFINED`` members are dropped as in JS."""
    parts: list[str] = []
    _stringify_into(value, parts)
    return "".join(parts)


def _stringify_into(value: JSON, out: list[str]) -> None:
    if value is None or value is UNDEFINED:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_quote(value))
    elif isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            out.append("null")
        else:
            out.append(js_number_to_string(value))
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if item is UNDEFINED or callable(item):
                continue
            if not first:
                out.append(",")
            first = False
            out.append(_quote(str(key)))
            out.append(":")
            _stringify_into(item, out)
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _stringify_into(item, out)
        out.append("]")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


# --------------------------------------------------------------------------- coercions


def truthy(value: object) -> bool:
    """JS ToBoolean: objects and arrays are always true, NaN is false."""
    if value is None or value is UNDEFINED or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, int | float):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def js_string(value: object) -> str:
    """``String(value)``."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int | float):
        return js_number_to_string(value)
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else js_string(v) for v in value)
    return "[object Object]"


def utf16_units(text: str) -> list[str]:
    """The string as JS sees it: one item per UTF-16 code unit."""
    units: list[str] = []
    for ch in text:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            units.append(chr(0xD800 + (code >> 10)))
            units.append(chr(0xDC00 + (code & 0x3FF)))
        else:
            units.append(ch)
    return units


def spread(value: object) -> dict[str, JSON]:
    """``{...value}``: own enumerable properties, in JS order."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, str):
        return {str(i): u for i, u in enumerate(utf16_units(value))}
    return {}


def has_property(obj: object, key: str) -> bool:
    """The ``in`` operator: throws on primitives exactly where V8 does."""
    if isinstance(obj, dict):
        return key in obj
    if isinstance(obj, list):
        return key == "length" or (_is_array_index(key) and int(key) < len(obj))
    if obj is None or obj is UNDEFINED:
        raise JSTypeError(f"Cannot use 'in' operator to search for '{key}' in {js_string(obj)}")
    raise JSTypeError(f"Cannot use 'in' operator to search for '{key}' in {js_string(obj)}")


def get(obj: object, key: str) -> JSON:
    """Property read ``obj[key]`` on a non-nullish value (undefined when absent)."""
    if isinstance(obj, dict):
        return obj.get(key, UNDEFINED)
    if isinstance(obj, list):
        if key == "length":
            return len(obj)
        if _is_array_index(key) and int(key) < len(obj):
            return obj[int(key)]
        return UNDEFINED
    if isinstance(obj, str):
        units = utf16_units(obj)
        if key == "length":
            return len(units)
        if _is_array_index(key) and int(key) < len(units):
            return units[int(key)]
        return UNDEFINED
    if obj is None or obj is UNDEFINED:
        raise JSTypeError(f"Cannot read properties of {js_string(obj)} (reading '{key}')")
    return UNDEFINED


def opt_get(obj: object, key: str) -> JSON:
    """Optional chaining ``obj?.[key]``."""
    if obj is None or obj is UNDEFINED:
        return UNDEFINED
    return get(obj, key)


def is_plain_object(value: object) -> bool:
    """``typeof v === 'object' && v !== null && !Array.isArray(v)``."""
    return isinstance(value, dict)


def is_object(value: object) -> bool:
    """``typeof v === 'object' && v !== null`` (arrays included)."""
    return isinstance(value, dict | list)


def strict_equals(a: object, b: object) -> bool:
    """``===`` for JSON values (by identity for objects)."""
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if a is UNDEFINED or b is UNDEFINED:
        return a is b
    return type(a) is type(b) and a == b


def js_sort_key(value: object) -> bytes:
    """Default ``Array.prototype.sort`` order: by String(value) in UTF-16 code units."""
    return js_string(value).encode("utf-16-be", "surrogatepass")


def drop_undefined(value: JSON) -> JSON:
    """``JSON.parse(JSON.stringify(value))`` for values that may hold ``UNDEFINED``."""
    if isinstance(value, dict):
        return {k: drop_undefined(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list):
        return [None if v is UNDEFINED else drop_undefined(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# --------------------------------------------------------------------------- ToPrimitive

_STRING_NUMBER = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\Z")
_RADIX_NUMBER = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")


def js_string_strict(value: object) -> str:
    """``String(value)``, throwing where V8 does.

    A JSON object with an own ``toString`` key shadows ``Object.prototype.toString`` with a
    non-callable, so ``String({"toString": 1})`` throws "Cannot convert object to primitive
    value"; ``js_string`` is the lenient form for messages.
    """
    if isinstance(value, dict):
        if "toString" in value:
            raise JSTypeError("Cannot convert object to primitive value")
        return "[object Object]"
    if isinstance(value, list):
        return ",".join(
            "" if item is None or item is UNDEFINED else js_string_strict(item) for item in value
        )
    return js_string(value)


def js_to_number(value: object) -> int | float:
    """``Number(value)`` (ToNumber, with ToPrimitive for objects and arrays)."""
    if value is None or value is False:
        return 0
    if value is True:
        return 1
    if value is UNDEFINED:
        return math.nan
    if isinstance(value, int | float):
        return value
    if isinstance(value, dict | list):
        return js_to_number(js_string_strict(value))
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0
        if _RADIX_NUMBER.match(text):
            return int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()])
        if _STRING_NUMBER.match(text):
            return float(text.replace("Infinity", "inf"))
        return math.nan
    return math.nan


def json_type_name(value: JSON) -> str:
    """The JSON type of a decoded value, as error messages name it ("boolean", "array"...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
