"""``install --native`` / ``uninstall --native``: the exported rules in each host's own
permission system, kept in sync, given back byte for byte, and hostile files refused with
nothing lost (real files in a temporary HOME, the real CLI for the command line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.native import EDITED_SUFFIX, native_target, plan_native
from hookwise.policy.install.native_permissions import current_entries, edit_permissions
from hookwise.policy.install.native_record import (
    Record,
    digest,
    parse_record,
    read_record,
    record_path,
)
from hookwise.policy.install.plan import write_changes
from tests.policy.conftest import compile_text

POLICY = """\
version: 1
rules:
  - id: no-touch
    match: {command: touch}
    action: deny
    reason: native rules refuse touch
  - id: ask-push
    match: {command: git push}
    action: ask
"""
OTHER = """\
version: 1
rules:
  - id: no-chmod
    match: {command: chmod}
    action: deny
"""
HOSTS = ("claude", "gemini", "codex")


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {"HOME": str(home), "PATH": os.environ.get("PATH", "")}


def _install(host: str, tmp_path: Path, text: str = POLICY, scope: str = "user") -> Any:
    compiled = compile_text(text, scope="user")
    plan = plan_native(host, scope, tmp_path, _env(tmp_path), compiled)
    write_changes(plan.changes)
    return plan


def _uninstall(host: str, tmp_path: Path, scope: str = "user") -> Any:
    plan = plan_native(host, scope, tmp_path, _env(tmp_path), None)
    write_changes(plan.changes)
    return plan


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


SETTINGS = (
    '{\n    "model": "x",\n    "permissions": {"allow": ["Bash"], "deny": ["Read(.env)"]}\n}\n'
)


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("existing", [None, SETTINGS])
def test_install_then_uninstall_gives_back_every_byte(
    host: str, existing: str | None, tmp_path: Path
) -> None:
    target = native_target(host, "user", tmp_path, _env(tmp_path))
    if existing is not None and host == "claude":
        target.parent.mkdir(parents=True)
        target.write_text(existing, encoding="utf-8")
    home = Path(_env(tmp_path)["HOME"])
    before = _tree(home)
    plan = _install(host, tmp_path)
    assert plan.added and target.exists() and record_path(target).exists()
    text = target.read_text(encoding="utf-8")
    if host == "claude":
        entries = current_entries(text, str(target))
        # a shell prefix for Bash and PowerShell (red team s26 F6)
        assert entries["deny"][-2:] == ["Bash(touch:*)", "PowerShell(touch:*)"]
        assert entries["ask"] == ["Bash(git push:*)", "PowerShell(git push:*)"]
    else:
        assert "touch" in text and "git push" in text.replace('", "', " ")
    # again, same policy: no byte changes, the record included
    after_once = _tree(home)
    again = _install(host, tmp_path)
    assert not again.changed and _tree(home) == after_once
    done = _uninstall(host, tmp_path)
    assert done.restored
    assert _tree(home) == before  # bytes, and the directories install made are gone


@pytest.mark.parametrize("host", HOSTS)
def test_a_changed_policy_updates_only_hookwise_entries(host: str, tmp_path: Path) -> None:
    _install(host, tmp_path)
    target = native_target(host, "user", tmp_path, _env(tmp_path))
    plan = _install(host, tmp_path, OTHER)
    text = target.read_text(encoding="utf-8")
    assert "touch" not in text and "chmod" in text
    assert plan.added and plan.removed
    _uninstall(host, tmp_path)
    assert not target.exists()


def test_claude_user_edits_survive_and_only_hookwise_entries_leave(tmp_path: Path) -> None:
    target = native_target("claude", "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    # the user already denies `touch` themselves: it stays theirs
    target.write_text(
        '{"permissions": {"deny": ["Bash(touch:*)", "PowerShell(touch:*)"]}}\n', encoding="utf-8"
    )
    plan = _install("claude", tmp_path)
    assert plan.added == ["Bash(git push:*)", "PowerShell(git push:*)"]
    data = json.loads(target.read_text(encoding="utf-8"))
    data["theme"] = "dark"
    data["permissions"]["deny"].append("Bash(rm:*)")
    target.write_text(json.dumps(data, indent=1), encoding="utf-8")
    done = _uninstall("claude", tmp_path)
    assert not done.restored and done.removed == ["Bash(git push:*)", "PowerShell(git push:*)"]
    assert any("only hookwise's entries" in n for n in done.notes)
    left = json.loads(target.read_text(encoding="utf-8"))
    kept = ["Bash(touch:*)", "PowerShell(touch:*)", "Bash(rm:*)"]
    assert left == {"permissions": {"deny": kept}, "theme": "dark"}
    assert not record_path(target).exists()


def test_claude_entry_removed_by_hand_is_written_again_and_said(tmp_path: Path) -> None:
    _install("claude", tmp_path)
    target = native_target("claude", "user", tmp_path, _env(tmp_path))
    data = json.loads(target.read_text(encoding="utf-8"))
    data["permissions"]["deny"] = []
    target.write_text(json.dumps(data), encoding="utf-8")
    plan = _install("claude", tmp_path)
    assert plan.added == ["Bash(touch:*)", "PowerShell(touch:*)"]
    assert any("removed by hand" in n for n in plan.notes)


@pytest.mark.parametrize("host", ["gemini", "codex"])
def test_whole_file_edited_by_hand_is_kept_aside(host: str, tmp_path: Path) -> None:
    _install(host, tmp_path)
    target = native_target(host, "user", tmp_path, _env(tmp_path))
    edited = target.read_text(encoding="utf-8") + "# mine\n"
    target.write_text(edited, encoding="utf-8")
    done = _uninstall(host, tmp_path)
    aside = target.with_name(target.name + EDITED_SUFFIX)
    assert not target.exists() and aside.read_text(encoding="utf-8") == edited
    assert done.removed == ["no-touch", "ask-push"] and not done.restored


@pytest.mark.parametrize("host", ["gemini", "codex"])
def test_a_file_hookwise_did_not_write_is_refused(host: str, tmp_path: Path) -> None:
    target = native_target(host, "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    target.write_text("# the user's own rules\n", encoding="utf-8")
    with pytest.raises(InstallError, match="not written by hookwise"):
        plan_native(host, "user", tmp_path, _env(tmp_path), compile_text(POLICY, scope="user"))
    assert target.read_text(encoding="utf-8") == "# the user's own rules\n"


HOSTILE = [
    ("not JSON", b"{ nope", r"settings\.json:1:3"),
    ("array", b"[]", "expected a JSON object"),
    ("permissions", b'{"permissions": "deny all"}', r'field "permissions": expected an object'),
    ("deny type", b'{"permissions": {"deny": "Bash(rm:*)"}}', r'"permissions\.deny": expected an'),
    ("ask type", b'{"permissions": {"ask": {"a": 1}}}', r'"permissions\.ask": expected an array'),
    ("huge", b'{"a": "' + b"x" * (1024 * 1024 + 10) + b'"}', "larger than"),
    ("not UTF-8", b'{"a": "\xff"}', "not UTF-8"),
]


@pytest.mark.parametrize(("name", "data", "error"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_claude_settings_are_refused_and_kept(
    name: str, data: bytes, error: str, tmp_path: Path
) -> None:
    target = native_target("claude", "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    target.write_bytes(data)
    with pytest.raises(InstallError, match=error) as caught:
        plan_native("claude", "user", tmp_path, _env(tmp_path), compile_text(POLICY, scope="user"))
    assert str(target) in str(caught.value)
    assert target.read_bytes() == data and not record_path(target).exists()


@pytest.mark.parametrize("host", HOSTS)
def test_a_symlink_or_fifo_target_is_refused(host: str, tmp_path: Path) -> None:
    target = native_target(host, "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}", encoding="utf-8")
    target.symlink_to(elsewhere)
    compiled = compile_text(POLICY, scope="user")
    with pytest.raises(InstallError, match="symbolic link"):
        plan_native(host, "user", tmp_path, _env(tmp_path), compiled)
    assert elsewhere.read_text(encoding="utf-8") == "{}" and target.is_symlink()
    target.unlink()
    os.mkfifo(target)
    with pytest.raises(InstallError, match="not a regular file"):  # never blocks on it
        plan_native(host, "user", tmp_path, _env(tmp_path), compiled)


def test_user_scope_exports_only_rules_of_every_project(tmp_path: Path) -> None:
    compiled = compile_text(POLICY, scope="project")
    plan = plan_native("claude", "user", tmp_path, _env(tmp_path), compiled)
    assert plan.export is not None and not plan.export.natives
    assert all(c.status == "none" for c in plan.export.coverage)
    assert "every project" in plan.export.coverage[0].why[0]
    project = plan_native("claude", "project", tmp_path, _env(tmp_path), compiled)
    assert project.target == tmp_path / ".claude" / "settings.json"
    assert project.export is not None and len(project.export.natives) == 4  # Bash, PowerShell


@pytest.mark.parametrize("host", ["gemini", "codex"])
def test_no_project_scope_where_the_host_has_none(host: str, tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="at scope user only"):
        native_target(host, "project", tmp_path, _env(tmp_path))


# --------------------------------------------------------------------------- the editor

_entry = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_lists = st.dictionaries(st.sampled_from(["deny", "ask"]), st.lists(_entry, max_size=4))


@given(
    user=st.dictionaries(
        st.sampled_from(["deny", "ask", "allow"]), st.lists(_entry, max_size=4), max_size=3
    ),
    extra=st.dictionaries(st.sampled_from(["model", "env", "z"]), _entry, max_size=2),
    desired=_lists,
    indent=st.sampled_from([None, 1, 2, 4, "\t"]),
)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_edit_permissions_round_trip(
    user: dict[str, list[str]], extra: dict[str, str], desired: dict[str, list[str]], indent: Any
) -> None:
    """Adding then removing hookwise's entries gives back the exact text; the user's entries
    (even equal ones) are never taken; every wanted entry is there after install."""
    data: dict[str, Any] = dict(extra)
    if user:
        data["permissions"] = user
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    added = edit_permissions(text, "s.json", desired, {}, [])
    assert added.after is not None
    after = json.loads(added.after)
    for decision, wanted in desired.items():
        assert not wanted or set(wanted) <= set(after["permissions"][decision])
        assert not set(added.ours[decision]) & set(user.get(decision, []))
    removed = edit_permissions(added.after, "s.json", {}, added.ours, added.made)
    assert removed.after == text and not removed.made


_field = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers()))


@given(
    fields=st.dictionaries(
        st.sampled_from(
            ["hookwise_native", "host", "file", "written", "before", "entries", "made", "x"]
        ),
        _field,
    ),
    raw=st.text(max_size=40),
)
@settings(max_examples=200, deadline=None)
def test_record_parser_rejects_what_it_cannot_use(fields: dict[str, Any], raw: str) -> None:
    for text in (json.dumps(fields), raw):
        try:
            record = parse_record(text, "r.json", "claude", Path("/h/settings.json"))
        except InstallError as exc:
            assert str(exc).startswith("r.json: ")
            continue
        assert record.host == "claude" and len(record.written) == 64


def test_record_round_trip(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    record = Record("claude", str(target), digest("{}"), None, {"deny": ["A"], "ask": []}, ["p"])
    record_path(target).write_text(record.to_text(), encoding="utf-8")
    assert read_record(target, "claude") == record
    with pytest.raises(InstallError, match="field 'host'"):
        read_record(target, "gemini")


# --------------------------------------------------------------------------- the command


def _cli(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**_env(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")}
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_command_line_install_and_uninstall_native(tmp_path: Path) -> None:
    policy = tmp_path / "home" / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True)
    policy.write_text(POLICY, encoding="utf-8")
    done = _cli(["install", "--native", "--host", "claude", "--host", "codex", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [r["host"] for r in report] == ["claude", "codex"]
    assert report[0]["added"] == [
        "Bash(touch:*)",
        "PowerShell(touch:*)",
        "Bash(git push:*)",
        "PowerShell(git push:*)",
    ]
    assert {c["status"] for c in report[0]["coverage"]} == {"partial"}
    assert not (tmp_path / "home" / ".gemini").exists()
    undone = _cli(["uninstall", "--native", "--json"], tmp_path)
    assert undone.returncode == 0, undone.stderr
    undone_report = json.loads(undone.stdout)
    assert [r["host"] for r in undone_report] == ["claude", "gemini", "codex", "qwen"]
    assert [r["restored"] for r in undone_report] == [True, False, True, False]
    assert sorted(p.name for p in (tmp_path / "home").iterdir()) == [".config"]
    wrong = _cli(["install", "--native", "--host", "cursor"], tmp_path)
    assert wrong.returncode == 2 and "no exporter for cursor" in wrong.stderr
    missing = _cli(["install"], tmp_path)
    assert missing.returncode == 2 and "Missing argument 'HOST'" in missing.stderr
    copilot = _cli(["install", "--native", "--host", "copilot"], tmp_path)
    assert copilot.returncode == 2 and "command line only" in copilot.stderr
    project = _cli(["install", "--native", "--scope", "project", "--json"], tmp_path)
    assert project.returncode == 0, project.stderr
    assert [r["host"] for r in json.loads(project.stdout)] == ["claude", "qwen"]
    assert "skipped: Gemini CLI" in project.stderr and "skipped: Codex" in project.stderr


QWEN_SETTINGS = """{
  // the provider
  "security": {"auth": {"selectedType": "openai"}},
  "permissions": {
    "allow": ["Bash(ls:*)"] // mine
  }
}
"""


def test_qwen_jsonc_settings_keep_their_comments(tmp_path: Path) -> None:
    target = native_target("qwen", "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    target.write_text(QWEN_SETTINGS, encoding="utf-8")
    plan = _install("qwen", tmp_path)
    assert plan.added == ["Bash(touch:*)", "Bash(git push:*)"]
    text = target.read_text(encoding="utf-8")
    assert "// mine" in text and '"Bash(touch:*)"' in text
    assert current_entries(text, str(target), jsonc=True)["ask"] == ["Bash(git push:*)"]
    assert _uninstall("qwen", tmp_path).restored
    assert target.read_text(encoding="utf-8") == QWEN_SETTINGS


# --------------------------------------------------------------------------- doctor


def _doctor(tmp_path: Path, policy: str) -> dict[str, Any]:
    from hookwise.policy.install.doctor import diagnose

    env = {**_env(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")}
    path = tmp_path / "home" / ".config" / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(policy, encoding="utf-8")
    report = diagnose(tmp_path, env, hosts=HOSTS, run_self_test=False)
    data: dict[str, Any] = report.to_json()["hosts"]
    return data


def _kinds(host: dict[str, Any]) -> list[str]:
    return [d["kind"] for d in host["native"]["user"]["drift"]]


COVERED = """\
version: 1
rules:
  - id: no-fetch
    match: {tool: web_fetch}
    action: deny
  - id: no-touch
    match: {command: touch}
    action: deny
