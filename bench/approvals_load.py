"""Load on the approval relay: 200 hooks long-polling one `hookwise serve` process while
5 approvers decide.

Per database (SQLite, then PostgreSQL), against a real `hookwise serve` (one process)
with tokens made by `hookwise serve token add` (1 agent, 5 approvers):

1. 200 clients each open a request with the agent token and long-poll
   ``GET /api/approvals/{id}?wait=60`` (again while it is still pending) as `hookwise hook`
   does;
2. once all of them wait, the server's CPU is sampled for a few seconds, next to the same
   sample taken before any request (what 200 parked waiters cost: no busy polling);
3. the 5 approvers decide all 200 (allow or deny, each its share, concurrently);
4. every client checks that the answer is its own (id, nonce, input hash, the decision
   and approver sent for it).

Printed: latency from the decision POST's start to the waiting client's answer (p50,
p99, max; target p99 <= 200 ms) next to the named baseline measured in the same run, the
decision POST's own round trip (its start to its answer), and their ratio.

    .venv/bin/python bench/approvals_load.py [--waiters 200] [--approvers 5] [--database both]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_load import fresh_database, postgres_url, start_hookwise, stop

TARGET_P99_MS = 200.0
IDLE_SAMPLE_S = 3.0


def canonical_hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Waiter:
    index: int
    body: dict[str, Any]
    approval_id: str = ""
    answered_at: float = 0.0
    answer: dict[str, Any] = field(default_factory=dict)
    polls: int = 0


@dataclass
class Decision:
    approver: str
    decision: str
    started: float = 0.0
    answered: float = 0.0


def add_token(data_dir: Path, database_url: str | None, name: str, role: str) -> str:
    env = {**os.environ}
    if database_url:
        env["HOOKWISE_DATABASE_URL"] = database_url
    else:
        env.pop("HOOKWISE_DATABASE_URL", None)
    made = subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", "serve", "token", "add", name,
         "--role", role, "--data-dir", str(data_dir)],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return made.stdout.strip()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request_body(index: int) -> dict[str, Any]:
    tool_input = {"command": f"make deploy TARGET=host-{index}"}
    return {
        "host": "claude",
        "session_id": f"bench-session-{index}",
        "cwd": "/srv/project",
        "tool": "Bash",
        "input": tool_input,
        "input_hash": canonical_hash(tool_input),
        "rule_id": "ask-deploy",
        "reason": "Deploys",
        "nonce": secrets.token_hex(16),
        "expires_at": time.time_ns() // 1_000_000 + 600_000,
        "remember_minutes": 0,
    }


async def wait_for_decision(client: httpx.AsyncClient, agent: str, waiter: Waiter) -> None:
    headers = {"Authorization": f"Bearer {agent}"}
    created = await client.post("/api/approvals", json=waiter.body, headers=headers)
    created.raise_for_status()
    waiter.approval_id = created.json()["id"]
    while True:
        waiter.polls += 1
        got = await client.get(f"/api/approvals/{waiter.approval_id}?wait=60", headers=headers)
        now = time.perf_counter()
        got.raise_for_status()
        answer = got.json()
        if answer["status"] != "pending":
            waiter.answered_at = now
            waiter.answer = answer
            return


async def decide_share(
    client: httpx.AsyncClient,
    token: str,
    name: str,
    share: list[Waiter],
    decisions: dict[str, Decision],
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    for waiter in share:
        kind = "allow" if waiter.index % 2 else "deny"
        decision = Decision(name, kind)
        decisions[waiter.approval_id] = decision
        body = {"decision": kind, "input_hash": waiter.body["input_hash"], "note": name}
        decision.started = time.perf_counter()
        answer = await client.post(
            f"/api/approvals/{waiter.approval_id}/decision", json=body, headers=headers
        )
        decision.answered = time.perf_counter()
        answer.raise_for_status()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[rank]


def problems_of(waiters: list[Waiter], decisions: dict[str, Decision]) -> list[str]:
    found = []
    for w in waiters:
        sent = decisions.get(w.approval_id)
        a = w.answer
        expected = {"allow": "allowed", "deny": "denied"}[sent.decision] if sent else None
        if (
            sent is None
            or a.get("id") != w.approval_id
            or a.get("nonce") != w.body["nonce"]
            or a.get("input_hash") != w.body["input_hash"]
            or a.get("status") != expected
            or (a.get("decision") or {}).get("approver") != sent.approver
            or (a.get("decision") or {}).get("note") != sent.approver
        ):
            found.append(f"waiter {w.index}: {a}")
    return found


async def run_load(url: str, pid: int, agent: str, approvers: dict[str, str], n: int) -> None:
    # A connection per request, as `hookwise hook` (urllib, one process per call) makes
    # them; it also keeps uvicorn's keep-alive timeout out of the measurement.
    limits = httpx.Limits(max_connections=n + 2 * len(approvers), max_keepalive_connections=0)
    timeout = httpx.Timeout(90.0)
    async with (
        httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as hooks,
        httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as people,
    ):
        before = cpu_seconds(pid)
        await asyncio.sleep(IDLE_SAMPLE_S)
        empty_cpu_ms = (cpu_seconds(pid) - before) / IDLE_SAMPLE_S * 1000
        waiters = [Waiter(i, request_body(i)) for i in range(n)]
        tasks = [asyncio.create_task(wait_for_decision(hooks, agent, w)) for w in waiters]
        while not all(w.approval_id for w in waiters):
            await asyncio.sleep(0.05)
            failed = [t.exception() for t in tasks if t.done() and t.exception() is not None]
            if failed:
                for task in tasks:
                    task.cancel()
                raise SystemExit(f"a waiter failed: {failed[0]!r}")
        await asyncio.sleep(3.0)  # every GET has reached the server and parks
        before = cpu_seconds(pid)
        await asyncio.sleep(IDLE_SAMPLE_S)
        idle_cpu_ms = (cpu_seconds(pid) - before) / IDLE_SAMPLE_S * 1000

        decisions: dict[str, Decision] = {}
        names = list(approvers)
        shares = [waiters[i :: len(names)] for i in range(len(names))]
        started = time.perf_counter()
        await asyncio.gather(
            *(
                decide_share(people, approvers[name], name, share, decisions)
                for name, share in zip(names, shares, strict=True)
            )
        )
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        elapsed = time.perf_counter() - started

    problems = problems_of(waiters, decisions)
    relay = [(w.answered_at - decisions[w.approval_id].started) * 1000 for w in waiters]
    post = [(d.answered - d.started) * 1000 for d in decisions.values()]
    repolls = sum(w.polls - 1 for w in waiters)
    p99 = percentile(relay, 99)
    print(f"  waiters answered with their own decision: {n - len(problems)}/{n}")
    print(
        f"  server CPU while {n} wait: {idle_cpu_ms:.1f} ms per second "
        f"(baseline, nobody waiting: {empty_cpu_ms:.1f} ms per second)"
    )
    print(f"  {n} decisions from {len(names)} approvers in {elapsed:.2f} s; re-polls: {repolls}")
    print(
        f"  decision POST -> waiter's answer: p50 {percentile(relay, 50):.1f} ms, "
        f"p99 {p99:.1f} ms, max {max(relay):.1f} ms "
        f"(target p99 <= {TARGET_P99_MS:.0f} ms: {'met' if p99 <= TARGET_P99_MS else 'MISSED'})"
    )
    print(
        f"  baseline, the decision POST's own round trip: p50 {percentile(post, 50):.1f} ms, "
        f"p99 {percentile(post, 99):.1f} ms; ratio p50 "
        f"{statistics.median(relay) / statistics.median(post):.2f}, "
        f"p99 {p99 / percentile(post, 99):.2f}"
    )
    for problem in problems[:5]:
        print(f"  PROBLEM {problem}")
    if problems:
        raise SystemExit(1)


def run_database(name: str, database_url: str | None, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="hookwise-approvals-bench-") as tmp:
        data_dir = Path(tmp)
        agent = add_token(data_dir, database_url, "bench-agent", "agent")
        approvers = {
            f"approver-{i}": add_token(data_dir, database_url, f"approver-{i}", "approver")
            for i in range(args.approvers)
        }
        url, process = start_hookwise(data_dir, database_url, workers=1)
        try:
            print(f"{name}: {args.waiters} waiters, {args.approvers} approvers, 1 process")
            asyncio.run(run_load(url, process.pid, agent, approvers, args.waiters))
        finally:
            stop(process)
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--waiters", type=int, default=200)
    parser.add_argument("--approvers", type=int, default=5)
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--pg-url", default=None, help="PostgreSQL URL (default: the test one)")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.database in ("sqlite", "both"):
        run_database("sqlite", None, args)
    if args.database in ("postgres", "both"):
        with fresh_database(postgres_url(args.pg_url)) as fresh:
            run_database("postgres", fresh, args)


if __name__ == "__main__":
    main()
