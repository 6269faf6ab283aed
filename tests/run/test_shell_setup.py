"""``hookwise install shell``: the user's shell starts every agent under ``hookwise run``, and
``hookwise uninstall shell`` gives the rc file back byte for byte."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.run import shell_setup
from tests.run.conftest import HOOKWISE, needs_namespaces


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HOOKWISE, *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def _env(home: Path, shell: str = "/bin/bash") -> dict[str, str]:
    return {"HOME": str(home), "SHELL": shell, "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}


@pytest.mark.parametrize(
    "before",
    [b"alias ll='ls -l'\n", b"export X=1", b"", None],
    ids=["newline", "no-final-newline", "empty", "missing"],
)
def test_install_then_uninstall_gives_the_bytes_back(tmp_path: Path, before: bytes | None) -> None:
    home = tmp_path / "home"
    home.mkdir()
    rc = home / ".bashrc"
    if before is not None:
        rc.write_bytes(before)
        rc.chmod(0o640)
    env = _env(home)
    done = _cli("install", "shell", env=env)
    assert done.returncode == 0, done.stderr
    text = rc.read_text()
    assert 'claude() { command hookwise run -- claude "$@"; }' in text
    assert (before or b"") in rc.read_bytes()
    again = _cli("install", "shell", env=env)
    assert "nothing to change" in again.stdout
    assert rc.read_text() == text
    if before is not None:
        assert oct(rc.stat().st_mode & 0o777) == oct(0o640)
    done = _cli("uninstall", "shell", env=env)
    assert done.returncode == 0, done.stderr
    if before:
        assert rc.read_bytes() == before
    else:
        assert not rc.exists()  # (an empty rc file and none behave the same)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_rc_content_survives_a_round_trip(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        rc = Path(directory) / ".zshrc"
        rc.write_bytes(data)
        shell_setup.write(shell_setup.plan_install(rc))
        shell_setup.write(shell_setup.plan_uninstall(rc))
        assert (rc.read_bytes() if rc.exists() else b"") == data


def test_the_shell_and_a_symlinked_rc_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "dotfiles").mkdir(parents=True)
    target = home / "dotfiles" / "zshrc"
    target.write_text("setopt autocd\n")
    (home / ".zshrc").symlink_to(target)
    assert _cli("install", "shell", env=_env(home, "/usr/bin/zsh")).returncode == 0
    assert (home / ".zshrc").is_symlink()  # the link stays; its target got the block
    assert "gemini() {" in target.read_text()
    fish = _env(home, "/usr/bin/fish")
    assert _cli("install", "shell", env=fish).returncode == 0
    conf = home / ".config/fish/conf.d/hookwise.fish"
    assert "function codex; command hookwise run -- codex $argv; end" in conf.read_text()
    assert _cli("uninstall", "shell", env=fish).returncode == 0
    assert not conf.exists()
    odd = _cli("install", "shell", env=_env(home, "/bin/tcsh"))
    assert odd.returncode == 2 and "--rc" in odd.stderr


def test_a_damaged_block_is_reported_not_guessed(tmp_path: Path) -> None:
    rc = tmp_path / ".bashrc"
    rc.write_text(f"x\n{shell_setup.BEGIN}\nclaude() {{ :; }}\n")  # the end line was deleted
    with pytest.raises(shell_setup.ShellSetupError, match="no closing line"):
        shell_setup.plan_uninstall(rc)


@needs_namespaces
def test_an_agent_started_from_the_shell_runs_confined(tmp_path: Path) -> None:
    """bash reads the rc file; `claude` is then the function, which starts the real `claude`
    (here a script on PATH) under `hookwise run`."""
    home = tmp_path / "home"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    home.mkdir()
    fake = bin_dir / "claude"
    fake.write_text('#!/bin/sh\necho "agent args: $* session: ${HOOKWISE_RUN:-none}"\n')
    fake.chmod(0o755)
    env = _env(home)
    env["PATH"] = f"{bin_dir}:{Path(HOOKWISE).parent}:{env['PATH']}"
    assert _cli("install", "shell", env=env).returncode == 0
    done = subprocess.run(
        ["bash", "-c", f"source {home / '.bashrc'}; claude -p hello"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "agent args: -p hello" in done.stdout
    assert "session: none" not in done.stdout
