"""Load on the approval relay with real ``hookwise hook`` processes (the hook side of issue 15).

bench/approvals_load.py measures the service with 200 HTTP clients that long-poll as the
hook does; this one runs the hook itself: N ``hookwise hook`` processes (a Claude Code
PreToolUse payload each, a different ``git push`` per process, an ``ask`` rule and
``settings.approvals`` in the user policy) wait on one real ``hookwise serve``, then 5
approvers decide all of them at once (allow or deny, each its share). Every process must
answer its own decision in Claude Code's form (checked), and the audit log must hold each
one with its request id and approver.

Printed: from each decision POST's start to the exit of the hook process that waited for
it (the long-poll's wake-up, the answer's verification, the re-encoding, the audit write,
the process's exit): p50, p99, max; next to the named baseline measured in the same run,
the decision POST's own round trip; and their ratio. Target: p99 <= 200 ms (the issue's
decision-to-answer figure).

    .venv/bin/python bench/relay_hook.py [--hooks 200] [--approvers 5] [--database sqlite]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_load import fresh_database, postgres_url, start_hookwise, stop
from approvals_load import add_token, percentile

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
POLICY = """\
version: 1
settings:
  approvals: {{url: "{url}", token_env: HOOKWISE_AGENT_TOKEN, wait: 300, on_timeout: deny}}
rules:
  - id: ask-push
    match: {{command: git push}}
    action: ask
    reason: pushing needs a person
