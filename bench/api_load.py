"""Load on `hookwise serve` from wrk over loopback: parse-output and permission pairs.

Prints, per database (SQLite, PostgreSQL): parse-output requests/s and p99 latency with
64 connections, the same figures for a bare ASGI floor under the same uvicorn and worker
count (the named baseline of this run), their ratio, and permission create+resolve pairs/s.
Targets (issue 5): >= 2,000 req/s with p99 <= 50 ms; >= 300 pairs/s. Since issue 12 the
rate limits are also keyed by token and client address, and this bench is one client: its
pairs are capped at CLIENT_FACTOR times the per-session budget per minute (api/edge/ratelimit.py),
so the pairs figure now shows that cap holding (429s), not the database's capacity.

    .venv/bin/python bench/api_load.py [--duration 10] [--workers 2] [--database both]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from hookwise.api.edge.ratelimit import CLIENT_FACTOR, LIMITS

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"

PARSE_BODY = json.dumps(
    {
        "exitCode": 0,
        "stdout": json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "rm -rf outside the workspace",
                },
                "systemMessage": "blocked by policy",
            }
        ),
        "stderr": "",
        "hookEvent": "PreToolUse",
        "executionTime": 12.5,
    }
)

PARSE_LUA = """
wrk.method = "POST"
wrk.body = %(body)s
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %(token)s"
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) bad = 0 end
function response(status, headers, body) if status ~= 200 then bad = bad + 1 end end
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("bad") end
  io.write(string.format("NON200 %%d\\n", n))
end
"""

PAIRS_LUA = """
local threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end
function init(args)
  queue = {}
  seq = 0
  resolved = 0
  bad = 0
end
local function headers(session)
  return {["Content-Type"] = "application/json",
          ["Authorization"] = "Bearer %(token)s",
          ["X-Session-Id"] = session}
end
function request()
  local item = table.remove(queue, 1)
  if item then
    return wrk.format("POST", "/internal/hook/resolve-permission/" .. item[1],
                      headers(item[2]), '{"decision":"allow","reason":"bench"}')
  end
  seq = seq + 1
  local session = "bench-" .. tid .. "-" .. seq
  return wrk.format("POST", "/internal/hook/create-permission-request", headers(session),
    '{"toolName":"Bash","reason":"confirm","originalInput":{"command":"ls"}}')
end
function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 return end
  local id = body:match('"permissionId"%%s*:%%s*"([^"]+)"')
  if id then
    local session = body:match('"sessionId"%%s*:%%s*"([^"]+)"')
    table.insert(queue, {id, session})
  elseif body:find('"resolved"') then
    resolved = resolved + 1
  end
end
function done(summary, latency, requests)
  local r, b = 0, 0
  for _, t in ipairs(threads) do r = r + t:get("resolved"); b = b + t:get("bad") end
  io.write(string.format("RESOLVED %%d\\nNON200 %%d\\n", r, b))
end
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(url: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited with {process.returncode}")
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"server at {url} did not start")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def start_hookwise(
    data_dir: Path, database_url: str | None, workers: int
) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    env = {**os.environ, "HOOKWISE_API_TOKEN": TOKEN}
    if database_url:
        env["HOOKWISE_DATABASE_URL"] = database_url
    else:
        env.pop("HOOKWISE_DATABASE_URL", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hookwise.cli.entry",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--data-dir",
            str(data_dir),
            "--log-level",
            "warning",
        ],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    wait_up(f"{url}/openapi.json", process)
    return url, process


def start_floor(workers: int) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "asgi_floor:app",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT / "bench",
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    wait_up(url, process)
    return url, process


