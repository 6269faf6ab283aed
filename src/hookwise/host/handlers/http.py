"""``type: "http"``: the hook's JSON input POSTed to the handler's URL (hooks reference,
"HTTP hook fields" and "HTTP response handling").

* Headers: Claude Code's own (``HTTP_HOOK_HEADERS``, as recorded), ``Content-Type:
  application/json`` and the handler's ``headers``; in their
  values ``$VAR`` and ``${VAR}`` are replaced from the hook's environment only for names in
  ``allowedEnvVars``, any other reference by the empty string. ``Content-Length`` and
  ``Transfer-Encoding`` from ``headers`` are ignored (the CLI works the length out itself).
  A value that would hold a line break after that is refused: the request is not sent.
* Answer: 2xx with an empty body is exit 0 without output; 2xx with a JSON object is that
  JSON on stdout (the host's schema check applies); 2xx with any other body, any other
  status, a refused connection or a bad URL is a non-blocking error (exit 1, the text never
  reaches the model); a timeout renders no decision. An HTTP hook can never block by
  status alone (no exit 2).
* Hostile servers: redirects are not followed (the answer is the 3xx itself, an error), the
  body is read up to the output cap and the rest dropped (an error too), proxies from the
  environment are not used (the URL named is the one contacted).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Final

from hookwise.host.process import ProcessResult
from hookwise.protocol.claude import HTTP_HOOK_HEADERS
from hookwise.protocol.jsvalue import JSON

_VAR: Final = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_IGNORED_HEADERS: Final = frozenset({"content-length", "transfer-encoding"})


def interpolate(value: str, allowed: frozenset[str], env: Mapping[str, str]) -> str:
    """``$VAR`` / ``${VAR}`` from ``env`` for allowed names; the empty string otherwise."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return _VAR.sub(one, value)


def request_headers(config: Mapping[str, JSON], env: Mapping[str, str]) -> dict[str, str]:
    """The headers sent, or ValueError naming the header that cannot be sent."""
    allowed_list = config.get("allowedEnvVars")
    allowed = frozenset(
        v for v in (allowed_list if isinstance(allowed_list, list) else []) if isinstance(v, str)
    )
    headers = {**HTTP_HOOK_HEADERS, "Content-Type": "application/json"}
    given = config.get("headers")
    for name, raw in given.items() if isinstance(given, dict) else []:
        if name.lower() in _IGNORED_HEADERS or not isinstance(raw, str):
            continue
        value = interpolate(raw, allowed, env)
        if any(ch in value for ch in "\r\n\0") or any(ch in name for ch in "\r\n\0: "):
            raise ValueError(f"header {name!r} would hold a line break or a NUL; not sent")
        headers[name] = value
    return headers


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 3xx itself is the answer


_OPENER: Final = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def _post(
    url: str, body: bytes, headers: dict[str, str], timeout_s: float, cap: int
) -> tuple[int, bytes, bool]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        response = _OPENER.open(request, timeout=timeout_s)
    except urllib.error.HTTPError as exc:  # non-2xx (and 3xx, not followed)
        data = exc.read(cap + 1)
        return exc.code, data[:cap], len(data) > cap
    with response:
        data = response.read(cap + 1)
        return response.status, data[:cap], len(data) > cap


def _where(url: str) -> str:
    """The URL as messages name it: scheme, host and port only (a path or query may hold a
    secret; Claude Code hides such details too)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or "?"
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")


def _error(message: str, started: float) -> ProcessResult:
    return ProcessResult("", message, exit_code=1, duration_ms=(time.monotonic() - started) * 1000)


async def run_http(
    config: Mapping[str, JSON],
    payload_json: bytes,
    env: Mapping[str, str],
    timeout_ms: float,
    max_output_bytes: int,
) -> ProcessResult:
    """One HTTP hook, as the host reads it (see the module's rules)."""
    started = time.monotonic()
    url = config.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return _error("HTTP hook error: url must start with http:// or https://", started)
    try:
        headers = request_headers(config, env)
    except ValueError as exc:
        return _error(f"HTTP hook error: {exc}", started)
    timeout_s = timeout_ms / 1000.0
    try:
        status, body, cut = await asyncio.wait_for(
            asyncio.to_thread(_post, url, payload_json, headers, timeout_s, max_output_bytes),
            timeout_s,
        )
    except TimeoutError:
        return ProcessResult("", "", timed_out=True, duration_ms=timeout_ms)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError):
            return ProcessResult("", "", timed_out=True, duration_ms=timeout_ms)
        return _error(f"HTTP hook error: connection to {_where(url)} failed: {reason}", started)
    elapsed = (time.monotonic() - started) * 1000
    if not 200 <= status < 300:
        return _error(f"HTTP hook error: {_where(url)} answered HTTP {status}", started)
    if cut:
        return _error(
            f"HTTP hook error: the body from {_where(url)} is over {max_output_bytes} bytes",
            started,
        )
    text = body.decode("utf-8", "replace")
    if not text.strip():
        return ProcessResult("", "", exit_code=0, duration_ms=elapsed)
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        return _error(
            f"HTTP hook error: {_where(url)} answered a body that is not a JSON object", started
        )
    return ProcessResult(text, "", exit_code=0, duration_ms=elapsed)
