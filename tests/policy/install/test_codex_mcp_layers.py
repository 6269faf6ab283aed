"""Codex's ``disabled_tools`` as Codex merges its layers (red team s27 F4, F7, F13): a
trusted project's ``.codex/config.toml`` or a profile file (``$CODEX_HOME/NAME.config.toml``)
that sets a server's list replaces the one ``install --native`` wrote; a server added after
install has none. doctor reports a rule held only when the merged list holds it; install
says what it cannot hold. The merge is checked against the real Codex 0.169.0's record
(tests/e2e/fixtures/codex-mcp-layers.json, tests/e2e/test_codex_mcp_layers_live.py)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hookwise.config.codex.mcp_layers import mcp_layers, unheld
from tests.e2e.codex_mcp_layers import CASES, EMPTY, KEEPS, SERVER, USER, lay_out, trusting
from tests.policy.install.test_native import _doctor, _env, _install

RECORD = json.loads(
    (Path(__file__).parents[2] / "e2e" / "fixtures" / "codex-mcp-layers.json").read_text("utf-8")
)
# where hookwise cannot know what Codex will be run with, it claims less than Codex does
# (a project trusted later, a profile chosen later): never more
CLAIMS_LESS = {"project-empty-untrusted", "profile-empty-not-chosen"}

POLICY = """\
version: 1
rules:
  - id: no-fs-write
    match: {mcp: {server: fs, tool: write_file}}
    action: deny
"""


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_merge_is_the_real_codex_s(tmp_path: Path, case: str) -> None:
    assert RECORD["codex"] == "0.169.0" and set(RECORD["cases"]) == set(CASES)
    codex_home, cwd = lay_out(tmp_path, case)
    why = unheld("fs", "write_file", mcp_layers(codex_home, cwd))
    codex_holds = "write_file" in RECORD["cases"][case]
    if case in CLAIMS_LESS:
        assert codex_holds and why, why
    else:
        assert (not why) == codex_holds, (case, why)
    for _kind, detail in why:
        assert any(str(tmp_path / f) in detail for f in CASES[case]["files"]), detail


def _native(tmp_path: Path, policy: str = POLICY) -> dict[str, Any]:
    state: dict[str, Any] = _doctor(tmp_path, policy)["codex"]["native"]["user"]
    return state


def _user_config(tmp_path: Path, text: str) -> Path:
    config = Path(_env(tmp_path)["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text, encoding="utf-8")
    return config


def test_f4_a_project_s_empty_list_is_not_held(tmp_path: Path) -> None:
    _user_config(tmp_path, SERVER + trusting(tmp_path))
    _install("codex", tmp_path, POLICY)
    assert "no-fs-write" in _native(tmp_path)["rules"]["covered"]
    project = tmp_path / ".codex" / "config.toml"
    project.parent.mkdir()
    project.write_text(EMPTY, encoding="utf-8")
    state = _native(tmp_path)
    assert "no-fs-write" in state["rules"]["not-enforced"], state["rules"]
    overridden = [d["detail"] for d in state["drift"] if d["kind"] == "overridden"]
    assert overridden and str(project) in overridden[0], state["drift"]
    plan = _install("codex", tmp_path, POLICY)
    assert any("cannot be held" in n and str(project) in n for n in plan.notes), plan.notes
    project.write_text(KEEPS, encoding="utf-8")  # a project list that keeps the tool off
    assert "no-fs-write" in _native(tmp_path)["rules"]["covered"]


def test_f13_a_profile_s_list_is_not_held(tmp_path: Path) -> None:
    config = _user_config(tmp_path, SERVER)
    _install("codex", tmp_path, POLICY)
    profile = config.parent / "work.config.toml"
    profile.write_text(EMPTY, encoding="utf-8")
    state = _native(tmp_path)
    assert "no-fs-write" in state["rules"]["not-enforced"]
    detail = next(d["detail"] for d in state["drift"] if d["kind"] == "overridden")
    assert str(profile) in detail and "--profile work" in detail, detail
    profile.write_text('[mcp_servers.fs]\ncommand = "python3"\n', encoding="utf-8")
    assert "no-fs-write" in _native(tmp_path)["rules"]["covered"]  # merged field by field


def test_f7_a_server_added_after_install_is_drift_and_install_brings_it_in(
    tmp_path: Path,
) -> None:
    policy = POLICY.replace("server: fs", "server: [fs, gh]")
    config = _user_config(tmp_path, SERVER)
    _install("codex", tmp_path, policy)
    config.write_text(
        config.read_text("utf-8") + '\n[mcp_servers.gh]\ncommand = "gh-mcp"\n', encoding="utf-8"
    )  # as `codex mcp add gh -- gh-mcp` does
    state = _native(tmp_path, policy)
    assert "no-fs-write" in state["rules"]["not-enforced"]
    stale = [d["detail"] for d in state["drift"] if d["kind"] == "stale"]
    assert any("mcp_servers.gh" in s for s in stale), state["drift"]
    report = _doctor(tmp_path, policy)["codex"]
    assert "in sync" not in json.dumps(report)
    plan = _install("codex", tmp_path, policy)
    assert 'mcp_servers.gh.disabled_tools = ["write_file"]' in plan.added
    assert tomllib.loads(config.read_text("utf-8"))["mcp_servers"]["gh"]["disabled_tools"] == [
        "write_file"
    ]
    state = _native(tmp_path, policy)
    assert "no-fs-write" in state["rules"]["covered"] and not state["drift"], state


def test_a_server_only_a_project_defines_is_not_held(tmp_path: Path) -> None:
    _user_config(tmp_path, USER.replace("fs", "other"))
    project = tmp_path / ".codex" / "config.toml"
    project.parent.mkdir()
    project.write_text(SERVER, encoding="utf-8")
    plan = _install("codex", tmp_path, POLICY)
    assert any(str(project) in n for n in plan.notes), plan.notes
    assert "no-fs-write" in _native(tmp_path)["rules"]["not-enforced"]
