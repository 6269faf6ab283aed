"""Webhooks: the subscriber API, signing, delivery, retries with backoff, dead rows, leases.

Deliveries go over real sockets to ``webhook_receiver.Receiver`` (a thread of the test);
events are queued with ``enqueue`` inside a transaction, as every producer does. Delays
are shrunk through the dispatcher's environment settings.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.storage.tables import webhook_outbox
from hookwise.api.webhooks.dispatcher import (
    Dispatcher,
    DispatchSettings,
    Outcome,
    encode_body,
    retry_delay_ms,
)
from hookwise.api.webhooks.outbox import enqueue
from hookwise.api.webhooks.signing import signature, verify
from tests.api.conftest import ONE_DATABASE, PRIVATE_WEBHOOKS
from tests.api.webhook_receiver import Receiver, Record

pytestmark = pytest.mark.private_webhooks  # receivers listen on 127.0.0.1

SECRET = "whsec_test_secret"


def permission_requested(n: int = 1) -> dict[str, Any]:
    return {
        "eventType": "permission_requested",
        "timestamp": 1_763_100_000_000 + n,
        "permissionId": f"perm_{n}",
        "toolName": "Bash",
        "reason": f"rm -rf build {n} — ünïcödé",
        "sessionId": "sess-1",
    }


def output_processed(n: int = 1) -> dict[str, Any]:
    return {
        "eventType": "hook_output_processed",
        "timestamp": 1_763_100_000_000 + n,
        "hookEvent": "PreToolUse",
        "toolName": "Bash",
        "result": {"source": "json", "continue": True, "requiresUserInteraction": False},
        "sessionId": "sess-1",
    }


def emit(engine: sa.Engine, event_type: str, payload: dict[str, Any]) -> int:
    with engine.begin() as conn:
        return enqueue(conn, event_type, payload)


def wait_for(predicate: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def outbox_rows(engine: sa.Engine) -> list[sa.Row[Any]]:
    with engine.connect() as conn:
        return list(conn.execute(sa.select(webhook_outbox).order_by(webhook_outbox.c.id)))


def subscribe(client: TestClient, url: str, events: list[str], secret: str = SECRET) -> str:
    answer = client.post("/api/webhooks", json={"url": url, "events": events, "secret": secret})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def engine_of(client: TestClient) -> sa.Engine:
    engine: sa.Engine = client.app.state.service.engine  # type: ignore[attr-defined]
    return engine


# --- signing ----------------------------------------------------------------------------


def test_signature_is_hmac_sha256_of_event_id_dot_timestamp_dot_body() -> None:
    import hashlib
    import hmac

    body = encode_body(permission_requested())
    message = b"evt_1.1700000000." + body
    expected = hmac.new(SECRET.encode(), message, hashlib.sha256).hexdigest()
    assert signature(SECRET, "evt_1", 1_700_000_000, body) == f"sha256={expected}"


def test_verify_accepts_only_the_exact_body_event_id_secret_and_a_recent_timestamp() -> None:
    body = encode_body(permission_requested())
    now = 1_700_000_000
    good = signature(SECRET, "evt_1", now, body)
    assert verify(SECRET, body, "evt_1", str(now), good, now=now + 10)
    assert not verify(SECRET, body + b" ", "evt_1", str(now), good, now=now)
    assert not verify("other-secret-0123", body, "evt_1", str(now), good, now=now)
    assert not verify(SECRET, body, "evt_2", str(now), good, now=now)  # the id is signed
    assert not verify(SECRET, body, None, str(now), good, now=now)
    assert not verify(SECRET, body, "evt_1", str(now + 1), good, now=now)  # so is the time
    assert not verify(SECRET, body, "evt_1", str(now), good, now=now + 301)  # a late replay
    assert not verify(SECRET, body, "evt_1", str(now), good, now=now - 301)
    assert verify(SECRET, body, "evt_1", str(now), good, now=now + 3600, tolerance_s=7200)
    assert not verify(SECRET, body, "evt_1", "yesterday", good, now=now)
    assert not verify(SECRET, body, "evt_1", None, good, now=now)
    assert not verify(SECRET, body, "evt_1", str(now), None, now=now)
    assert not verify(SECRET, body, "evt_1", str(now), good.replace("sha256=", "sha1="), now=now)


# --- backoff and settings ---------------------------------------------------------------


def test_retry_delay_doubles_with_at_most_20_percent_jitter_and_a_cap() -> None:
    settings = DispatchSettings(base_delay_ms=1000, max_delay_ms=300_000)
    rng = random.Random(7)
    for attempt, nominal in [(1, 1000), (2, 2000), (3, 4000), (9, 256_000)]:
        delays = [retry_delay_ms(attempt, settings, rng) for _ in range(200)]
        assert min(delays) >= nominal
        assert max(delays) <= nominal * 1.2
        assert len(set(delays)) > 50  # jittered, not in lock-step
    assert {retry_delay_ms(a, settings, rng) for a in (10, 12, 60)} == {300_000}
    assert retry_delay_ms(1, settings, rng, retry_after_ms=30_000) == 30_000
    assert retry_delay_ms(1, settings, rng, retry_after_ms=10**9) == 300_000


def test_settings_from_env_are_checked() -> None:
    assert DispatchSettings.from_env({}) == DispatchSettings()
    s = DispatchSettings.from_env(
        {"HOOKWISE_WEBHOOK_BASE_DELAY_MS": "5", "HOOKWISE_WEBHOOK_MAX_ATTEMPTS": "3"}
    )
    assert (s.base_delay_ms, s.max_attempts) == (5, 3)
    with pytest.raises(ValueError, match="HOOKWISE_WEBHOOK_MAX_ATTEMPTS"):
        DispatchSettings.from_env({"HOOKWISE_WEBHOOK_MAX_ATTEMPTS": "many"})
    with pytest.raises(ValueError, match="lease"):
        DispatchSettings.from_env({"HOOKWISE_WEBHOOK_LEASE_MS": "1000"})
    with pytest.raises(ValueError, match="concurrency"):
        DispatchSettings(concurrency=0)


# --- the subscriber API -----------------------------------------------------------------


def test_subscriber_lifecycle(client: TestClient) -> None:
    created = client.post(
        "/api/webhooks",
        json={"url": "https://example.test/hooks?x=1", "events": ["permission_requested"]},
    )
    assert created.status_code == 201
    body = created.json()
    assert set(body) == {"id", "url", "events", "active", "createdAt", "secret"}
    assert body["url"] == "https://example.test/hooks?x=1"
    assert body["events"] == ["permission_requested"]
    assert body["active"] is True
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 30
    assert abs(body["createdAt"] - time.time() * 1000) < 60_000

    given = client.post(
        "/api/webhooks",
        json={
            "url": "http://127.0.0.1:9/x",
            "events": ["*", "permission_resolved"],
            "secret": "s" * 16,
        },
    ).json()
    assert given["secret"] == "s" * 16
    assert given["events"] == ["*"]

    listed = client.get("/api/webhooks").json()
    assert [w["id"] for w in listed["webhooks"]] == [body["id"], given["id"]]
    assert all("secret" not in w for w in listed["webhooks"])
    one = client.get(f"/api/webhooks/{body['id']}").json()
    assert one == {k: v for k, v in body.items() if k != "secret"}
    assert client.get(f"/api/webhooks/{body['id']}/deliveries").json() == {"deliveries": []}

    assert client.delete(f"/api/webhooks/{body['id']}").status_code == 204
    for method, path in [
        ("GET", f"/api/webhooks/{body['id']}"),
        ("DELETE", f"/api/webhooks/{body['id']}"),
        ("GET", f"/api/webhooks/{body['id']}/deliveries"),
    ]:
        gone = client.request(method, path)
        assert gone.status_code == 404
        assert gone.json()["error"] == "not_found"
    assert [w["id"] for w in client.get("/api/webhooks").json()["webhooks"]] == [given["id"]]


@ONE_DATABASE
@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"url": "ftp://example.test/x", "events": ["*"]}, {"url"}),
        ({"url": "https:///nohost", "events": ["*"]}, {"url"}),
        ({"url": "https://h:99999/", "events": ["*"]}, {"url"}),
        ({"url": "not a url", "events": ["*"]}, {"url"}),
        ({"url": "https://user:pw@h/", "events": ["*"]}, {"url"}),
        ({"url": "https://h/#frag", "events": ["*"]}, {"url"}),
        ({"url": "https://h/a b", "events": ["*"]}, {"url"}),
        ({"url": 5, "events": ["*"]}, {"url"}),
        ({"url": "https://h/", "events": []}, {"events"}),
        ({"url": "https://h/", "events": ["nope", "permission_requested", "other"]}, {"events"}),
        ({"url": "https://h/", "events": "*"}, {"events"}),
        ({"url": "https://h/", "events": ["*"], "secret": ""}, {"secret"}),
        ({"url": "https://h/", "events": ["*"], "secret": "s" * 15}, {"secret"}),  # < 16
        ({"url": "https://h/", "events": ["*"], "active": False}, {"active"}),
        ({"events": ["*"]}, {"url"}),
        ({"url": "gopher://h/", "events": ["bad"], "secret": 3}, {"url", "events", "secret"}),
    ],
)
def test_invalid_subscriber_gets_one_detail_per_field(
    client: TestClient, body: dict[str, Any], fields: set[str]
) -> None:
    answer = client.post("/api/webhooks", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["error"] == "invalid_request"
    named = [d["field"] for d in error["details"]]
    assert sorted(named) == sorted(fields)


def test_deliveries_limit_is_checked(client: TestClient) -> None:
    wid = subscribe(client, "http://127.0.0.1:9/", ["*"])
    for bad in ("0", "1001", "x"):
        answer = client.get(f"/api/webhooks/{wid}/deliveries", params={"limit": bad})
        assert answer.status_code == 400
        assert [d["field"] for d in answer.json()["details"]] == ["limit"]


def test_webhook_routes_need_the_token(client: TestClient) -> None:
    for method, path in [
        ("GET", "/api/webhooks"),
        ("POST", "/api/webhooks"),
        ("GET", "/api/webhooks/x"),
    ]:
        answer = client.request(method, path, headers={"Authorization": "Bearer wrong"})
        assert answer.status_code == 401


# --- delivery ---------------------------------------------------------------------------


def assert_signed(record: Record, secret: str = SECRET) -> None:
    assert verify(
        secret,
        record.body.encode(),
        record.event_id,
        record.timestamp,
        record.signature,
        now=record.received_at,
    ), record


def test_event_is_delivered_signed_with_the_contract_payload(
    fast: None, client: TestClient, receiver: Receiver
) -> None:
    wid = subscribe(client, receiver.url, ["permission_requested"])
    payload = permission_requested(1)
    started = time.monotonic()
    assert emit(engine_of(client), "permission_requested", payload) == 1
    assert emit(engine_of(client), "hook_output_processed", output_processed()) == 0

    (record,) = wait_for(receiver.records, what="a delivery")
    assert time.monotonic() - started < 2.0  # leaves within a few polls
    assert json.loads(record.body) == payload
    assert list(json.loads(record.body)) == list(payload)  # field order kept
    assert record.body.encode() == encode_body(payload)
    assert record.content_type == "application/json"
    assert record.event_type == "permission_requested"
    assert record.event_id.startswith("evt_")
    assert record.attempt == 1
    assert record.webhook_id == wid
    assert abs(int(record.timestamp) - record.received_at) < 5
    assert_signed(record)
    assert not verify(
        "wrong", record.body.encode(), record.event_id, record.timestamp, record.signature
    )

    log = wait_for(
        lambda: client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"],
        what="the delivery log",
    )
    assert len(log) == 1
    entry = log[0]
    assert set(entry) == {
        "eventId",
        "eventType",
        "attempt",
        "statusCode",
        "error",
        "durationMs",
        "at",
    }
    assert entry["eventId"] == record.event_id
    assert entry["eventType"] == "permission_requested"
    assert (entry["attempt"], entry["statusCode"], entry["error"]) == (1, 200, None)
    assert entry["durationMs"] > 0
    (row,) = outbox_rows(engine_of(client))
    assert (row.status, row.attempts, row.lease_until) == ("delivered", 1, None)
    time.sleep(0.5)
    assert len(receiver.records()) == 1  # delivered once, not again


def test_failed_deliveries_are_retried_with_backoff(
    fast: None, client: TestClient, receiver: Receiver
) -> None:
    receiver.configure(fail_first=2, fail_status=503)
    wid = subscribe(client, receiver.url, ["*"])
    payload = output_processed(7)
    emit(engine_of(client), "hook_output_processed", payload)

    records = wait_for(
        lambda: (r := receiver.records()) and r[-1].delivered and r, what="the third attempt"
    )
    assert [(r.attempt, r.status) for r in records] == [(1, 503), (2, 503), (3, 200)]
    assert len({r.event_id for r in records}) == 1  # one id on every attempt
    assert len({r.body for r in records}) == 1  # the same bytes on every attempt
    for record in records:
        assert_signed(record)
    answered = [r.answered_at for r in records]
    assert None not in answered
    gaps = [b.received_at - (a.answered_at or 0) for a, b in itertools.pairwise(records)]
    assert gaps[0] >= 0.2 - 0.01  # base delay 200 ms ...
    assert gaps[1] >= 0.4 - 0.01  # ... doubled
    assert gaps[1] < 0.48 + 1.0  # 20 % jitter plus polling and scheduling slack

    log = client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"]
    assert [(d["attempt"], d["statusCode"]) for d in log] == [(3, 200), (2, 503), (1, 503)]
    assert log[-1]["error"].startswith("HTTP 503")
    assert {d["eventId"] for d in log} == {records[0].event_id}
    assert wait_for(lambda: outbox_rows(engine_of(client))[0].status == "delivered")


def test_row_is_dead_after_max_attempts(
    fast: None,
    monkeypatch: pytest.MonkeyPatch,
    make_client: Callable[..., TestClient],
    receiver: Receiver,
) -> None:
    monkeypatch.setenv("HOOKWISE_WEBHOOK_MAX_ATTEMPTS", "3")
    monkeypatch.setenv("HOOKWISE_WEBHOOK_BASE_DELAY_MS", "50")
    client = make_client()
    receiver.configure(fail_rate=1.0)
    wid = subscribe(client, receiver.url, ["permission_requested"])
    emit(engine_of(client), "permission_requested", permission_requested())

    wait_for(lambda: outbox_rows(engine_of(client))[0].status == "dead", what="a dead row")
    (row,) = outbox_rows(engine_of(client))
    assert row.attempts == 3
    assert row.last_error.startswith("HTTP 500")
    time.sleep(1.0)  # would be two more retries at 50 ms, 100 ms if it were not dead
    assert [r.attempt for r in receiver.records()] == [1, 2, 3]
    log = client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"]
    assert [d["attempt"] for d in log] == [3, 2, 1]


def test_unreachable_and_hanging_receivers_are_failed_attempts(
    fast: None,
    monkeypatch: pytest.MonkeyPatch,
    make_client: Callable[..., TestClient],
    receiver: Receiver,
) -> None:
    monkeypatch.setenv("HOOKWISE_WEBHOOK_TIMEOUT_MS", "500")
    monkeypatch.setenv("HOOKWISE_WEBHOOK_LEASE_MS", "1500")
    monkeypatch.setenv("HOOKWISE_WEBHOOK_BASE_DELAY_MS", "60000")  # one attempt each
    client = make_client()
    receiver.configure(hang=True)
    hanging = subscribe(client, receiver.url, ["*"])
    from tests.api.conftest import free_port

    closed = subscribe(client, f"http://127.0.0.1:{free_port()}/nobody", ["*"])
    emit(engine_of(client), "permission_requested", permission_requested())

    def attempts(wid: str) -> list[dict[str, Any]]:
        return list(client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"])

    (hung,) = wait_for(lambda: attempts(hanging), what="the hanging attempt")
    assert hung["statusCode"] is None
    assert "no answer within 500 ms" in hung["error"]
    assert 450 <= hung["durationMs"] < 3000
    (refused,) = wait_for(lambda: attempts(closed), what="the refused attempt")
    assert refused["statusCode"] is None
    assert "ConnectError" in refused["error"]
    assert all(r.status == "pending" and r.attempts == 1 for r in outbox_rows(engine_of(client)))


def test_each_subscriber_gets_its_types_under_one_event_id(
    fast: None, client: TestClient, tmp_path: Path, receiver: Receiver
) -> None:
    with Receiver(tmp_path / "second.jsonl") as second:
        everything = subscribe(client, receiver.url, ["*"])
        resolved_only = subscribe(
            client, second.url, ["permission_resolved"], secret="other-secret-0123"
        )
        engine = engine_of(client)
        emit(engine, "permission_requested", permission_requested(1))
        resolved = {
            "eventType": "permission_resolved",
            "timestamp": 1_763_100_000_500,
            "permissionId": "perm_1",
            "decision": "allow",
            "processingTime": 499,
            "sessionId": "sess-1",
        }
        emit(engine, "permission_resolved", resolved)
        first = wait_for(lambda: len(r := receiver.records()) == 2 and r, what="two events")
        (only,) = wait_for(second.records, what="one event")
        assert {r.event_type for r in first} == {"permission_requested", "permission_resolved"}
        assert {r.webhook_id for r in first} == {everything}
        assert only.webhook_id == resolved_only
        assert only.payload == resolved
        same = next(r for r in first if r.event_type == "permission_resolved")
        assert same.event_id == only.event_id  # one event, one id, for every subscriber
        assert_signed(only, "other-secret-0123")
        assert not verify(SECRET, only.body.encode(), only.event_id, only.timestamp, only.signature)


def test_deleting_a_subscriber_drops_its_queue(
    fast: None,
    monkeypatch: pytest.MonkeyPatch,
    make_client: Callable[..., TestClient],
    receiver: Receiver,
) -> None:
    monkeypatch.setenv("HOOKWISE_WEBHOOK_BASE_DELAY_MS", "300")
    client = make_client()
    receiver.configure(fail_rate=1.0)
    wid = subscribe(client, receiver.url, ["*"])
    for n in range(3):
        emit(engine_of(client), "permission_requested", permission_requested(n))
    wait_for(lambda: len(receiver.records()) >= 3, what="first attempts")
    assert client.delete(f"/api/webhooks/{wid}").status_code == 204
    assert outbox_rows(engine_of(client)) == []
    seen = len(receiver.records())
    time.sleep(1.0)  # retries were due after ~300 ms
    assert len(receiver.records()) <= seen + 3  # at most the attempts already in flight
    assert emit(engine_of(client), "permission_requested", permission_requested(9)) == 0


# --- leases: several dispatchers, crashes ------------------------------------------------


@pytest.fixture
def engine(settings: Any) -> Iterator[sa.Engine]:
    engine = make_engine(settings.database_url)
    migrate(engine, settings.data_dir)
    yield engine
    engine.dispose()


def add_subscriber(engine: sa.Engine, url: str) -> str:
    from hookwise.api.webhooks import subscribers

    return subscribers.create(engine, url, ["*"], SECRET).id


async def run_for(dispatchers: list[Dispatcher], until: Callable[[], bool], timeout: float) -> None:
    tasks = [asyncio.create_task(d.run()) for d in dispatchers]
    try:
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # room for a duplicate to show up
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_competing_dispatchers_deliver_each_event_once(
    engine: sa.Engine, receiver: Receiver
) -> None:
    add_subscriber(engine, receiver.url)
    for n in range(60):
        emit(engine, "permission_requested", permission_requested(n))
    settings = DispatchSettings(poll_ms=20, concurrency=4)
    dispatchers = [Dispatcher(engine, settings, targets=PRIVATE_WEBHOOKS) for _ in range(4)]
    asyncio.run(run_for(dispatchers, lambda: len(receiver.records()) >= 60, 30))
    records = receiver.records()
    delivered = [r.event_id for r in records if r.delivered]
    assert sorted(delivered) == sorted(set(delivered))  # nothing delivered twice
    assert len(delivered) == 60
    attempts = [(r.event_id, r.attempt) for r in records]
    assert len(attempts) == len(set(attempts))  # and no attempt made twice
    assert all(r.status == "delivered" for r in outbox_rows(engine))


def test_a_lost_lease_is_redelivered_with_the_same_event_id(
    engine: sa.Engine, receiver: Receiver
) -> None:
    add_subscriber(engine, receiver.url)
    emit(engine, "permission_requested", permission_requested())
    settings = DispatchSettings(poll_ms=20, timeout_ms=500, lease_ms=1000)
    crashed = Dispatcher(engine, settings, targets=PRIVATE_WEBHOOKS)
    (claim,) = crashed.claim(10)  # then this "process" dies: no delivery, no record
    assert crashed.claim(10) == []  # leased: nobody else takes it meanwhile
    assert Dispatcher(engine, settings, targets=PRIVATE_WEBHOOKS).claim(10) == []

    survivor = Dispatcher(engine, settings, targets=PRIVATE_WEBHOOKS)
    started = time.monotonic()
    asyncio.run(run_for([survivor], lambda: bool(receiver.records()), 10))
    (record,) = receiver.records()
    assert time.monotonic() - started >= 0.5  # only after the lease ran out
    assert record.event_id == claim.event_id
    assert record.attempt == 2  # the lost attempt counts
    (row,) = outbox_rows(engine)
    assert (row.status, row.attempts) == ("delivered", 2)

    # The crashed process's late answer must not overwrite the newer attempt's outcome.
    assert crashed.record(claim, Outcome(500, "HTTP 500", 1.0)) is None
    (row,) = outbox_rows(engine)
    assert (row.status, row.attempts) == ("delivered", 2)


def test_shutdown_releases_unfinished_claims(engine: sa.Engine, receiver: Receiver) -> None:
    receiver.configure(hang=True)
    add_subscriber(engine, receiver.url)
    emit(engine, "permission_requested", permission_requested())
    settings = DispatchSettings(poll_ms=20, timeout_ms=30_000, lease_ms=60_000)
    asyncio.run(
        run_for(
            [Dispatcher(engine, settings, targets=PRIVATE_WEBHOOKS)],
            lambda: bool(receiver.records()),
            10,
        )
    )
    (row,) = outbox_rows(engine)
    assert row.status == "pending" and row.lease_until is None
    assert row.next_attempt_at <= time.time() * 1000  # due again now, not in a minute


# --- registration reaches every worker ----------------------------------------------------


def parse_output(client: TestClient) -> None:
    answer = client.post(
        "/internal/hook/parse-output",
        json={
            "exitCode": 0,
            "stdout": "",
            "stderr": "",
            "hookEvent": "PostToolUse",
            "executionTime": 3,
        },
    )
    assert answer.status_code == 200, answer.text


def test_a_new_subscriber_is_seen_by_every_worker_at_once(
    fast: None,
    make_client: Callable[..., TestClient],
    settings: Any,
    tmp_path: Path,
    receiver: Receiver,
) -> None:
    """parse-output skips the outbox while nobody subscribes (a per-worker cache): a
    subscriber registered on one worker must count on the next request of any other, on
    one machine (a shared data directory) or, with PostgreSQL, on another machine."""
    here = make_client()
    on_postgres = settings.database_url.startswith("postgresql")
    # A second machine has its own data directory; workers of one machine share one.
    (tmp_path / "other-machine").mkdir()
    there = make_client(data_dir=tmp_path / "other-machine") if on_postgres else make_client()
    parse_output(there)  # primes its cache: nobody wants hook_output_processed
    engine = engine_of(here)
    assert outbox_rows(engine) == []

    wid = subscribe(here, receiver.url, ["hook_output_processed"])

    def parse_reaches_outbox() -> bool:
        parse_output(there)
        return bool(outbox_rows(engine))

    if on_postgres:  # NOTIFY takes a few milliseconds to reach the other machine
        wait_for(parse_reaches_outbox, timeout=5, what="an event queued")
    else:  # on one machine, the very next request
        assert parse_reaches_outbox()
    (record,) = wait_for(receiver.records, what="the event delivered")
    assert record.payload["eventType"] == "hook_output_processed"
    assert record.payload["hookEvent"] == "PostToolUse"

    assert here.delete(f"/api/webhooks/{wid}").status_code == 204
    time.sleep(0.2 if on_postgres else 0)
    parse_output(there)
    assert outbox_rows(engine) == []
