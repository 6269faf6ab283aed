"""A framework's values as JSON data, for the payloads that validators and hooks read on stdin.

Shared by the Gate (policy events, audit records) and ``hooks.HookBridge`` (host hook input).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["jsonable"]


def jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data (a framework's objects become their text), for payloads that
    validators and hooks read on stdin."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if depth > 32:
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)  # pydantic models (framework results)
    if callable(dump):
        try:
            return jsonable(dump(mode="json"), depth + 1)
        except Exception:
            return str(value)
    return str(value)
