"""Test-side access to the services the `hookwise serve` tests need: PostgreSQL and Chromium.

`make pg` starts a throwaway PostgreSQL server (scripts/pg-test-server.sh) and `make unit` passes
its URL as HOOKWISE_TEST_DATABASE_URL; `make chromium` installs Debian's Chromium, which Playwright
drives through `executable_path` (never a browser download).

A test that needs one of them calls `require_postgres()` / `require_chromium()`: without the
service the test skips, except under CI (CI set and not 0/false/no), where it fails, so that a CI
run can never pass by skipping them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    import psycopg
    from playwright.sync_api import Browser, Playwright

DATABASE_URL_ENV = "HOOKWISE_TEST_DATABASE_URL"
PG_DIR_ENV = "HOOKWISE_PG_DIR"
CHROMIUM_ENV = "HOOKWISE_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"

# Chromium as root in a container with no network: no sandbox (root), no GPU, and no background
# connections to Google's hosts (refused here, many at a time, and slow to fail).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def in_ci() -> bool:
    """True when CI is set to something other than empty, 0, false or no."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(what: str, why: str, hint: str) -> NoReturn:
    message = f"{what} unavailable: {why} ({hint})"
    if in_ci():
        pytest.fail(f"{message}; CI must not skip this test", pytrace=False)
    pytest.skip(message)


# --- PostgreSQL -------------------------------------------------------------------------------


def pg_dir() -> Path:
    """Where `make pg` keeps the test server: the same default as the Makefile."""
    configured = os.environ.get(PG_DIR_ENV)
    if configured:
        return Path(configured)
    if os.geteuid() == 0:
        return Path("/tmp/hookwise-pg")
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "hookwise" / "pg"


def postgres_url() -> str | None:
    """The SQLAlchemy URL of the test database: HOOKWISE_TEST_DATABASE_URL, else the url file
    `make pg` wrote; None when neither is there. Says nothing about whether the server is up."""
    url = os.environ.get(DATABASE_URL_ENV, "").strip()
    if url:
        return url
    try:
        url = (pg_dir() / "url").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return url or None


def _connect_kwargs(url: str, database: str | None = None) -> dict[str, Any]:
    """psycopg.connect keyword arguments for a SQLAlchemy URL (`postgresql+psycopg://...`)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    kwargs: dict[str, Any] = {
        "host": parsed.host,
        "port": parsed.port,
        "user": parsed.username,
        "password": parsed.password,
        "dbname": database or parsed.database,
        "connect_timeout": 5,
    }
    return {key: value for key, value in kwargs.items() if value is not None}


@functools.cache
def _postgres_problem(url: str) -> str | None:
    """None when `SELECT 1` works on url, else why not (checked once per process)."""
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - psycopg is a dependency of hookwise
        return f"psycopg is not importable: {exc}"
    try:
        with psycopg.connect(**_connect_kwargs(url)) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure to reach the server means: not available
        return f"cannot connect to {url}: {str(exc).strip()}"
    return None


def require_postgres() -> str:
    """The URL of a reachable PostgreSQL test database; skips (fails under CI) when there is none."""
    url = postgres_url()
    if url is None:
        _unavailable("PostgreSQL", f"{DATABASE_URL_ENV} is not set and no url file", "run make pg")
    problem = _postgres_problem(url)
    if problem is not None:
        _unavailable("PostgreSQL", problem, "run make pg")
    return url


def _database_name(prefix: str) -> str:
    """A unique, valid database name: prefix, xdist worker, pid and a random part (<= 63 chars)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    suffix = f"_{worker}_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    head = re.sub(r"[^a-z0-9_]", "_", prefix.lower())[: 63 - len(suffix) - 2]
    if not head[:1].isalpha():
        head = f"t_{head}"
    return re.sub(r"[^a-z0-9_]", "_", f"{head}{suffix}".lower())[:63]


def _maintenance(url: str) -> psycopg.Connection[Any]:
    """An autocommit connection to the server's `postgres` database (CREATE/DROP DATABASE)."""
    import psycopg

    return psycopg.connect(**_connect_kwargs(url, "postgres"), autocommit=True)


def fresh_postgres_database(prefix: str = "hookwise", template: str | None = None) -> str:
    """Creates a new, empty (or a copy of the database ``template``, which nobody may be
    connected to), uniquely named database on the test server; returns its SQLAlchemy URL.

    Parallel pytest-xdist workers never collide (the name carries the worker, the pid and a random
    part). Drop it with `drop_postgres_database(url)`, or use `temporary_postgres_database`.
    Skips (fails under CI) when the server is unavailable.
    """
    from psycopg import sql
    from sqlalchemy.engine import make_url

    base = require_postgres()
    name = _database_name(prefix)
    with _maintenance(base) as conn:
        if template is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        else:
            create = sql.SQL("CREATE DATABASE {} TEMPLATE {}")
            conn.execute(create.format(sql.Identifier(name), sql.Identifier(template)))
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    """Drops the database of url, closing any connection still open to it (a pool not disposed)."""
    from psycopg import sql
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    if not name or name in ("postgres", "template0", "template1"):
        raise ValueError(f"refusing to drop database {name!r}")
    with _maintenance(url) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@contextlib.contextmanager
def temporary_postgres_database(prefix: str = "hookwise") -> Iterator[str]:
    """`fresh_postgres_database` dropped on exit. In a fixture::

    @pytest.fixture
    def pg_url():
        with temporary_postgres_database("serve") as url:
            yield url
    """
    url = fresh_postgres_database(prefix)
    try:
        yield url
    finally:
        drop_postgres_database(url)


# --- Chromium ---------------------------------------------------------------------------------


def chromium_path() -> str | None:
    """Debian's Chromium: HOOKWISE_CHROMIUM when set, else /usr/bin/chromium or `chromium` on
    PATH; None when it is not an executable file."""
    configured = os.environ.get(CHROMIUM_ENV, "").strip()
    candidates = [configured] if configured else [DEFAULT_CHROMIUM, shutil.which("chromium") or ""]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def require_chromium() -> str:
    """The Chromium executable, with Playwright importable; skips (fails under CI) otherwise."""
    path = chromium_path()
    if path is None:
        where = os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM
        _unavailable("Chromium", f"no executable at {where}", "run make chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        _unavailable("Playwright", str(exc), "pip install -e '.[test]'")
    return path


def launch_chromium(playwright: Playwright, **options: Any) -> Browser:
    """Launches Debian's Chromium headless through Playwright (no browser download, ever).

    Use as ``with sync_playwright() as pw: browser = launch_chromium(pw)``; extra keyword
    arguments go to `playwright.chromium.launch` (extra `args` are appended to CHROMIUM_ARGS).
    """
    args = [*CHROMIUM_ARGS, *options.pop("args", ())]
    options.setdefault("timeout", 60_000)
    return playwright.chromium.launch(
        executable_path=require_chromium(), headless=True, args=args, **options
    )