"""


def test_doctor_reports_missing_edited_and_stale_native_rules(tmp_path: Path) -> None:
    before = _doctor(tmp_path, COVERED)
    assert _kinds(before["claude"]) == ["missing"]
    assert before["claude"]["native"]["user"]["rules"]["covered"] == []  # nothing written
    assert before["claude"]["native"]["user"]["rules"]["not-enforced"] == ["no-fetch", "no-touch"]
    for host in HOSTS:
        _install(host, tmp_path, COVERED)
    synced = _doctor(tmp_path, COVERED)
    assert all(_kinds(synced[h]) == [] for h in HOSTS)
    rules = synced["claude"]["native"]["user"]["rules"]
    # covered: a whole tool; the command prefix is partial (other spellings), never covered
    assert rules["covered"] == ["no-fetch"] and rules["partial"] == ["no-touch"]
    assert synced["codex"]["native"]["user"]["rules"]["covered"] == []  # Codex: commands only
    # by hand: Claude's deny entry removed, Codex's file edited; the policy gains a rule
    claude = native_target("claude", "user", tmp_path, _env(tmp_path))
    data = json.loads(claude.read_text(encoding="utf-8"))
    data["permissions"]["deny"].remove("WebFetch")
    claude.write_text(json.dumps(data), encoding="utf-8")
    codex = native_target("codex", "user", tmp_path, _env(tmp_path))
    codex.write_text(codex.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    drifted = _doctor(tmp_path, COVERED + OTHER.split("rules:\n")[1])
    assert _kinds(drifted["claude"]) == ["edited", "stale"]
    assert drifted["claude"]["native"]["user"]["rules"]["covered"] == []
    assert _kinds(drifted["codex"]) == ["edited", "stale"]
    assert _kinds(drifted["gemini"]) == ["stale"]
    assert any(c["status"] == "fail" and c["name"] == "native" for c in drifted["claude"]["checks"])
    native_target("gemini", "user", tmp_path, _env(tmp_path)).unlink()
    assert _kinds(_doctor(tmp_path, COVERED)["gemini"]) == ["missing"]


def test_a_planted_record_writes_no_settings_of_its_own(tmp_path: Path) -> None:
    """Someone who can write the record beside the settings cannot make uninstall write
    their text (``before`` must say what taking hookwise's entries out says) nor remove
    directories other than the target's own parents."""
    target = native_target("claude", "user", tmp_path, _env(tmp_path))
    target.parent.mkdir(parents=True)
    text = '{"permissions": {"deny": ["Bash(rm:*)"]}}\n'
    target.write_text(text, encoding="utf-8")
    keep = tmp_path / "home" / "keep"
    keep.mkdir()
    evil = '{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": []}}\n'
    planted = Record(
        "claude", str(target), digest(text), evil, {"deny": [], "ask": []}, [str(keep)]
    )
    record_path(target).write_text(planted.to_text(), encoding="utf-8")
    done = _uninstall("claude", tmp_path)
    assert not done.restored
    assert target.read_text(encoding="utf-8") == text and keep.is_dir()
    assert not record_path(target).exists()
