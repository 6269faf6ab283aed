"""Gemini CLI's settings schema, for the keys that drive hooks: validation and coercion.

A zod-like port: numeric strings become numbers (``"timeout": "5000"``), ``"true"`` and
``"false"`` become booleans, and each problem is reported with its JSON path. A file with
problems is used as written, as in the CLI.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from hookwise.protocol.gemini import SCHEMA_EVENT_ORDER
from hookwise.protocol.jsvalue import JSON, MAX_SAFE_INTEGER, js_trim, json_type_name

_RADIX_RE: Final = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
_DECIMAL_RE: Final = re.compile(
    r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
)


def js_number_from_string(text: str) -> float | int | None:
    """``Number(text)`` for a string; None where JS gives NaN."""
    body = js_trim(text)
    if body == "":
        return 0
    if _RADIX_RE.fullmatch(body):
        return int(body, 0) if int(body, 0) <= MAX_SAFE_INTEGER else float(int(body, 0))
    if not _DECIMAL_RE.fullmatch(body):
        return None
    number = float(body.replace("Infinity", "inf"))
    if number.is_integer() and abs(number) <= MAX_SAFE_INTEGER:
        return int(number)
    return number


_Check = Callable[[JSON, list[str | int], list[str]], JSON]


def _issue(path: list[str | int], expected: str, value: JSON) -> str:
    where = ""
    for part in path:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else part)
    return f"{where or '(root)'}: expected {expected}, got {json_type_name(value)}"


def _string(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if not isinstance(value, str):
        issues.append(_issue(path, "string", value))
    return value


def _number(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if isinstance(value, str) and js_trim(value) != "":
        number = js_number_from_string(value)
        if number is not None:
            value = number
    if isinstance(value, bool) or not isinstance(value, int | float):
        issues.append(_issue(path, "number", value))
    return value


def _boolean(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        value = value.lower() == "true"
    if not isinstance(value, bool):
        issues.append(_issue(path, "boolean", value))
    return value


def _array_of(item: _Check | None) -> _Check:
    def check(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
        if not isinstance(value, list):
            issues.append(_issue(path, "array", value))
            return value
        if item is None:
            return list(value)
        return [item(v, [*path, i], issues) for i, v in enumerate(value)]

    return check


def _object_of(shape: dict[str, _Check], extra: _Check | None = None) -> _Check:
    """A zod ``object(shape).passthrough()`` (or ``.catchall(extra)``): known keys first."""

    def check(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
        if not isinstance(value, dict):
            issues.append(_issue(path, "object", value))
            return value
        out: dict[str, JSON] = {}
        for key, sub in shape.items():
            if key in value:
                out[key] = sub(value[key], [*path, key], issues)
        for key, item in value.items():
            if key not in shape and key != "__proto__":
                out[key] = extra(item, [*path, key], issues) if extra else item
        return out

    return check


_HOOK_CONFIG: Final = _object_of(
    {
        "name": _string,
        "type": _string,
        "command": _string,
        "description": _string,
        "timeout": _number,
    }
)
_HOOK_DEFINITIONS: Final = _array_of(
    _object_of({"matcher": _string, "hooks": _array_of(_HOOK_CONFIG)})
)
_SCHEMA: Final = _object_of(
    {
        "security": _object_of(
            {
                "folderTrust": _object_of({"enabled": _boolean}),
                "environmentVariableRedaction": _object_of(
                    {
                        "allowed": _array_of(_string),
                        "blocked": _array_of(_string),
                        "enabled": _boolean,
                    }
                ),
                "blockGitExtensions": _boolean,
                "allowedExtensions": _array_of(_string),
            }
        ),
        "experimental": _object_of({"extensionConfig": _boolean}),
        "hooksConfig": _object_of(
            {"enabled": _boolean, "disabled": _array_of(_string), "notifications": _boolean}
        ),
        "hooks": _object_of(
            {event: _HOOK_DEFINITIONS for event in SCHEMA_EVENT_ORDER}, _array_of(None)
        ),
    }
)


def validate_settings(settings: dict[str, JSON]) -> tuple[dict[str, JSON], list[str]]:
    """The CLI's schema validation, for the keys that drive hooks.

    When the file is valid the schema's result replaces it: numeric strings become numbers
    (``"timeout": "5000"``), ``"true"``/``"false"`` become booleans, hook objects get the
    schema's key order. When any of it is invalid, the file is used exactly as written and
    the issues become a warning, as in the CLI. (The CLI validates every key of the file;
    hookwise validates the hook-related ones and assumes the rest are valid.)
    """
    issues: list[str] = []
    result = _SCHEMA(settings, [], issues)
    if issues or not isinstance(result, dict):
        return settings, issues
    return result, []


__all__ = ["js_number_from_string", "validate_settings"]
