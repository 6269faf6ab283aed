"""A real HTTP webhook receiver for the tests: records every delivery, misbehaves on demand.

Standard library only, so it runs in a thread of the test (``Receiver``) or as its own
process (``ReceiverProcess``: ``python tests/api/webhook_receiver.py --log F --port-file
P``), which keeps receiving while the server under test is killed and restarted.

Each request becomes one JSON line in the log (``Record``), written when the answer has
been sent (or, for a request it will never answer, when it arrives). What it answers is
set by ``Behaviour``, at start or later through ``POST /_control`` with a JSON object of
``Behaviour`` fields; ``GET /_stats`` tells how many requests arrived, how many are being
answered right now and how many of those are being held (slow or hanging).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@dataclass
class Behaviour:
    fail_first: int = 0  # per event id, answer fail_status to the first N requests
    fail_rate: float = 0.0  # after those, fail with this probability
    slow_rate: float = 0.0  # answer only after slow_ms with this probability
    slow_ms: int = 0
    hang: bool = False  # never answer at all
    fail_status: int = 500
    seed: int | None = None


@dataclass(frozen=True)
class Record:
    event_id: str
    event_type: str
    attempt: int
    webhook_id: str
    timestamp: str
    signature: str
    content_type: str
    body: str  # the raw body, decoded as UTF-8 (it is JSON)
    received_at: float
    answered_at: float | None
    status: int | None  # None: never answered

    @property
    def payload(self) -> Any:
        return json.loads(self.body)

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def read_records(log: Path) -> list[Record]:
    """Every complete line of the log (a line being written is skipped)."""
    try:
        text = log.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    found = []
    for line in text.splitlines():
        with contextlib.suppress(json.JSONDecodeError, TypeError):
            found.append(Record(**json.loads(line)))
    return found


@dataclass
class _Shared:
    log: Path
    behaviour: Behaviour
    rng: random.Random = field(default_factory=random.Random)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    seen: Counter[str] = field(default_factory=Counter)
    received: int = 0
    inflight: int = 0  # being answered now
    delaying: int = 0  # of those, waiting out a slow answer (or hanging) right now

    def configure(self, changes: dict[str, Any]) -> None:
        names = {f.name for f in fields(Behaviour)}
        unknown = set(changes) - names
        if unknown:
            raise ValueError(f"unknown behaviour field(s): {sorted(unknown)}")
        with self.lock:
            self.behaviour = Behaviour(**{**asdict(self.behaviour), **changes})
            if "seed" in changes:
                self.rng.seed(changes["seed"])

    def plan(self, event_id: str) -> tuple[int | None, float]:
        """(status to answer or None to hang, seconds to wait first) for the next request."""
        with self.lock:
            b = self.behaviour
            self.received += 1
            self.inflight += 1
            self.seen[event_id] += 1
            if b.hang:
                return None, 0.0
            delay = b.slow_ms / 1000 if self.rng.random() < b.slow_rate else 0.0
            failing = self.seen[event_id] <= b.fail_first or self.rng.random() < b.fail_rate
            return (b.fail_status if failing else 200), delay

    def wait(self, seconds: float | None) -> None:
        with self.lock:
            self.delaying += 1
        try:
            self.stop.wait(seconds)
        finally:
            with self.lock:
                self.delaying -= 1

    def write(self, record: Record) -> None:
        line = json.dumps(asdict(record)) + "\n"
        with self.lock, self.log.open("a", encoding="utf-8") as out:
            out.write(line)
            out.flush()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self) -> None:
        shared = self.server.shared
        if self.path != "/_stats":
            self._answer(404, {"error": "not_found"})
            return
        with shared.lock:
            stats = {
                "received": shared.received,
                "inflight": shared.inflight,
                "delaying": shared.delaying,
            }
        self._answer(200, stats)

    def do_POST(self) -> None:
        shared = self.server.shared
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/_control":
            try:
                shared.configure(json.loads(body or b"{}"))
            except (ValueError, TypeError) as err:
                self._answer(400, {"error": str(err)})
                return
            self._answer(200, asdict(shared.behaviour))
            return
        received_at = time.time()
        event_id = self.headers.get("X-Hookwise-Event-Id", "")
        status, delay = shared.plan(event_id)

        def record(status: int | None, answered_at: float | None) -> Record:
            return Record(
                event_id=event_id,
                event_type=self.headers.get("X-Hookwise-Event-Type", ""),
                attempt=int(self.headers.get("X-Hookwise-Delivery-Attempt", "0")),
                webhook_id=self.headers.get("X-Hookwise-Webhook-Id", ""),
                timestamp=self.headers.get("X-Hookwise-Timestamp", ""),
                signature=self.headers.get("X-Hookwise-Signature", ""),
                content_type=self.headers.get("Content-Type", ""),
                body=body.decode("utf-8", "replace"),
                received_at=received_at,
                answered_at=answered_at,
                status=status,
            )

        try:
            if status is None:
                shared.write(record(None, None))
                shared.wait(None)  # never answer; the connection closes when we stop
                self.close_connection = True
                return
            if delay:
                shared.wait(delay)
            self._answer(status, {"ok": 200 <= status < 300})
            shared.write(record(status, time.time()))
        except OSError:  # the sender went away (timed out or was killed): not answered
            shared.write(record(None, None))
        finally:
            with shared.lock:
                shared.inflight -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops connections when many arrive at once

    def __init__(self, port: int, shared: _Shared, host: str = "127.0.0.1") -> None:
        if ":" in host:  # an IPv6 literal such as ::1
            self.address_family = socket.AF_INET6
        super().__init__((host, port), _Handler)
        self.shared = shared


class Receiver:
    """The receiver in a thread of this process."""

    def __init__(
        self,
        log: Path,
        behaviour: Behaviour | None = None,
        port: int = 0,
        host: str = "127.0.0.1",
    ) -> None:
        behaviour = behaviour or Behaviour()
        self.log = log
        self._shared = _Shared(log, behaviour, random.Random(behaviour.seed))
        self._server = _Server(port, self._shared, host)
        self.port = int(self._server.server_address[1])
        netloc = f"[{host}]" if ":" in host else host
        self.url = f"http://{netloc}:{self.port}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._shared.stop.set()
        self._server.shutdown()
        self._server.server_close()

    def configure(self, **changes: Any) -> None:
        self._shared.configure(changes)

    def records(self) -> list[Record]:
        return read_records(self.log)


class ReceiverProcess:
    """The receiver as a separate process (it outlives the server under test)."""

    def __init__(self, workdir: Path, behaviour: Behaviour | None = None) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.log = workdir / "receiver.jsonl"
        port_file = workdir / "receiver.port"
        port_file.unlink(missing_ok=True)
        self._stderr = (workdir / "receiver.err").open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--log",
                str(self.log),
                "--port-file",
                str(port_file),
                "--behaviour",
                json.dumps(asdict(behaviour or Behaviour())),
            ],
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
        )
        deadline = time.monotonic() + 15
        while not port_file.exists() or not port_file.read_text().strip():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("webhook receiver did not start")
            time.sleep(0.02)
        self.port = int(port_file.read_text())
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/hook"

    def __enter__(self) -> ReceiverProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self._stderr.close()

    def records(self) -> list[Record]:
        return read_records(self.log)

    def stats(self) -> dict[str, int]:
        import urllib.request

        with urllib.request.urlopen(f"{self.base}/_stats", timeout=5) as answer:
            result: dict[str, int] = json.load(answer)
        return result

    def configure(self, **changes: Any) -> None:
        import urllib.request

        request = urllib.request.Request(
            f"{self.base}/_control",
            data=json.dumps(changes).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5):
            pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--port-file", type=Path, required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--behaviour", default="{}", help="JSON object of Behaviour fields")
    args = parser.parse_args(argv)
    behaviour = Behaviour(**json.loads(args.behaviour))
    shared = _Shared(args.log, behaviour, random.Random(behaviour.seed))
    server = _Server(args.port, shared)
    tmp = args.port_file.with_suffix(".tmp")
    tmp.write_text(str(server.server_address[1]))
    os.replace(tmp, args.port_file)  # the port appears whole or not at all
    server.serve_forever()


if __name__ == "__main__":
    main()
