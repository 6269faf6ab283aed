"""Session 35, issue 28 finding 4: Claude Code keeps the user's MCP servers in
``~/.claude.json`` ``mcpServers`` and the local ones (``claude mcp add``'s default scope)
in ``projects["<abs path>"].mcpServers`` there. ``install claude --mcp --scope user`` wraps
both; uninstall restores the exact bytes of the entries it changed while keeping what the
host wrote meanwhile; doctor reports the unwrapped ones; a wrapped entry started as the host
starts it refuses what the user's policy refuses."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.policy.install.mcp_entries import mcp_checks
from tests.policy.install.test_install_mcp_s25 import FAKE_SERVER, _start_as_host, user

__all__ = ["user"]  # (the fixture, shared)


def _server(mark: str) -> dict[str, Any]:
    return {"type": "stdio", "command": sys.executable, "args": [str(FAKE_SERVER), "echo"],
            "env": {"MARK": mark}}  # fmt: skip


def _claude_json(project: Path) -> dict[str, Any]:
    """~/.claude.json as Claude Code writes it (JSON.stringify(value, null, 2)): the user's
    servers, this project's and another project's local ones, and everything else."""
    return {
        "numStartups": 12,
        "installMethod": "npm-global",
        "tipsHistory": {"new-user-warmup": 3},
        "mcpServers": {"fs": _server("user"), "remote": {"type": "http", "url": "https://x"}},
        "projects": {
            str(project): {"allowedTools": [], "mcpServers": {"fs": _server("local")},
                           "hasTrustDialogAccepted": True, "lastCost": 0.0125},
            "/srv/other": {"mcpServers": {"db": _server("other")}, "history": ["é ✓"]},
            "/srv/none": {"allowedTools": ["Bash(ls:*)"]},
        },
        "oauthAccount": {"emailAddress": "dev@example.com"},
    }  # fmt: skip


def _write(path: Path, value: Any) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    path.write_text(text, "utf-8")
    return text


def _run(project: Path, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        cli, [*extra, "claude", "--mcp", "--scope", "user", "--project", str(project), "--json"]
    )
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def test_user_and_local_servers_in_claude_json_are_wrapped_and_put_back_exactly(
    user: dict[str, str], tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    config = Path(user["HOME"]) / ".claude.json"
    original = _write(config, _claude_json(project))
    warned = " ".join(d for s, d in mcp_checks("claude", project, user) if s == "warn")
    assert "user MCP servers not run through `hookwise mcp wrap`" in warned, warned
    assert warned.count("'fs'") == 2 and "'db'" in warned, warned

    _run(project, "install")
    after = json.loads(config.read_text("utf-8"))
    entries = [
        after["mcpServers"]["fs"],
        after["projects"][str(project)]["mcpServers"]["fs"],
        after["projects"]["/srv/other"]["mcpServers"]["db"],
    ]
    for entry, name in zip(entries, ["fs", "fs", "db"], strict=True):
        args = entry["args"]
        assert args[args.index("wrap") :][:2] == ["wrap", "--pinned"], args
        assert args[args.index("--name") + 1] == name, args
        assert entry["args"][-3:] == [sys.executable, str(FAKE_SERVER), "echo"], entry
        assert entry["type"] == "stdio" and set(entry["env"]) == {"MARK"}
    expected = _claude_json(project)  # nothing else changed
    for table in (
        after["mcpServers"],
        *(p.get("mcpServers", {}) for p in after["projects"].values()),
    ):
        for entry in table.values():
            entry.pop("command", None), entry.pop("args", None)
    for table in (
        expected["mcpServers"],
        *(p.get("mcpServers", {}) for p in expected["projects"].values()),
    ):
        for entry in table.values():
            entry.pop("command", None), entry.pop("args", None)
    assert after == expected
    statuses = [s for s, d in mcp_checks("claude", project, user) if d.startswith("user ")]
    assert statuses == ["ok", "info"], mcp_checks("claude", project, user)  # fs x2, db; remote

    # the local entry, started as Claude Code starts it: the user's policy holds there
    local = json.loads(config.read_text("utf-8"))["projects"][str(project)]["mcpServers"]["fs"]
    answer = _start_as_host(local, user, project, "b")
    assert "S25-DENY tool b" in json.dumps(answer), answer

    # Claude Code rewrites the file as it runs: a count, a new project
    host = json.loads(config.read_text("utf-8"))
    host["numStartups"] = 13
    host["projects"]["/srv/new"] = {"allowedTools": []}
    _write(config, host)
    _run(project, "uninstall")
    restored = _claude_json(project)
    restored["numStartups"] = 13
    restored["projects"]["/srv/new"] = {"allowedTools": []}
    assert config.read_text("utf-8") == json.dumps(restored, indent=2, ensure_ascii=False)

    # with nothing changed by the host: install then uninstall leaves the very bytes
    original = _write(config, _claude_json(project))
    _run(project, "install")
    _run(project, "uninstall")
    assert config.read_text("utf-8") == original


def test_claude_config_dir_moves_claude_json(user: dict[str, str], tmp_path: Path,
                                             monkeypatch: Any) -> None:  # fmt: skip
    moved = tmp_path / "claude-config"
    moved.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved))
    user["CLAUDE_CONFIG_DIR"] = str(moved)
    project = tmp_path / "proj"
    stray = Path(user["HOME"]) / ".claude.json"  # not read when the directory moved
    stray_text = _write(stray, {"mcpServers": {"stray": _server("stray")}})
    _write(moved / ".claude.json", {"mcpServers": {"fs": _server("user")}})
    report = _run(project, "install")
    assert stray.read_text("utf-8") == stray_text
    assert (
        "wrap"
        in json.loads((moved / ".claude.json").read_text("utf-8"))["mcpServers"]["fs"]["args"]
    )
    assert [c["server"] for c in report["servers"] if c["action"] == "wrapped"] == ["fs"], report


def test_scan_reports_the_unwrapped_servers_of_claude_json_and_not_once_wrapped(
    user: dict[str, str], tmp_path: Path
) -> None:
    from dataclasses import replace

    from hookwise.scan.report import scan_project
    from tests.scan.support import context

    project = (tmp_path / "proj").resolve()
    home = Path(user["HOME"]).resolve()
    config = home / ".claude.json"
    _write(config, _claude_json(project))

    def unguarded() -> list[str]:
        report = scan_project(replace(context(project, home), env=user))  # the installer's
        return sorted(
            f.message
            for f in report.findings
            if f.rule == "mcp-unguarded" and "claude" in f.message
        )

    assert unguarded() == [
        "claude local MCP server 'fs' does not run through `hookwise mcp wrap`",
        "claude user MCP server 'fs' does not run through `hookwise mcp wrap`",
        "claude user remote MCP server 'remote' (https://x): the proxy cannot wrap it",
    ]
    _run(project, "install")
    assert unguarded() == [
        "claude user remote MCP server 'remote' (https://x): the proxy cannot wrap it"
    ]


# F6: OpenCode merges its settings files (user's, then the project's; a later file wins,
# objects merged member by member): recorded with OpenCode 1.18.33.
OPENCODE = json.loads(
    (Path(__file__).parents[2] / "e2e" / "fixtures" / "opencode-mcp-layers.json").read_text("utf-8")
)


def _opencode_files(case: str, project: Path, env: dict[str, str]) -> None:
    user_dir = Path(env["HOME"]) / ".config" / "opencode"
    for where, value in OPENCODE["cases"][case]["files"].items():
        scope, name = where.split(":", 1)
        path = (user_dir if scope == "user" else project) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), "utf-8")


def test_plugin_servers_merge_as_the_recorded_opencode_does(
    user: dict[str, str], tmp_path: Path
) -> None:
    from hookwise.config.opencode.mcp_layers import plugin_servers

    for case, recorded in OPENCODE["cases"].items():
        if "mcp" not in recorded:
            continue
        project = tmp_path / case
        project.mkdir()
        env = {**user, "HOME": str(tmp_path / f"home-{case}")}
        env.pop("XDG_CONFIG_HOME", None)
        _opencode_files(case, project, env)
        servers, problems = plugin_servers("opencode", project, env)
        assert problems == []
        assert {s.name: s.entry for s in servers} == recorded["mcp"], case


def test_opencode_doctor_names_each_server_once_from_the_file_it_runs(
    user: dict[str, str], tmp_path: Path
) -> None:
    from hookwise.mcp_proxy import entry_program
    from hookwise.mcp_proxy.config_env import pins_for

    project = tmp_path / "proj"
    _opencode_files("user-then-project-dot-opencode", project, user)
    checks = mcp_checks("opencode", project, user)
    text = "\n".join(d for _s, d in checks)
    assert [s for s, _d in checks] == ["warn", "info"], checks
    assert text.count("'fs'") == 1 and f"'fs' ({project / '.opencode' / 'opencode.json'})" in text
    assert "'onlyuser'" in text and "'remote'" in text, text

    # the project's entry wrapped by hand, as install writes a proxy: behind it, once
    dot = project / ".opencode" / "opencode.json"
    value = json.loads(dot.read_text("utf-8"))
    program = [*entry_program(user), "mcp", "wrap", *pins_for(user), "--name", "fs", "--"]
    value["mcp"]["fs"]["command"] = [*program, "npx", "dotopencode"]
    dot.write_text(json.dumps(value), "utf-8")
    checks = mcp_checks("opencode", project, user)
    assert ("ok", f"MCP servers behind the proxy: 'fs' ({dot})") in checks, checks
    assert "'fs'" not in " ".join(d for s, d in checks if s == "warn"), checks


# F5: Codex 0.169.0 starts no server under a legacy [profiles.NAME] table of config.toml
# (recorded: tests/e2e/fixtures/codex-legacy-profiles.json); profile files are its profiles.
CODEX_LEGACY = json.loads(
    (Path(__file__).parents[2] / "e2e" / "fixtures" / "codex-legacy-profiles.json").read_text(
        "utf-8"
    )
)


def test_codex_legacy_profile_servers_are_named_as_never_started(
    user: dict[str, str], tmp_path: Path
) -> None:
    codex_home = Path(user["CODEX_HOME"])
    codex_home.mkdir(parents=True)
    (codex_home / "config.toml").write_text(CODEX_LEGACY["config.toml"], "utf-8")
    project = tmp_path / "proj"
    assert CODEX_LEGACY["runs"]["codex mcp list --json"] == {"servers": ["top"]}
    warned = [d for s, d in mcp_checks("codex", project, user) if s == "warn"]
    never = [d for d in warned if "never start" in d]
    assert len(never) == 1 and "'prof'" in never[0], warned
    assert str(codex_home / "p.config.toml") in never[0], never
    assert any("'top'" in d and "not run through" in d for d in warned), warned
    # install wraps what Codex starts; the legacy table is left as it is
    before = (codex_home / "config.toml").read_text("utf-8")
    result = CliRunner().invoke(
        cli, ["install", "codex", "--mcp", "--scope", "user", "--project", str(project)]
    )
    assert result.exit_code == 0, result.output
    after = (codex_home / "config.toml").read_text("utf-8")
    assert after != before and after.endswith(before[before.index("[profiles.p]") :])
    statuses = [s for s, d in mcp_checks("codex", project, user) if "'top'" in d]
    assert statuses == ["ok"], mcp_checks("codex", project, user)


# F6: a server whose settings key holds characters hosts change in a tool's name
# (non-ASCII, "."): the proxy is named as Claude Code names it (b_cher_de); a rule naming
# the server as its settings do (bücher.de) holds through the proxy too.
def test_a_rule_naming_a_non_ascii_server_as_configured_holds_through_the_proxy(
    user: dict[str, str], tmp_path: Path
) -> None:
    policy = Path(user["HOME"]) / ".config" / "hookwise" / "policy.yaml"
    policy.write_text(
        policy.read_text("utf-8")
        + '  - {id: no-books, match: {mcp: {server: "bücher.de"}}, action: deny,\n'
        + '     reason: "S35-DENY books"}\n',
        "utf-8",
    )
    config = Path(user["HOME"]) / ".copilot" / "mcp-config.json"
    config.parent.mkdir(parents=True)
    servers = {"bücher.de": _server("books"), "plain": _server("plain")}
    for entry in servers.values():
        entry["type"] = "local"
    config.write_text(json.dumps({"mcpServers": servers}, ensure_ascii=False), "utf-8")
    project = tmp_path / "proj"
    result = CliRunner().invoke(
        cli, ["install", "copilot", "--mcp", "--scope", "user", "--project", str(project)]
    )
    assert result.exit_code == 0, result.output
    wrapped = json.loads(config.read_text("utf-8"))["mcpServers"]
    books = wrapped["bücher.de"]
    assert books["args"][books["args"].index("--name") + 1] == "b_cher_de"
    denied = json.dumps(_start_as_host(books, user, project, "read"))
    assert "S35-DENY books" in denied, denied
    allowed = _start_as_host(wrapped["plain"], user, project, "read")  # friction
    assert "isError" not in allowed.get("result", {}) and "error" not in allowed, allowed


# report F8: a settings file with CRLF line ends (and a BOM) comes back byte for byte
def test_crlf_and_bom_survive_install_and_uninstall(user: dict[str, str], tmp_path: Path) -> None:
    project = tmp_path / "proj"
    mcp = project / ".mcp.json"
    text = json.dumps({"mcpServers": {"fs": _server("x"), "other": _server("y")}}, indent=2)
    original = ("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8")
    mcp.write_bytes(original)
    result = CliRunner().invoke(cli, ["install", "claude", "--mcp", "--project", str(project)])
    assert result.exit_code == 0, result.output
    wrapped = mcp.read_bytes()
    assert wrapped != original and wrapped.startswith(b"\xef\xbb\xbf{\r\n")
    assert b"\n" not in wrapped.replace(b"\r\n", b"")  # no line end made LF
    result = CliRunner().invoke(cli, ["uninstall", "claude", "--mcp", "--project", str(project)])
    assert result.exit_code == 0, result.output
    assert mcp.read_bytes() == original


# report F7: a local-scope entry (``claude mcp add fs``, the default scope) replaces the
# project's wrapped ``fs``: doctor no longer calls that one guarded
def test_doctor_does_not_call_a_shadowed_project_server_guarded(
    user: dict[str, str], tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"fs": _server("p")}}), "utf-8")
    result = CliRunner().invoke(cli, ["install", "claude", "--mcp", "--project", str(project)])
    assert result.exit_code == 0, result.output
    ok = [d for s, d in mcp_checks("claude", project, user) if s == "ok"]
    assert any(d.startswith("project MCP servers behind the proxy: 'fs'") for d in ok), ok
    config = Path(user["HOME"]) / ".claude.json"
    _write(config, {"projects": {str(project): {"mcpServers": {"fs": _server("local")}}}})
    checks = mcp_checks("claude", project, user)
    assert not [d for s, d in checks if s == "ok" and "'fs'" in d], checks
    warned = [d for s, d in checks if s == "warn"]
    assert any("is wrapped, but a setting replaces it" in d and "'fs'" in d for d in warned)
    # friction: a local entry of another name, or the same name wrapped, shadows nothing
    _run(project, "install")
    ok = [d for s, d in mcp_checks("claude", project, user) if s == "ok"]
    assert any(d.startswith("project MCP servers behind the proxy: 'fs'") for d in ok), ok
