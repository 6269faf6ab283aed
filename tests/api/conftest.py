"""Fixtures for the service: an app per test on SQLite and on PostgreSQL, and real servers.

``client`` runs in-process (FastAPI's TestClient, lifespan included); ``live_server``
starts a real ``hookwise serve`` process on a free loopback port for the tests that need
real sockets, several processes, or a kill -9.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from hookwise.api.app import create_app
from hookwise.api.settings import ExecutePolicy, ServiceSettings, execute_policy, sqlite_url
from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.webhooks.targets import TargetPolicy
from tests.api.webhook_receiver import Receiver
from tests.service_env import (
    drop_postgres_database,
    fresh_postgres_database,
    launch_chromium,
    require_chromium,
    require_postgres,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


# A request refused by validation is answered before the storage is reached, the same on
# either database: its many cases run on SQLite only (what the storage does with a valid
# request is tested on both).
ONE_DATABASE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def one_database(kind: str, tmp_path: Path, template: str | None = None) -> Iterator[str]:
    """A database of ``kind`` for one test, empty or a copy of ``template`` (for SQLite the
    template's file, for PostgreSQL its name), dropped afterwards."""
    if kind == "sqlite":
        url = sqlite_url(tmp_path)
        if template is not None:
            shutil.copyfile(template, make_url(url).database or "")
        yield url
        return
    require_postgres()
    url = fresh_postgres_database("hw", template=template)
    try:
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture(scope="session")
def _schemas() -> Iterator[dict[str, str]]:
    """Each kind of database migrated to head once per worker, on first use: every test's
    database is a copy (the migrations themselves run on empty ones in
    tests/api/storage/test_migrations.py, and the service still checks the version on start)."""
    schemas: dict[str, str] = {}
    yield schemas
    if "postgres" in schemas:
        drop_postgres_database(schemas["postgres"])


def _schema(kind: str, schemas: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> str:
    """The template of ``kind``: the SQLite file's path, or the PostgreSQL database's URL."""
    if kind not in schemas:
        place = tmp_path_factory.mktemp(f"schema-{kind}")
        url = sqlite_url(place) if kind == "sqlite" else fresh_postgres_database("hw_schema")
        engine = make_engine(url)
        try:
            migrate(engine, place)
        finally:
            engine.dispose()
        schemas[kind] = (make_url(url).database or "") if kind == "sqlite" else url
    return schemas[kind]


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    _schemas: dict[str, str],
) -> Iterator[str]:
    """A database at the schema's head, on SQLite and on PostgreSQL."""
    if request.param == "postgres":
        require_postgres()
    template = _schema(request.param, _schemas, tmp_path_factory)
    if request.param == "postgres":
        template = make_url(template).database or ""
    yield from one_database(request.param, tmp_path, template)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium through Playwright, one per test module."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


# The documented opt-in (--webhook-allow-private) for tests whose receivers listen on
# 127.0.0.1; without the ``private_webhooks`` mark the server refuses them, as by default.
PRIVATE_WEBHOOKS = TargetPolicy(allow_private=True)
PRIVATE_WEBHOOKS_ENV = PRIVATE_WEBHOOKS.env()


def _private_webhooks(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("private_webhooks") is not None


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path, database_url: str) -> ServiceSettings:
    targets = PRIVATE_WEBHOOKS if _private_webhooks(request) else TargetPolicy()
    return ServiceSettings(
        data_dir=tmp_path, database_url=database_url, api_token=TOKEN, webhook_targets=targets
    )


@pytest.fixture
def make_client(settings: ServiceSettings) -> Iterator[Callable[..., TestClient]]:
    """Build a client on the test's database; keyword arguments override settings."""
    opened: list[TestClient] = []

    def build(**overrides: object) -> TestClient:
        client = TestClient(create_app(replace(settings, **overrides)), headers=AUTH)  # type: ignore[arg-type]
        client.__enter__()
        opened.append(client)
        return client

    yield build
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def allow_commands(*commands: str, roots: tuple[Path, ...] | None = None) -> ExecutePolicy:
    """Execution on for exactly ``commands``; cwds confined to ``roots`` (default: the
    temporary directory the tests' projects live in)."""
    return execute_policy(commands, roots=roots or (Path(tempfile.gettempdir()),))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    token: str
    data_dir: Path
    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self, **kwargs: object) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=self.headers, **kwargs)  # type: ignore[arg-type]

    def kill(self) -> None:
        """kill -9 of the whole server (all workers)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(
    data_dir: Path,
    database_url: str,
    workers: int = 1,
    port: int | None = None,
    extra_env: dict[str, str] | None = None,
    timeout: float = 90.0,
    extra_args: tuple[str, ...] = (),
) -> LiveServer:
    port = port or free_port()
    env = {
        **os.environ,
        "HOOKWISE_API_TOKEN": TOKEN,
        "HOOKWISE_DATABASE_URL": database_url,
        **(extra_env or {}),
    }
    log = data_dir / f"serve-{port}.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hookwise.cli.entry",
                "serve",
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--data-dir",
                str(data_dir),
                "--log-level",
                "warning",
                *extra_args,
            ],
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    server = LiveServer(f"http://127.0.0.1:{port}", TOKEN, data_dir, process, log, env)
    deadline = time.monotonic() + timeout
    seen = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hookwise serve exited: {log.read_text(errors='replace')}")
        try:
            # the first /openapi.json builds the schema: on a loaded machine (CI, two
            # workers) that took longer than a 1 s poll allowed
            response = httpx.get(f"{server.url}/openapi.json", timeout=5.0)
            if response.status_code == 200:
                return server
            seen = f"HTTP {response.status_code}: {response.text[:200]}"
        except httpx.HTTPError as exc:
            seen = f"{type(exc).__name__}: {exc}"
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(
        f"hookwise serve did not answer /openapi.json in {timeout:g} s (last: {seen}); "
        f"its log: {log.read_text(errors='replace')}"
    )


@pytest.fixture
def live_server(
    request: pytest.FixtureRequest, tmp_path: Path, database_url: str
) -> Iterator[Callable[..., LiveServer]]:
    started: list[LiveServer] = []
    opt_in = PRIVATE_WEBHOOKS_ENV if _private_webhooks(request) else {}

    def launch(**kwargs: object) -> LiveServer:
        kwargs.setdefault("data_dir", tmp_path / "server")
        kwargs.setdefault("database_url", database_url)
        kwargs["extra_env"] = {**opt_in, **kwargs.get("extra_env", {})}  # type: ignore[dict-item]
        server = start_server(**kwargs)  # type: ignore[arg-type]
        started.append(server)
        return server

    yield launch
    for server in started:
        server.stop()


# Webhook delivery fast enough for tests: short backoff, poll, timeout and lease.
FAST = {
    "HOOKWISE_WEBHOOK_BASE_DELAY_MS": "200",
    "HOOKWISE_WEBHOOK_MAX_DELAY_MS": "2000",
    "HOOKWISE_WEBHOOK_POLL_MS": "50",
    "HOOKWISE_WEBHOOK_TIMEOUT_MS": "3000",
    "HOOKWISE_WEBHOOK_LEASE_MS": "5000",
}


@pytest.fixture
def one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process service's rate clock stopped: a burst never straddles the end of a
    fixed one-minute window, where the counts start again (a test of 100 requests under
    load spans seconds: it failed by chance)."""
    from hookwise.api.edge import ratelimit

    stopped = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: stopped))


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in FAST.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    """A real HTTP receiver on 127.0.0.1 recording every delivery."""
    with Receiver(tmp_path / "receiver.jsonl") as running:
        yield running
