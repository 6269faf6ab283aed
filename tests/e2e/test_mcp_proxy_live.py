"""The real agent CLIs (Claude Code, Gemini CLI, Codex) against the fake model, with the
reference filesystem MCP server behind ``hookwise mcp wrap`` and no hookwise hook registered:
a denied call never reaches the server and its reason reaches the model; an allowed one
works (docs/mcp.md; what each CLI needs and shows: tests/e2e/README.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, namespaced, tool_results
from tests.e2e.runner import run_bounded

DENY_TOKEN = "MCP-LIVE-DENY"
POLICY = f"""\
version: 1
rules:
  - id: protected-is-read-only
    match: {{tool: [write, edit], files: "protected/**"}}
    action: deny
    reason: "{DENY_TOKEN}: protected/ is read-only"
"""


FS = clis.mcp_server("mcp-server-filesystem")
AUDIT = ".local/state/hookwise/audit.jsonl"  # under HOME


def _setup(cli: str, tmp_path: Path, url: str) -> tuple[list[str], dict[str, str], clis.Layout]:
    """The CLI's argv and environment, its MCP server entry running through the proxy."""
    layout = clis.Layout(tmp_path)
    layout.create()
    proj = layout.proj
    (proj / ".git").mkdir()
    (proj / "protected").mkdir()
    (proj / ".hookwise").mkdir()
    (proj / ".hookwise" / "policy.yaml").write_text(POLICY, encoding="utf-8")
    env = clis.environment(cli, layout, url)
    # hookwise's places under HOME, where they are without these variables: Codex starts a
    # stdio server with HOME, PATH, TMPDIR, TERM and LANG only (0.169, observed), so the
    # proxy finds the policy, trust store and audit log from HOME (AUDIT below)
    env |= {
        "XDG_CONFIG_HOME": str(layout.home / ".config"),
        "XDG_CACHE_HOME": str(layout.home / ".cache"),
        "XDG_STATE_HOME": str(layout.home / ".local" / "state"),
    }
    from hookwise.policy.trust.store import trust_file

    trust_file(str(proj / ".hookwise" / "policy.yaml"), env)
    assert FS is not None
    wrap = ["-m", "hookwise", "mcp", "wrap", "--name", "fs", "--", str(FS), str(proj)]
    server = {"command": sys.executable, "args": wrap}
    if cli == "claude":
        (layout.home / ".claude.json").write_text(
            json.dumps(
                {"hasCompletedOnboarding": True,
                 "projects": {str(proj): {"hasTrustDialogAccepted": True}}}
            ),
            encoding="utf-8",
        )  # fmt: skip
        (proj / ".claude").mkdir()
        (proj / ".claude" / "settings.json").write_text(
            json.dumps({"permissions": {"allow": ["mcp__fs"]}}), encoding="utf-8"
        )
        config = tmp_path / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {"fs": server}}), encoding="utf-8")
        argv = [str(clis.binary(cli)), "-p", clis.PROMPT, "--output-format", "json",
                "--mcp-config", str(config), "--strict-mcp-config"]  # fmt: skip
    elif cli == "gemini":
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "mcpServers": {"fs": {**server, "trust": True}},
        }
        (layout.home / ".gemini").mkdir()
        (layout.home / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
        argv = [str(clis.binary(cli)), "-p", clis.PROMPT, "--yolo", "-o", "json",
                "-m", "gemini-2.5-flash"]  # fmt: skip
    else:
        codex_home = layout.home / ".codex"
        codex_home.mkdir()
        # required: Codex waits for the server before the first model request; an optional
        # one has mcp_optional_startup_grace_ms (1 s) and is left out of the first request's
        # tools when it starts later, as a proxy on a loaded machine does (docs/mcp.md)
        entry = (
            f"\n[mcp_servers.fs]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps(wrap)}\nrequired = true\nstartup_timeout_sec = 60\n"
        )
        (codex_home / "config.toml").write_text(
            clis.codex_config(url, proj) + entry, encoding="utf-8"
        )
        argv = [str(clis.binary(cli)), "exec", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", "--json", clis.PROMPT]  # fmt: skip
    return argv, env, layout


# how each CLI offers the model the server's write_file, and so how the model calls it:
# (Responses namespace, name). Codex 0.169 offers an MCP server's tools as members of the
# namespace tool `mcp__<server>` and runs only a call naming both (`mcp__fs__write_file`
# alone is "unsupported call"; docs/mcp.md, "Codex").
TOOLS = {
    "claude": ("", "mcp__fs__write_file"),
    "gemini": ("", "mcp_fs_write_file"),
    "codex": ("mcp__fs", "write_file"),
}


@pytest.mark.skipif(
    FS is None, reason="the filesystem MCP server is not installed (make e2e-install)"
)
@pytest.mark.parametrize("cli", sorted(TOOLS))
def test_a_real_cli_through_the_proxy(cli: str, tmp_path: Path) -> None:
    problem = clis.install_problem(cli)
    if problem:
        pytest.skip(problem)
    with FakeModel() as fake:
        argv, env, layout = _setup(cli, tmp_path, fake.url)
        proj = layout.proj
        namespace, tool = TOOLS[cli]
        fake.script = Script(
            [
                namespaced(namespace, tool, {"path": str(proj / "protected" / "x.txt"), "content": "pwned"}),
                namespaced(namespace, tool, {"path": str(proj / "out.txt"), "content": "written"}),
            ]
        )  # fmt: skip
        stdout, stderr, code, timed_out = run_bounded(argv, proj, env, 150.0)
        # every request body, not only those the fake model counts as model calls
        results = [text for r in fake.requests for text in tool_results(r["body"])]
        first = fake.requests[0]["body"] if fake.requests else {}
    offered = [t.get("name") for t in first.get("tools") or [] if isinstance(t, dict)]
    diagnostics = (
        f"exit {code}, timed out {timed_out}\nresults: {results}\n"
        f"tools of the first request: {offered}\n"
        f"stderr: {stderr.decode(errors='replace')[-3000:]}\n"
        f"stdout: {stdout.decode(errors='replace')[-2000:]}"
    )
    assert not (proj / "protected" / "x.txt").exists(), diagnostics
    assert any(DENY_TOKEN in r for r in results), diagnostics
    assert (proj / "out.txt").read_text(encoding="utf-8") == "written", diagnostics
    log = layout.home / AUDIT
    audit = [json.loads(x) for x in log.read_text("utf-8").split("\n") if x]
    decisions = [(r["host_tool"], r["decision"]) for r in audit if r.get("event") == "tool.before"]
    assert decisions == [("mcp__fs__write_file", "deny"), ("mcp__fs__write_file", "none")]
