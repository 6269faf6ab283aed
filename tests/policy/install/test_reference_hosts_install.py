"""`hookwise install|uninstall|doctor` for the reference hosts whose hooks share a file with
other settings or need a script: Crush (flat entries inside crush.json), Kiro (flat entries
inside the agent file ``default.json``) and Augment (Claude-shaped groups whose command is a
``.sh`` script install writes). What is written, install twice, uninstall byte for byte,
and hostile existing files (not JSON, wrong types, symbolic links, a foreign script) that are
refused with the file named and nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.hookwise_command import portable_command
from hookwise.policy.install.doctor import layout_handlers
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import edit_hooks
from hookwise.policy.install.plan import plan_install, plan_uninstall, write_plan
from hookwise.policy.install.registrations import registrations
from hookwise.policy.install.sh_script import MARK, sh_command, sh_text

CRUSH = """\
{
  "$schema": "https://charm.land/crush.json",
  "providers": {"local": {"type": "openai", "base_url": "http://127.0.0.1:9/v1"}},
  "hooks": {
    "PreToolUse": [
      {"name": "mine", "matcher": "bash", "command": "./guard.sh", "timeout": 5}
    ]
  },
  "options": {"debug": false}
}
"""

KIRO = """\
{
  "name": "default",
  "description": "the team's agent",
  "tools": ["*"],
  "allowedTools": ["fs_read"],
  "hooks": {"agentSpawn": [{"command": "git status"}]}
}
"""

AUGMENT = """\
{
  "model": "sonnet",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/notify.sh"}]}]}
}
"""


def install(host: str, project: Path, env: dict[str, str], scope: str = "project") -> Path:
    plan = plan_install(host, scope, project, env)
    write_plan(plan)
    return plan.settings


def uninstall(host: str, project: Path, env: dict[str, str], scope: str = "project") -> None:
    write_plan(plan_uninstall(host, scope, project, env))


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (the policy aside) with its bytes: what must come back."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".hookwise" not in p.parts
    }


SHARED = [
    ("crush", "crush.json", CRUSH, "PreToolUse", "timeout", 10),
    ("kiro", ".kiro/agents/default.json", KIRO, "preToolUse", "timeout_ms", 10_000),
]


@pytest.mark.parametrize(("host", "relative", "text", "event", "key", "timeout"), SHARED)
def test_flat_entries_are_edited_in_the_shared_file_and_uninstall_gives_its_bytes_back(
    project: Path,
    env: dict[str, str],
    host: str,
    relative: str,
    text: str,
    event: str,
    key: str,
    timeout: int,
) -> None:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    before = files(project)
    assert install(host, project, env) == path
    value = json.loads(path.read_text(encoding="utf-8"))
    original = json.loads(text)
    # every key but hookwise's entry is as it was, the user's own hooks first
    assert {k: v for k, v in value.items() if k != "hooks"} == {
        k: v for k, v in original.items() if k != "hooks"
    }
    *theirs, mine = value["hooks"][event]
    assert theirs == original["hooks"].get(event, [])
    # a flat entry: the handler itself, its matcher among its keys (no "hooks" group)
    assert mine["matcher"] == "*" and "hooks" not in mine
    assert f"--platform {host}" in mine["command"] and mine[key] == timeout
    edited = path.read_bytes()
    assert not plan_install(host, "project", project, env).changed  # install twice
    install(host, project, env)
    assert path.read_bytes() == edited
    (found,) = layout_handlers(host, path, edited.decode())  # doctor finds it
    assert found[0] == event and found[3] == mine
    uninstall(host, project, env)
    assert files(project) == before


@pytest.mark.parametrize(("host", "relative", "text", "event", "key", "timeout"), SHARED)
def test_a_fresh_shared_file_is_made_and_removed_with_its_directories(
    project: Path,
    env: dict[str, str],
    host: str,
    relative: str,
    text: str,
    event: str,
    key: str,
    timeout: int,
) -> None:
    del text, key, timeout
    path = install(host, project, env)
    assert path == project / relative
    assert list(json.loads(path.read_text(encoding="utf-8"))["hooks"]) == [event]
    uninstall(host, project, env)
    assert sorted(p.name for p in project.iterdir()) == [".hookwise"]


def test_user_scope_files(project: Path, env: dict[str, str]) -> None:
    home = Path(env["HOME"])
    assert install("crush", project, env, "user") == home / ".config" / "crush" / "crush.json"
    assert install("kiro", project, env, "user") == home / ".kiro" / "agents" / "default.json"
    path = install("augment", project, env, "user")
    assert path == home / ".augment" / "settings.json"
    assert (home / ".augment" / "hooks" / "hookwise.sh").is_file()
    env2 = {**env, "CRUSH_GLOBAL_CONFIG": str(home / "elsewhere")}
    assert install("crush", project, env2, "user") == home / "elsewhere" / "crush.json"


def test_augment_registers_a_script_that_runs_hookwise(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """The entry names the script by its absolute path (the reference's only form), so it
    goes into the uncommitted settings.local.json; the team's settings.json is untouched."""
    shared = project / ".augment" / "settings.json"
    shared.parent.mkdir(parents=True)
    shared.write_text(AUGMENT, encoding="utf-8")
    settings_file = project / ".augment" / "settings.local.json"
    settings_file.write_text(AUGMENT, encoding="utf-8")
    before = files(project)
    assert install("augment", project, env) == settings_file
    assert shared.read_text(encoding="utf-8") == AUGMENT
    script = project / ".augment" / "hooks" / "hookwise.sh"
    assert os.access(script, os.X_OK)
    value = json.loads(settings_file.read_text(encoding="utf-8"))
    assert value["hooks"]["Stop"] == json.loads(AUGMENT)["hooks"]["Stop"]
    (group,) = value["hooks"]["PreToolUse"]
    assert group["matcher"] == "*"
    assert group["hooks"] == [{"type": "command", "command": str(script), "timeout": 10_000}]
    assert sh_command(script.read_text(encoding="utf-8")) == portable_command("augment")
    edited = files(project)
    install("augment", project, env)  # install twice: nothing moves
    assert files(project) == edited
    found = layout_handlers("augment", settings_file, settings_file.read_text(encoding="utf-8"))
    assert [f[0] for f in found] == ["PreToolUse"]

    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": str(project),
        "tool_name": "launch-process",
        "tool_input": {"command": "echo hi"},
    }
    # the host runs the script: with this user's launcher (install wrote it) the policy denies
    run_env = {**env, "AUGMENT_PROJECT_DIR": str(project)}
    denied = subprocess.run(
        [str(script)],
        input=json.dumps(payload),
        env=run_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=project,
    )
    assert denied.returncode == 2 and "no echo" in denied.stderr
    # a teammate's machine: no launcher, no hookwise on PATH: exit 2 blocks all the same
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "nobody")}
    missing = subprocess.run(
        [str(script)],
        input=json.dumps(payload),
        env=bare,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd=project,
    )
    assert missing.returncode == 2 and "not installed" in missing.stderr

    uninstall("augment", project, env)
    assert files(project) == before
    assert not (project / ".augment" / "hooks").exists()


