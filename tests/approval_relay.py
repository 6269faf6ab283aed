"""Test-side pieces of the approval relay (issue 15) shared by tests/policy and tests/e2e:
a real ``hookwise serve`` with named tokens made by ``hookwise serve token add`` (the CLI a
user runs), the approver's side of the API, and the user policy that points the hook at it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.api.conftest import LiveServer, start_server

if TYPE_CHECKING:
    from playwright.sync_api import Page

HOOKWISE = str(Path(sys.executable).parent / "hookwise")


def add_token(server: LiveServer, name: str, role: str) -> str:
    """``hookwise serve token add NAME --role ROLE`` on the server's database; the token."""
    done = subprocess.run(
        [
            HOOKWISE,
            "serve",
            "token",
            "add",
            name,
            "--role",
            role,
            "--data-dir",
            str(server.data_dir),
        ],
        env=server.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip()  # stdout holds the token only (printed once)
    assert token and "\n" not in token, done.stdout
    return token


@dataclass
class Relay:
    """A running service with an agent token (for the hook) and two approver tokens."""

    server: LiveServer
    agent: str
    alice: str
    bob: str

    @property
    def url(self) -> str:
        return self.server.url

    def api(self, token: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=15
        )

    def pending(self, count: int = 1, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Wait until ``count`` requests are pending; them, oldest first (as an approver)."""
        deadline = time.monotonic() + timeout
        with self.api(self.alice) as api:
            while True:
                response = api.get("/api/approvals", params={"status": "pending"})
                assert response.status_code == 200, response.text
                found = response.json()["approvals"]
                if len(found) >= count:
                    return list(reversed(found))
                assert time.monotonic() < deadline, f"no pending approval request: {found}"
                time.sleep(0.05)

    def decide(
        self,
        request: dict[str, Any],
        decision: str,
        *,
        note: str = "",
        token: str | None = None,
        input_hash: str | None = None,
        remember_minutes: int = 0,
    ) -> httpx.Response:
        with self.api(token or self.alice) as api:
            return api.post(
                f"/api/approvals/{request['id']}/decision",
                json={
                    "decision": decision,
                    "input_hash": input_hash or request["input_hash"],
                    "note": note,
                    "remember_minutes": remember_minutes,
                },
            )

    def get(self, request_id: str) -> dict[str, Any]:
        with self.api(self.alice) as api:
            response = api.get(f"/api/approvals/{request_id}")
            assert response.status_code == 200, response.text
            found: dict[str, Any] = response.json()
            return found


def start_relay(data_dir: Path, database_url: str, **kwargs: Any) -> Relay:
    server = start_server(data_dir, database_url, **kwargs)
    try:
        return Relay(
            server,
            agent=add_token(server, "laptop-agent", "agent"),
            alice=add_token(server, "alice", "approver"),
            bob=add_token(server, "bob", "approver"),
        )
    except BaseException:
        server.stop()
        raise


def relay_policy(
    url: str,
    *,
    token_env: str = "HOOKWISE_AGENT_TOKEN",
    wait: float = 20,
    on_timeout: str = "ask",
    interactive_wait: float = 15,
    remember_minutes: int = 0,
    rules: str = "",
    extra_settings: str = "",
) -> str:
    """A user policy with settings.approvals (JSON inside YAML: no quoting surprises)."""
    block = {
        "url": url,
        "token_env": token_env,
        "wait": wait,
        "on_timeout": on_timeout,
        "interactive_wait": interactive_wait,
        "remember_minutes": remember_minutes,
    }
    return (
        f"version: 1\nsettings:\n  approvals: {json.dumps(block)}\n{extra_settings}rules:\n{rules}"
    )


def write_private(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o600)
    return path


# ------------------------------------------------- a forged service (the forged-answer tests only)


class FakeRelay:
    """A test-controlled service that answers every poll with ``forge(request)``."""

    def __init__(self, forge: Any) -> None:
        self.forge = forge
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path == "/api/approvals":
                    with outer.lock:
                        body["id"] = f"r{len(outer.requests) + 1}"
                        outer.requests.append(body)
                    created = {"id": body["id"], "status": "pending", "page_url": "x"}
                    self._send(201, json.dumps(created).encode())
                else:
                    self._send(409, b'{"error": "conflict", "message": "decided"}')

            def do_GET(self) -> None:
                wanted = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
                with outer.lock:
                    request = next(r for r in outer.requests if r["id"] == wanted)
                status, body = outer.forge(request)
                self._send(status, body if isinstance(body, bytes) else json.dumps(body).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def answer_for(request: dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = {
        **request,
        "status": "allowed",
        "created_at": 0,
        "decision": {
            "decision": "allow",
            "note": "",
            "approver": "mallory",
            "decided_at": 0,
            "remember_minutes": 0,
            "remembered_from": None,
        },
    }
    body.update(changes)
    return body


def sign_in(page: Page, token: str, name: str | None = None) -> None:
    """Sign in on the approval page; with ``name``, wait until the page says so.

    The tap only starts the sign-in: a navigation right after it can load the page before
    the session cookie is set (seen in CI under load: the page asked to sign in again).
    """
    from playwright.sync_api import expect

    page.locator("#token-input").fill(token)
    page.locator("#login-form button[type=submit]").tap()
    if name is not None:
        expect(page.locator("#who")).to_have_text(f"Signed in as {name}")
