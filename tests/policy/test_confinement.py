"""``settings.require_confinement``: tool calls of an agent not started by ``hookwise run``
are denied, and setting the variables by hand does not pass for confinement.

The confined side (a real ``hookwise run``) is in tests/run/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.policy import confinement
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.scopes import config_home, trust_store_path

HOOKWISE = str(Path(sys.executable).parent / "hookwise")


def _env(home: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".state"),
        "HOOKWISE_MANAGED_POLICY": str(home / "managed.yaml"),
        "LANG": "C.UTF-8",
    }


def _decision(env: dict[str, str], cwd: Path) -> tuple[str, str]:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": "ls"}, cwd=str(cwd)
    )
    done = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return "none", ""
    out = json.loads(done.stdout)["hookSpecificOutput"]
    return out["permissionDecision"], out.get("permissionDecisionReason", "")


def test_the_hook_and_the_store_agree_on_the_configuration_directory(tmp_path: Path) -> None:
    for env in (
        {"HOME": str(tmp_path)},
        {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg")},
        {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg") + "/"},
    ):
        assert confinement.config_dir(env) == str(Path(config_home(env)) / "hookwise")
        assert str(Path(trust_store_path(env)).parent) == confinement.config_dir(env)


def test_an_unconfined_agent_is_denied_when_the_user_requires_confinement(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    user = home / ".config" / "hookwise"
    user.mkdir(parents=True)
    env = _env(home)
    assert _decision(env, tmp_path)[0] == "none"  # (the control: nothing required)
    (user / "policy.yaml").write_text("version: 1\nsettings:\n  require_confinement: true\n")
    decision, reason = _decision(env, tmp_path)
    assert decision == "deny"
    assert "hookwise run -- " in reason and "HOOKWISE_RUN" in reason


@pytest.mark.parametrize("session_dir", ["writable", "missing", "other-session"])
def test_the_variables_set_by_hand_are_not_confinement(tmp_path: Path, session_dir: str) -> None:
    """`export HOOKWISE_RUN=1 HOOKWISE_RUN_AUDIT=...` from an unconfined shell: the session
    directory they name is writable here (or absent, or another session's)."""
    home = tmp_path / "home"
    user = home / ".config" / "hookwise"
    user.mkdir(parents=True)
    (user / "policy.yaml").write_text("version: 1\nsettings:\n  require_confinement: true\n")
    directory = tmp_path / "hookwise-run-0"
    if session_dir != "missing":
        directory.mkdir()
    socket = "s2.sock" if session_dir == "other-session" else "s1.sock"
    env = {**_env(home), "HOOKWISE_RUN": "s1", "HOOKWISE_RUN_AUDIT": f"{directory}/{socket}"}
    decision, reason = _decision(env, tmp_path)
    assert decision == "deny", reason
    assert not confinement.confinement_status(env)[0]


def test_a_repository_cannot_require_confinement(tmp_path: Path) -> None:
    """User and managed scopes only: a project turning it on is ignored (it would lock out
    everyone who clones it), trusted or not."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "repo"
    (project / ".hookwise").mkdir(parents=True)
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nsettings:\n  require_confinement: true\n"
    )
    assert _decision(_env(home), project)[0] == "none"
