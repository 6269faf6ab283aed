"""Webhooks cannot reach internal addresses unless the operator opts in (issue 12, item 3).

The checker is tested with a resolver the test controls (DNS answers that mix public and
private addresses); every spelling of an internal host is refused by the real API; and a
real ``hookwise serve`` refuses, then (started with ``--webhook-allow-private``) delivers
to a receiver on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.storage.db import make_engine
from hookwise.api.webhooks import subscribers
from hookwise.api.webhooks.dispatcher import Claim, Dispatcher, DispatchSettings
from hookwise.api.webhooks.targets import (
    TargetPolicy,
    TargetRefusedError,
    UnresolvableError,
    checked_address,
    literal_addresses,
    special_kind,
)
from tests.api.conftest import ONE_DATABASE, LiveServer
from tests.api.webhook_receiver import Receiver

INTERNAL_URLS = [
    "http://127.0.0.1/hook",
    "http://127.1/hook",
    "http://2130706433/hook",
    "http://0x7f.1/hook",
    "http://0x7f000001/hook",
    "http://017700000001/hook",
    "http://0177.0.0.1/hook",
    "http://localhost:8080/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[::127.0.0.1]/hook",
    "http://[64:ff9b::7f00:1]/hook",
    "http://[2002:7f00:1::1]/hook",
    "http://10.0.0.1/hook",
    "http://172.16.5.4/hook",
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/hook",
    "http://[fc00::1]/hook",
    "http://[fd12:3456::1]/hook",
    "http://0.0.0.0/hook",
    "http://0/hook",
    "http://[::]/hook",
    "http://224.0.0.1/hook",
    "http://[ff02::1]/hook",
    "http://240.0.0.1/hook",
    "http://255.255.255.255/hook",
]


def answers(*ips: str) -> Callable[..., list[tuple[Any, ...]]]:
    """A resolver that answers ``ips`` for any name, as getaddrinfo shapes them."""

    def resolve(host: str, port: int, **_: Any) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for ip in ips:
            family = socket.AF_INET6 if ":" in ip else socket.AF_INET
            sockaddr = (ip, port, 0, 0) if ":" in ip else (ip, port)
            out.append((family, socket.SOCK_STREAM, 6, "", sockaddr))
        return out

    return resolve


def test_every_answer_is_checked_and_one_internal_answer_refuses_the_name() -> None:
    policy = TargetPolicy()
    assert str(checked_address("hooks.example", 443, policy, answers("93.184.215.14"))) == (
        "93.184.215.14"
    )
    for mixed in [
        ("93.184.215.14", "10.0.0.7"),
        ("10.0.0.7", "93.184.215.14"),
        ("93.184.215.14", "2606:2800:220:1::1", "::1"),
        ("2606:2800:220:1::1", "::ffff:169.254.169.254"),
    ]:
        with pytest.raises(TargetRefusedError, match=r"hooks\.example"):
            checked_address("hooks.example", 443, policy, answers(*mixed))


def test_a_name_without_answers_is_unresolvable() -> None:
    def fail(*_: Any, **__: Any) -> list[tuple[Any, ...]]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(UnresolvableError):
        checked_address("nowhere.example", 80, TargetPolicy(), fail)
    with pytest.raises(UnresolvableError):
        checked_address("nowhere.example", 80, TargetPolicy(), answers())


def test_the_opt_ins() -> None:
    loopback = ipaddress.ip_address("127.0.0.1")
    private = TargetPolicy(allow_private=True)
    assert private.refusal(loopback) is None
    assert private.refusal(ipaddress.ip_address("::ffff:10.1.2.3")) is None
    assert private.refusal(ipaddress.ip_address("224.0.0.1")) == "multicast"  # never a target
    assert private.refusal(ipaddress.ip_address("0.0.0.0")) == "unspecified"
    cidr = TargetPolicy.from_env({"HOOKWISE_WEBHOOK_ALLOW_CIDRS": "127.0.0.0/8, 10.9.0.0/16"})
    assert cidr.refusal(loopback) is None
    assert cidr.refusal(ipaddress.ip_address("::ffff:127.0.0.2")) is None  # mapped form too
    assert cidr.refusal(ipaddress.ip_address("10.9.1.1")) is None
    assert cidr.refusal(ipaddress.ip_address("10.8.1.1")) == "private"
    assert cidr.refusal(ipaddress.ip_address("::1")) == "loopback"
    assert TargetPolicy.from_env({"HOOKWISE_WEBHOOK_ALLOW_PRIVATE": "1"}).allow_private
    assert TargetPolicy.from_env(cidr.env()) == cidr  # how workers receive it
    with pytest.raises(ValueError, match="not-a-net"):
        TargetPolicy.from_env({}, allow_cidrs=["not-a-net"])
    with pytest.raises(ValueError, match="HOOKWISE_WEBHOOK_ALLOW_PRIVATE"):
        TargetPolicy.from_env({"HOOKWISE_WEBHOOK_ALLOW_PRIVATE": "maybe"})


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_numeric_ipv4_forms_mean_what_the_resolver_reads(n: int) -> None:
    expected = ipaddress.IPv4Address(n)
    a, b, c, d = expected.packed
    forms = [
        str(n),
        hex(n),
        f"0{n:o}" if n else "0",
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
        f"{hex(a)}.{hex(b)}.{hex(c)}.{hex(d)}",
        f"0{a:o}.{b}.{c}.{d}",
    ]
    for form in forms:
        assert literal_addresses(form) == [expected], form
        assert socket.inet_aton(form) == expected.packed  # the C library agrees


@given(st.ip_addresses())
def test_only_global_unicast_addresses_pass(ip: Any) -> None:
    if special_kind(ip) is None:
        assert ip.is_global and not ip.is_multicast and not ip.is_private


@given(st.ip_addresses(v=4))
def test_an_ipv4_address_refused_is_refused_in_every_ipv6_wrapping(v4: Any) -> None:
    kind = special_kind(v4)
    n = int(v4)
    wrapped = [
        ipaddress.IPv6Address(f"::ffff:{v4}"),  # IPv4-mapped
        ipaddress.IPv6Address((0x64FF9B << 96) | n),  # NAT64
        ipaddress.IPv6Address((0x2002 << 112) | (n << 80) | 1),  # 6to4
    ]
    for ip in wrapped:
        if kind is not None:
            assert special_kind(ip) is not None, ip
        assert TargetPolicy().refusal(ip) == special_kind(ip)


@ONE_DATABASE
@pytest.mark.parametrize("url", INTERNAL_URLS)
def test_internal_targets_are_refused_when_subscribing(client: TestClient, url: str) -> None:
    answer = client.post("/api/webhooks", json={"url": url, "events": ["*"]})
    assert answer.status_code == 400, (url, answer.text)
    (detail,) = answer.json()["details"]
    assert detail["field"] == "url"
    assert "address" in detail["message"] and "--webhook-allow-private" in detail["message"]
    assert client.get("/api/webhooks").json()["webhooks"] == []
    public = client.post("/api/webhooks", json={"url": "https://93.184.215.14/", "events": ["*"]})
    assert public.status_code == 201
    patched = client.patch(f"/api/webhooks/{public.json()['id']}", json={"url": url})
    assert patched.status_code == 400 and patched.json()["details"][0]["field"] == "url"


def test_public_and_unresolvable_names_are_accepted(client: TestClient) -> None:
    for url in ["https://8.8.8.8/hook", "https://[2606:4700::1111]/", "https://hooks.invalid/"]:
        assert client.post("/api/webhooks", json={"url": url, "events": ["*"]}).status_code == 201


def _claim(url: str) -> Claim:
    return Claim(1, "evt_1", "permission_requested", {"x": 1}, 1, 0, "whk_1", url, "s" * 16)


def test_delivery_connects_to_the_checked_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The name never reaches httpx's own resolver: a name only the checker can resolve
    is delivered (to the address checked), and an answer set with one address outside
    the allowed network is refused at delivery."""
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    policy = TargetPolicy(allow_cidrs=(ipaddress.ip_network("127.0.0.0/8"),))
    real = socket.getaddrinfo
    resolved = {"rebind.test": ["127.0.0.1"]}

    def fake(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in resolved:
            return answers(*resolved[host])(host, args[0] if args else kwargs.get("port", 0))
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    dispatcher = Dispatcher(engine, DispatchSettings(timeout_ms=3000), targets=policy)

    async def send(url: str) -> Any:
        async with dispatcher.client() as client:
            return await dispatcher.deliver(client, _claim(url))

    with Receiver(tmp_path / "r.jsonl") as receiver:
        url = f"http://rebind.test:{receiver.port}/hook"
        assert asyncio.run(send(url)).status_code == 200
        resolved["rebind.test"] = ["127.0.0.1", "10.0.0.1"]
        refused = asyncio.run(send(url))
        assert refused.status_code is None and "refused" in (refused.error or "")
        assert len(receiver.records()) == 1
        receiver.configure(fail_first=5, fail_status=500)
        failed = asyncio.run(send(f"http://127.0.0.1:{receiver.port}/hook"))
        assert (failed.status_code, failed.error) == (500, "HTTP 500")  # no body logged
    engine.dispose()


def _deliveries(server: LiveServer, wid: str, timeout: float = 15.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    with server.client() as client:
        while time.monotonic() < deadline:
            found = client.get(f"/api/webhooks/{wid}/deliveries").json()["deliveries"]
            if found:
                return list(found)
            time.sleep(0.1)
    raise AssertionError("no delivery attempt logged")


def _ask(server: LiveServer) -> None:
    with server.client() as client:
        answer = client.post(
            "/internal/hook/create-permission-request",
            json={"toolName": "Bash", "reason": "r", "originalInput": {}},
        )
        assert answer.status_code == 200, answer.text


def test_a_real_server_refuses_loopback_receivers_unless_opted_in(
    live_server: Callable[..., LiveServer], tmp_path: Path, database_url: str
) -> None:
    with Receiver(tmp_path / "receiver.jsonl") as receiver:
        strict = live_server(data_dir=tmp_path / "strict")
        with strict.client() as client:
            answer = client.post("/api/webhooks", json={"url": receiver.url, "events": ["*"]})
        assert answer.status_code == 400 and answer.json()["details"][0]["field"] == "url"
        # A row that got in anyway (written before this check existed) is refused at
        # delivery: the dispatcher checks again.
        engine = make_engine(database_url)
        old = subscribers.create(engine, receiver.url, ["*"], "s" * 16).id
        engine.dispose()
        _ask(strict)
        (attempt,) = _deliveries(strict, old)[:1]
        assert attempt["statusCode"] is None and "loopback" in attempt["error"]
        assert receiver.records() == []
        strict.stop()

        opted = live_server(data_dir=tmp_path / "opted", extra_args=("--webhook-allow-private",))
        with opted.client() as client:
            created = client.post("/api/webhooks", json={"url": receiver.url, "events": ["*"]})
            assert created.status_code == 201, created.text
            client.delete(f"/api/webhooks/{old}")
        _ask(opted)
        deadline = time.monotonic() + 15
        while not receiver.records() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [r.status for r in receiver.records()] == [200]
        assert httpx.get(f"{opted.url}/openapi.json").status_code == 200
