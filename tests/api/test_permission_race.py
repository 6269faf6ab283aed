"""Twenty clients resolve one permission at once against a real server: exactly one wins.

A real ``hookwise serve`` (one process, then two workers sharing the database) and real
sockets: each client thread has its own connection and all of them are released by one
barrier, so the resolves reach the server together and race in the database.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Callable

import httpx
import pytest

from tests.api.conftest import LiveServer

CLIENTS = 20


def race(clients: list[httpx.Client], permission_id: str) -> list[httpx.Response]:
    barrier = threading.Barrier(CLIENTS)
    answers: list[httpx.Response | BaseException] = [RuntimeError("no answer")] * CLIENTS
    for c in clients:  # (re)open each connection before the start line
        c.get("/openapi.json").raise_for_status()

    def resolve(i: int) -> None:
        decision = "allow" if i % 2 else "deny"
        barrier.wait()
        try:
            answers[i] = clients[i].post(
                f"/internal/hook/resolve-permission/{permission_id}",
                json={"decision": decision},
                headers={"X-Session-Id": f"racer-{i}"},
            )
        except BaseException as exc:  # reported below with the others
            answers[i] = exc

    threads = [threading.Thread(target=resolve, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    failures = [a for a in answers if not isinstance(a, httpx.Response)]
    assert not failures, failures
    return [a for a in answers if isinstance(a, httpx.Response)]


@pytest.mark.parametrize("workers", [1, 2])
def test_twenty_concurrent_resolvers_one_winner(
    live_server: Callable[..., LiveServer], workers: int
) -> None:
    server = live_server(workers=workers)
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(server.client(timeout=30.0)) for _ in range(CLIENTS)]
        api = stack.enter_context(server.client(timeout=30.0))
        for round_ in range(3):
            created = api.post(
                "/internal/hook/create-permission-request",
                json={"toolName": "Bash", "reason": f"round {round_}", "originalInput": {}},
                headers={"X-Session-Id": f"creator-{round_}"},
            )
            assert created.status_code == 200, created.text
            pid = created.json()["permissionId"]

            answers = race(clients, pid)

            codes = Counter(a.status_code for a in answers)
            assert codes == Counter({200: 1, 409: CLIENTS - 1}), [a.text for a in answers]
            (winner,) = [a.json() for a in answers if a.status_code == 200]
            decision = winner["decision"]["decision"]
            assert winner["shouldProceed"] is (decision == "allow")
            for loser in (a.json() for a in answers if a.status_code == 409):
                assert loser["error"] == "conflict"
                assert (loser["status"], loser["decision"]) == ("resolved", decision)
            pending = api.get("/internal/hook/pending-permissions").json()["permissions"]
            assert pid not in [p["id"] for p in pending]
