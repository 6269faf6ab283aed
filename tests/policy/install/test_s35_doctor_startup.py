"""Red team s35 #2: the hook's own ``bash -c`` reads ``~/.bashrc`` when SSH_CLIENT is set
and SHLVL is not (Debian's SSH_SOURCE_BASHRC). One start-up line that exits when the
command names hookwise made every later hook exit 0. ``hookwise doctor`` names each line
of a start-up file a host's hook shell reads (file and line), up to the non-interactive
guard; the effect is shown with the real bash, as a host starts a hook."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.policy.install.startup_check import running_lines, startup_checks

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
EXIT_LINE = 'case "$BASH_EXECUTION_STRING" in *ookwis*) exit 0;; esac'
DEBIAN_GUARD = "case $- in\n    *i*) ;;\n      *) return;;\nesac\n"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _hook_shell(home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """``bash -c`` as Gemini CLI starts a hook, from a host started over ssh."""
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SSH_CLIENT": "10.0.0.1 5000 22", **extra}
    return subprocess.run(
        ["bash", "-c", "echo the hookwise hook ran"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_the_exit_line_is_real_and_doctor_names_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text(f"# mine\nexport EDITOR=vim\n{EXIT_LINE}\n")
    ran = _hook_shell(home)
    if "hook ran" in ran.stdout:
        pytest.skip("this bash does not read ~/.bashrc for `bash -c` under ssh")
    assert ran.returncode == 0 and ran.stdout == ""  # (the hook never ran, and exit 0)
    assert "hook ran" in _hook_shell(home, SHLVL="1").stdout  # (what `hookwise run` sets)
    found = startup_checks({"HOME": str(home)})
    assert len(found) == 1, found
    status, detail = found[0]
    assert status == "warn"
    assert f"{home}/.bashrc:3: {EXIT_LINE}" in detail and f"{home}/.bashrc:2:" in detail
    assert "Gemini CLI" in detail
    # the real doctor says it too
    project = tmp_path / "proj"
    project.mkdir()
    out = subprocess.run(
        [HOOKWISE, "doctor", "--host", "gemini", "--no-self-test"],
        cwd=project,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert f".bashrc:3: {EXIT_LINE}" in out.stdout, out.stdout[-3000:]


def test_lines_after_the_non_interactive_guard_are_not_named(tmp_path: Path) -> None:
    rc = tmp_path / ".bashrc"
    rc.write_text(f"# ~/.bashrc\n\n{DEBIAN_GUARD}{EXIT_LINE}\nalias ll='ls -l'\n")
    assert running_lines(str(rc)) == []
    assert "hook ran" in _hook_shell(tmp_path).stdout  # (bash returns at the guard)
    rc.write_text(f'[ -z "$PS1" ] && return\n{EXIT_LINE}\n')
    assert running_lines(str(rc)) == []
    rc.write_text(f"{EXIT_LINE}\n{DEBIAN_GUARD}")
    assert running_lines(str(rc)) == [(1, EXIT_LINE)]


def test_a_file_named_by_bash_env_is_read_before_every_hook(tmp_path: Path) -> None:
    named = tmp_path / "env.sh"
    named.write_text("exit 0\n")
    found = startup_checks({"HOME": str(tmp_path / "none"), "BASH_ENV": str(named)})
    assert len(found) == 1 and f"{named}:1: exit 0" in found[0][1], found
    assert "BASH_ENV" in found[0][1]
