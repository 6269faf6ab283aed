"""Session 29 (issue 28's open items): ``install --mcp --json`` fails as the text mode does
when a stdio server is left outside the proxy, and names each one, its file and why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.policy.install.mcp_entries import mcp_checks
from tests.policy.install.test_install_mcp_s25 import FAKE_SERVER, _start_as_host, user

__all__ = ["user"]  # (the fixture, shared)


def _run(project: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    """``hookwise install claude --mcp`` as a process of its own: its real exit status."""
    argv = [sys.executable, "-m", "hookwise", "install", "claude", "--mcp", *extra]
    return subprocess.run(
        [*argv, "--project", str(project)], env={**os.environ, **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_json_install_with_a_skipped_server_exits_1_and_names_it(
    user: dict[str, str], tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    servers = {
        "loads": {"command": "npx", "args": ["srv"], "env": {"LD_PRELOAD": "./x.so"}},
        "remote": {"command": "npx", "args": ["srv"], "url": "http://127.0.0.1:9/mcp"},
        "fine": {"command": "npx", "args": ["srv"]},
    }
    settings = project / ".mcp.json"
    settings.write_text(json.dumps({"mcpServers": servers}), "utf-8")

    done = _run(project, user, "--json")
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    report = json.loads(done.stdout)
    left = {c["server"]: c for c in report["left_unwrapped"]}
    assert sorted(left) == ["loads", "remote"], report
    assert all(c["file"] == str(settings) for c in left.values()), report
    assert "LD_PRELOAD" in left["loads"]["why"] and "URL" in left["remote"]["why"], report
    wrapped = json.loads(settings.read_text("utf-8"))["mcpServers"]
    assert "mcp" in wrapped["fine"]["args"] and wrapped["loads"] == servers["loads"]

    text = _run(project, user)  # the text mode: the same status
    assert text.returncode == 1 and "left unwrapped: loads, remote" in text.stderr, text.stderr
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / ".mcp.json").write_text(json.dumps({"mcpServers": {"fine": servers["fine"]}}))
    ok = _run(clean, user, "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["left_unwrapped"] == [], ok.stdout


# Item 2: Gemini CLI's system files (system defaults, system settings) start servers in every
# session of every user: Gemini CLI 0.61.0 lists their servers (tests/e2e/fixtures/
# gemini-system-mcp.json, recorded by tests/e2e/test_gemini_system_mcp_live.py).
RECORD = json.loads(
    (Path(__file__).parents[2] / "e2e" / "fixtures" / "gemini-system-mcp.json").read_text("utf-8")
)


def _system_files(
    user: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path, dict[str, str]]:
    system = tmp_path / "etc" / "gemini-cli"
    system.mkdir(parents=True)
    settings, defaults = system / "settings.json", system / "system-defaults.json"
    for path, name in ((settings, "fs"), (defaults, "deffs")):
        server = {"command": sys.executable, "args": [str(FAKE_SERVER), "echo"]}
        path.write_text(json.dumps({"mcpServers": {name: server}}, indent=2) + "\n", "utf-8")
    env = {**user, "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(settings)}
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(settings))
    return settings, defaults, env


def _gemini(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["install", "gemini", "--mcp", "--json", *args])
    return result.exit_code, json.loads(result.output)


def test_the_host_starts_the_system_files_servers_as_recorded() -> None:
    """What the install and doctor tests below rest on, from the real CLI."""
    listed = RECORD["cases"]
    assert listed["system-files"] == ["deffs", "sysfs"], listed
    assert listed["system-over-user"]["sysfs"] == "system", listed


def test_gemini_system_servers_are_reported_and_wrapped_where_hookwise_may_write(
    user: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, defaults, env = _system_files(user, tmp_path, monkeypatch)
    before = {p: p.read_text("utf-8") for p in (settings, defaults)}
    project = tmp_path / "proj"
    checks = mcp_checks("gemini", project, env)
    warned = [t for s, t in checks if s == "warn"]
    for path, name in ((settings, "fs"), (defaults, "deffs")):
        assert sum(f"'{name}' ({path})" in t for t in warned) == 1, checks  # once, not per scope

    code, done = _gemini("--project", str(project))  # project scope: reported, not written
    assert code == 1, done
    left = {(c["server"], c["file"]) for c in done["left_unwrapped"]}
    assert left == {("fs", str(settings)), ("deffs", str(defaults))}, done
    assert all("every user" in c["why"] for c in done["left_unwrapped"]), done
    assert {p: p.read_text("utf-8") for p in before} == before

    code, done = _gemini("--scope", "user")  # this user may write them: wrapped
    assert code == 0, done
    wrapped = {(c["server"], c["file"]) for c in done["servers"] if c["action"] == "wrapped"}
    assert wrapped == left, done
    assert [s for s, _ in mcp_checks("gemini", project, env) if s == "warn"] == []
    entry = json.loads(settings.read_text("utf-8"))["mcpServers"]["fs"]
    answer = _start_as_host(entry, env, project, "b")  # started as the host starts it
    assert answer["result"]["isError"] and "S25-DENY tool b" in json.dumps(answer), answer

    result = CliRunner().invoke(cli, ["uninstall", "gemini", "--mcp", "--scope", "user"])
    assert result.exit_code == 0, result.output
    assert {p: p.read_text("utf-8") for p in before} == before


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
def test_a_system_file_this_user_may_not_write_is_skipped_saying_why(
    user: dict[str, str], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files root owns (Gemini CLI loads no other): a user's install says it cannot."""
    base = Path(tempfile.mkdtemp(prefix="hookwise-s29-"))  # (pytest's tree is root's only)
    request.addfinalizer(lambda: shutil.rmtree(base, ignore_errors=True))
    base.chmod(0o755)
    shutil.copytree(Path(user["HOME"]), base / "home")
    for path in [base / "home", *(base / "home").rglob("*")]:
        os.chown(path, 65534, 65534)
    settings, _, _ = _system_files(user, base, monkeypatch)
    env = {**user, "HOME": str(base / "home"), "XDG_STATE_HOME": str(base / "home" / ".state"),
           "CODEX_HOME": str(base / "home" / ".codex"),
           "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(settings)}  # fmt: skip
    argv = [sys.executable, "-m", "hookwise", "install", "gemini", "--mcp", "--scope", "user",
            "--json"]  # fmt: skip
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv],
        env={**os.environ, **env}, cwd=base, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1, (done.stdout, done.stderr)
    left = json.loads(done.stdout)["left_unwrapped"]
    assert {c["server"] for c in left} == {"fs", "deffs"}, left
    assert all("may not write it" in c["why"] and "uid 0" in c["why"] for c in left), left
    assert json.loads(settings.read_text("utf-8"))["mcpServers"]["fs"]["command"] == (
        sys.executable
    )