def test_augment_fresh_install_leaves_nothing_behind(project: Path, env: dict[str, str]) -> None:
    install("augment", project, env)
    uninstall("augment", project, env)
    assert sorted(p.name for p in project.iterdir()) == [".hookwise"]


HOSTILE = [
    ("not JSON", "{ this is not json", "invalid JSON"),
    ("a list", "[1, 2]\n", "expected a JSON object"),
    ("hooks a list", '{"hooks": ["x"]}\n', '"hooks" must be an object'),
    ("event an object", '{"hooks": {"EVENT": {"command": "x"}}}\n', "must be an array"),
    ("not UTF-8", b'{"a": "\xff"}\n', "not UTF-8"),
]


@pytest.mark.parametrize(("host", "relative", "event"), [(h, r, e) for h, r, _, e, *_ in SHARED])
@pytest.mark.parametrize(("_label", "text", "message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_shared_file_is_refused_and_kept(
    project: Path,
    env: dict[str, str],
    host: str,
    relative: str,
    event: str,
    _label: str,
    text: str | bytes,
    message: str,
) -> None:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.replace("EVENT", event) if isinstance(text, str) else text
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    before = files(project)
    with pytest.raises(InstallError, match=message) as caught:
        plan_install(host, "project", project, env)
    assert str(path) in str(caught.value)
    try:  # uninstall: refused too, or (no hookwise entry to find) nothing to change
        assert not plan_uninstall(host, "project", project, env).changed
    except InstallError as exc:
        assert str(path) in str(exc)
    assert files(project) == before


def test_a_settings_path_that_is_a_directory_is_refused(project: Path, env: dict[str, str]) -> None:
    (project / "crush.json").mkdir()
    with pytest.raises(InstallError, match="is a directory"):
        plan_install("crush", "project", project, env)


def test_a_link_out_of_the_project_is_refused(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A repository's crush.json linking to another program's JSON settings must not make
    install add hooks there (nor uninstall empty it)."""
    elsewhere = tmp_path / "other-app.json"
    elsewhere.write_text('{"theme": "dark"}\n', encoding="utf-8")
    (project / "crush.json").symlink_to(elsewhere)
    for plan in (plan_install, plan_uninstall):
        with pytest.raises(InstallError, match="leads out of the project"):
            plan("crush", "project", project, env)
    assert elsewhere.read_text(encoding="utf-8") == '{"theme": "dark"}\n'
    # the script path too: .augment linking out
    (project / ".augment").symlink_to(tmp_path)
    with pytest.raises(InstallError, match="leads out of the project"):
        plan_install("augment", "project", project, env)
    assert not (tmp_path / "hooks").exists()


def test_a_link_inside_the_project_is_followed(project: Path, env: dict[str, str]) -> None:
    real = project / "config" / "crush.json"
    real.parent.mkdir()
    real.write_text(CRUSH, encoding="utf-8")
    (project / "crush.json").symlink_to(real)
    install("crush", project, env)
    assert (project / "crush.json").is_symlink()
    assert "--platform crush" in real.read_text(encoding="utf-8")
    uninstall("crush", project, env)
    assert real.read_text(encoding="utf-8") == CRUSH


def test_a_link_loop_is_an_error(project: Path, env: dict[str, str]) -> None:
    (project / "crush.json").symlink_to(project / "crush.json")
    with pytest.raises(InstallError, match=r"crush\.json"):
        plan_install("crush", "project", project, env)


def test_a_script_that_is_not_hookwises_is_refused(project: Path, env: dict[str, str]) -> None:
    script = project / ".augment" / "hooks" / "hookwise.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    for plan in (plan_install, plan_uninstall):
        with pytest.raises(InstallError, match="not the hook script hookwise wrote"):
            plan("augment", "project", project, env)
    assert script.read_text(encoding="utf-8") == "#!/bin/sh\nexit 0\n"
    assert not (project / ".augment" / "settings.local.json").exists()


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=300))
def test_only_a_script_hookwise_wrote_is_taken_for_one(text: str) -> None:
    """sh_command reads a file any repository may hold: random text is never hookwise's,
    and what install writes always is."""
    assert sh_command("#!/bin/sh\n" + text) is None or MARK in text
    command = portable_command("augment")
    assert sh_command(sh_text(command, "augment")) == command


FLAT_ENTRY = st.fixed_dictionaries(
    {"command": st.text(max_size=10)},
    optional={"name": st.text(max_size=5), "matcher": st.text(max_size=5)},
)
FLAT_FILE = st.fixed_dictionaries(
    {},
    optional={
        "hooks": st.dictionaries(
            st.sampled_from(["PreToolUse", "PostToolUse", "Stop"]),
            st.lists(FLAT_ENTRY, max_size=3),
            max_size=2,
        ),
        "options": st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    },
)


@settings(max_examples=80, deadline=None)
@given(value=FLAT_FILE, indent=st.sampled_from([None, 1, 2, 4]))
def test_flat_in_place_edit_gives_the_file_back_byte_for_byte(
    value: dict[str, object], indent: int | None
) -> None:
    original = json.dumps(value, indent=indent) + "\n"
    desired = registrations("crush", ["PreToolUse"], portable_command("crush"), 10)
    added = edit_hooks(original, "crush.json", desired, jsonc=False, flat=True)
    after = json.loads(added.after or "")
    assert after["hooks"]["PreToolUse"][-1]["command"] == portable_command("crush")
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in value.items() if k != "hooks"
    }
    again = edit_hooks(added.after, "crush.json", desired, jsonc=False, flat=True)
    assert again.after == added.after
    removed = edit_hooks(added.after, "crush.json", [], jsonc=False, flat=True)
    hooks = value.get("hooks")
    if isinstance(hooks, dict) and hooks.get("PreToolUse"):
        assert removed.after == original
        return
    # an empty event list or hooks object is removed with hookwise's last entry
    expected = dict(value)
    if isinstance(hooks, dict):
        rest = {k: v for k, v in hooks.items() if k != "PreToolUse"}
        if rest:
            expected["hooks"] = rest
        else:
            del expected["hooks"]
    assert json.loads(removed.after or "") == expected
