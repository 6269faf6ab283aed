"""Benchmark: how much later an MCP server's tools are ready behind ``hookwise mcp wrap``.

A host learns a server's tools when ``initialize`` and ``tools/list`` are answered; Codex
0.169 waits ``mcp_optional_startup_grace_ms`` (1000 ms by default) for an optional server
before its first model request goes out without that server's tools (docs/mcp.md, "The
real CLIs through the proxy"). Two contenders, started alternately in the same run so
machine load hits both:

- **direct**: the server process itself (the reference filesystem server as ``make
  e2e-install`` installs it; without node, the scripted server of tests/mcp_proxy);
- **proxied**: ``python -m hookwise mcp wrap --name fs -- SERVER`` with the policy of
  ``bench/integration_gate.py`` (200 generated rules plus every pack, trusted, compiled
  cache warm after the first start, as on a machine where hookwise ran before).

Printed: p50 and p90 of the time from spawn to the ``tools/list`` answer for each, the p50
the proxy adds, the ratio, and how many starts of each stayed within Codex's default
grace. No target: what the proxy costs here is a Python start plus the policy's load, and
whether that fits the grace depends on the machine (docs/benchmarks.md). Usage::

    .venv/bin/python bench/mcp_startup.py [--starts 20] [--rules 200] [--json]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from mcp_timing import Client, compare, contenders, interleaved, main_with

CODEX_GRACE_MS = 1000.0


def ready_ms(argv: list[str], cwd: Path) -> float:
    """Milliseconds from spawn to the answer of ``tools/list`` (after ``initialize``)."""
    start = time.perf_counter()
    client = Client(argv, cwd)
    try:
        client.request("tools/list", {})
        return (time.perf_counter() - start) * 1000
    finally:
        client.close()


def measure(starts: int, rules: int) -> dict[str, Any]:
    with contenders(rules, "hookwise-bench-mcp-start-") as bench:
        for command in bench.argv.values():  # warm up: the compiled policy, the OS's caches
            ready_ms(command, bench.project)
        times = interleaved(
            list(bench.argv), starts, 1, lambda label, _: ready_ms(bench.argv[label], bench.project)
        )
    return {
        "server": bench.server,
        "starts": starts,
        "rules": rules,
        **compare(times, 0.9),
        "within_codex_grace": {k: sum(t <= CODEX_GRACE_MS for t in v) for k, v in times.items()},
        "codex_grace_ms": CODEX_GRACE_MS,
    }


def report(result: dict[str, Any]) -> None:
    print(f"server: {result['server']}; {result['starts']} starts each; policy: "
          f"{result['rules']} rules + packs")  # fmt: skip
    for label in ("direct", "proxied"):
        print(f"  {label:8} tools ready p50 {result['p50_ms'][label]:.0f} ms   "
              f"p90 {result['p90_ms'][label]:.0f} ms   within Codex's "
              f"{result['codex_grace_ms']:.0f} ms grace: "
              f"{result['within_codex_grace'][label]}/{result['starts']}")  # fmt: skip
    print(f"  added p50: {result['added_p50_ms']:.0f} ms, ratio {result['ratio_p50']:.2f}x")


if __name__ == "__main__":
    sys.exit(main_with(__doc__ or "", "starts", 20, measure, report, lambda _: 0))
