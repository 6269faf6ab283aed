"""Fixtures for the policy engine: an isolated home, cache and audit log per test."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.trust.store import Trust


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, XDG dirs, cache and managed policy all inside tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".state"))
    monkeypatch.setenv("HOOKWISE_MANAGED_POLICY", str(tmp_path / "managed.yaml"))
    for name in (
        "HOOKWISE_POLICY",
        "HOOKWISE_USER_POLICY",
        "HOOKWISE_PROJECT_DIR",
        "HOOKWISE_CACHE_DIR",
        "HOOKWISE_AUDIT_LOG",
        "HOOKWISE_ON_ERROR",
    ):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def compile_text(text: str, scope: str = "project", path: str = "policy.yaml") -> dict[str, Any]:
    """Compile one policy text (dedented) as the only scope, trusted."""
    return compile_sources(
        [(scope, path, textwrap.dedent(text).encode())], trust=Trust.everything_trusted()
    )


def rule_ids(policy: dict[str, Any]) -> list[str]:
    return [r["id"] for r in policy["rules"]]
