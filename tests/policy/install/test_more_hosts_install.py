"""`hookwise install|uninstall` for Factory Droid (event keys at the top level of
``.factory/hooks.json``), Cline (an executable hook file of hookwise's own) and the
reference hosts with a hooks file (Cursor, Windsurf): what is written, byte-for-byte
uninstall, foreign files refused, and the Cline hook file's own cancel when hookwise
cannot run (a real ``sh``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.hookwise_command import portable_command
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hook_script import MARK, script_command, script_text
from hookwise.policy.install.hooks_edit import edit_hooks
from hookwise.policy.install.plan import plan_install, plan_uninstall, write_plan
from hookwise.policy.install.registrations import registrations


def install(host: str, scope: str, project: Path, env: dict[str, str]) -> Path:
    plan = plan_install(host, scope, project, env)
    write_plan(plan)
    return plan.settings


def uninstall(host: str, scope: str, project: Path, env: dict[str, str]) -> None:
    write_plan(plan_uninstall(host, scope, project, env))


def test_droid_writes_the_event_keys_at_the_top_level_and_uninstalls_byte_for_byte(
    project: Path, env: dict[str, str]
) -> None:
    path = project / ".factory" / "hooks.json"
    path.parent.mkdir()
    original = '{\n  // team hook\n  "PostToolUse": [{"matcher": "Edit", "hooks": []}]\n}\n'
    original = original.replace("  // team hook\n", "")
    path.write_text(original, encoding="utf-8")
    assert install("droid", "project", project, env) == path
    value = json.loads(path.read_text(encoding="utf-8"))
    assert "hooks" not in value, "Droid ignores a hooks wrapper in hooks.json"
    (group,) = value["PreToolUse"]
    assert group["matcher"] == "*"
    assert "--platform droid" in group["hooks"][0]["command"]
    assert group["hooks"][0]["timeout"] >= 10  # seconds
    assert value["PostToolUse"] == [{"matcher": "Edit", "hooks": []}]
    again = plan_install("droid", "project", project, env)
    assert not any(c.changed for c in again.changes if c.path == path)
    uninstall("droid", "project", project, env)
    assert path.read_text(encoding="utf-8") == original


def test_droid_user_scope_and_a_fresh_file(project: Path, env: dict[str, str]) -> None:
    path = install("droid", "user", project, env)
    assert path == Path(env["HOME"]) / ".factory" / "hooks.json"
    assert set(json.loads(path.read_text(encoding="utf-8"))) == {"PreToolUse"}
    uninstall("droid", "user", project, env)
    assert not path.exists()


def test_cline_hook_file_is_executable_and_cancels_when_hookwise_cannot_run(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    path = install("cline", "project", project, env)
    assert path == project / ".clinerules" / "hooks" / "PreToolUse"
    assert os.access(path, os.X_OK)
    payload = json.dumps({"hookName": "tool_call", "taskId": "t", "workspaceRoots": [str(project)]})
    # a teammate's machine: no launcher, no hookwise on PATH
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "nobody")}
    done = subprocess.run(
        [str(path)],
        input=payload,
        env=bare,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd=project,
    )
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["cancel"] is True and "not installed" in answer["errorMessage"]
    uninstall("cline", "project", project, env)
    assert not path.exists()


def test_cline_user_scope(project: Path, env: dict[str, str]) -> None:
    path = install("cline", "user", project, env)
    assert path == Path(env["HOME"]) / ".cline" / "hooks" / "PreToolUse"


def test_a_hook_file_that_is_not_hookwises_is_refused(project: Path, env: dict[str, str]) -> None:
    path = project / ".clinerules" / "hooks" / "PreToolUse"
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\necho '{}'\n", encoding="utf-8")
    with pytest.raises(InstallError, match="not hookwise's"):
        plan_install("cline", "project", project, env)
    with pytest.raises(InstallError, match="not hookwise's"):
        plan_uninstall("cline", "project", project, env)
    assert path.read_text(encoding="utf-8") == "#!/bin/sh\necho '{}'\n"


@pytest.mark.parametrize(
    ("host", "relative", "event", "fixed"),
    [
        # (preToolUse: Cursor runs it for every tool; its other pre-tool events would run
        # hookwise twice per call, so install registers only the row's pre_tool_event)
        ("cursor", ".cursor/hooks.json", "preToolUse", {"failClosed": True}),
        ("windsurf", ".windsurf/hooks.json", "pre_run_command", {"show_output": True}),
    ],
)
def test_reference_hosts_with_a_hooks_file(
    project: Path, env: dict[str, str], host: str, relative: str, event: str, fixed: dict[str, bool]
) -> None:
    path = install(host, "project", project, env)
    assert path == project / relative
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    (handler,) = hooks[event]
    assert f"--platform {host}" in handler["command"]
    assert {k: handler[k] for k in fixed} == fixed
    uninstall(host, "project", project, env)
    assert not path.exists()
    path.parent.mkdir(exist_ok=True)
    foreign = {"hooks": {event: [{"command": "./mine.sh"}]}}
    path.write_text(json.dumps(foreign) + "\n", encoding="utf-8")
    with pytest.raises(InstallError):
        plan_install(host, "project", project, env)


def test_install_names_a_reference_host_as_such(project: Path, env: dict[str, str]) -> None:
    notes = plan_install("cursor", "project", project, env).notes
    assert any("published reference only" in note for note in notes)
    assert not any(
        "published reference" in note
        for note in plan_install("droid", "project", project, env).notes
    )


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=300))
def test_only_a_hook_file_hookwise_wrote_is_taken_for_one(text: str) -> None:
    """script_command reads a file any repository may hold: random text is never hookwise's,
    and what install writes always is."""
    assert script_command("#!/bin/sh\n" + text) is None or MARK in text
    command = portable_command("cline")
    assert script_command(script_text(command, "cline", "/p/PreToolUse")) == command


OTHER_EVENTS = st.dictionaries(
    st.sampled_from(["PostToolUse", "Stop", "SessionStart", "Notification"]),
    st.lists(
        st.fixed_dictionaries(
            {
                "matcher": st.text(max_size=5),
                "hooks": st.lists(
                    st.fixed_dictionaries(
                        {"type": st.just("command"), "command": st.text(max_size=10)}
                    ),
                    max_size=2,
                ),
            }
        ),
        max_size=2,
    ),
    max_size=3,
)


@settings(max_examples=60, deadline=None)
@given(others=OTHER_EVENTS, indent=st.sampled_from([None, 1, 2, 4]))
def test_droid_top_level_edit_gives_the_file_back_byte_for_byte(
    others: dict[str, object], indent: int | None
) -> None:
    original = json.dumps(others, indent=indent) + "\n"
    desired = registrations("droid", ["PreToolUse"], portable_command("droid"), 10)
    added = edit_hooks(original, "hooks.json", desired, jsonc=False, top=True)
    value = json.loads(added.after or "")
    assert value["PreToolUse"][0]["hooks"][0]["command"] == portable_command("droid")
    assert {k: v for k, v in value.items() if k != "PreToolUse"} == others
    removed = edit_hooks(added.after, "hooks.json", [], jsonc=False, top=True)
    assert removed.after == original
