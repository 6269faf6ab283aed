"""A world to confine: a home and a project holding every kind of guarded file, and
``hookwise run`` started on it as a real process (the console script of this checkout).

``World.snapshot()`` hashes every guarded file and directory (type, content, listing), so a
test compares it before and after an attack. Tests need user namespaces; where the kernel
refuses them they skip, except under CI, where they fail.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookwise.run.available import available

ROOT = Path(__file__).resolve().parents[2]
HOOKWISE = str(Path(sys.executable).parent / "hookwise")

_REASON = available()
if _REASON is not None and os.environ.get("CI"):
    raise RuntimeError(f"hookwise run cannot confine on this CI machine: {_REASON}")
needs_namespaces = pytest.mark.skipif(_REASON is not None, reason=str(_REASON))

POLICY = (
    b"version: 1\nrules:\n  - id: no-rm\n    match: {command: {program: rm}}\n    action: deny\n"
)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class World:
    """tmp_path/home and tmp_path/project (a git repository), with their guarded files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.project = root / "project"
        self.outside = root / "outside"  # neither guarded nor the project: the agent's scratch
        self.outside.mkdir(parents=True)
        home, project = self.home, self.project
        self.user_policy = home / ".config/hookwise/policy.yaml"
        self.trust = home / ".config/hookwise/trust.json"
        self.launcher = home / ".local/share/hookwise/hook"
        self.snapshot_file = home / ".local/share/hookwise/hook.snapshot"
        self.cache = home / ".cache/hookwise/rules-0123.cache"
        self.audit_log = home / ".local/state/hookwise/audit.jsonl"
        self.project_policy = project / ".hookwise/policy.yaml"
        self.claude_user = home / ".claude/settings.json"
        self.claude_project = project / ".claude/settings.json"
        self.gemini_user = home / ".gemini/settings.json"
        self.gemini_folders = home / ".gemini/trustedFolders.json"
        self.codex_config = home / ".codex/config.toml"
        self.codex_hooks = home / ".codex/hooks.json"
        _write(self.user_policy, POLICY)
        _write(self.trust, b'{"version": 1, "files": {}}\n')
        _write(self.launcher, b'#!/bin/sh\nexec hookwise hook "$@"\n')
        _write(self.snapshot_file, b"\x00snapshot bytes")
        _write(self.cache, b"compiled rules")
        _write(self.audit_log, b'{"time": "2026-01-01T00:00:00.000Z", "decision": "deny"}\n')
        _write(self.project_policy, POLICY)
        hooks = b'{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookwise hook"}]}]}}\n'
        for path in (self.claude_user, self.claude_project, self.gemini_user, self.codex_hooks):
            _write(path, hooks)
        _write(self.gemini_folders, b'{"/work": "TRUST_FOLDER"}\n')
        _write(self.codex_config, b"[features]\nhooks = true\n")
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        (project / "README.md").write_text("a project\n")
        self.env = {
            "HOME": str(home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com",
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def guarded(self) -> list[Path]:
        """The roots hashed by :meth:`snapshot` (missing ones count as missing)."""
        home, project = self.home, self.project
        return [
            home / ".config/hookwise",
            home / ".local/share/hookwise",
            home / ".cache/hookwise",
            home / ".local/state/hookwise",
            self.claude_user,
            home / ".claude/settings.local.json",
            home / ".gemini",
            home / ".codex",
            project / ".hookwise",
            project / ".claude",
            project / ".gemini",
            project / ".codex",
            project / ".mcp.json",
            home / ".ssh",
        ]

    def snapshot(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for root in self.guarded():
            for path, kind in _walk(root):
                out[str(path)] = kind
        return out

    def run_outside(self, script: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """``sh -c script`` in the project with the world's environment, unconfined."""
        return subprocess.run(
            ["sh", "-c", script],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=self.project,
            timeout=timeout,
            check=False,
        )

    def run(
        self,
        script: str,
        *args: str,
        timeout: float = 60,
        **kwargs: object,
    ) -> subprocess.CompletedProcess[str]:
        """``hookwise run [args] -- sh -c script`` in the project, as a real process."""
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            [HOOKWISE, "run", *args, "--", "sh", "-c", script],
            check=False,
            cwd=kwargs.pop("cwd", self.project),
            env=kwargs.pop("env", self.env),
            capture_output=kwargs.pop("capture_output", True),
            text=True,
            timeout=timeout,
            **kwargs,
        )


def _walk(root: Path) -> Iterator[tuple[Path, str]]:
    try:
        info = os.lstat(root)
    except FileNotFoundError:
        yield root, "missing"
        return
    if stat.S_ISDIR(info.st_mode):
        names = sorted(os.listdir(root))
        yield root, "dir:" + ",".join(names)
        for name in names:
            yield from _walk(root / name)
    elif stat.S_ISREG(info.st_mode):
        yield root, "file:" + hashlib.sha256(root.read_bytes()).hexdigest()
    elif stat.S_ISLNK(info.st_mode):
        yield root, "link:" + os.readlink(root)
    else:
        yield root, f"other:{stat.S_IFMT(info.st_mode):o}"


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)
