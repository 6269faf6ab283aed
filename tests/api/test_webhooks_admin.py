"""Webhook administration: PATCH (including pausing), secret rotation, the outbox listing,
redelivery of dead events, and IPv6 receivers.

Deliveries go over real sockets to ``webhook_receiver.Receiver``; every test runs on
SQLite and on PostgreSQL (the ``client`` and ``settings`` fixtures).
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.webhooks import subscribers
from hookwise.api.webhooks.dispatcher import Dispatcher, DispatchSettings
from hookwise.api.webhooks.signing import verify
from tests.api.conftest import ONE_DATABASE, PRIVATE_WEBHOOKS
from tests.api.test_webhooks import (
    SECRET,
    emit,
    engine_of,
    outbox_rows,
    parse_output,
    permission_requested,
    subscribe,
    wait_for,
)
from tests.api.webhook_receiver import Receiver

pytestmark = pytest.mark.private_webhooks  # receivers listen on 127.0.0.1


@pytest.fixture
def engine(settings: Any) -> Iterator[sa.Engine]:
    engine = make_engine(settings.database_url)
    migrate(engine, settings.data_dir)
    yield engine
    engine.dispose()


def events_of(client: TestClient, wid: str, **params: Any) -> list[dict[str, Any]]:
    answer = client.get(f"/api/webhooks/{wid}/events", params=params)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["events"])


# --- PATCH ------------------------------------------------------------------------------


def test_patch_changes_only_the_given_fields(client: TestClient) -> None:
    created = client.post(
        "/api/webhooks", json={"url": "https://a.test/x", "events": ["permission_requested"]}
    ).json()
    wid = created["id"]
    unchanged = {k: v for k, v in created.items() if k != "secret"}

    same = client.patch(f"/api/webhooks/{wid}", json={})
    assert same.status_code == 200
    assert same.json() == unchanged

    moved = client.patch(f"/api/webhooks/{wid}", json={"url": "http://[::1]:8080/x"}).json()
    assert moved == {**unchanged, "url": "http://[::1]:8080/x"}
    narrowed = client.patch(
        f"/api/webhooks/{wid}",
        json={"events": ["permission_resolved", "permission_resolved", "hook_output_processed"]},
    ).json()
    assert narrowed["events"] == ["permission_resolved", "hook_output_processed"]
    everything = client.patch(
        f"/api/webhooks/{wid}", json={"events": ["permission_resolved", "*"], "active": False}
    ).json()
    assert (everything["events"], everything["active"]) == (["*"], False)
    assert "secret" not in everything
    assert client.get(f"/api/webhooks/{wid}").json() == everything
    assert client.get("/api/webhooks").json()["webhooks"] == [everything]
    again = client.patch(f"/api/webhooks/{wid}", json={"active": True}).json()
    assert again == {**everything, "active": True}


@ONE_DATABASE
@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"url": "ftp://example.test/x"}, {"url"}),
        ({"url": "https://h:99999/"}, {"url"}),
        ({"url": "https://user:pw@h/"}, {"url"}),
        ({"url": "https://h/#frag"}, {"url"}),
        ({"url": "http://[::1/x"}, {"url"}),
        ({"url": "http://[fe80::1%25eth0]/x"}, {"url"}),
        ({"url": None}, {"url"}),
        ({"url": 5}, {"url"}),
        ({"events": []}, {"events"}),
        ({"events": ["nope", "permission_requested", "other"]}, {"events"}),
        ({"events": "*"}, {"events"}),
        ({"events": None}, {"events"}),
        ({"active": "yes"}, {"active"}),
        ({"active": 0}, {"active"}),
        ({"active": None}, {"active"}),
        ({"secret": "s"}, {"secret"}),  # rotate-secret changes it, never a PATCH
        ({"url": "gopher://h/", "events": ["bad"], "active": "no"}, {"url", "events", "active"}),
    ],
)
def test_invalid_patch_gets_one_detail_per_field(
    client: TestClient, body: dict[str, Any], fields: set[str]
) -> None:
    wid = subscribe(client, "https://a.test/x", ["*"])
    answer = client.patch(f"/api/webhooks/{wid}", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["error"] == "invalid_request"
    assert sorted(d["field"] for d in error["details"]) == sorted(fields)
    assert client.get(f"/api/webhooks/{wid}").json()["url"] == "https://a.test/x"


def test_unknown_subscriber_is_404_everywhere(client: TestClient) -> None:
    for method, path, body in [
        ("PATCH", "/api/webhooks/whk_nobody", {"active": False}),
        ("POST", "/api/webhooks/whk_nobody/rotate-secret", None),
        ("POST", "/api/webhooks/whk_nobody/redeliver", None),
        ("POST", "/api/webhooks/whk_nobody/redeliver", {"eventIds": ["evt_x"]}),
        ("GET", "/api/webhooks/whk_nobody/events", None),
    ]:
        answer = client.request(method, path, json=body)
        assert answer.status_code == 404, (method, path, answer.text)
        assert answer.json()["error"] == "not_found"


def test_admin_routes_need_the_token(client: TestClient) -> None:
    wid = subscribe(client, "https://a.test/x", ["*"])
    wrong = {"Authorization": "Bearer wrong"}
    for method, path in [
        ("PATCH", f"/api/webhooks/{wid}"),
        ("POST", f"/api/webhooks/{wid}/rotate-secret"),
        ("POST", f"/api/webhooks/{wid}/redeliver"),
        ("GET", f"/api/webhooks/{wid}/events"),
    ]:
        assert client.request(method, path, json={}, headers=wrong).status_code == 401


# --- pausing ----------------------------------------------------------------------------


def test_a_paused_subscriber_gets_no_new_events_and_its_queue_waits(
    fast: None,
    monkeypatch: pytest.MonkeyPatch,
    make_client: Callable[..., TestClient],
    receiver: Receiver,
) -> None:
    monkeypatch.setenv("HOOKWISE_WEBHOOK_BASE_DELAY_MS", "300")
    client = make_client()
    engine = engine_of(client)
    receiver.configure(fail_rate=1.0)
    wid = subscribe(client, receiver.url, ["*"])
    emit(engine, "permission_requested", permission_requested(1))
    emit(engine, "permission_requested", permission_requested(2))
    wait_for(lambda: len(receiver.records()) >= 2, what="first attempts")

    assert client.patch(f"/api/webhooks/{wid}", json={"active": False}).json()["active"] is False
    assert emit(engine, "permission_requested", permission_requested(3)) == 0  # not queued

    # An attempt leased before the pause still runs (and fails): the receiver starts
    # accepting only once no row of this subscriber holds a lease, so a delivery seen
    # later can only be an attempt made while paused.
    def unleased() -> bool:
        rows = [r for r in outbox_rows(engine) if r.subscriber_id == wid]
        return len(rows) == 2 and all(r.lease_until is None for r in rows)

    wait_for(unleased, what="the attempts leased before the pause")
    receiver.configure(fail_rate=0.0)
    seen = len(receiver.records())
    time.sleep(1.2)  # retries were due after 300-720 ms
    assert len(receiver.records()) == seen
    assert not any(r.delivered for r in receiver.records())
    waiting = events_of(client, wid, status="pending")
    assert len(waiting) == 2
    assert all(e["attempts"] >= 1 and e["lastError"].startswith("HTTP 500") for e in waiting)
    assert all(isinstance(e["nextAttemptAt"], int) for e in waiting)

    client.patch(f"/api/webhooks/{wid}", json={"active": True})
    delivered = wait_for(
        lambda: len(d := events_of(client, wid, status="delivered")) == 2 and d,
        what="the queue delivered after reactivation",
    )
    assert {e["eventId"] for e in delivered} == {e["eventId"] for e in waiting}
    assert {r.event_id for r in receiver.records() if r.delivered} == {
        e["eventId"] for e in waiting
    }
    assert events_of(client, wid, status="pending") == []


def test_claim_skips_rows_of_inactive_subscribers(engine: sa.Engine) -> None:
    paused = subscribers.create(engine, "http://127.0.0.1:9/a", ["*"], SECRET).id
    running = subscribers.create(engine, "http://127.0.0.1:9/b", ["*"], SECRET).id
    emit(engine, "permission_requested", permission_requested())
    subscribers.update(engine, paused, active=False)
    dispatcher = Dispatcher(engine, DispatchSettings(), targets=PRIVATE_WEBHOOKS)
    assert [c.subscriber_id for c in dispatcher.claim(10)] == [running]
    assert dispatcher.claim(10) == []
    (row,) = [r for r in outbox_rows(engine) if r.subscriber_id == paused]
    assert (row.status, row.attempts, row.lease_until) == ("pending", 0, None)

    subscribers.update(engine, paused, active=True)
    assert [c.subscriber_id for c in dispatcher.claim(10)] == [paused]


def test_pausing_reaches_every_worker(
    fast: None,
    make_client: Callable[..., TestClient],
    settings: Any,
    tmp_path: Path,
    receiver: Receiver,
) -> None:
    """parse-output's per-worker subscriber cache must see a pause (and a resume) made on
    another worker, or on another machine with PostgreSQL."""
    here = make_client()
    on_postgres = settings.database_url.startswith("postgresql")
    (tmp_path / "other-machine").mkdir()
    there = make_client(data_dir=tmp_path / "other-machine") if on_postgres else make_client()
    wid = subscribe(here, receiver.url, ["hook_output_processed"])
    engine = engine_of(here)
    parse_output(there)  # primes its cache: somebody wants hook_output_processed
    wait_for(lambda: outbox_rows(engine), timeout=5, what="the first event")

    here.patch(f"/api/webhooks/{wid}", json={"active": False})
    time.sleep(0.2 if on_postgres else 0)  # NOTIFY takes a few milliseconds
    parse_output(there)
    assert len(outbox_rows(engine)) == 1

    here.patch(f"/api/webhooks/{wid}", json={"active": True})

    def queued_again() -> bool:
        parse_output(there)
        return len(outbox_rows(engine)) >= 2

    if on_postgres:
        wait_for(queued_again, timeout=5, what="an event queued after resuming")
    else:
        assert queued_again()


# --- secret rotation --------------------------------------------------------------------


def test_rotated_secret_signs_later_deliveries(
    fast: None, client: TestClient, receiver: Receiver
) -> None:
    wid = subscribe(client, receiver.url, ["permission_requested"])
    answer = client.post(f"/api/webhooks/{wid}/rotate-secret")
    assert answer.status_code == 200
    rotated = answer.json()
    assert set(rotated) == {"id", "secret"}
    assert rotated["id"] == wid
    assert rotated["secret"].startswith("whsec_") and len(rotated["secret"]) > 30
    assert rotated["secret"] != SECRET
    second = client.post(f"/api/webhooks/{wid}/rotate-secret").json()["secret"]
    assert second != rotated["secret"]  # a new one each time
    assert "secret" not in client.get(f"/api/webhooks/{wid}").json()

    emit(engine_of(client), "permission_requested", permission_requested())
    (record,) = wait_for(receiver.records, what="a delivery")
    body = record.body.encode()
    now = record.received_at
    assert verify(second, body, record.event_id, record.timestamp, record.signature, now=now)
    assert not verify(SECRET, body, record.event_id, record.timestamp, record.signature, now=now)
    assert not verify(
        rotated["secret"], body, record.event_id, record.timestamp, record.signature, now=now
    )


# --- the outbox listing and redelivery ---------------------------------------------------


def test_dead_events_are_redelivered_under_the_same_id(
    fast: None,
    monkeypatch: pytest.MonkeyPatch,
    make_client: Callable[..., TestClient],
    receiver: Receiver,
) -> None:
    monkeypatch.setenv("HOOKWISE_WEBHOOK_MAX_ATTEMPTS", "2")
    monkeypatch.setenv("HOOKWISE_WEBHOOK_BASE_DELAY_MS", "50")
    client = make_client()
    engine = engine_of(client)
    receiver.configure(fail_rate=1.0)
    wid = subscribe(client, receiver.url, ["*"])
    other = subscribe(client, "http://127.0.0.1:9/other", ["*"])  # refused: dies too
    for n in range(3):
        emit(engine, "permission_requested", permission_requested(n))

    dead = wait_for(
        lambda: len(d := events_of(client, wid, status="dead")) == 3 and d, what="three dead"
    )
    first = dead[0]
    assert set(first) == {
        "eventId",
        "eventType",
        "status",
        "attempts",
        "nextAttemptAt",
        "lastError",
        "createdAt",
        "deliveredAt",
    }
    assert all(
        (e["status"], e["attempts"], e["nextAttemptAt"], e["deliveredAt"])
        == ("dead", 2, None, None)
        for e in dead
    )
    assert all(e["lastError"].startswith("HTTP 500") for e in dead)
    assert [e["createdAt"] for e in dead] == sorted((e["createdAt"] for e in dead), reverse=True)
    assert events_of(client, wid, status="pending") == []
    assert events_of(client, wid, status="delivered") == []
    wait_for(lambda: len(events_of(client, other, status="dead")) == 3, what="other's dead")

    receiver.configure(fail_rate=0.0)
    answer = client.post(
        f"/api/webhooks/{wid}/redeliver", json={"eventIds": [first["eventId"], "evt_unknown"]}
    )
    assert answer.status_code == 200
    assert answer.json() == {"requeued": 1}
    delivered = wait_for(
        lambda: events_of(client, wid, status="delivered"), what="the requeued event"
    )
    assert [e["eventId"] for e in delivered] == [first["eventId"]]
    assert delivered[0]["attempts"] == 1  # counted afresh
    assert delivered[0]["lastError"] is None
    assert delivered[0]["nextAttemptAt"] is None
    assert delivered[0]["deliveredAt"] >= delivered[0]["createdAt"]
    assert len(events_of(client, wid, status="dead")) == 2
    got = [r for r in receiver.records() if r.delivered]
    assert [(r.event_id, r.attempt) for r in got] == [(first["eventId"], 1)]

    assert client.post(f"/api/webhooks/{wid}/redeliver").json() == {"requeued": 2}
    wait_for(lambda: len(events_of(client, wid, status="delivered")) == 3, what="all delivered")
    assert client.post(f"/api/webhooks/{wid}/redeliver", json={}).json() == {"requeued": 0}
    delivered_ids = sorted(r.event_id for r in receiver.records() if r.delivered)
    assert delivered_ids == sorted(e["eventId"] for e in dead)  # each once, same ids
    assert len(outbox_rows(engine)) == 6  # requeued in place, never copied
    assert len(events_of(client, other, status="dead")) == 3  # only wid's were requeued


def test_events_listing_filters_and_limits(client: TestClient) -> None:
    wid = subscribe(client, "http://127.0.0.1:9/x", ["*"])  # refused: stays pending
    for n in range(5):
        emit(engine_of(client), "permission_requested", permission_requested(n))
    every = events_of(client, wid)
    assert len(every) == 5
    assert all(e["status"] == "pending" and e["eventType"] == "permission_requested" for e in every)
    ids = [e["eventId"] for e in every]
    assert len(set(ids)) == 5
    assert [e["createdAt"] for e in every] == sorted((e["createdAt"] for e in every), reverse=True)
    assert [e["eventId"] for e in events_of(client, wid, limit=2)] == ids[:2]
    assert [e["eventId"] for e in events_of(client, wid, status="pending", limit=1000)] == ids
    assert events_of(client, wid, status="dead") == []
    assert events_of(client, wid, status="delivered") == []
    for params, field in [
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "x"}, "limit"),
        ({"status": "lost"}, "status"),
    ]:
        answer = client.get(f"/api/webhooks/{wid}/events", params=params)
        assert answer.status_code == 400
        assert [d["field"] for d in answer.json()["details"]] == [field]


@ONE_DATABASE
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"eventIds": []}, "eventIds"),
        ({"eventIds": None}, "eventIds"),
        ({"eventIds": "evt_x"}, "eventIds"),
        ({"eventIds": [""]}, "eventIds.0"),
        ({"eventIds": ["x" * 65]}, "eventIds.0"),
        ({"eventIds": ["a"] * 1001}, "eventIds"),
        ({"event_ids": ["a"]}, "event_ids"),
    ],
)
def test_invalid_redeliver_gets_one_detail(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    wid = subscribe(client, "http://127.0.0.1:9/x", ["*"])
    answer = client.post(f"/api/webhooks/{wid}/redeliver", json=body)
    assert answer.status_code == 400, answer.text
    assert [d["field"] for d in answer.json()["details"]] == [field]


# --- IPv6 -------------------------------------------------------------------------------

IPV6 = re.compile(subscribers.IPV6_PATTERN)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1]:8080/x",
        "http://[::1]/",
        "https://[2001:db8::1]",
        "https://[2001:DB8:0:0:0:0:0:1]:443/a?b=c",
        "http://[::ffff:127.0.0.1]:65535/x",
        "http://[fe80::1]:1/",
        "http://[1:2:3:4:5:6:7::]/",
    ],
)
def test_ipv6_literals_are_accepted(client: TestClient, url: str) -> None:
    assert subscribers.url_problem(url) is None
    assert re.fullmatch(subscribers.URL_PATTERN, url)
    assert client.post("/api/webhooks", json={"url": url, "events": ["*"]}).status_code == 201


@ONE_DATABASE
@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/x",
        "http://::1/x",
        "http://[::1]:0/",
        "http://[::1]:65536/",
        "http://[::g]/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[1::2::3]/",
        "http://[::1.2.3.256]/",
        "http://[fe80::1%25eth0]/",
        "http://[v1.fe]/",
        "http://[::1]x/",
        "http://[::1]/#f",
        "HTTP://[::1]/",
    ],
)
def test_invalid_ipv6_urls_are_refused(client: TestClient, url: str) -> None:
    assert subscribers.url_problem(url)
    assert not re.fullmatch(subscribers.URL_PATTERN, url)  # the published rule agrees
    answer = client.post("/api/webhooks", json={"url": url, "events": ["*"]})
    assert answer.status_code == 400
    assert [d["field"] for d in answer.json()["details"]] == ["url"]


@settings(max_examples=100, deadline=None)  # (generating from the pattern is slow)
@given(st.from_regex(IPV6, fullmatch=True))
def test_every_address_the_pattern_admits_is_ipv6(text: str) -> None:
    ipaddress.IPv6Address(text)


@settings(max_examples=300, deadline=None)
@given(st.ip_addresses(v=6), st.sampled_from(["compressed", "exploded", "mapped"]))
def test_every_ipv6_address_matches_the_pattern(address: ipaddress.IPv6Address, form: str) -> None:
    if form == "mapped":
        text = f"::ffff:{ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)}"
    else:
        text = getattr(address, form)
    assert IPV6.fullmatch(text), text
    assert IPV6.fullmatch(text.upper()), text


def ipv6_loopback() -> bool:
    if not socket.has_ipv6:
        return False
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET6) as sock:
        sock.bind(("::1", 0))
        return True
    return False


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
def test_delivery_to_an_ipv6_receiver(fast: None, client: TestClient, tmp_path: Path) -> None:
    with Receiver(tmp_path / "v6.jsonl", host="::1") as v6:
        assert v6.url.startswith("http://[::1]:")
        wid = subscribe(client, v6.url, ["permission_requested"])
        payload = permission_requested(6)
        emit(engine_of(client), "permission_requested", payload)
        (record,) = wait_for(v6.records, what="a delivery over IPv6")
        assert record.payload == payload
        assert record.webhook_id == wid
        assert verify(
            SECRET,
            record.body.encode(),
            record.event_id,
            record.timestamp,
            record.signature,
            now=record.received_at,
        )
        (logged,) = wait_for(
            lambda: client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"],
            what="the delivery log",
        )
        assert logged["statusCode"] == 200
