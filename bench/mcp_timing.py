"""What bench/mcp_proxy.py and bench/mcp_startup.py share: the server, a minimal MCP client,
the direct and proxied commands, and one timing loop that alternates the contenders so
machine load hits both (a ratio taken in one run, docs/benchmarks.md)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from integration_gate import percentile, setup  # noqa: E402

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


@dataclass
class Setup:
    """A project with the bench policy, the server, and how each contender starts it."""

    project: Path
    server: str
    rotation: list[tuple[str, dict[str, Any]]]
    argv: dict[str, list[str]]  # "direct", "proxied"


@contextmanager
def contenders(rules: int, prefix: str) -> Iterator[Setup]:
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        project = setup(Path(tmp), rules)
        argv, server, rotation = server_argv(project)
        wrap = [sys.executable, "-m", "hookwise", "mcp", "wrap", "--name", "fs", "--", *argv]
        yield Setup(project, server, rotation, {"direct": argv, "proxied": wrap})


def interleaved(
    labels: list[str], samples: int, chunk: int, sample: Callable[[str, int], float]
) -> dict[str, list[float]]:
    """``samples`` times of each label, taken ``chunk`` at a time in turn;
    ``sample(label, n)`` returns one time in ms (n counts that label's samples)."""
    times: dict[str, list[float]] = {label: [] for label in labels}
    while len(times[labels[0]]) < samples:
        for label in labels:
            done = len(times[label])
            times[label] += [sample(label, done + n) for n in range(chunk)]
    return times


def compare(times: dict[str, list[float]], tail: float) -> dict[str, Any]:
    """p50 and the ``tail`` quantile of each, what the proxy adds at p50, and the ratio."""
    p50 = {k: percentile(v, 0.5) for k, v in times.items()}
    return {
        "p50_ms": p50,
        f"p{round(tail * 100)}_ms": {k: percentile(v, tail) for k, v in times.items()},
        "added_p50_ms": p50["proxied"] - p50["direct"],
        "ratio_p50": p50["proxied"] / p50["direct"],
    }


def main_with(
    doc: str, count: str, default: int, measure: Callable[[int, int], dict[str, Any]],
    report: Callable[[dict[str, Any]], None], status: Callable[[dict[str, Any]], int],
) -> int:  # fmt: skip
    """The scripts' command line: ``--COUNT N --rules N --json``; exit status ``status``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(f"--{count}", type=int, default=default)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    result = measure(getattr(opts, count), opts.rules)
    if opts.json:
        print(json.dumps(result, indent=2))
    else:
        report(result)
    return status(result)
