"""``type: "http"``: the hook's JSON input POSTed to the handler's URL (hooks reference,
"HTTP hook fields" and "HTTP response handling"; Claude Code 2.1.330's bundle and records).

* Limits from settings (``config/claude/http_limits.py``): a URL no pattern of
  ``allowedHttpHookUrls`` matches is not sent (a non-blocking error); the variables a header
  may take are the handler's ``allowedEnvVars``, intersected with ``httpHookAllowedEnvVars``
  when that is set.
* Headers: Claude Code's own (``HTTP_HOOK_HEADERS``, as recorded), ``Content-Type:
  application/json`` and the handler's ``headers``; in their values ``$VAR`` and ``${VAR}``
  (upper-case names only) are replaced from the hook's environment for allowed names that
  are no credential (``HTTP_HOOK_CREDENTIALS``), any other by the empty string; then CR, LF
  and NUL are removed, as Claude Code does. ``Content-Length`` and ``Transfer-Encoding``
  from ``headers`` are ignored. A header name that could not be sent refuses the request.
* URL patterns (``url_allowed``): ``*`` is any run of characters; the scheme, the host (any
  case, a final dot dropped) and the port must match, ``*`` in the host or port allowing
  any; a pattern with no path allows every path of its origin. Before matching, the URL's
  dot segments are resolved as a browser's URL parser does, and that resolved URL is the
  one sent, so ``/allowed/../other`` is ``/other`` for the check and the request alike. A
  URL with a backslash, a control character or a space is refused: parsers disagree on
  where its host ends.
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
from collections.abc import Mapping, Sequence
from typing import Final

from hookwise.host.process import ProcessResult
from hookwise.protocol.claude import (
    HTTP_HOOK_CREDENTIALS,
    HTTP_HOOK_HEADERS,
    HTTP_HOOK_STRIPPED,
    HTTP_HOOK_URL_BLOCKED,
    HTTP_HOOK_VAR,
)
from hookwise.protocol.jsvalue import JSON

_VAR: Final = re.compile(HTTP_HOOK_VAR)
_IGNORED_HEADERS: Final = frozenset({"content-length", "transfer-encoding"})
_DEFAULT_PORTS: Final = {"http": "80", "https": "443"}
_WILD: Final = "hookwisewildcard7x"  # stands for ``*`` while a pattern is parsed
_UNSAFE_URL: Final = re.compile(r"[\\\s\x00-\x1f\x7f]")


def interpolate(
    value: str, allowed: frozenset[str], env: Mapping[str, str], *, strip: bool = True
) -> str:
    """``$VAR`` / ``${VAR}`` from ``env`` for allowed names that are no credential; the
    empty string otherwise; CR, LF and NUL removed from the result."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in allowed or name.upper() in HTTP_HOOK_CREDENTIALS:
            return ""
        return env.get(name, "")

    out = _VAR.sub(one, value)
    return out.translate({ord(c): None for c in HTTP_HOOK_STRIPPED}) if strip else out


def request_headers(
    config: Mapping[str, JSON],
    env: Mapping[str, str],
    settings_env_vars: Sequence[str] | None = None,
) -> dict[str, str]:
    """The headers sent, or ValueError naming the header that cannot be sent.
    ``settings_env_vars``: the settings' ``httpHookAllowedEnvVars`` (None: not set)."""
    allowed_list = config.get("allowedEnvVars")
    allowed = frozenset(
        v for v in (allowed_list if isinstance(allowed_list, list) else []) if isinstance(v, str)
    )
    if settings_env_vars is not None:
        allowed &= frozenset(settings_env_vars)
    headers = {**HTTP_HOOK_HEADERS, "Content-Type": "application/json"}
    given = config.get("headers")
    for name, raw in given.items() if isinstance(given, dict) else []:
        if name.strip().lower() in _IGNORED_HEADERS or not isinstance(raw, str):
            continue
        if not name or any(ch in name for ch in "\r\n\0: \t"):
            raise ValueError(f"header name {name!r} cannot be sent")
        headers[name] = interpolate(raw, allowed, env)
    return headers


