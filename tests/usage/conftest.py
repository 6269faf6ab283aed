"""A fresh user: a temporary HOME and project, and ``hookwise`` run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HOOKWISE = str(Path(sys.executable).parent / "hookwise")


@dataclass
class User:
    home: Path
    project: Path
    env: dict[str, str]

    def run(
        self, *args: str, cwd: Path | None = None, stdin: str = "", check: int | None = 0
    ) -> subprocess.CompletedProcess[str]:
        """``hookwise ARGS`` as typed in a shell; ``check``: the exit code expected."""
        result = subprocess.run(  # noqa: PLW1510 (the exit code is the subject)
            [HOOKWISE, *args],
            cwd=cwd or self.project,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "Traceback" not in result.stderr, result.stderr
        if check is not None:
            assert result.returncode == check, (args, result.stdout, result.stderr)
        return result


@pytest.fixture
def user(tmp_path: Path) -> Iterator[User]:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    (project / ".git").mkdir()  # a repository: the project root
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["PATH"] = f"{Path(HOOKWISE).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        HOOKWISE_MANAGED_POLICY=str(tmp_path / "managed-policy.yaml"),
        NO_COLOR="1",
    )
    yield User(home, project, env)
