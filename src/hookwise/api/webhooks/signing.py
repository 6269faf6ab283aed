"""Signing webhook deliveries, and how a receiver checks them.

The scheme (the shape of Stripe's and Standard Webhooks'):

* ``X-Hookwise-Event-Id``: the event's id, the same on every attempt;
* ``X-Hookwise-Timestamp``: the delivery attempt's Unix time in whole seconds;
* ``X-Hookwise-Signature``: ``sha256=`` + the lowercase hex HMAC-SHA256, keyed with the
  subscriber's secret (its UTF-8 bytes), of ``f"{event_id}.{timestamp}.".encode() + body``
  where ``body`` is the exact request body bytes (compact UTF-8 JSON).

Signing the timestamp lets a receiver refuse a captured request replayed later
(``verify`` allows 5 minutes either way); signing the event id means a replay within
that window cannot carry a fresh id past a receiver that deduplicates on it. The
timestamp and signature are fresh on every attempt.
"""

from __future__ import annotations

import hashlib
import hmac
import time

SCHEME = "sha256"
DEFAULT_TOLERANCE_S = 300
MIN_SECRET_BYTES = 16  # a shorter key can be guessed from one signed delivery offline


def signature(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """The ``X-Hookwise-Signature`` value for event ``event_id``'s ``body`` at ``timestamp``."""
    message = f"{event_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()
    return f"{SCHEME}={digest}"


def verify(
    secret: str,
    body: bytes,
    event_id_header: str | None,
    timestamp_header: str | None,
    signature_header: str | None,
    *,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """True when the headers sign ``body`` and the event id with ``secret`` at a time
    within tolerance.

    ``body`` must be the raw bytes received, before any JSON parsing; a receiver that
    re-serialises the JSON will not reproduce the signature.
    """
    if not event_id_header or not timestamp_header or not signature_header:
        return False
    try:
        timestamp = int(timestamp_header)
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_s:
        return False
    expected = signature(secret, event_id_header, timestamp, body)
    return hmac.compare_digest(expected.encode(), signature_header.strip().encode())
