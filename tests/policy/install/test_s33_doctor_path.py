"""Session 33, issue 23 (left open in s32 #2): ``hookwise doctor`` names each PATH directory
before the real ``bash``, ``sh``, ``hookwise``, ``node`` or ``python3`` that this user, and
so an agent's tool call, can write. One allowed call wrote ``~/.local/bin/bash``, first on
the PATH, and the real Gemini CLI (which runs every hook with ``bash -c`` from PATH) ran a
denied command. Real runs of ``hookwise doctor`` (text and ``--json``) with such a PATH;
the planted ``bash`` is then run by a shell searching that PATH, as a host's would be.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
HOOKWISE = str(BIN / "hookwise")

pytestmark = pytest.mark.skipif(
    shutil.which("bash") is None or sys.platform == "win32", reason="needs bash on PATH"
)


def _real(name: str) -> str:
    found = shutil.which(name, path="/usr/bin:/bin")
    assert found, name
    return os.path.dirname(found)


def _doctor(home: Path, path: str, *options: str) -> subprocess.CompletedProcess[str]:
    project = home.parent / "proj"
    project.mkdir(exist_ok=True)
    env = {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [HOOKWISE, "doctor", "--host", "claude", "--no-self-test", *options], cwd=project,
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_writable_directory_before_the_shells_is_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = home / ".local" / "bin"
    first.mkdir(parents=True)
    later = tmp_path / "later"
    later.mkdir()
    path = f"{first}:{BIN}:/usr/bin:/bin:{later}"
    out = _doctor(home, path)
    lines = [line for line in out.stdout.splitlines() if "is on PATH before" in line]
    mine = [line for line in lines if f"WARN  {first} is on PATH" in line]
    assert mine, out.stdout[-3000:]
    said = mine[0]
    assert f"bash (found in {_real('bash')})" in said and f"sh (found in {_real('sh')})" in said
    assert "hookwise (found in" in said and str(BIN) in said, said
    assert "Move it after" in said and "`hookwise run`" in said, said
    assert not any(str(later) in line for line in lines), lines  # (after the real ones)
    data = json.loads(_doctor(home, path, "--json").stdout)
    found = [c for c in data["policy"]["checks"] if c["name"] == "PATH"]
    assert any(c["status"] == "warn" and str(first) in c["detail"] for c in found), found
    # what the warning is about: a bash put there is the one a host's `bash -c` runs
    (first / "bash").write_text("#!/bin/sh\necho planted\n")
    (first / "bash").chmod(0o755)
    ran = subprocess.run(
        ["/bin/sh", "-c", "bash -c 'echo real'"], env={"PATH": path}, capture_output=True,
        text=True, timeout=30, check=False,
    )  # fmt: skip
    assert ran.stdout.strip() == "planted", ran


def test_an_absent_directory_that_can_be_made_is_named(tmp_path: Path) -> None:
    """``~/.local/bin`` on PATH before it exists: the first write makes it (Debian's and
    Ubuntu's ``~/.profile`` add it to PATH when it exists at login)."""
    home = tmp_path / "home"
    home.mkdir()
    absent = home / ".local" / "bin"
    out = _doctor(home, f"{absent}:{absent}:/usr/bin:/bin")  # (named twice: one warning)
    assert f"WARN  {absent} (absent: it can be created) is on PATH before the real" in (
        out.stdout
    ), out.stdout[-3000:]
    named = [line for line in out.stdout.splitlines() if f"WARN  {absent} " in line]
    assert len(named) == 1 and named[0].count("bash (found in") == 1, named


def test_no_warning_for_a_path_of_system_directories(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    out = _doctor(home, "/usr/bin:/bin")
    if os.geteuid() == 0 and os.access("/usr/bin", os.W_OK):
        # root can write /usr/bin, but it holds the real programs: nothing comes before them
        assert "WARN  /usr/bin is on PATH" not in out.stdout, out.stdout[-3000:]
    else:
        assert "is on PATH before" not in out.stdout, out.stdout[-3000:]
