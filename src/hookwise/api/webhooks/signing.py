"""Signing webhook deliveries, and how a receiver checks them.

The scheme (the same shape as Stripe's and Standard Webhooks'):

* ``X-Hookwise-Timestamp``: the delivery attempt's Unix time in whole seconds;
* ``X-Hookwise-Signature``: ``sha256=`` + the lowercase hex HMAC-SHA256, keyed with the
  subscriber's secret (its UTF-8 bytes), of ``f"{timestamp}.".encode() + body`` where
  ``body`` is the exact request body bytes (compact UTF-8 JSON).

Signing the timestamp with the body lets a receiver refuse a captured request replayed
later (``verify`` allows 5 minutes either way); the event id
(``X-Hookwise-Event-Id``) stays the same across retries for deduplication, while the
timestamp and signature are fresh on every attempt.
"""

from __future__ import annotations

import hashlib
import hmac
import time

SCHEME = "sha256"
DEFAULT_TOLERANCE_S = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Hookwise-Signature`` value for ``body`` sent at ``timestamp``."""
    message = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()
    return f"{SCHEME}={digest}"


def verify(
    secret: str,
    body: bytes,
    timestamp_header: str | None,
    signature_header: str | None,
    *,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """True when the headers sign ``body`` with ``secret`` at a time within tolerance.

    ``body`` must be the raw bytes received, before any JSON parsing; a receiver that
    re-serialises the JSON will not reproduce the signature.
    """
    if not timestamp_header or not signature_header:
        return False
    try:
        timestamp = int(timestamp_header)
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_s:
        return False
    expected = signature(secret, timestamp, body)
    return hmac.compare_digest(expected.encode(), signature_header.strip().encode())
