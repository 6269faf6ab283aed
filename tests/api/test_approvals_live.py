"""The approval relay against a real `hookwise serve` (SQLite and PostgreSQL): tokens made
and revoked with the CLI while it runs, twenty deciders racing, long polls woken by a
decision in this process and in another worker."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from hookwise.api.approvals.schemas import canonical_hash
from hookwise.api.storage.db import make_engine
from hookwise.api.tokens import add_token
from tests.api.approval_helpers import request_body
from tests.api.conftest import LiveServer

DECIDERS = 20


def token_cli(server: LiveServer, *args: str) -> subprocess.CompletedProcess[str]:
    """`hookwise serve token ...` on the server's database, as an operator runs it."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise.cli.entry",
            "serve",
            "token",
            *args,
            "--data-dir",
            str(server.data_dir),
        ],
        env={**os.environ, "HOOKWISE_DATABASE_URL": server.env["HOOKWISE_DATABASE_URL"]},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def add(server: LiveServer, name: str, role: str) -> str:
    made = token_cli(server, "add", name, "--role", role)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert token.startswith(f"hw_{role}_") and len(token) > 40
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_token_commands_on_a_running_server(live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    approver = add(server, "phone", "approver")
    agent = add(server, "laptop", "agent")
    duplicate = token_cli(server, "add", "phone", "--role", "approver")
    assert duplicate.returncode != 0 and "exists" in duplicate.stderr
    for bad in ("admin", "a b"):  # the rules themselves: tests/api/test_tokens.py
        refused = token_cli(server, "add", bad, "--role", "agent")
        assert refused.returncode != 0, bad
    with server.client(timeout=10) as api:
        created = api.post("/api/approvals", json=request_body(), headers=bearer(agent))
        assert created.status_code == 201
        assert api.get("/api/approvals", headers=bearer(approver)).status_code == 200

        listed = token_cli(server, "list")
        assert listed.returncode == 0
        lines = listed.stdout.splitlines()
        assert lines[0] == "name\trole\tcreated\tlast used\trevoked"
        rows = {line.split("\t")[0]: line.split("\t") for line in lines[1:]}
        assert rows["phone"][1] == "approver" and rows["laptop"][1] == "agent"
        assert rows["phone"][3] != "-" and rows["phone"][4] == "-"  # used, not revoked
        assert approver not in listed.stdout and agent not in listed.stdout
        as_json = [
            json.loads(line) for line in token_cli(server, "list", "--json").stdout.splitlines()
        ]
        assert {t["name"] for t in as_json} == {"phone", "laptop"}

        revoked = token_cli(server, "revoke", "phone")
        assert revoked.returncode == 0, revoked.stderr
        assert api.get("/api/approvals", headers=bearer(approver)).status_code == 401
        assert token_cli(server, "revoke", "phone").returncode != 0
        assert token_cli(server, "revoke", "nobody").returncode != 0
        # The name can be used again; the old secret stays dead.
        again = add(server, "phone", "approver")
        assert api.get("/api/approvals", headers=bearer(again)).status_code == 200
        assert api.get("/api/approvals", headers=bearer(approver)).status_code == 401


def quick_add(server: LiveServer, name: str, role: str) -> str:
    """The function the CLI calls, without a process start per token."""
    engine = make_engine(server.env["HOOKWISE_DATABASE_URL"])
    try:
        return add_token(engine, name, role)
    finally:
        engine.dispose()


def race(server: LiveServer, tokens: list[str], approval_id: str, input_hash: str) -> Counter[int]:
    barrier = threading.Barrier(DECIDERS)
    codes: list[int] = []
    lock = threading.Lock()
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(server.client(timeout=30)) for _ in range(DECIDERS)]
        for c in clients:
            c.get("/openapi.json").raise_for_status()

        def decide(i: int) -> None:
            body = {"decision": "allow" if i % 2 else "deny", "input_hash": input_hash}
            barrier.wait()
            response = clients[i].post(
                f"/api/approvals/{approval_id}/decision",
                json=body,
                headers=bearer(tokens[i % len(tokens)]),
            )
            with lock:
                codes.append(response.status_code)

        threads = [threading.Thread(target=decide, args=(i,)) for i in range(DECIDERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    return Counter(codes)


@pytest.mark.parametrize("workers", [1, 2])
def test_twenty_deciders_one_winner_and_the_waiter_learns_it(
    live_server: Callable[..., LiveServer], workers: int
) -> None:
    server = live_server(workers=workers)
    agent = quick_add(server, "agent", "agent")
    approvers = [quick_add(server, f"approver{i}", "approver") for i in range(5)]
    with server.client(timeout=30) as api:
        for _ in range(2):
            body = request_body()
            approval_id = api.post("/api/approvals", json=body, headers=bearer(agent)).json()["id"]
            answer: dict[str, object] = {}

            def wait(approval_id: str = approval_id, answer: dict[str, object] = answer) -> None:
                with server.client(timeout=30) as waiter:
                    started = time.monotonic()
                    got = waiter.get(f"/api/approvals/{approval_id}?wait=20", headers=bearer(agent))
                    answer.update(got.json(), finished=time.monotonic(), started=started)

            waiting = threading.Thread(target=wait)
            waiting.start()
            time.sleep(0.3)
            codes = race(server, approvers, approval_id, body["input_hash"])
            raced = time.monotonic()  # the winning decision was made before this
            waiting.join(30)
            assert codes == Counter({200: 1, 409: DECIDERS - 1}), codes
            assert answer["status"] in ("allowed", "denied")
            assert answer["nonce"] == body["nonce"]
            # woken by the decision, not by its 20 s wait running out (however long the
            # twenty deciders took on a loaded machine)
            finished, started = answer["finished"], answer["started"]
            assert isinstance(finished, float) and isinstance(started, float)
            assert finished - raced < 5 and finished - started < 19
            final = api.get(f"/api/approvals/{approval_id}", headers=bearer(agent)).json()
            assert final["status"] == answer["status"]
            assert final["decision"] == answer["decision"]


def test_wrong_hash_never_decides_on_a_real_server(live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    agent, approver = quick_add(server, "agent", "agent"), quick_add(server, "alice", "approver")
    with server.client(timeout=10) as api:
        approval_id = api.post("/api/approvals", json=request_body(), headers=bearer(agent)).json()[
            "id"
        ]
        wrong = canonical_hash({"command": "rm -rf /"})
        refused = api.post(
            f"/api/approvals/{approval_id}/decision",
            json={"decision": "allow", "input_hash": wrong},
            headers=bearer(approver),
        )
        assert refused.status_code == 409 and refused.json()["error"] == "hash_mismatch"
        read = api.get(f"/api/approvals/{approval_id}", headers=bearer(agent)).json()
        assert read["status"] == "pending"


def test_the_page_url_names_the_public_url(
    live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    server = live_server(extra_args=("--public-url", "https://approvals.example.com/"))
    agent = quick_add(server, "agent", "agent")
    with server.client(timeout=10) as api:
        created = api.post("/api/approvals", json=request_body(), headers=bearer(agent)).json()
    assert created["page_url"] == f"https://approvals.example.com/console/approvals/{created['id']}"


def test_default_page_url_is_the_bound_address(live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    agent = quick_add(server, "agent", "agent")
    created = httpx.post(
        f"{server.url}/api/approvals", json=request_body(), headers=bearer(agent), timeout=10
    ).json()
    assert created["page_url"] == f"{server.url}/console/approvals/{created['id']}"
