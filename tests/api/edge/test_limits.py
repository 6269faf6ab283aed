"""Request-head limits and per-client rate limits against a real ``hookwise serve``.

The head limits must hold before authentication and while the head arrives: a 50 MB
header is refused within moments and the server does not grow by it.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from hookwise.api.edge.limits import MAX_HEAD_BYTES, MAX_HEADER_LINE_BYTES, MAX_HEADERS
from hookwise.api.edge.ratelimit import CLIENT_FACTOR, LIMITS
from tests.api.conftest import LiveServer

CONFIG = "/api/hook/output-config"


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(server: LiveServer, head: bytes, filler: int = 0) -> bytes:
    """Send ``head`` (plus ``filler`` bytes of one header value) and read the answer."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(head)
            chunk = b"a" * 65536
            for _ in range(filler // len(chunk)):
                sock.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server closed on us: read what it said
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except ConnectionResetError:
            pass
        return answer


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_huge_header_is_refused_quickly_without_growth(
    live_server: Callable[..., LiveServer],
) -> None:
    server = live_server()
    before = _rss_kib(server.process.pid)
    started = time.monotonic()
    head = b"GET /internal/hook/health HTTP/1.1\r\nHost: x\r\nX-Big: "
    answer = _raw(server, head, filler=50 * 1024 * 1024)
    elapsed = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert b"header_too_large" in answer
    assert elapsed < 5, elapsed
    assert _rss_kib(server.process.pid) - before < 8 * 1024  # KiB: it never held the header
    # the server still serves
    with server.client() as client:
        assert client.get(CONFIG).status_code == 200


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_head_limits_hold_before_authentication(live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    many = {f"x-h{i}": "v" for i in range(MAX_HEADERS + 1)}
    long_line = {"x-long": "a" * (MAX_HEADER_LINE_BYTES + 1)}
    big_head = {f"x-part{i}": "a" * 8000 for i in range(MAX_HEAD_BYTES // 8000 + 1)}
    with httpx.Client(base_url=server.url) as anonymous:  # no token: still not a 401
        assert anonymous.get(CONFIG, headers=many).status_code == 431
        assert anonymous.get(CONFIG, headers=long_line).status_code == 431
        try:
            status = anonymous.get(CONFIG, headers=big_head).status_code
        except httpx.RemoteProtocolError:
            status = 431  # closed while the client was still sending
        assert status == 431
        assert anonymous.get(CONFIG).status_code == 401
    with server.client() as client:
        fine = {f"x-h{i}": "v" * 100 for i in range(MAX_HEADERS - 10)}
        assert client.get(CONFIG, headers=fine).status_code == 200
        # keep-alive: a second request on the same connection starts a new count
        assert client.get(CONFIG, headers=fine).status_code == 200


def test_session_id_is_capped(client: TestClient) -> None:
    assert client.get(CONFIG, headers={"X-Session-Id": "s" * 256}).status_code == 200
    refused = client.get(CONFIG, headers={"X-Session-Id": "s" * 257})
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "X-Session-Id"
    eight_mb = client.get(CONFIG, headers={"X-Session-Id": "s" * 8_000_000})
    assert eight_mb.status_code in (400, 431)


@pytest.mark.usefixtures("one_window")
def test_rotating_session_ids_cannot_multiply_the_budget(client: TestClient) -> None:
    limit = LIMITS["configuration"]
    codes = [
        client.get(CONFIG, headers={"X-Session-Id": f"rot-{i}"}).status_code
        for i in range(limit * CLIENT_FACTOR + 3)
    ]
    assert codes[: limit * CLIENT_FACTOR] == [200] * (limit * CLIENT_FACTOR)
    assert codes[limit * CLIENT_FACTOR :] == [429] * 3
    refused = client.get(CONFIG, headers={"X-Session-Id": "yet-another"})
    assert refused.status_code == 429
    assert refused.json()["limit"] == limit * CLIENT_FACTOR


def test_docs_pages_are_off(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200
