"""JSON for the hook's hot path without importing :mod:`json`.

``import json`` pulls in :mod:`re` (and with it enum, functools, collections), which costs
more than the whole rest of a ``hookwise hook`` run. The C accelerator ``_json`` that
:mod:`json` itself uses needs none of that, so the hot path drives it directly. Anything
unusual (a parse error, a value the C encoder refuses) falls back to :mod:`json`, so the
results and the error messages are exactly those of the standard library.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # the hot path imports no typing
    from typing import Any

_scan: Any = None
_encode: Any = None
try:  # pragma: no cover - the accelerator is part of every CPython build
    import _json

    def _no_default(value: object) -> object:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    # the scanner reads json.JSONDecoder's settings as attributes: a namespace of them
    # (sys.implementation's type), not a class of its own, which would cost every hook
    # call its creation
    _namespace: Any = type(sys.implementation)  # types.SimpleNamespace
    _settings = _namespace(
        strict=True,
        object_hook=None,
        object_pairs_hook=None,
        parse_float=float,
        parse_int=int,
        parse_constant=float,
        memo={},
    )
    _scan = _json.make_scanner(_settings)
    _encode = _json.make_encoder(
        None, _no_default, _json.encode_basestring_ascii, None, ":", ",", False, False, True
    )
except (ImportError, AttributeError, TypeError):  # pragma: no cover
    pass

_WS = " \t\n\r"


def loads(text: str) -> Any:
    """``json.loads(text)``; raises ``json.JSONDecodeError`` (a ValueError) on bad input."""
    if _scan is not None:
        start = len(text) - len(text.lstrip(_WS))
        try:
            value, end = _scan(text, start)
        except Exception:
            pass
        else:
            if end == len(text) or not text[end:].strip(_WS):
                return value
    import json

    return json.loads(text)


def decode(text: str) -> Any:
    """The value ``text`` holds as JSON, or None when it holds none (no :mod:`json` import
    for text that is no JSON); a RecursionError for JSON nested past the C scanner's limit."""
    if _scan is None:  # pragma: no cover
        try:
            return loads(text)
        except ValueError:
            return None
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scan(text, start)
    except RecursionError:
        raise
    except Exception:
        return None
    return value if end == len(text) or not text[end:].strip(_WS) else None


def dumps(value: Any) -> str:
    """Compact JSON (``separators=(",", ":")``, ASCII only), as ``json.dumps`` writes it."""
    if _encode is not None:
        try:
            return "".join(_encode(value, 0))
        except (TypeError, ValueError, RecursionError):
            pass
    import json

    return json.dumps(value, separators=(",", ":"))
