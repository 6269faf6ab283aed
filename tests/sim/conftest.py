"""Helpers for simulator tests: write a scenario into a temporary workspace and play it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from hookwise.sim.context import SimOptions
from hookwise.sim.runner import SimResult, simulate_sync
from hookwise.sim.scenario import load_scenario


def play(tmp_path: Path, text: str, **options: Any) -> SimResult:
    """Play a scenario written in ``tmp_path`` (its workspace); the rollout stays there."""
    path = tmp_path / "scenario.yaml"
    path.write_text(textwrap.dedent(text))
    options.setdefault("rollout_path", tmp_path / "rollout.jsonl")
    options.setdefault("home", tmp_path / "home")
    return simulate_sync(load_scenario(path), SimOptions(**options))


def records(result: SimResult, name: str, turn: int | None = None) -> list[dict[str, Any]]:
    out = []
    for event in result.events:
        if event["type"] == "host" and event["name"] == name:
            data = event["data"]
            if turn is None or data.get("turn") == turn:
                out.append(data)
    return out


def fired(result: SimResult, event: str, turn: int | None = None) -> list[dict[str, Any]]:
    return [r for r in records(result, "hook_event", turn) if r["event"] == event]


def answer(obj: dict[str, Any]) -> str:
    """A hook command that prints ``obj`` as its JSON answer (and drains stdin)."""
    return f"cat >/dev/null; printf '%s' {_sh(json.dumps(obj))}"


def emit(obj: dict[str, Any]) -> str:
    """A shell command printing ``obj`` as JSON (for use after a test like ``grep -q``)."""
    return f"printf '%s' {_sh(json.dumps(obj))}"


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def failures(result: SimResult) -> list[str]:
    return [f"{r.expectation.describe()}: {r.message}" for r in result.expectations if not r.passed]


def play_obj(tmp_path: Path, scenario: dict[str, Any], **options: Any) -> SimResult:
    """Play a scenario given as a Python object (written as YAML first)."""
    import yaml

    scenario.setdefault("settings", "none")
    return play(tmp_path, yaml.safe_dump(scenario, sort_keys=False), **options)


def hooks_for(event: str, command: str, matcher: str | None = None) -> dict[str, Any]:
    definition: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        definition["matcher"] = matcher
    return {event: [definition]}
