"""Red team s35 (MCP) harness (copied from s29): a sandboxed HOME/XDG, a user policy at its default place
($XDG_CONFIG_HOME/hookwise/policy.yaml), and `hookwise mcp wrap` driven with raw JSON-RPC lines.

The proxy is started through `sh` holding the environment (the unpinned proxy checks its
parent's environment, red team s26 F8), so the sandbox's HOME/XDG reach it as a host's would.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

WT = Path(__file__).resolve().parents[3]
HOOKWISE = os.environ.get("HOOKWISE_BIN", str(WT / ".venv/bin/hookwise"))
ROOT = Path("/tmp/rt35m")

POLICY = """version: 1
rules:
  - id: no-rm-r
    match: {tool: shell, command: rm -r}
    action: deny
  - id: no-env
    match: {files: "**/.env"}
    action: deny
"""


def sandbox(name: str, policy: str = POLICY) -> dict[str, Path]:
    base = ROOT / name
    shutil.rmtree(base, ignore_errors=True)
    home = base / "home"
    conf = home / ".config"
    proj = base / "proj"
    for d in (home, conf / "hookwise", home / ".local/state", home / ".cache", proj):
        d.mkdir(parents=True, exist_ok=True)
    (conf / "hookwise/policy.yaml").write_text(policy)
    (proj / ".env").write_text("SECRET=hunter2\n")
    (proj / ".git").mkdir()
    return {"base": base, "home": home, "conf": conf, "proj": proj,
            "policy": conf / "hookwise/policy.yaml", "state": home / ".local/state"}


def env_for(sb: dict[str, Path]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "XDG_"))}
    env.update(HOME=str(sb["home"]), XDG_CONFIG_HOME=str(sb["conf"]),
               XDG_STATE_HOME=str(sb["state"]), XDG_CACHE_HOME=str(sb["home"] / ".cache"),
               XDG_DATA_HOME=str(sb["home"] / ".local/share"))
    return env


class Client:
    """A raw stdio MCP client of `hookwise mcp wrap --name NAME -- SERVER...`."""

    def __init__(self, sb: dict[str, Path], server: list[str], name: str = "srv",
                 elicitation: bool = False, extra: list[str] | None = None) -> None:
        cmd = [HOOKWISE, "mcp", "wrap", *(extra or []), "--name", name, "--", *server]
        self.p = subprocess.Popen(["sh", "-c", '"$@"; exit $?', "sh", *cmd],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=sb["proj"], env=env_for(sb))
        self.q: queue.Queue[dict] = queue.Queue()
        self.log: list[dict] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.n = 0
        caps = {"elicitation": {}} if elicitation else {}
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": caps,
                                    "clientInfo": {"name": "rt35", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _pump(self) -> None:
        assert self.p.stdout
        for line in self.p.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                msg = {"raw": line.decode(errors="replace")}
            self.log.append(msg)
            self.q.put(msg)

    def send(self, value: object) -> None:
        self.raw(json.dumps(value).encode())

    def raw(self, line: bytes) -> None:
        assert self.p.stdin
        self.p.stdin.write(line + b"\n")
        self.p.stdin.flush()

    def wait(self, pred, timeout: float = 15.0) -> dict | None:
        end = time.time() + timeout
        while time.time() < end:
            try:
                msg = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                return None
            if pred(msg):
                return msg
        return None

    def request(self, method: str, params: dict, rid: object = None) -> dict | None:
        if rid is None:
            self.n += 1
            rid = self.n
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and ("result" in m or "error" in m))

    def call(self, tool: str, args: dict) -> dict | None:
        return self.request("tools/call", {"name": tool, "arguments": args})

    def close(self) -> None:
        try:
            assert self.p.stdin
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def text(reply: dict | None) -> str:
    if reply is None:
        return "(no answer)"
    if "error" in reply:
        return "ERROR " + str(reply["error"].get("message"))[:160]
    res = reply.get("result", {})
    items = res.get("content", []) + res.get("contents", [])
    body = " ".join(c.get("text", "") for c in items if isinstance(c, dict))
    return ("isError " if res.get("isError") else "") + body[:200].replace("\n", "\\n")


def audit(sb: dict[str, Path]) -> list[dict]:
    out = []
    for f in sb["state"].rglob("*.jsonl"):
        for line in f.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def row(label: str, reply: dict | None) -> None:
    print(f"  {label:<70} -> {text(reply)}")
    sys.stdout.flush()