"""


def payload(index: int, cwd: str) -> bytes:
    return json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "session_id": f"bench-{index}",
            "cwd": cwd,
            "tool_name": "Bash",
            "tool_input": {"command": f"git push origin branch-{index}"},
            "permission_mode": "default",
        }
    ).encode()


class Hook:
    """One waiting ``hookwise hook`` process and when it exited."""

    def __init__(self, index: int, env: dict[str, str], cwd: str) -> None:
        self.index = index
        self.proc = subprocess.Popen(
            [HOOKWISE, "hook", "--platform", "claude"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(payload(index, cwd))
        self.proc.stdin.close()
        self.exited = 0.0
        self.stdout = b""
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self) -> None:
        assert self.proc.stdout is not None
        self.stdout = self.proc.stdout.read()  # EOF: the answer is written, the process ends
        self.proc.wait()
        self.exited = time.monotonic()


def run(database: str, database_url: str | None, hooks: int, approvers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hookwise-relay-bench-") as tmp:
        base = Path(tmp)
        data_dir = base / "server"
        data_dir.mkdir()
        agent = add_token(data_dir, database_url, "bench-agent", "agent")
        names = [f"approver-{i}" for i in range(approvers)]
        tokens = {name: add_token(data_dir, database_url, name, "approver") for name in names}
        url, server = start_hookwise(data_dir, database_url, workers=1)
        try:
            policy = base / "user.yaml"
            policy.write_text(POLICY.format(url=url))
            project = base / "project"
            project.mkdir()
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(base),
                "LANG": "C.UTF-8",
                "HOOKWISE_USER_POLICY": str(policy),
                "HOOKWISE_MANAGED_POLICY": str(base / "managed.yaml"),
                "HOOKWISE_CACHE_DIR": str(base / "cache"),
                "HOOKWISE_AUDIT_LOG": str(base / "audit.jsonl"),
                "HOOKWISE_AGENT_TOKEN": agent,
            }
            warm = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                               "tool_input": {"command": "ls"}, "cwd": str(project)})  # fmt: skip
            subprocess.run(
                [HOOKWISE, "hook"], input=warm.encode(), env=env, check=True, capture_output=True
            )  # fmt: skip  (compiles the policy cache)
            started = time.monotonic()
            waiting = [Hook(i, env, str(project)) for i in range(hooks)]
            pending = wait_pending(url, tokens[names[0]], hooks)
            opened_s = time.monotonic() - started
            by_command = {r["input"]["command"]: r for r in pending}
            shares: dict[str, list[tuple[Hook, dict[str, Any], str]]] = {n: [] for n in names}
            for hook in waiting:
                request = by_command[f"git push origin branch-{hook.index}"]
                verdict = "allow" if hook.index % 2 == 0 else "deny"
                shares[names[hook.index % approvers]].append((hook, request, verdict))
            timings: dict[int, tuple[float, float]] = {}

            def decide(name: str) -> None:
                with httpx.Client(
                    base_url=url, headers={"Authorization": f"Bearer {tokens[name]}"}, timeout=60
                ) as client:
                    for hook, request, verdict in shares[name]:
                        sent = time.monotonic()
                        answer = client.post(
                            f"/api/approvals/{request['id']}/decision",
                            json={"decision": verdict, "input_hash": request["input_hash"],
                                  "note": f"{verdict} #{hook.index}"},
                        )  # fmt: skip
                        answer.raise_for_status()
                        timings[hook.index] = (sent, time.monotonic())

            with ThreadPoolExecutor(approvers) as pool:
                list(pool.map(decide, names))
            for hook in waiting:
                hook.thread.join(timeout=120)
            problems = check(waiting, shares, base / "audit.jsonl")
        finally:
            stop(server)
    latency = [(h.exited - timings[h.index][0]) * 1000 for h in waiting]
    post = [(end - sent) * 1000 for sent, end in timings.values()]
    return {
        "database": database,
        "hooks": hooks,
        "approvers": approvers,
        "opened_s": opened_s,
        "hook_p50_ms": statistics.median(latency),
        "hook_p99_ms": percentile(latency, 99),
        "hook_max_ms": max(latency),
        "post_p50_ms": statistics.median(post),
        "post_p99_ms": percentile(post, 99),
        "problems": problems,
    }


def wait_pending(url: str, token: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 300
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as client:
        while True:
            found = client.get("/api/approvals", params={"status": "pending", "limit": 200})
            found.raise_for_status()
            approvals: list[dict[str, Any]] = found.json()["approvals"]
            if len(approvals) >= count:
                return approvals
            if time.monotonic() > deadline:
                raise SystemExit(f"only {len(approvals)} of {count} requests opened")
            time.sleep(0.2)


def check(
    waiting: list[Hook], shares: dict[str, list[tuple[Hook, dict[str, Any], str]]], audit: Path
) -> list[str]:
    """Every process answered its own decision; the audit log names request and approver."""
    problems: list[str] = []
    expected = {h.index: (name, r, v) for name, items in shares.items() for h, r, v in items}
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    relayed = {r["approval"]["id"]: r for r in records if "approval" in r}
    for hook in waiting:
        name, request, verdict = expected[hook.index]
        answer = json.loads(hook.stdout or b"{}").get("hookSpecificOutput", {})
        if answer.get("permissionDecision") != verdict:
            problems.append(f"hook {hook.index}: answered {answer!r}, expected {verdict}")
        record = relayed.get(request["id"])
        if record is None or record["approval"].get("approver") != name:
            problems.append(f"hook {hook.index}: audit record {record and record['approval']}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hooks", type=int, default=200)
    parser.add_argument("--approvers", type=int, default=5)
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--pg-url", default=None, help="PostgreSQL URL (default: the test one)")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    results = []
    if args.database in ("sqlite", "both"):
        results.append(run("sqlite", None, args.hooks, args.approvers))
    if args.database in ("postgres", "both"):
        with fresh_database(postgres_url(args.pg_url)) as fresh:
            results.append(run("postgres", fresh, args.hooks, args.approvers))
    for r in results:
        print(
            f"{r['database']}: {r['hooks']} hookwise hook processes waiting (all opened in "
            f"{r['opened_s']:.1f} s), {r['approvers']} approvers"
        )
        print(
            f"  decision POST start -> hook process exit: p50 {r['hook_p50_ms']:.1f} ms, "
            f"p99 {r['hook_p99_ms']:.1f} ms, max {r['hook_max_ms']:.1f} ms (target p99 <= 200)"
        )
        print(
            f"  baseline, the decision POST's round trip: p50 {r['post_p50_ms']:.1f} ms, "
            f"p99 {r['post_p99_ms']:.1f} ms; ratio p99 "
            f"{r['hook_p99_ms'] / max(r['post_p99_ms'], 1e-9):.2f}"
        )
        print(f"  every hook answered its own decision: {'yes' if not r['problems'] else 'NO'}")
        for problem in r["problems"][:10]:
            print(f"    {problem}")
    if any(r["problems"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
