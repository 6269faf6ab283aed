"""Fixtures of the install tests that write a host's files: a project with a policy that
denies ``echo``, and a home of its own (every XDG directory under it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

POLICY = """\
version: 1
rules:
  - id: no-echo
    match: {tool: shell, command: {program: [echo]}}
    action: deny
    reason: "no echo"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / ".hookwise").mkdir(parents=True)
    (proj / ".hookwise" / "policy.yaml").write_text(POLICY, encoding="utf-8")
    return proj


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
