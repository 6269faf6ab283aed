"""A registered command whose launcher cannot be started blocks (red team s32 run #5).

One allowed tool call, ``sleep 60 3>>$INTERPRETER &``, keeps the launcher's interpreter open
for writing without writing a byte; the kernel then refuses to start it (ETXTBSY), the
shell's ``exec`` failed with status 126, and every host took that as a non-blocking error and
ran the tool. The registered command now ends any failed ``exec`` in exit 2, saying why,
under each host's shell (dash for Claude Code's ``/bin/sh``, bash for Gemini CLI and Codex).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookwise.config.hookwise_command import portable_argv
from hookwise.policy.trust.scopes import launcher_path

SHELLS = [s for s in ("dash", "bash") if shutil.which(s)]


def launcher_on(interpreter: Path, home: Path) -> Path:
    launcher = Path(launcher_path({"HOME": str(home)}))
    launcher.parent.mkdir(parents=True, exist_ok=True)
    launcher.write_text(f"#!{interpreter} -ISXutf8\nimport sys\n")
    launcher.chmod(0o755)
    return launcher


def start(shell: str, home: Path, path: str = "/usr/bin:/bin") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shell, *portable_argv("claude")[1:]],
        input="{}",
        capture_output=True,
        text=True,
        env={"HOME": str(home), "PATH": path},
        cwd=home,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("shell", SHELLS)
def test_an_interpreter_held_open_for_writing_blocks(shell: str, tmp_path: Path) -> None:
    interpreter = tmp_path / "python3"
    shutil.copy2("/bin/true", interpreter)
    launcher = launcher_on(interpreter, tmp_path)
    assert start(shell, tmp_path).returncode == 0  # control: /bin/true ran as the launcher
    writer = os.open(interpreter, os.O_WRONLY | os.O_APPEND)  # the attack: nothing written
    try:
        with pytest.raises(OSError) as busy:  # the kernel refuses to start it
            subprocess.run([str(launcher)], capture_output=True, check=False)
        assert busy.value.errno == errno.ETXTBSY
        result = start(shell, tmp_path)
    finally:
        os.close(writer)
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "could not be started" in result.stderr and str(launcher) in result.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_any_exec_failure_of_the_launcher_blocks(shell: str, tmp_path: Path) -> None:
    """The same end for any other failed exec: an interpreter that passes the command's
    ``[ -x ]`` check but is no program (a directory: EACCES)."""
    interpreter = tmp_path / "python3"
    interpreter.mkdir()
    launcher_on(interpreter, tmp_path)
    result = start(shell, tmp_path)
    assert result.returncode == 2, (result.returncode, result.stderr)


@pytest.mark.parametrize("shell", SHELLS)
def test_a_shopt_on_path_is_never_run(shell: str, tmp_path: Path) -> None:
    """Turning on bash's execfail must not look ``shopt`` up on PATH under dash, where a
    planted ``shopt`` would run as the hook."""
    planted = tmp_path / "bin"
    planted.mkdir()
    marker = tmp_path / "ran"
    (planted / "shopt").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (planted / "shopt").chmod(0o755)
    interpreter = tmp_path / "python3"
    shutil.copy2("/bin/true", interpreter)
    launcher_on(interpreter, tmp_path)
    start(shell, tmp_path, path=f"{planted}:/usr/bin:/bin")
    assert not marker.exists()
