"""The web console's page and static assets, served without the token (they hold no data).

The page reads the token from its URL fragment or a form and sends it with every API call.
Hook output is untrusted (tool names, reasons, stderr), so besides the page building its
DOM with ``textContent`` only, every answer here carries a strict Content-Security-Policy:
scripts and styles from this origin only, no inline code, no framing. Assets are revalidated
on each load (``no-cache`` plus a content ETag), so an upgraded server never runs a stale
script against a changed API, and an unchanged one costs a 304.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from importlib import resources

from fastapi import APIRouter, Request, Response

from hookwise.api.edge.errors import ApiError

PUBLIC = True

router = APIRouter(include_in_schema=False)

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
CONTENT_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "console.js": "text/javascript; charset=utf-8",
    "console.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
    "approval.html": "text/html; charset=utf-8",
    "approval.js": "text/javascript; charset=utf-8",
    "approval.css": "text/css; charset=utf-8",
}
PAGE = "index.html"
PAGES = frozenset({PAGE, "approval.html"})  # served at their own paths, not as assets


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str
    etag: str


@functools.cache
def load_asset(name: str) -> Asset:
    """One file of ``hookwise/api/console`` (shipped as package data), read once."""
    body = resources.files("hookwise.api").joinpath("console", name).read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:32]
    return Asset(body, CONTENT_TYPES[name], f'"{digest}"')


def _etag_matches(request: Request, etag: str) -> bool:
    given = request.headers.get("if-none-match", "")
    candidates = {part.strip().removeprefix("W/") for part in given.split(",")}
    return etag in candidates or "*" in candidates


def serve_asset(request: Request, name: str) -> Response:
    asset = load_asset(name)
    headers = {**SECURITY_HEADERS, "Cache-Control": "no-cache", "ETag": asset.etag}
    if _etag_matches(request, asset.etag):
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.content_type, headers=headers)


@router.api_route("/", methods=["GET", "HEAD"])
def console_page(request: Request) -> Response:
    return serve_asset(request, PAGE)


@router.api_route("/console/{asset}", methods=["GET", "HEAD"])
def console_asset(asset: str, request: Request) -> Response:
    if asset in PAGES or asset not in CONTENT_TYPES:
        raise ApiError(404, "not_found", f"no console asset {asset!r}")
    return serve_asset(request, asset)
