"""F16's second half (red team s25): ``doctor`` reads the other files of Gemini CLI's policy
tiers and reports a rule that decides before hookwise's exported deny (``export.gemini_engine``;
the real CLI's answers: tests/e2e/test_gemini_policy_tier_live.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.export import gemini_engine
from hookwise.policy.export.gemini_engine import parse_rules
from hookwise.policy.install.native import native_target
from tests.policy.install.test_native import _doctor, _install, _kinds

POLICY = """\
version: 1
rules:
  - id: no-touch
    match: {command: touch}
    action: deny
  - id: no-fetch
    match: {tool: web_fetch}
    action: deny
  - id: no-fs-write
    match: {mcp: {server: fs, tool: write_file}}
    action: deny
"""


@pytest.fixture(autouse=True)
def _system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The admin tier's directory (``/etc/gemini-cli/policies``), in the test's tree."""
    system = tmp_path / "etc" / "policies"
    monkeypatch.setattr(gemini_engine, "system_policies", lambda platform=None: system)
    return system


def _shadows(tmp_path: Path, policy: str = POLICY) -> tuple[list[str], list[dict[str, Any]]]:
    gemini = _doctor(tmp_path, policy)["gemini"]
    return _kinds(gemini), gemini["native"]["user"].get("shadowed_by", [])


def _sibling(tmp_path: Path, body: str, name: str = "aaa.toml", where: Path | None = None) -> Path:
    place = (
        where or native_target("gemini", "user", tmp_path, {"HOME": str(tmp_path / "home")}).parent
    )
    place.mkdir(parents=True, exist_ok=True)
    path = place / name
    path.write_text(body, encoding="utf-8")
    return path


def _rule(fields: str, decision: str = "allow") -> str:
    return f'[[rule]]\n{fields}\ndecision = "{decision}"\n'


@pytest.mark.parametrize(
    ("fields", "over"),
    [
        ('toolName = "run_shell_command"\npriority = 999', "run_shell_command 'touch'"),
        ('toolName = "*"\npriority = 999', "run_shell_command 'touch'"),
        ('toolName = "run_shell_command"\ncommandPrefix = "touch"\npriority = 999', None),
        ('toolName = "run_shell_command"\ncommandRegex = "to.*"\npriority = 999', None),
        ('toolName = ["web_fetch"]\nargsPattern = "url"\npriority = 999', "web_fetch"),
        ('toolName = "mcp_*"\npriority = 999', "mcp_fs_write_file"),
        ('mcpName = "fs"\ntoolName = "*"\npriority = 999', "mcp_fs_write_file"),
    ],
)
def test_a_sibling_rule_that_decides_first_is_reported(
    tmp_path: Path, fields: str, over: str | None
) -> None:
    _install("gemini", tmp_path, POLICY)
    assert _shadows(tmp_path) == ([], [])
    path = _sibling(tmp_path, _rule(fields))
    kinds, shadows = _shadows(tmp_path)
    assert kinds and set(kinds) == {"shadowed"}, shadows
    assert all(s["file"] == str(path) and s["tier"] == "user" for s in shadows)
    if over is not None:
        assert [s["over"] for s in shadows] == [over]


@pytest.mark.parametrize(
    "text",
    [
        _rule('toolName = "run_shell_command"\npriority = 998'),  # below the deny (999)
        _rule('toolName = "run_shell_command"\ncommandPrefix = "git"\npriority = 999'),
        _rule('toolName = "run_shell_command"\nargsPattern = "rm -rf"\npriority = 999'),
        _rule('toolName = "run_shell_command"\npriority = 999', "deny"),
        _rule('toolName = "read_file"\npriority = 999'),
        _rule('mcpName = "other"\ntoolName = "*"\npriority = 999'),
        _rule('toolName = "run_shell_command"\npriority = 1000'),  # invalid: file skipped
        '[[rule]]\ntoolName = "run_shell_command"\npriority = 999\n',  # no decision: skipped
    ],
)
def test_a_sibling_that_cannot_let_a_refused_call_through_is_not_reported(
    tmp_path: Path, text: str
) -> None:
    _install("gemini", tmp_path, POLICY)
    _sibling(tmp_path, text)
    assert _shadows(tmp_path) == ([], [])


def test_gemini_s_own_always_allow_no_longer_outranks_the_deny(tmp_path: Path) -> None:
    """Gemini's "Allow always" saves at 950 (auto-saved.toml); the export was at 900."""
    _install("gemini", tmp_path, POLICY)
    rule = 'toolName = "run_shell_command"\ncommandPrefix = "touch"\npriority = 950'
    _sibling(tmp_path, _rule(rule), "auto-saved.toml")
    assert _shadows(tmp_path) == ([], [])