def _glob(pattern: str, text: str) -> bool:
    """``*`` matches any run of characters (``/`` and ``.`` included); nothing else is
    special."""
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("*")), text, re.S) is not None


_DOTS: Final = {".", "%2e"}
_DOTDOTS: Final = {"..", ".%2e", "%2e.", "%2e%2e"}


def _resolve(path: str) -> str:
    """Dot segments removed as the WHATWG URL parser does (``%2e`` counts as a dot)."""
    if not path:
        return "/"
    out: list[str] = []
    parts = path.split("/")[1:] if path.startswith("/") else path.split("/")
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        low = part.lower()
        if low in _DOTDOTS:
            if out:
                out.pop()
            if last:
                out.append("")
        elif low in _DOTS:
            if last:
                out.append("")
        else:
            out.append(part)
    return "/" + "/".join(out)


def normalize_url(url: str) -> str | None:
    """The URL as sent and matched (scheme and host lower-case, default port dropped, dot
    segments resolved), or None when it is no http(s) URL hookwise will send."""
    if _UNSAFE_URL.search(url):
        return None
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    shown_port = "" if port is None or str(port) == _DEFAULT_PORTS[scheme] else f":{port}"
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = (f"{userinfo}@" if userinfo else "") + host + shown_port
    return urllib.parse.urlunsplit((scheme, netloc, _resolve(parts.path), parts.query, ""))


def url_allowed(url: str, pattern: str) -> bool:
    """Does ``allowedHttpHookUrls`` pattern ``pattern`` allow ``url`` (already normalized)?"""
    if pattern == "*":
        return True
    target = urllib.parse.urlsplit(url)
    raw = pattern.replace("*", _WILD)
    port_wild = False
    try:
        parsed = urllib.parse.urlsplit(raw)
        parsed_port = parsed.port
    except ValueError:
        swapped = re.sub(f":{_WILD}(?=[/?#]|$)", ":0", raw)
        try:
            parsed = urllib.parse.urlsplit(swapped)
            parsed_port = parsed.port
        except ValueError:
            return False
        port_wild = swapped != raw
    target_path = target.path + (f"?{target.query}" if target.query else "")
    if not parsed.hostname or not parsed.scheme:  # not a URL: the whole text as a glob
        return _glob(pattern, f"{target.scheme}://{target.netloc}{target_path}")
    scheme = parsed.scheme.lower()
    if scheme not in (_WILD, target.scheme):
        return False
    host = (target.hostname or "").rstrip(".").lower()
    pattern_host = parsed.hostname.rstrip(".").lower().replace(_WILD, "*")
    if not _glob(pattern_host, host):
        return False
    if parsed_port is None and _WILD in parsed.hostname:
        port_wild = True
    default = _DEFAULT_PORTS.get(target.scheme, "")
    mine = "" if parsed_port is None or str(parsed_port) == default else str(parsed_port)
    theirs = "" if target.port is None or str(target.port) == default else str(target.port)
    if not port_wild and mine != theirs:
        return False
    if parsed.path in ("", "/") and not parsed.query and not raw.endswith("/"):
        return True  # an origin alone: every path of it
    wanted = parsed.path + (f"?{parsed.query}" if parsed.query else "")
    return _glob(wanted.replace(_WILD, "*"), target_path)


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
    *,
    allowed_urls: Sequence[str] | None = None,
    allowed_env_vars: Sequence[str] | None = None,
) -> ProcessResult:
    """One HTTP hook, as the host reads it (see the module's rules). ``allowed_urls`` and
    ``allowed_env_vars``: the settings' lists that bind this hook (None: not set)."""
    started = time.monotonic()
    given = config.get("url")
    if not isinstance(given, str) or not given.startswith(("http://", "https://")):
        return _error("HTTP hook error: url must start with http:// or https://", started)
    url = normalize_url(given)
    if url is None:
        return _error(
            "HTTP hook error: the url is not one hookwise sends (a backslash, a space or a "
            "control character, or no host)",
            started,
        )
    if allowed_urls is not None and not any(url_allowed(url, p) for p in allowed_urls):
        return _error(HTTP_HOOK_URL_BLOCKED.format(url=_where(url)), started)
    try:
        headers = request_headers(config, env, allowed_env_vars)
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
