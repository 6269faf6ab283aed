"""A repository can plant a FIFO, a device link or a huge file where a settings file goes.

Loading such a project must end promptly with a warning naming the file, never hang (a FIFO
blocks a plain read until someone writes) and never read without end (``/dev/zero``):
checked through ``hookwise scan`` and ``hookwise hooks list`` in real processes, and on the
reader itself.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.config.files import read_file_bytes

HOOKWISE = str(Path(sys.executable).parent / "hookwise")

PLANTED = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".agent/hook.toml",
    ".mcp.json",
)


def _plant(project: Path, kind: str) -> None:
    for relative in PLANTED:
        target = project / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == "fifo":
            os.mkfifo(target)
        else:
            target.symlink_to("/dev/zero")


def _run(args: list[str], project: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [HOOKWISE, *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # a hang fails here instead of stalling the suite
        check=False,
    )


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize(
    "args", [["scan", ".", "--format", "json"], ["hooks", "list", "--json"]], ids=["scan", "list"]
)
def test_planted_special_files_are_reported_not_read(
    tmp_path: Path, kind: str, args: list[str]
) -> None:
    project, home = tmp_path / "repo", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    _plant(project, kind)
    done = _run(args, project, home)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    said = done.stdout + done.stderr
    assert "settings.json" in said  # the planted file is named in a warning


def test_reader_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_file_bytes(fifo)
    with pytest.raises(IsADirectoryError):
        read_file_bytes(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_file_bytes(tmp_path / "missing")
    with pytest.raises(OSError, match="not a regular file"):
        read_file_bytes("/dev/zero")


def test_reader_caps_the_size(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2048)
    with pytest.raises(OSError) as caught:
        read_file_bytes(big, max_bytes=1024)
    assert caught.value.errno == errno.EFBIG
    assert read_file_bytes(big, max_bytes=4096) == b" " * 2048
