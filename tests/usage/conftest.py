"""A fresh user: a temporary HOME and project, and ``hookwise`` run as a real process."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
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

    def at_terminal(self, *args: str, wait_for: str, timeout: float = 60) -> tuple[int, str]:
        """``hookwise ARGS`` on a terminal of its own (a pty): once its output shows
        ``wait_for``, Ctrl-C is typed. The exit status and everything it printed."""
        return self.at_program(HOOKWISE, *args, wait_for=wait_for, timeout=timeout)

    def at_program(self, *argv: str, wait_for: str, timeout: float = 60) -> tuple[int, str]:
        """``at_terminal`` for any program (``argv[0]`` a path)."""
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            try:
                os.chdir(self.project)
                os.execve(argv[0], list(argv), self.env)
            finally:
                os._exit(127)
        out = b""
        typed = False
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if not typed and wait_for.encode() in out:
                    time.sleep(0.3)  # past the line it printed: now waiting
                    os.write(fd, b"\x03")
                    typed = True
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        chunk = os.read(fd, 65536)
                    except OSError:  # EIO: the child closed the terminal
                        break
                    if not chunk:
                        break
                    out += chunk
            else:
                os.kill(pid, 9)
                raise AssertionError(f"{argv} still running: {out.decode(errors='replace')}")
        finally:
            _, status = os.waitpid(pid, 0)
            os.close(fd)
        text = out.decode(errors="replace").replace("\r\n", "\n")
        assert typed, text
        return os.waitstatus_to_exitcode(status), text


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