def test_a_link_in_the_directory_is_not_read_by_gemini(tmp_path: Path) -> None:
    _install("gemini", tmp_path, POLICY)
    real = _sibling(tmp_path, _rule('toolName = "*"\npriority = 999'), where=tmp_path / "x")
    os.symlink(
        real,
        native_target("gemini", "user", tmp_path, {"HOME": str(tmp_path / "home")}).parent
        / "l.toml",
    )
    assert _shadows(tmp_path) == ([], [])


def test_the_admin_tier_outranks_every_user_priority(tmp_path: Path, _system: Path) -> None:
    _install("gemini", tmp_path, POLICY)
    path = _sibling(tmp_path, _rule('toolName = "web_fetch"\npriority = 0'), where=_system)
    kinds, shadows = _shadows(tmp_path)
    assert kinds == ["shadowed"] and shadows[0]["file"] == str(path)
    assert shadows[0]["tier"] == "admin" and shadows[0]["priority"] == 5.0


def test_an_equal_priority_is_reported_as_order_dependent(tmp_path: Path) -> None:
    _install("gemini", tmp_path, POLICY)
    _sibling(tmp_path, _rule('toolName = "web_fetch"\npriority = 999', "ask_user"))
    kinds, shadows = _shadows(tmp_path)
    assert kinds == ["shadowed"] and shadows[0]["equal"] is True


def test_policy_paths_in_the_settings_move_the_user_tier_away_from_hookwise_s_file(
    tmp_path: Path,
) -> None:
    """``policyPaths`` replaces ``~/.gemini/policies``: hookwise's file is not read at all."""
    _install("gemini", tmp_path, POLICY)
    settings = tmp_path / "home" / ".gemini" / "settings.json"
    settings.write_text(json.dumps({"policyPaths": [str(tmp_path / "mine")]}), "utf-8")
    path = _sibling(tmp_path, _rule('toolName = "*"\npriority = 999'), where=tmp_path / "mine")
    kinds, shadows = _shadows(tmp_path)
    assert kinds[0] == "unread" and "shadowed" in kinds
    assert [s["file"] for s in shadows] == [str(path)]


def test_a_file_gemini_would_skip_whole_is_reported(tmp_path: Path) -> None:
    """A rule without toolName fails Gemini's schema, and the file with it."""
    _install("gemini", tmp_path, POLICY)
    target = native_target("gemini", "user", tmp_path, {"HOME": str(tmp_path / "home")})
    target.write_text(target.read_text("utf-8") + _rule('mcpName = "x"\npriority = 1', "deny"))
    gemini = _doctor(tmp_path, POLICY)["gemini"]
    unread = [d for d in gemini["native"]["user"]["drift"] if d["kind"] == "unread"]
    assert unread and "skips the whole file" in unread[0]["detail"]


values = st.one_of(
    st.text(max_size=6),
    st.integers(-2, 1200),
    st.booleans(),
    st.lists(st.text(max_size=4), max_size=3),
)
rules = st.dictionaries(
    st.sampled_from(
        ["toolName", "mcpName", "decision", "priority", "commandPrefix", "commandRegex",
         "argsPattern", "modes"]
    ),
    values,
)  # fmt: skip


@given(st.lists(rules, max_size=4))
def test_parse_rules_reads_or_refuses_any_file(items: list[dict[str, Any]]) -> None:
    text = "".join(
        "[[rule]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in item.items())
        for item in items
    )
    found = parse_rules(text, "f.toml", 4)
    if isinstance(found, str):
        assert found.startswith(("rule #", "not TOML"))
        return
    for rule in found:
        item = items[rule.index - 1]
        assert rule.decision == item["decision"] in ("allow", "deny", "ask_user")
        assert rule.priority == 4 + item["priority"] / 1000 and 4 <= rule.priority < 5


def test_the_export_of_a_whole_server_rule_is_a_file_gemini_reads() -> None:
    """A ``[[rule]]`` with ``mcpName`` and no ``toolName`` failed Gemini's schema, and Gemini
    skipped hookwise's whole file (observed: the e2e case ``server_rule``)."""
    from hookwise.policy.export.build import export_policy
    from tests.policy.conftest import compile_text

    text = POLICY + "  - id: no-fs\n    match: {mcp: {server: fs}}\n    action: deny\n"
    content = export_policy(compile_text(text, scope="user"), "gemini").content
    found = parse_rules(content, "hookwise.toml", gemini_engine.USER_TIER)
    assert not isinstance(found, str), found
    assert "mcp_fs_*" in {r.tool for r in found}
