"""Record which MCP server entries the real Claude Code and Gemini CLI run as a command and
which they reach at a URL (red team s26 F2), into
tests/policy/install/fixtures/mcp_transport.json.

Each entry carries install's wrapped ``command``/``args`` plus a URL or a transport
``type``; ``claude mcp list`` and ``gemini mcp list`` (the pinned CLIs of
tests/e2e/package.json, offline: the URLs are a closed port of 127.0.0.1) print, per
server, what they connect to. Gemini CLI 0.61.0 prints the URL whenever ``httpUrl`` or
``url`` is set, which is also what its ``createTransport`` connects to (it prints the
config's ``type`` beside it, even ``stdio``); Claude Code 2.1.330 prints the URL and the
transport it uses. Run: ``.venv/bin/python -m tests.e2e.record_mcp_transport``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.e2e import clis

OUT = Path(__file__).parents[1] / "policy" / "install" / "fixtures" / "mcp_transport.json"
URL = "http://127.0.0.1:9/mcp"  # the discard port: nothing answers
WRAPPED = {
    "command": "hookwise",
    "args": ["mcp", "wrap", "--pinned", "--name", "fs", "--", "python3", "srv.py"],
}
ENTRIES: dict[str, dict[str, Any]] = {
    "plain": {},
    "type_http": {"type": "http", "url": URL},
    "url_only": {"url": URL},
    "type_sse": {"type": "sse", "url": URL},
    "http_url": {"httpUrl": URL},
    "type_stdio_url": {"type": "stdio", "url": URL},
    "type_ws": {"type": "ws", "url": "ws://127.0.0.1:9/mcp"},
    "type_http_no_url": {"type": "http"},
}
LINE = re.compile(r"^(?:[✓✗] )?(?P<name>[a-z_]+): (?P<target>.+?) (?:\((?P<kind>[A-Za-z]+)\) )?- ")


def _listing(cli: str, root: Path) -> dict[str, dict[str, str]]:
    home, project = root / "home", root / "proj"
    (project / ".gemini").mkdir(parents=True)
    (home / ".gemini").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    servers = {name: {**WRAPPED, **extra} for name, extra in ENTRIES.items()}
    env = {"HOME": str(home), "PATH": clis.search_path(), "DISABLE_AUTOUPDATER": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "GEMINI_API_KEY": "offline"}  # fmt: skip
    if cli == "claude":
        (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), "utf-8")
        record = {"hasTrustDialogAccepted": True, "enableAllProjectMcpServers": True}
        (home / ".claude.json").write_text(
            json.dumps({"hasCompletedOnboarding": True, "projects": {str(project): record}}),
            "utf-8",
        )
    else:
        settings = {"mcpServers": servers}
        (project / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
        (home / ".gemini" / "trustedFolders.json").write_text(
            json.dumps({str(project): "TRUST_FOLDER"}), "utf-8"
        )
        (home / ".gemini" / "settings.json").write_text(
            json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}},
                        "privacy": {"usageStatisticsEnabled": False}}),
            "utf-8",
        )  # fmt: skip
    done = subprocess.run(
        [str(clis.binary(cli)), "mcp", "list"],
        capture_output=True, text=True, cwd=project, env=env, timeout=180, check=False,
    )  # fmt: skip
    out: dict[str, dict[str, str]] = {}
    listing = done.stdout + done.stderr  # (Gemini CLI prints its list on stderr)
    for line in listing.splitlines():
        found = LINE.match(line.strip())
        if found and found.group("name") in ENTRIES:
            target = found.group("target")
            out[found.group("name")] = {
                "line": line.strip()[:200],
                "connects_to": "url" if re.match(r"(https?|wss?)://", target) else "command",
            }
    for name in sorted(set(ENTRIES) - set(out)):  # refused as invalid: never run at all
        said = [x.strip() for x in listing.splitlines() if f"[{name}]" in x]
        if not said:
            raise SystemExit(f"{cli} mcp list did not list {name}:\n{listing}")
        out[name] = {"line": said[0][:200], "connects_to": "nothing"}
    return out


def main() -> None:
    hosts: dict[str, Any] = {}
    for cli in ("claude", "gemini"):
        problem = clis.install_problem(cli)
        if problem:
            raise SystemExit(problem)
        with tempfile.TemporaryDirectory() as tmp:
            hosts[cli] = {
                "version": clis.pinned_versions()[cli],
                "command": f"{cli} mcp list",
                "servers": _listing(cli, Path(tmp)),
            }
    data = {
        "origin": "tests/e2e/record_mcp_transport.py: the pinned real CLIs, offline",
        "wrapped": WRAPPED,
        "entries": ENTRIES,
        "hosts": hosts,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
