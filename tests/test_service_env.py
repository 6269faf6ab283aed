"""The test services of `hookwise serve`: PostgreSQL (make pg) and Chromium (make chromium).

The first tests check the helpers' skip/fail logic and need nothing; the last ones use the real
services and skip without them locally, but fail under CI.
"""

from __future__ import annotations

import http.server
import re
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import service_env
from tests.service_env import (
    chromium_path,
    drop_postgres_database,
    fresh_postgres_database,
    launch_chromium,
    postgres_url,
    require_chromium,
    require_postgres,
    temporary_postgres_database,
)

# --- the helpers, without the services --------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        ("", False),
        ("0", False),
        ("false", False),
        ("No", False),
        ("true", True),
        ("1", True),
        ("yes", True),
    ],
)
def test_in_ci_reads_the_ci_variable(
    monkeypatch: pytest.MonkeyPatch, value: str | None, expected: bool
) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert service_env.in_ci() is expected


def test_postgres_url_prefers_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "url").write_text("postgresql+psycopg://file@127.0.0.1:1/db\n")
    monkeypatch.setenv("HOOKWISE_PG_DIR", str(tmp_path))
    monkeypatch.setenv("HOOKWISE_TEST_DATABASE_URL", "postgresql+psycopg://env@127.0.0.1:2/db")
    assert postgres_url() == "postgresql+psycopg://env@127.0.0.1:2/db"
    monkeypatch.setenv("HOOKWISE_TEST_DATABASE_URL", "")
    assert postgres_url() == "postgresql+psycopg://file@127.0.0.1:1/db"
    (tmp_path / "url").unlink()
    assert postgres_url() is None


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("ci", [None, "true"])
def test_require_postgres_skips_locally_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str | None
) -> None:
    monkeypatch.setenv("HOOKWISE_PG_DIR", str(tmp_path))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    outcome = pytest.fail.Exception if ci else pytest.skip.Exception

    monkeypatch.delenv("HOOKWISE_TEST_DATABASE_URL", raising=False)
    with pytest.raises(outcome, match="make pg"):
        require_postgres()

    unreachable = f"postgresql+psycopg://nobody@127.0.0.1:{_closed_port()}/hookwise_test"
    monkeypatch.setenv("HOOKWISE_TEST_DATABASE_URL", unreachable)
    with pytest.raises(outcome, match="cannot connect"):
        require_postgres()


@pytest.mark.parametrize("ci", [None, "true"])
def test_require_chromium_skips_locally_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str | None
) -> None:
    missing = tmp_path / "no-chromium"
    monkeypatch.setenv("HOOKWISE_CHROMIUM", str(missing))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert chromium_path() is None
    with pytest.raises(
        pytest.fail.Exception if ci else pytest.skip.Exception, match="make chromium"
    ):
        require_chromium()


def test_chromium_path_takes_an_executable_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    monkeypatch.setenv("HOOKWISE_CHROMIUM", str(fake))
    assert chromium_path() is None  # not executable
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    assert chromium_path() == str(fake)


def test_database_names_are_unique_and_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    names = {service_env._database_name("Serve-Tests") for _ in range(50)}
    assert len(names) == 50
    for name in names:
        assert re.fullmatch(r"[a-z][a-z0-9_]{0,62}", name), name
        assert name.startswith("serve_tests_gw3_")
    long_name = service_env._database_name("9" * 100)
    assert len(long_name) <= 63
    assert long_name[0].isalpha()


# --- PostgreSQL -------------------------------------------------------------------------------


def test_postgres_answers_select_1_through_psycopg_and_sqlalchemy() -> None:
    import psycopg
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = require_postgres()
    parsed = make_url(url)
    assert parsed.drivername == "postgresql+psycopg"
    assert parsed.host == "127.0.0.1"

    with psycopg.connect(**service_env._connect_kwargs(url)) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        server_version = conn.info.server_version
    assert server_version >= 130000  # DROP DATABASE ... WITH (FORCE)

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
            assert conn.execute(text("SELECT current_database()")).scalar_one() == parsed.database
    finally:
        engine.dispose()


def _database_exists(name: str) -> bool:
    import psycopg

    with psycopg.connect(**service_env._connect_kwargs(require_postgres(), "postgres")) as conn:
        row = conn.execute("SELECT count(*) FROM pg_database WHERE datname = %s", (name,))
        return row.fetchone() == (1,)


def test_fresh_postgres_database_is_created_empty_and_dropped() -> None:
    from sqlalchemy import create_engine, inspect, text
    from sqlalchemy.engine import make_url

    require_postgres()
    with temporary_postgres_database("envcheck") as url:
        name = make_url(url).database
        assert name is not None
        assert name.startswith("envcheck_")
        assert _database_exists(name)
        engine = create_engine(url)
        with engine.begin() as conn:
            assert inspect(conn).get_table_names() == []
            conn.execute(text("CREATE TABLE t (id integer PRIMARY KEY, body text)"))
            conn.execute(text("INSERT INTO t VALUES (1, 'x')"))
        # a connection left open in the pool must not stop the drop (WITH (FORCE))
        held = engine.connect()
        assert held.execute(text("SELECT body FROM t")).scalar_one() == "x"
    assert not _database_exists(name)
    held.invalidate()  # the server terminated it: nothing to roll back
    held.close()
    engine.dispose()


def test_fresh_postgres_database_returns_a_url_and_drop_removes_it() -> None:
    from sqlalchemy.engine import make_url

    require_postgres()
    first = fresh_postgres_database("same")
    second = fresh_postgres_database("same")
    try:
        assert isinstance(first, str)
        assert make_url(first).database != make_url(second).database
        assert _database_exists(str(make_url(first).database))
    finally:
        drop_postgres_database(first)
        drop_postgres_database(second)
    assert not _database_exists(str(make_url(first).database))
    assert not _database_exists(str(make_url(second).database))
    with pytest.raises(ValueError, match="refusing"):
        drop_postgres_database(make_url(first).set(database="postgres").render_as_string())


# --- Chromium ---------------------------------------------------------------------------------

PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>hookwise env check</title></head>
<body>
<p id="status">waiting</p>
<button id="go" type="button">Approve</button>
<script>
document.getElementById("go").addEventListener("click", () => {
  document.getElementById("status").textContent = "approved";
});
</script>
</body></html>
"""


@pytest.fixture
def page_server() -> Iterator[tuple[str, list[str]]]:
    """A one-page site on 127.0.0.1 (a random port); yields its URL and the paths requested."""
    requested: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            if self.path != "/":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", requested
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_chromium_clicks_a_button_on_a_local_page(page_server: tuple[str, list[str]]) -> None:
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    url, requested = page_server
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            assert browser.version.split(".")[0].isdigit()
            page = browser.new_page()
            page.goto(url)
            assert page.title() == "hookwise env check"
            status = page.locator("#status")
            expect(status).to_have_text("waiting")
            page.get_by_role("button", name="Approve").click()
            expect(status).to_have_text("approved")
        finally:
            browser.close()
    assert "/" in requested
