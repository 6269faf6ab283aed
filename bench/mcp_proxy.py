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

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from integration_gate import percentile, setup  # noqa: E402

TARGET_MS = 2.0
CHUNK = 50


# found before the benchmark's private HOME replaces the user's
SERVERS = os.environ.get("HOOKWISE_E2E_MCP_SERVERS") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "hookwise"
    / "e2e-mcp-servers"
)


def server_argv(work: Path) -> tuple[list[str], str, list[tuple[str, dict[str, Any]]]]:
    """(command, what it is, the calls to rotate over)."""
    fs = Path(SERVERS) / "node_modules" / ".bin" / "mcp-server-filesystem"
    (work / "notes.txt").write_text("hello\n" * 20, encoding="utf-8")
    if fs.exists() and shutil.which("node"):
        calls = [
            ("read_text_file", {"path": str(work / "notes.txt")}),
            ("list_directory", {"path": str(work)}),
        ]
        return [str(fs), str(work)], "server-filesystem", calls
    fake = ROOT / "tests" / "mcp_proxy" / "fake_server.py"
    return [sys.executable, str(fake), "echo"], "fake_server.py echo", [("greet", {"name": "x"})]


class Client:
    """A minimal MCP client on a process's pipes: one request at a time."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd
        )
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        })  # fmt: skip
        self.notify("notifications/initialized")

    def notify(self, method: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{method}: the process closed its output")
            answer: dict[str, Any] = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer or answer.get("result", {}).get("isError"):
                    raise RuntimeError(f"{method} failed: {answer}")
                return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def measure(calls: int, rules: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-mcp-") as tmp:
        project = setup(Path(tmp), rules)
        argv, server, rotation = server_argv(project)
        wrap = [sys.executable, "-m", "hookwise", "mcp", "wrap", "--name", "fs", "--", *argv]
        direct, proxied = Client(argv, project), Client(wrap, project)
        times: dict[str, list[float]] = {"direct": [], "proxied": []}
        try:
            for client in (direct, proxied):  # warm up: policy compiled, JIT warm
                for n in range(100):
                    name, args = rotation[n % len(rotation)]
                    client.request("tools/call", {"name": name, "arguments": args})
            done = 0
            while done < calls:
                for label, client in (("direct", direct), ("proxied", proxied)):
                    for n in range(CHUNK):
                        name, args = rotation[(done + n) % len(rotation)]
                        start = time.perf_counter()
                        client.request("tools/call", {"name": name, "arguments": args})
                        times[label].append((time.perf_counter() - start) * 1000)
                done += CHUNK
        finally:
            direct.close()
            proxied.close()
        audit = Path(os.environ["HOOKWISE_AUDIT_LOG"]).read_text(encoding="utf-8")
        audited = audit.count("\n")
    p50 = {k: percentile(v, 0.5) for k, v in times.items()}
    return {
        "server": server,
        "calls": calls,
        "rules": rules,
        "audit_records": audited,
        "p50_ms": p50,
        "p99_ms": {k: percentile(v, 0.99) for k, v in times.items()},
        "added_p50_ms": p50["proxied"] - p50["direct"],
        "ratio_p50": p50["proxied"] / p50["direct"],
        "target_ms": TARGET_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    result = measure(opts.calls, opts.rules)
    if opts.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"server: {result['server']}; {result['calls']} calls each; policy: "
              f"{result['rules']} rules + packs; audit records: {result['audit_records']}")  # fmt: skip
        for label in ("direct", "proxied"):
            print(f"  {label:8} p50 {result['p50_ms'][label]:.3f} ms   "
                  f"p99 {result['p99_ms'][label]:.3f} ms")  # fmt: skip
        print(f"  added p50 per call: {result['added_p50_ms']:.3f} ms (target <= {TARGET_MS} ms), "
              f"ratio {result['ratio_p50']:.2f}x")  # fmt: skip
    return 0 if result["added_p50_ms"] <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
