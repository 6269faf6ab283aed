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

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from integration_gate import percentile, setup  # noqa: E402

from mcp_proxy import Client, server_argv  # noqa: E402

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
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-mcp-start-") as tmp:
        project = setup(Path(tmp), rules)
        argv, server, _ = server_argv(project)
        wrap = [sys.executable, "-m", "hookwise", "mcp", "wrap", "--name", "fs", "--", *argv]
        contenders = {"direct": argv, "proxied": wrap}
        for command in contenders.values():  # warm up: the compiled policy, the OS's caches
            ready_ms(command, project)
        times: dict[str, list[float]] = {label: [] for label in contenders}
        for _ in range(starts):
            for label, command in contenders.items():
                times[label].append(ready_ms(command, project))
    p50 = {k: percentile(v, 0.5) for k, v in times.items()}
    return {
        "server": server,
        "starts": starts,
        "rules": rules,
        "p50_ms": p50,
        "p90_ms": {k: percentile(v, 0.9) for k, v in times.items()},
        "added_p50_ms": p50["proxied"] - p50["direct"],
        "ratio_p50": p50["proxied"] / p50["direct"],
        "within_codex_grace": {k: sum(t <= CODEX_GRACE_MS for t in v) for k, v in times.items()},
        "codex_grace_ms": CODEX_GRACE_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    result = measure(opts.starts, opts.rules)
    if opts.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"server: {result['server']}; {result['starts']} starts each; policy: "
          f"{result['rules']} rules + packs")  # fmt: skip
    for label in ("direct", "proxied"):
        print(f"  {label:8} tools ready p50 {result['p50_ms'][label]:.0f} ms   "
              f"p90 {result['p90_ms'][label]:.0f} ms   within Codex's "
              f"{result['codex_grace_ms']:.0f} ms grace: "
              f"{result['within_codex_grace'][label]}/{result['starts']}")  # fmt: skip
    print(f"  added p50: {result['added_p50_ms']:.0f} ms, ratio {result['ratio_p50']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
