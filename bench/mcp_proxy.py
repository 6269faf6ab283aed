"""Benchmark: what ``hookwise mcp wrap`` adds to one MCP ``tools/call``.

Two contenders in the same run, in interleaved chunks so machine load hits both:

- **direct**: an MCP client (this script, on pipes) talking to the server itself;
- **proxied**: the same client talking to ``hookwise mcp wrap -- SERVER``, which decides each
  call with the policy (the 200 generated rules plus every rule pack of
  ``bench/integration_gate.py``, trusted, audit log on) before passing it on.

The server is the reference filesystem server (@modelcontextprotocol/server-filesystem, as
``make e2e-install`` installs it) reading a small file and listing a directory, both
allowed (a denied call never reaches the server and would flatter the proxy); without
node or the server, the scripted server of tests/mcp_proxy (``fake_server.py echo``).
Printed: p50 and p99 per call of each, the p50 added per call (target <= 2 ms; exit
status 1 when missed) and the ratio. Usage::

    .venv/bin/python bench/mcp_proxy.py [--calls 2000] [--rules 200] [--json]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from mcp_timing import Client, compare, contenders, interleaved, main_with

TARGET_MS = 2.0
CHUNK = 50


def measure(calls: int, rules: int) -> dict[str, Any]:
    with contenders(rules, "hookwise-bench-mcp-") as bench:
        clients = {label: Client(argv, bench.project) for label, argv in bench.argv.items()}
        rotation = bench.rotation

        def call(label: str, n: int) -> float:
            name, args = rotation[n % len(rotation)]
            start = time.perf_counter()
            clients[label].request("tools/call", {"name": name, "arguments": args})
            return (time.perf_counter() - start) * 1000

        try:
            for label in clients:  # warm up: policy compiled, JIT warm
                for n in range(100):
                    call(label, n)
            times = interleaved(list(clients), calls, CHUNK, call)
        finally:
            for client in clients.values():
                client.close()
        audit = Path(os.environ["HOOKWISE_AUDIT_LOG"]).read_text(encoding="utf-8")
    return {
        "server": bench.server,
        "calls": calls,
        "rules": rules,
        "audit_records": audit.count("\n"),
        **compare(times, 0.99),
        "target_ms": TARGET_MS,
    }


def report(result: dict[str, Any]) -> None:
    print(f"server: {result['server']}; {result['calls']} calls each; policy: "
          f"{result['rules']} rules + packs; audit records: {result['audit_records']}")  # fmt: skip
    for label in ("direct", "proxied"):
        print(f"  {label:8} p50 {result['p50_ms'][label]:.3f} ms   "
              f"p99 {result['p99_ms'][label]:.3f} ms")  # fmt: skip
    print(f"  added p50 per call: {result['added_p50_ms']:.3f} ms (target <= {TARGET_MS} ms), "
          f"ratio {result['ratio_p50']:.2f}x")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main_with(__doc__ or "", "calls", 2000, measure, report,
                       lambda r: 0 if r["added_p50_ms"] <= TARGET_MS else 1))  # fmt: skip
