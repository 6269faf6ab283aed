"""The launcher's interpreter never writes a ``.pyc`` (red team s31 run #6): a file size
limit a tool call set on its host cut a stale module's ``.pyc`` short, Python renamed it
into place, and every later hook failed to start until the file was removed. The flags
the launcher's first line gives are run for real here, in both of its forms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.policy.install import launcher as launcher_module

PYTHON = sys.executable  # (the sh form's test changes sys.executable)


@pytest.mark.parametrize("form", ["shebang", "sh"])
def test_the_launchers_interpreter_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    if form == "sh":  # (an interpreter path the shebang cannot hold)
        monkeypatch.setattr(launcher_module.sys, "executable", sys.executable + " ")
    text = launcher_module.launcher_text(str(tmp_path / "hook"))
    first = text.splitlines()[0]
    if form == "shebang":
        assert first.startswith("#!") and not first.startswith("#!/bin/sh"), first
        flags = first.split()[1:]
    else:
        exec_line = next(line for line in text.splitlines() if line.startswith("exec "))
        flags = [w for w in exec_line.split()[2:] if w.startswith("-") or w == "utf8"]
    (tmp_path / "mod.py").write_text("X = 1\n")
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import mod; print(sys.flags.dont_write_bytecode)"
    done = subprocess.run(
        [PYTHON, *flags, "-c", probe, str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "1", (flags, done.stdout, done.stderr)
    assert not (tmp_path / "__pycache__").exists(), flags
