"""Cline's own variables that move its state: coverage, scan and install follow them as Cline
3.0.65 does (protocol/cline.py ``MOVED_PATHS``, ``SANDBOX``; checked on the real CLI by
tests/e2e/test_more_hosts_live.py), and none of them moves its hooks."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.script_hooks import hook_dirs
from hookwise.policy.install.mcp_entries import plan_mcp
from hookwise.protocol.hosts import config_file
from hookwise.scan.report import scan_project
from hookwise.scan.transcripts.records import record_files
from tests.scan.support import context
from tests.scan.test_coverage import lay_out, report_of

MCP = "data/settings/cline_mcp_settings.json"


def test_each_variable_names_its_own_part_of_the_data_directory() -> None:
    home = {"HOME": "/h"}
    assert config_file("cline", "data/sessions", home) == "/h/.cline/data/sessions"
    data = {**home, "CLINE_DATA_DIR": "/d"}
    assert config_file("cline", "data/sessions", data) == "/d/sessions"
    assert config_file("cline", MCP, data) == "/d/settings/cline_mcp_settings.json"
    both = {**data, "CLINE_SESSION_DATA_DIR": " /s ", "CLINE_MCP_SETTINGS_PATH": "/m.json"}
    assert config_file("cline", "data/sessions", both) == "/s"
    assert config_file("cline", MCP, both) == "/m.json"
    # an empty (or blank) value is unset, as Cline trims it
    assert config_file("cline", "data/sessions", {**home, "CLINE_DATA_DIR": "  "}) == (
        "/h/.cline/data/sessions"
    )
    # CLINE_DIR moves the whole directory; the data directory's variable wins inside it
    moved = {**home, "CLINE_DIR": "/c"}
    assert config_file("cline", "data/sessions", moved) == "/c/data/sessions"
    assert config_file("cline", "hooks/PreToolUse", {**moved, "CLINE_DATA_DIR": "/d"}) == (
        "/c/hooks/PreToolUse"
    )
    # "database" is not under "data": whole path parts only
    assert config_file("cline", "database", data) == "/h/.cline/database"
    # another host's paths are its own
    assert config_file("claude", "projects", {**data, "CLAUDE_CONFIG_DIR": "/cc"}) == (
        "/cc/projects"
    )


def test_sandbox_mode_replaces_the_data_variables() -> None:
    env = {
        "HOME": "/h",
        "TMPDIR": "/t/",
        "CLINE_SANDBOX": "1",
        "CLINE_DATA_DIR": "/ignored",
        "CLINE_SESSION_DATA_DIR": "/ignored/too",
        "CLINE_MCP_SETTINGS_PATH": "/m.json",
    }
    assert config_file("cline", "data/sessions", env) == "/t/cline-sandbox/sessions"
    assert config_file("cline", MCP, env) == "/m.json"  # not one sandbox mode sets
    env["CLINE_SANDBOX_DATA_DIR"] = "/box"
    assert config_file("cline", "data/sessions", env) == "/box/sessions"
    del env["CLINE_MCP_SETTINGS_PATH"]
    assert config_file("cline", MCP, env) == "/box/settings/cline_mcp_settings.json"
    assert config_file("cline", "data/sessions", {**env, "CLINE_SANDBOX": "true"}) == (
        "/ignored/too"
    )


_NAMES = ("CLINE_DIR", "CLINE_DATA_DIR", "CLINE_SESSION_DATA_DIR", "CLINE_MCP_SETTINGS_PATH")
_NAMES += ("CLINE_SANDBOX", "CLINE_SANDBOX_DATA_DIR", "TMPDIR")


@given(
    env=st.dictionaries(
        st.sampled_from(_NAMES),
        st.one_of(st.sampled_from(["", " ", "1", "/x", "rel/dir", "/y/"]), st.text(max_size=6)),
    ),
    relative=st.sampled_from(["data", "data/sessions", MCP, "hooks/PreToolUse", "data2/x"]),
)
def test_a_moved_path_is_absolute_and_keeps_what_follows_the_moved_part(
    env: dict[str, str], relative: str
) -> None:
    env = {k: v for k, v in env.items() if "\0" not in v}
    path = config_file("cline", relative, {"HOME": "/h", **env})
    assert os.path.isabs(path)
    if relative.startswith("data/sessions"):
        assert path.endswith(relative[len("data/sessions") :])
    if relative == "hooks/PreToolUse":  # hooks never move but with the whole directory
        assert path.endswith("/hooks/PreToolUse")


def _move(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(source), str(target))


@pytest.mark.parametrize(
    ("variable", "moved", "value"),
    [
        ("CLINE_DATA_DIR", "home/.cline/data", "elsewhere/data"),
        ("CLINE_SESSION_DATA_DIR", "home/.cline/data/sessions", "elsewhere/sessions"),
        ("CLINE_SANDBOX", "home/.cline/data", "tmp/cline-sandbox"),
    ],
)
def test_coverage_reads_the_sessions_where_cline_wrote_them(
    variable: str, moved: str, value: str, tmp_path: Path, monkeypatch: Any
) -> None:
    env = lay_out("cline-complete", tmp_path, monkeypatch)
    _move(tmp_path / moved, tmp_path / value)
    assert record_files("cline", env) == []  # not where it used to be
    if variable == "CLINE_SANDBOX":
        env.update(CLINE_SANDBOX="1", TMPDIR=str(tmp_path / "tmp"))
    else:
        env[variable] = str(tmp_path / value)
    report = report_of("cline", env)
    totals = report["hosts"]["cline"]
    assert (totals["sessions"], totals["calls"], totals["guarded"]) == (1, 2, 2)


def _servers(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "srv-memory"]}}}
    path.write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize("variable", ["CLINE_DATA_DIR", "CLINE_MCP_SETTINGS_PATH"])
def test_scan_and_install_read_the_mcp_settings_cline_reads(variable: str, tmp_path: Path) -> None:
    project, home = (tmp_path / "repo").resolve(), (tmp_path / "home").resolve()
    project.mkdir()
    home.mkdir()
    elsewhere = tmp_path / "elsewhere"
    value = elsewhere if variable == "CLINE_DATA_DIR" else elsewhere / "mcp.json"
    servers = (
        elsewhere / "settings" / "cline_mcp_settings.json"
        if variable == "CLINE_DATA_DIR"
        else value
    )
    _servers(servers)
    _servers(home / ".cline" / MCP)  # where Cline does not look when the variable is set
    ctx = context(project, home)
    ctx.env[variable] = str(value)
    found = [
        f.file
        for f in scan_project(ctx).findings
        if f.rule == "mcp-unguarded" and "cline" in f.message
    ]
    assert found == [str(servers)]
    env = {"HOME": str(home), variable: str(value), "XDG_STATE_HOME": str(tmp_path / "state")}
    plan = plan_mcp("cline", "user", project, env, install=True)
    assert {change.file for change in plan.changes} == {servers}


def test_no_data_variable_moves_the_hooks(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "CLINE_DATA_DIR": "/d",
        "CLINE_SANDBOX": "1",
        "CLINE_HOOKS_DIR": "/hooks-dir",  # set by --hooks-dir, read by nothing in 3.0.65
    }
    dirs = [str(path) for _scope, path in hook_dirs("cline", str(tmp_path / "p"), env)]
    assert dirs == [
        str(tmp_path / "Documents/Cline/Hooks"),
        str(tmp_path / ".cline/hooks"),
        str(tmp_path / "p/.clinerules/hooks"),
        str(tmp_path / "p/.cline/hooks"),
    ]
