"""Webhook faults against a real ``hookwise serve``: kill -9 mid-delivery, a receiver that hangs.

The events come from the API itself (permission requests created and resolved), the
receiver is a separate process that keeps running while the server is killed, and the
server restarts on the same database: everything queued must still arrive, under the
event id it was first sent with.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from hookwise.api.storage.db import make_engine, now_ms
from hookwise.api.storage.tables import webhook_outbox
from hookwise.api.webhooks.signing import verify
from tests.api.conftest import LiveServer
from tests.api.webhook_receiver import Behaviour, ReceiverProcess, Record

pytestmark = pytest.mark.private_webhooks  # receivers listen on 127.0.0.1

SECRET = "whsec_crash_test"
CRASH_ENV = {
    "HOOKWISE_WEBHOOK_BASE_DELAY_MS": "100",
    "HOOKWISE_WEBHOOK_MAX_DELAY_MS": "1000",
    "HOOKWISE_WEBHOOK_MAX_ATTEMPTS": "1000",
    "HOOKWISE_WEBHOOK_TIMEOUT_MS": "3000",
    "HOOKWISE_WEBHOOK_LEASE_MS": "4000",
    "HOOKWISE_WEBHOOK_PER_SUBSCRIBER": "8",
    "HOOKWISE_WEBHOOK_POLL_MS": "100",
}
REQUESTED_FIELDS = {"eventType", "timestamp", "permissionId", "toolName", "reason", "sessionId"}
RESOLVED_FIELDS = {
    "eventType",
    "timestamp",
    "permissionId",
    "decision",
    "processingTime",
    "sessionId",
}


def wait_for(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def subscribe(http: httpx.Client, url: str, events: list[str]) -> str:
    answer = http.post("/api/webhooks", json={"url": url, "events": events, "secret": SECRET})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def ask_and_answer(http: httpx.Client, n: int, resolve: bool = True) -> dict[str, Any]:
    """One permission request through the API (and its resolution): one or two events."""
    session = {"X-Session-Id": f"crash-session-{n}"}
    created = http.post(
        "/internal/hook/create-permission-request",
        json={
            "toolName": "Bash",
            "reason": f"run step {n}",
            "originalInput": {"command": f"make {n}"},
        },
        headers=session,
    )
    assert created.status_code == 200, created.text
    expected = {
        "permissionId": created.json()["permissionId"],
        "sessionId": session["X-Session-Id"],
        "reason": f"run step {n}",
        "decision": "allow" if n % 2 else "deny",
    }
    if resolve:
        resolved = http.post(
            f"/internal/hook/resolve-permission/{expected['permissionId']}",
            json={"decision": expected["decision"]},
            headers=session,
        )
        assert resolved.status_code == 200, resolved.text
    return expected


def outbox(engine: sa.Engine) -> list[sa.Row[Any]]:
    with engine.connect() as conn:
        return list(conn.execute(sa.select(webhook_outbox)))


def by_event(records: list[Record]) -> dict[tuple[str, str], list[Record]]:
    """Receiver records grouped by (permissionId, eventType), in arrival order."""
    grouped: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for record in sorted(records, key=lambda r: r.received_at):
        payload = record.payload
        grouped[payload["permissionId"], payload["eventType"]].append(record)
    return grouped


def test_kill_9_mid_delivery_loses_no_event(
    live_server: Callable[..., LiveServer], database_url: str, tmp_path: Path
) -> None:
    flaky = Behaviour(fail_rate=0.3, slow_rate=0.4, slow_ms=1500, seed=20251114)
    with ReceiverProcess(tmp_path / "receiver", flaky) as receiver:
        server = live_server(extra_env=CRASH_ENV)
        started = now_ms()
        with server.client(timeout=30) as http:
            wid = subscribe(http, receiver.url, ["permission_requested", "permission_resolved"])
            expected = [ask_and_answer(http, n) for n in range(30)]

        # kill -9 while the receiver is holding a delivery open
        wait_for(lambda: receiver.stats()["delaying"] >= 1, 30, "a delivery in flight")
        server.kill()
        engine = make_engine(database_url)
        try:
            at_kill = outbox(engine)
            assert len(at_kill) == 60
            held = [r for r in at_kill if r.status == "pending" and r.lease_until is not None]
            assert held, "no delivery was in flight when the server was killed"
            assert sum(r.status != "delivered" for r in at_kill) > len(held)  # and more queued

            restarted = live_server(extra_env=CRASH_ENV)
            wait_for(
                lambda: all(r.status == "delivered" for r in outbox(engine)),
                120,
                "every event delivered after the restart",
            )
            final = {r.id: r for r in outbox(engine)}
        finally:
            engine.dispose()
        records = receiver.records()
        with restarted.client(timeout=30) as http:
            log = http.get(f"/api/webhooks/{wid}/deliveries", params={"limit": 1000}).json()

    # Every event arrived at least once, with one event id and one body on every attempt.
    grouped = by_event(records)
    assert len(grouped) == 60
    event_ids = set()
    for want in expected:
        pid = want["permissionId"]
        requested, resolved = (
            grouped[pid, "permission_requested"],
            grouped[pid, "permission_resolved"],
        )
        for attempts in (requested, resolved):
            assert any(r.delivered for r in attempts), (pid, attempts)
            assert len({r.event_id for r in attempts}) == 1
            assert len({r.body for r in attempts}) == 1
            numbers = [r.attempt for r in attempts]
            assert len(numbers) == len(set(numbers))  # no attempt was made twice
            for r in attempts:
                assert verify(
                    SECRET, r.body.encode(), r.event_id, r.timestamp, r.signature, now=r.received_at
                )
            event_ids.add(attempts[0].event_id)
        ask, answer = requested[0].payload, resolved[0].payload
        # ... and exactly the contract's payloads
        assert set(ask) == REQUESTED_FIELDS
        assert set(answer) == RESOLVED_FIELDS
        assert ask == {
            "eventType": "permission_requested",
            "timestamp": ask["timestamp"],
            "permissionId": pid,
            "toolName": "Bash",
            "reason": want["reason"],
            "sessionId": want["sessionId"],
        }
        assert answer == {
            "eventType": "permission_resolved",
            "timestamp": answer["timestamp"],
            "permissionId": pid,
            "decision": want["decision"],
            "processingTime": answer["timestamp"] - ask["timestamp"],
            "sessionId": want["sessionId"],
        }
        assert isinstance(ask["timestamp"], int) and ask["timestamp"] >= started
        assert requested[0].event_type == "permission_requested"
    assert len(event_ids) == 60

    # The deliveries held open at the kill were sent again, under the same id, later.
    for row in held:
        again = [r for r in records if r.event_id == row.event_id and r.attempt > row.attempts]
        assert again, f"{row.event_id} was not redelivered after the restart"
        assert final[row.id].attempts > row.attempts

    # The log shows the attempts: failures and retries as well as the successes.
    entries = log["deliveries"]
    assert {e["eventId"] for e in entries if e["statusCode"] == 200} == event_ids
    assert any(e["attempt"] > 1 for e in entries)
    assert any(e["statusCode"] == 500 and e["error"].startswith("HTTP 500") for e in entries)


def p50_seconds(http: httpx.Client, path: str, n: int = 60) -> float:
    for _ in range(5):  # warm-up
        http.get(path)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        answer = http.get(path)
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200
    return statistics.median(times)


def test_a_receiver_that_never_answers_does_not_slow_the_api(
    live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    with (
        ReceiverProcess(tmp_path / "hanging", Behaviour(hang=True)) as hanging,
        ReceiverProcess(tmp_path / "healthy") as healthy,
    ):
        server = live_server()  # the production settings: 10 s per attempt, 4 per subscriber
        with server.client(timeout=30) as http:
            baseline = p50_seconds(http, "/api/webhooks")

            subscribe(http, hanging.url, ["*"])
            for n in range(20):
                ask_and_answer(http, n)
            wait_for(lambda: hanging.stats()["delaying"] >= 4, 15, "deliveries held open")
            held = p50_seconds(http, "/api/webhooks")

            # Other subscribers are served while the hanging one holds its slots.
            subscribe(http, healthy.url, ["permission_requested"])
            sent = time.time()
            ask_and_answer(http, 100, resolve=False)
            (record,) = wait_for(healthy.records, 5, "a delivery to the healthy receiver")
            assert record.received_at - sent < 2.0
            assert hanging.stats()["delaying"] >= 4  # still held: nothing timed out yet

    assert held <= max(5 * baseline, baseline + 0.05), (baseline, held)
    assert held < 0.25, (baseline, held)
