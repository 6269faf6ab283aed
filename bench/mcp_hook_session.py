"""Benchmark: an ``mcp_tool`` hook over the session's server against a server per call.

Claude Code and Codex keep an MCP server connected for the session; hookwise did the same
from issue 27 (session 24) on, and started a stdio server for every call before. This fires
the same PreToolUse ``mcp_tool`` hook (the test suite's stdio server, the ``mcp`` SDK's
MCPServer) ``--calls`` times through one HookSystem (one server) and
through a fresh HookSystem per call, closed after it (a server per call, the old way), in
interleaved trials, and prints the milliseconds per call of each and their ratio. Usage::

    .venv/bin/python bench/mcp_hook_session.py [--calls 5] [--trials 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hookwise.host.loading import load_hook_system

SERVER = Path(__file__).resolve().parents[1] / "tests" / "host" / "data" / "mcp_hook_server.py"
CALL = {"tool_name": "Write", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}


def _project(root: Path) -> tuple[Path, Path]:
    home, proj = root / "home", root / "proj"
    (home / ".claude").mkdir(parents=True)
    (proj / ".claude").mkdir(parents=True)
    server = {"command": sys.executable, "args": [str(SERVER)]}
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"scan": server}}))
    handler = {
        "type": "mcp_tool",
        "server": "scan",
        "tool": "check_path",
        "input": {"file_path": "${tool_input.file_path}"},
    }
    hooks = {"PreToolUse": [{"matcher": "Write", "hooks": [handler]}]}
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return home, proj


def _session(home: Path, proj: Path, calls: int) -> float:
    started = time.perf_counter()
    with load_hook_system(proj, home=home, env={"PATH": "/usr/bin:/bin"}, dialect="claude") as hs:
        for _ in range(calls):
            assert hs.fire_sync("PreToolUse", CALL).effect.outcome.proceed is False
    return (time.perf_counter() - started) / calls * 1000


def _per_call(home: Path, proj: Path, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        env = {"PATH": "/usr/bin:/bin"}
        with load_hook_system(proj, home=home, env=env, dialect="claude") as hs:
            assert hs.fire_sync("PreToolUse", CALL).effect.outcome.proceed is False
    return (time.perf_counter() - started) / calls * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    session: list[float] = []
    fresh: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        home, proj = _project(Path(tmp))
        for _ in range(args.trials):
            fresh.append(_per_call(home, proj, args.calls))
            session.append(_session(home, proj, args.calls))
    result = {
        "calls": args.calls,
        "trials": args.trials,
        "server_per_call_ms": round(statistics.median(fresh), 1),
        "session_server_ms": round(statistics.median(session), 1),
        "ratio": round(statistics.median(session) / statistics.median(fresh), 3),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"mcp_tool hook, {args.calls} calls x {args.trials} trials (medians): "
            f"a server per call {result['server_per_call_ms']} ms/call, "
            f"the session's server {result['session_server_ms']} ms/call "
            f"(ratio {result['ratio']})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
