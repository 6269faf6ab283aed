"""The corpus cases and the missing-tool check the per-session escape tests share
(test_escapes_s26.py, test_escapes_s27.py): each reads its own YAML and tool list."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from tests.policy.test_unverifiable import _missing


def cases(data: dict[str, Any], part: str) -> list[Any]:
    """(command, starter class) of every class's ``part`` ("block" or "pass")."""
    return [
        pytest.param(command, bool(body.get("starter")), id=f"{klass}-{index:02d}")
        for klass, body in data["classes"].items()
        for index, command in enumerate(body[part], start=1)
    ]


def absent(command: str, tools: tuple[str, ...]) -> str | None:
    """A program of ``tools`` (or of the shared list) the command needs that is missing."""
    words = command.replace("|", " ").replace(";", " ").replace("(", " ").split()
    found = next((t for t in tools if t in words and shutil.which(t) is None), None)
    return found or _missing(command)