def wrk(
    url: str, script: str, duration: int, connections: int, threads: int = 2
) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script)
    try:
        out = subprocess.run(
            [
                "wrk",
                "-t",
                str(threads),
                "-c",
                str(connections),
                "-d",
                f"{duration}s",
                "--latency",
                "-s",
                lua.name,
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(lua.name)
    return parse_wrk(out)


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def parse_wrk(out: str) -> dict[str, float]:
    figures: dict[str, float] = {}
    if m := re.search(r"Requests/sec:\s+([\d.]+)", out):
        figures["rps"] = float(m.group(1))
    for pct in ("50", "90", "99"):
        if m := re.search(rf"^\s+{pct}(?:\.000)?%\s+(\S+)", out, re.M):
            figures[f"p{pct}"] = _ms(m.group(1))
    for key in ("NON200", "RESOLVED"):
        if m := re.search(rf"^{key} (\d+)", out, re.M):
            figures[key.lower()] = float(m.group(1))
    if m := re.search(r"(\d+) requests in ([\d.]+)(s|m)", out):
        figures["seconds"] = float(m.group(2)) * (60 if m.group(3) == "m" else 1)
    return figures


def run_database(name: str, database_url: str | None, args: argparse.Namespace) -> None:
    parse_lua = PARSE_LUA % {"body": json.dumps(PARSE_BODY), "token": TOKEN}
    floor_url, floor = start_floor(args.workers)
    try:
        wrk(floor_url, parse_lua, 2, args.connections)  # warm-up
        base = wrk(floor_url, parse_lua, args.duration, args.connections)
    finally:
        stop(floor)
    with tempfile.TemporaryDirectory() as tmp:
        url, server = start_hookwise(Path(tmp), database_url, args.workers)
        try:
            wrk(f"{url}/internal/hook/parse-output", parse_lua, 2, args.connections)
            parse = wrk(
                f"{url}/internal/hook/parse-output", parse_lua, args.duration, args.connections
            )
            pairs = wrk(url, PAIRS_LUA % {"token": TOKEN}, args.duration, args.connections)
        finally:
            stop(server)
    pair_rate = pairs.get("resolved", 0.0) / pairs.get("seconds", args.duration)
    print(
        f"[{name}] workers={args.workers} connections={args.connections} duration={args.duration}s"
    )
    print(
        f"  floor (bare ASGI)   {base['rps']:8.0f} req/s  p50 {base['p50']:6.2f} ms  p99 {base['p99']:6.2f} ms"
    )
    print(
        f"  parse-output        {parse['rps']:8.0f} req/s  p50 {parse['p50']:6.2f} ms  p99 {parse['p99']:6.2f} ms"
        f"  non-200 {int(parse.get('non200', 0))}"
    )
    print(
        f"  ratio parse/floor   {parse['rps'] / base['rps']:.3f}  (target: >= 2000 req/s, p99 <= 50 ms)"
    )
    print(
        f"  permission pairs    {pair_rate:8.0f} pairs/s  non-200 {int(pairs.get('non200', 0))}"
        f"  (one client: capped at {LIMITS['permissions'] * CLIENT_FACTOR}/min by design)"
    )
    sys.stdout.flush()


def postgres_url(given: str | None) -> str:
    """--pg-url, else the test server's (HOOKWISE_TEST_DATABASE_URL or `make pg`'s file)."""
    url = given or os.environ.get("HOOKWISE_TEST_DATABASE_URL")
    for url_file in (Path("/tmp/hookwise-pg/url"), Path.home() / ".cache/hookwise/pg/url"):
        if not url and url_file.exists():
            url = url_file.read_text().strip()
    if not url:
        raise SystemExit("no PostgreSQL: run `make pg` or pass --pg-url")
    return url


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new, empty database on the same server, dropped afterwards (runs comparable)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"hookwise_bench_{os.getpid()}"
    maintenance = base.set(drivername="postgresql", database="postgres")
    dsn = maintenance.render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument(
        "--pg-url", default=None, help="PostgreSQL URL (default: the test server's)"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("bench/api_load.py needs wrk (Debian package 'wrk')")
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.database in ("sqlite", "both"):
        run_database("sqlite", None, args)
    if args.database in ("postgres", "both"):
        with fresh_database(postgres_url(args.pg_url)) as fresh:
            run_database("postgres", fresh, args)


if __name__ == "__main__":
    main()
