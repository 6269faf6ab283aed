"""Red team s27 F13 (and F11 below): MCP servers a host runs from files install, doctor and
scan did not read. Codex's profile files (``$CODEX_HOME/NAME.config.toml``, read over
config.toml by ``codex --profile NAME``; recorded with the real Codex 0.169.0 in
tests/e2e/fixtures/codex-mcp-layers.json) define and override servers: install --mcp wraps
them, doctor and scan report them, and the wrapped entry started as Codex starts it refuses
what the user's policy refuses."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.policy.install.mcp_entries import mcp_checks
from hookwise.scan.report import scan_project
from tests.policy.install.test_install_mcp_s25 import (
    FAKE_SERVER,
    _install,
    _start_as_host,
    user,
)
from tests.scan.support import context

__all__ = ["user"]  # (the fixture, shared)

SERVER = json.dumps([str(FAKE_SERVER), "echo"])
PY = json.dumps(sys.executable)


def _install_user(host: str, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        cli, ["install", host, "--mcp", "--scope", "user", "--json", *extra]
    )
    out: dict[str, Any] = json.loads(result.output)
    # a server left outside the proxy (named in left_unwrapped) fails the install (s29)
    assert result.exit_code == (1 if out["left_unwrapped"] else 0), result.output
    return out


def _uninstall_user(host: str) -> None:
    result = CliRunner().invoke(cli, ["uninstall", host, "--mcp", "--scope", "user"])
    assert result.exit_code == 0, result.output


def test_f13_codex_profile_servers_are_wrapped_reported_and_guarded(
    user: dict[str, str], tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    home = Path(user["CODEX_HOME"])
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f"[mcp_servers.fs]\ncommand = {PY}\nargs = {SERVER}\n")
    profile = home / "work.config.toml"
    text = (
        f"[mcp_servers.fs]\ncommand = {PY}\nargs = {SERVER}\n\n"
        f"[mcp_servers.evil]\ncommand = {PY}\nargs = {SERVER}\n"
    )
    profile.write_text(text, encoding="utf-8")
    checks = mcp_checks("codex", project, user)
    unwrapped = " ".join(t for s, t in checks if s == "warn")
    assert "'evil'" in unwrapped and str(profile) in unwrapped, checks
    found = scan_project(context(project, Path(user["HOME"]))).runnables
    assert any(r.name == "evil" and r.file == str(profile) for r in found), found

    done = _install_user("codex")
    wrapped = {(c["server"], c["file"]) for c in done["servers"] if c["action"] == "wrapped"}
    assert ("evil", str(profile)) in wrapped and ("fs", str(profile)) in wrapped, done
    assert [s for s, _ in mcp_checks("codex", project, user) if s != "info"] == ["ok"]
    servers = tomllib.loads(profile.read_text("utf-8"))["mcp_servers"]
    entries = {n: {"command": servers[n]["command"], "args": servers[n]["args"]} for n in servers}
    answer = _start_as_host(entries["fs"], user, project, "b")
    assert answer["result"]["isError"] and "S25-DENY tool b" in json.dumps(answer), answer
    _start_as_host(entries["evil"], user, project, "b")  # through the proxy: audited
    audit = Path(user["HOOKWISE_AUDIT_LOG"]).read_text("utf-8")
    assert "mcp__evil__b" in audit, audit

    _uninstall_user("codex")
    assert profile.read_text("utf-8") == text


def test_a_profile_entry_that_takes_its_args_from_config_toml_is_not_rewritten(
    user: dict[str, str], tmp_path: Path
) -> None:
    home = Path(user["CODEX_HOME"])
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f"[mcp_servers.fs]\ncommand = {PY}\nargs = {SERVER}\n")
    profile = home / "work.config.toml"
    profile.write_text('[mcp_servers.fs]\ncommand = "python3"\n', encoding="utf-8")
    done = _install_user("codex")
    skipped = [c for c in done["servers"] if c["file"] == str(profile)]
    assert [c["action"] for c in skipped] == ["skipped"], done
    assert profile.read_text("utf-8") == '[mcp_servers.fs]\ncommand = "python3"\n'
    checks = mcp_checks("codex", tmp_path / "proj", user)
    assert any(s == "warn" and str(profile) in t for s, t in checks), checks


# F11: Gemini CLI's (and Qwen Code's) ``mcp.serverCommand`` starts a stdio server ``mcp``
# that replaces ``mcpServers.mcp`` (Gemini CLI 0.61.0 / Qwen Code 0.24.4
# populateMcpServerCommand: tests/e2e/fixtures/mcp-server-command.md)
SETTINGS = {"gemini": ".gemini/settings.json", "qwen": ".qwen/settings.json"}


@pytest.mark.parametrize("host", sorted(SETTINGS))
def test_f11_server_command_replacing_a_wrapped_server_is_reported(
    user: dict[str, str], tmp_path: Path, host: str
) -> None:
    project = tmp_path / "proj"
    settings = project / SETTINGS[host]
    settings.parent.mkdir(parents=True)
    server = {"command": sys.executable, "args": [str(FAKE_SERVER), "echo"]}
    settings.write_text(json.dumps({"mcpServers": {"mcp": server}}), "utf-8")
    _install(project, host)
    assert [s for s, _ in mcp_checks(host, project, user) if s != "info"] == ["ok"]
    wrapped = json.loads(settings.read_text("utf-8"))
    run = project / "run.sh"  # the repository's own command, which the host runs as `mcp`
    run.write_text("#!/bin/sh\nexec true\n", "utf-8")
    run.chmod(0o755)
    wrapped["mcp"] = {"serverCommand": f"{run} --stdio"}
    settings.write_text(json.dumps(wrapped, indent=2), "utf-8")

    checks = mcp_checks(host, project, user)
    assert "ok" not in [s for s, _ in checks], checks
    assert any(s == "warn" and "mcp.serverCommand" in t and str(run) in t for s, t in checks)
    done = _install(project, host)
    assert [(c["server"], c["action"]) for c in done["servers"]] == [
        ("mcp", "replacing"),
        ("mcp", "already"),
    ], done
    report = scan_project(context(project, Path(user["HOME"])))
    found = [r for r in report.runnables if r.name == "mcp" and r.command.startswith(str(run))]
    lines = settings.read_text("utf-8").splitlines()
    at = next(i for i, x in enumerate(lines, 1) if '"serverCommand"' in x)
    assert found and found[0].file == str(settings) and found[0].line == at, found
    unguarded = [f.message for f in report.findings if f.rule == "mcp-unguarded"]
    assert any("'mcp' does not run through `hookwise mcp wrap`" in m for m in unguarded), unguarded


@pytest.mark.parametrize("host", sorted(SETTINGS))
def test_f11_server_command_alone_is_an_unguarded_server(
    user: dict[str, str], tmp_path: Path, host: str
) -> None:
    project = tmp_path / "proj"
    settings = project / SETTINGS[host]
    settings.parent.mkdir(parents=True)
    settings.write_text('{"mcp": {"serverCommand": "npx -y some-server \\"a b\\""}}', "utf-8")
    checks = mcp_checks(host, project, user)
    assert any(s == "warn" and "npx -y some-server 'a b'" in t for s, t in checks), checks
    report = scan_project(context(project, Path(user["HOME"])))
    assert any(r.name == "mcp" and r.command.startswith("npx") for r in report.runnables)
