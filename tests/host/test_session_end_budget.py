"""Claude Code's SessionEnd hooks share one budget: 1.5 s, raised to the largest configured
``timeout`` (at most 60 s, plugin hooks excluded), replaced by
``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS``. Other events keep their own timeouts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hookwise.host.execute import ExecutionSettings, HookRun
from hookwise.host.system import HookSystem

SLOW = "sleep 4; echo late"


def _fire(
    tmp_path: Path, hooks: list[dict[str, Any]], env: dict[str, str] | None = None
) -> list[HookRun]:
    execution = ExecutionSettings(
        base_env={**os.environ, **(env or {})}, default_cwd=str(tmp_path), kill_grace_ms=100
    )
    system = HookSystem.from_hooks(
        {"SessionEnd": [{"hooks": hooks}]},
        dialect="claude",
        cwd=str(tmp_path),
        execution=execution,
    )
    return system.fire_sync("SessionEnd", {"reason": "exit"}).runs


def test_hooks_without_a_timeout_get_the_default_budget(tmp_path: Path) -> None:
    runs = _fire(tmp_path, [{"type": "command", "command": SLOW}])
    assert len(runs) == 1
    assert "late" not in (runs[0].stdout or "")
    assert 1_400 <= runs[0].duration_ms < 3_500  # killed at 1.5 s, not after its 600 s default


def test_a_configured_timeout_raises_the_budget_for_every_hook(tmp_path: Path) -> None:
    runs = _fire(
        tmp_path,
        [
            {"type": "command", "command": "sleep 2.5; echo second", "timeout": 3},
            {"type": "command", "command": "sleep 2.5; echo first"},
        ],
    )
    assert sorted((r.stdout or "").strip() for r in runs) == ["first", "second"]


def test_the_environment_variable_replaces_the_budget(tmp_path: Path) -> None:
    runs = _fire(
        tmp_path,
        [{"type": "command", "command": SLOW, "timeout": 30}],
        {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "300"},
    )
    assert "late" not in (runs[0].stdout or "")
    assert runs[0].duration_ms < 1_400


def test_other_events_keep_their_own_timeout(tmp_path: Path) -> None:
    system = HookSystem.from_hooks(
        {"Stop": [{"hooks": [{"type": "command", "command": "sleep 2; echo ok"}]}]},
        dialect="claude",
        cwd=str(tmp_path),
    )
    runs = system.fire_sync("Stop", {"stop_hook_active": False}).runs
    assert (runs[0].stdout or "").strip() == "ok"
