"""What keeping parse-output calls for the console costs each call (api/storage/call_log.py).

Two contenders in one process, rounds interleaved so that machine noise hits both alike:

  (a) baseline - ``parse_output`` of the bench's deny answer (api_load.py's PARSE_BODY
                 reading): the work every parse-output call does anyway;
  (b) recorded - the same plus ``CallLog.note`` of a ``ParseCall``, what the request
                 path now adds (the row itself is built at flush time).

Then the housekeeping side: one ``CallLog.flush`` of a full buffer (BUFFER_ROWS rows, the
most a worker writes per second) into a fresh SQLite database, and into PostgreSQL when
--postgres is given (the server of `make pg`). Target: (b)/(a) <= 1.15, and a full flush
well under the one second between flushes.

    .venv/bin/python bench/parse_call_log.py [--calls 20000] [--rounds 5] [--postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from hookwise.api.processing.hook_output import parse_output
from hookwise.api.processing.output_config import OutputConfig
from hookwise.api.storage.call_log import BUFFER_ROWS, CallLog, parse_call
from hookwise.api.storage.db import make_engine, migrate, now_ms

STDOUT = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "rm -rf outside the workspace",
        },
        "systemMessage": "blocked by policy",
    }
)
CONFIG = OutputConfig()


def baseline(calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        parse_output(0, STDOUT, "", "PreToolUse", 12.5, CONFIG)
    return time.perf_counter() - started


def recorded(calls: int, log: CallLog) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        parsed = parse_output(0, STDOUT, "", "PreToolUse", 12.5, CONFIG)
        log.note(parse_call(parsed, "PreToolUse", "Bash", 0, 12.5, "bench", None, now_ms()))
    return time.perf_counter() - started


def flush_ms(url: str, data_dir: Path) -> float:
    engine = make_engine(url)
    try:
        migrate(engine, data_dir)
        log = CallLog()
        recorded(BUFFER_ROWS, log)
        started = time.perf_counter()
        written = log.flush(engine)
        elapsed = (time.perf_counter() - started) * 1000.0
        assert written == BUFFER_ROWS, written
        return elapsed
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--postgres", action="store_true", help="also time a flush into PostgreSQL (make pg)"
    )
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    log = CallLog()
    plain: list[float] = []
    kept: list[float] = []
    for _ in range(args.rounds):
        plain.append(baseline(args.calls))
        kept.append(recorded(args.calls, log))
        log = CallLog()  # a fresh buffer each round, as after a flush
    a, b = statistics.median(plain), statistics.median(kept)
    per_a, per_b = a / args.calls * 1e6, b / args.calls * 1e6
    print(f"calls={args.calls} rounds={args.rounds} (medians)")
    print(f"  (a) parse_output            {per_a:7.1f} us/call")
    print(f"  (b) parse_output + note     {per_b:7.1f} us/call  (+{per_b - per_a:.1f} us)")
    print(f"  ratio (b)/(a)  {b / a:.3f}  (target <= 1.15)")
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = f"sqlite:///{Path(tmp) / 'bench.db'}"
        print(f"  flush of {BUFFER_ROWS} rows, SQLite      {flush_ms(sqlite, Path(tmp)):7.1f} ms")
        if args.postgres:
            from api_load import fresh_database, postgres_url  # bench/ is on sys.path

            with fresh_database(postgres_url(None)) as url:
                figure = flush_ms(url, Path(tmp))
            print(f"  flush of {BUFFER_ROWS} rows, PostgreSQL  {figure:7.1f} ms")


if __name__ == "__main__":
    main()
