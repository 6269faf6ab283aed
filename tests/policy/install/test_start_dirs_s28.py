"""Red team s28 F5-F8: MCP entries and hooks a host runs because of where it is started,
which install, doctor and scan did not read. What the real hosts do is recorded in
tests/e2e/fixtures/start-dirs.json (tests/e2e/test_start_dirs_live.py); hookwise is held to
that record here, each finding performed against install, doctor and scan."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.config.codex.mcp_layers import mcp_layers, merged_server
from hookwise.policy.install.doctor import diagnose
from hookwise.policy.install.mcp_entries import mcp_checks
from hookwise.policy.install.plan import plan_install, write_plan
from hookwise.protocol.hosts import mcp_files_above, project_settings_at_start
from hookwise.scan.report import scan_project
from tests.e2e.start_dirs import claude_above, codex_args_only
from tests.policy.install.test_install_mcp_s25 import FAKE_SERVER, user
from tests.scan.support import context

__all__ = ["user"]  # (the fixture, shared)

RECORD = json.loads(
    (Path(__file__).parents[2] / "e2e" / "fixtures" / "start-dirs.json").read_text("utf-8")
)
LIVE, SESSIONS = RECORD["live"]["cases"], RECORD["sessions"]
SERVER = {"command": sys.executable, "args": [str(FAKE_SERVER), "echo"]}


def _invoke(*args: str, code: int = 0) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == code, result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def _json_servers(path: Path, **servers: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}, indent=2) + "\n", encoding="utf-8")


def _toml_server(path: Path, name: str = "fs") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[mcp_servers.{name}]\ncommand = {json.dumps(SERVER['command'])}\n"
                    f"args = {json.dumps(SERVER['args'])}\n", encoding="utf-8")  # fmt: skip


def _repository(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True, exist_ok=True)
    (proj / ".hookwise").mkdir()
    return proj


def _warned(checks: list[tuple[str, str]], *words: str) -> bool:
    return any(s == "warn" and all(w in t for w in words) for s, t in checks)


# --------------------------------------------------------------------------- F5


def test_f5_the_record_says_hosts_run_a_subdirectory_s_own_entries() -> None:
    assert LIVE["claude-subdir"] == {"fs": "python3 srv.py"}  # pkg's, not the root's wrapped
    assert LIVE["codex-subdir"] == {"command": "python3", "args": ["srv.py"]}
    assert SESSIONS["gemini_root_servers_listed_in"]["proj/pkg"] == 0


def test_f5_a_subdirectory_s_entries_are_reported_and_wrapped(
    user: dict[str, str], tmp_path: Path
) -> None:
    proj = _repository(tmp_path)
    _json_servers(proj / ".mcp.json", fs=SERVER)
    _json_servers(proj / ".gemini" / "settings.json", fs=SERVER)
    _toml_server(proj / ".codex" / "config.toml")
    for host in ("claude", "gemini", "codex"):
        _invoke("install", host, "--mcp", "--project", str(proj))
    pkg = proj / "packages" / "app"
    files = {
        "claude": pkg / ".mcp.json",
        "gemini": pkg / ".gemini" / "settings.json",
        "codex": pkg / ".codex" / "config.toml",
    }
    _json_servers(files["claude"], fs=SERVER)
    _json_servers(files["gemini"], fs=SERVER)
    _toml_server(files["codex"])
    for host, path in files.items():
        checks = mcp_checks(host, proj, user)
        assert _warned(checks, "'fs'", str(path)), (host, checks)
    found = scan_project(context(pkg, Path(user["HOME"]))).findings
    unguarded = {f.file for f in found if f.rule == "mcp-unguarded"}
    assert set(map(str, files.values())) <= unguarded, found
    for host, path in files.items():
        done = _invoke("install", host, "--mcp", "--project", str(proj))
        assert {"server": "fs", "file": str(path), "action": "wrapped"}.items() <= next(
            c for c in done["servers"] if c["file"] == str(path)
        ).items(), done
        assert not _warned(mcp_checks(host, proj, user), str(path))


def test_f5_where_the_walk_did_not_look_is_said(user: dict[str, str], tmp_path: Path) -> None:
    proj = _repository(tmp_path)
    _json_servers(proj / "node_modules" / "pkg" / ".mcp.json", fs=SERVER)
    checks = mcp_checks("claude", proj, user)
    assert any(s == "info" and "node_modules" in t for s, t in checks), checks
    done = _invoke("install", "claude", "--mcp", "--project", str(proj), "--dry-run")
    assert "node_modules" in done["not_looked"], done


# --------------------------------------------------------------------------- F6


def test_f6_a_project_install_is_not_registered_in_a_subdirectory(tmp_path: Path) -> None:
    assert SESSIONS["project_hook_runs_when_started_in"]["proj/pkg"] is False
    for host in ("claude", "gemini"):
        assert project_settings_at_start(host), host
    proj = _repository(tmp_path)
    (proj / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - id: no-rm\n    match: {command: rm -rf}\n    action: deny\n"
    )
    pkg = proj / "pkg"
    pkg.mkdir()
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".state"),
           "XDG_DATA_HOME": str(home / ".share"), "PATH": "/usr/bin:/bin",
           "GEMINI_CLI_TRUST_WORKSPACE": "true"}  # fmt: skip
    for host in ("claude", "gemini"):
        plan = plan_install(host, "project", proj, env)
        assert any("subdirectories" in n and "--scope user" in n for n in plan.notes), plan.notes
        write_plan(plan)
        root = diagnose(proj, env, hosts=(host,), explicit=True, run_self_test=False)
        assert any(c.status == "ok" and c.name == "registered" for c in root.hosts[0].checks)
        here = diagnose(proj, env, hosts=(host,), explicit=True, run_self_test=False, start=pkg)
        checks = here.hosts[0].checks
        assert not any(c.status == "ok" and c.name == "registered" for c in checks), checks
        assert any(
            c.status == "fail" and "not registered here" in c.detail and str(pkg) in c.detail
            for c in checks
        ), checks


def test_f6_doctor_run_in_a_subdirectory_checks_it(tmp_path: Path, monkeypatch: Any) -> None:
    """The command itself: with no --project, the hosts are checked as started in the cwd."""
    proj = _repository(tmp_path)
    (proj / ".hookwise" / "policy.yaml").write_text("version: 1\nrules: []\n")
    pkg = proj / "pkg"
    pkg.mkdir()
    home = tmp_path / "home"
    for key, value in {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                       "XDG_CACHE_HOME": str(home / ".cache"),
                       "XDG_STATE_HOME": str(home / ".state"),
                       "XDG_DATA_HOME": str(home / ".share")}.items():  # fmt: skip
        monkeypatch.setenv(key, value)
    write_plan(plan_install("claude", "project", proj, dict(__import__("os").environ)))
    monkeypatch.chdir(pkg)
    result = CliRunner().invoke(cli, ["doctor", "--host", "claude", "--no-self-test"])
    assert "not registered here" in result.output, result.output
    assert "ok    registered" not in result.output.replace("✓", "ok"), result.output


# --------------------------------------------------------------------------- F7


def test_f7_a_mcp_json_above_the_project_is_reported_and_not_claimed(
    user: dict[str, str], tmp_path: Path
) -> None:
    assert LIVE["claude-above"] == {"above": "python3 srv.py"}
    assert mcp_files_above("claude") == ((".mcp.json", "mcpServers"),)
    _home, proj = claude_above(tmp_path / "c")
    above = proj.parent / ".mcp.json"
    checks = mcp_checks("claude", proj, user)
    assert _warned(checks, "'above'", str(above)), checks
    found = scan_project(context(proj, Path(user["HOME"]))).findings
    hits = [f for f in found if f.rule == "mcp-unguarded" and f.file == str(above)]
    assert hits and hits[0].severity.value == "high", found
    done = _invoke("install", "claude", "--mcp", "--project", str(proj), code=1)
    assert any(c["server"] == "above" and c["action"] == "skipped" for c in done["servers"]), done
    assert [c["server"] for c in done["left_unwrapped"]] == ["above"], done
    assert "python3" in above.read_text()  # never written


# --------------------------------------------------------------------------- F8


def test_f8_hookwise_merges_codex_s_layers_as_the_record_says(tmp_path: Path) -> None:
    codex_home, cwd = codex_args_only(tmp_path)
    user_layer, profiles, projects = mcp_layers(codex_home, cwd)
    chain = [x for x in (user_layer, *profiles, *projects) if x is not None]
    merged, _ = merged_server("fs", chain)
    assert merged is not None
    assert {"command": merged["command"], "args": merged["args"]} == LIVE["codex-args-only"]


def test_f8_a_project_layer_setting_only_args_unwraps_the_user_s_server(
    user: dict[str, str], tmp_path: Path
) -> None:
    proj = _repository(tmp_path)
    home = Path(user["CODEX_HOME"])
    _toml_server(home / "config.toml")
    _invoke("install", "codex", "--mcp", "--scope", "user")
    with (home / "config.toml").open("a") as handle:
        handle.write(f'\n[projects."{proj}"]\ntrust_level = "trusted"\n')
    assert [s for s, _ in mcp_checks("codex", proj, user) if s != "info"] == ["ok"]
    layer = proj / ".codex" / "config.toml"
    layer.parent.mkdir()
    layer.write_text('[mcp_servers.fs]\nargs = ["srv.py"]\n')
    checks = mcp_checks("codex", proj, user)
    assert _warned(checks, "'fs'", "not behind the proxy", str(layer)), checks
    assert not any(s == "ok" for s, _ in checks), checks
    found = scan_project(context(proj, Path(user["HOME"]))).findings
    assert any(f.rule == "mcp-unguarded" and f.file == str(layer) for f in found), found
    done = _invoke("install", "codex", "--mcp", "--project", str(proj), code=1)
    assert any(c["action"] == "skipped" and "without a command" in c["detail"]
               for c in done["servers"]), done  # fmt: skip


def test_f6_codex_started_in_a_subdirectory_reads_the_root_s_layer(tmp_path: Path) -> None:
    """Codex reads every .codex/ from the repository root down: there the root's
    registration is one, and doctor in a subdirectory says so (with its scope)."""
    assert not project_settings_at_start("codex")
    proj = _repository(tmp_path)
    (proj / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - id: no-rm\n    match: {command: rm -rf}\n    action: deny\n"
    )
    pkg = proj / "pkg"
    pkg.mkdir()
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text(f'[projects."{proj}"]\ntrust_level = "trusted"\n')
    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex"),
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_STATE_HOME": str(home / ".state"), "XDG_DATA_HOME": str(home / ".share"),
           "PATH": "/usr/bin:/bin"}  # fmt: skip
    plan = plan_install("codex", "project", proj, env)
    assert not any("subdirectories" in n for n in plan.notes), plan.notes
    write_plan(plan)
    here = diagnose(proj, env, hosts=("codex",), explicit=True, run_self_test=False, start=pkg)
    checks = here.hosts[0].checks
    assert any(c.status == "ok" and c.name == "registered" and "(project)" in c.detail
               for c in checks), checks  # fmt: skip
    assert not any("not registered here" in c.detail for c in checks), checks
