"""Codex MCP tools in the native export: an ``mcp:`` deny of a literal tool is a
``disabled_tools`` entry of the server in ``config.toml`` (Codex 0.169.0 takes the tool away:
tests/e2e/fixtures/codex-mcp-tools.jsonl), written by ``install --native`` into the server
entries the file has, whatever their TOML form, and taken out to the byte by uninstall."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hookwise.policy.export.build import export_policy
from tests.policy.conftest import compile_text
from tests.policy.install.test_native import _doctor, _env, _install, _uninstall

POLICY = """\
version: 1
rules:
  - id: no-fs-write
    match: {mcp: {server: fs, tool: [write_file, delete_file]}}
    action: deny
  - id: no-touch
    match: {command: touch}
    action: deny
"""


def _coverage(text: str) -> dict[str, tuple[str, list[str]]]:
    export = export_policy(compile_text(text, scope="user"), "codex")
    return {c.rule: (c.status, c.entries) for c in export.coverage}


def test_a_literal_mcp_deny_is_exported_as_disabled_tools() -> None:
    found = _coverage(POLICY)
    assert found["no-fs-write"] == (
        "covered",
        ['mcp_servers.fs.disabled_tools = ["write_file"]',
         'mcp_servers.fs.disabled_tools = ["delete_file"]'],
    )  # fmt: skip
    export = export_policy(compile_text(POLICY, scope="user"), "codex")
    assert "disabled_tools" not in export.content  # the rules file holds commands only


@pytest.mark.parametrize(
    "match",
    [
        "{mcp: {server: fs}}",  # a whole server: enabled = false would drop its prompts too
        "{mcp: {server: fs, tool: 'write_*'}}",  # a glob: disabled_tools names tools
        "{mcp: {server: 'f.s', tool: write_file}}",
    ],
)
def test_what_disabled_tools_cannot_say_is_not_exported(match: str) -> None:
    text = f"version: 1\nrules:\n  - id: r\n    match: {match}\n    action: deny\n"
    assert _coverage(text)["r"][0] == "none"
    ask = text.replace("action: deny", "action: ask")
    assert _coverage(ask)["r"][0] == "none"


CONFIGS = {
    "table": '[mcp_servers.fs]\ncommand = "npx"  # the server\nargs = ["srv"]\n',
    "user-list": '[mcp_servers.fs]\ncommand = "npx"\ndisabled_tools = ["greet", "write_file"]\n',
    "dotted": '[mcp_servers]\nfs.command = "npx"\nfs.args = ["srv"]\n',
    "inline": 'mcp_servers = { fs = { command = "npx", args = ["srv"] } }\n',
}


@pytest.mark.parametrize("form", sorted(CONFIGS))
def test_install_switches_the_tools_off_and_uninstall_gives_the_bytes_back(
    tmp_path: Path, form: str
) -> None:
    text = 'model = "o4"\n' + CONFIGS[form]
    config = Path(_env(tmp_path)["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text, encoding="utf-8")
    before = _doctor(tmp_path, POLICY)["codex"]["native"]["user"]["rules"]
    assert "no-fs-write" in before["not-enforced"]
    plan = _install("codex", tmp_path, POLICY)
    servers = tomllib.loads(config.read_text("utf-8"))["mcp_servers"]
    listed = servers["fs"]["disabled_tools"]
    assert {"write_file", "delete_file"} <= set(listed), listed
    assert servers["fs"]["command"] == "npx"
    user = "greet" in text
    assert ("greet" in listed) == user
    assert 'mcp_servers.fs.disabled_tools = ["delete_file"]' in plan.added
    rules = _doctor(tmp_path, POLICY)["codex"]["native"]["user"]["rules"]
    assert "no-fs-write" in rules["covered"], rules
    again = _install("codex", tmp_path, POLICY)
    assert not again.changed
    _uninstall("codex", tmp_path)
    assert config.read_text("utf-8") == text


def test_an_entry_edited_since_keeps_the_user_s_change(tmp_path: Path) -> None:
    config = Path(_env(tmp_path)["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIGS["table"], encoding="utf-8")
    _install("codex", tmp_path, POLICY)
    edited = config.read_text("utf-8").replace('args = ["srv"]', 'args = ["srv", "--ro"]')
    config.write_text(edited, encoding="utf-8")
    _uninstall("codex", tmp_path)
    servers = tomllib.loads(config.read_text("utf-8"))["mcp_servers"]
    assert servers["fs"]["args"] == ["srv", "--ro"] and "disabled_tools" not in servers["fs"]


def test_a_server_the_file_does_not_have_gets_no_entry(tmp_path: Path) -> None:
    """``[mcp_servers.fs]`` with only disabled_tools has no transport: Codex refuses it."""
    config = Path(_env(tmp_path)["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    text = '[mcp_servers.other]\ncommand = "x"\n'
    config.write_text(text, encoding="utf-8")
    plan = _install("codex", tmp_path, POLICY)
    assert config.read_text("utf-8") == text
    assert any("no stdio MCP server 'fs'" in n for n in plan.notes), plan.notes
    rules = _doctor(tmp_path, POLICY)["codex"]["native"]["user"]["rules"]
    assert "no-fs-write" in rules["not-enforced"]


def test_without_mcp_entries_config_toml_is_not_read(tmp_path: Path) -> None:
    """A config.toml install --native cannot edit (a link to dotfiles) stops nothing when
    the policy has no MCP entry for it."""
    home = Path(_env(tmp_path)["HOME"])
    (home / ".codex").mkdir(parents=True)
    (tmp_path / "dotfiles.toml").write_text('model = "o4"\n', encoding="utf-8")
    (home / ".codex" / "config.toml").symlink_to(tmp_path / "dotfiles.toml")
    touch_only = "version: 1\nrules:\n  - {id: t, match: {command: touch}, action: deny}\n"
    plan = _install("codex", tmp_path, touch_only)
    assert plan.added and (home / ".codex" / "config.toml").is_symlink()
