"""Session 22's red team, by class (tests/policy/corpus/redteam_s22.yaml): each command first
does its damage in real bash against a throwaway world (deletes ../victim, force-pushes,
prints the planted key), then the hook with every pack must deny or ask; the near misses
of each class must get no decision. What still gets through is a strict xfail with why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import _missing, in_bash, packs, verdict

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "redteam_s22.yaml").read_text())
BLOCK = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body["block"], start=1)
]
PASS = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body.get("pass", []), start=1)
]
XFAIL = [
    pytest.param(command, id=f"{klass}-{index:02d}",
                 marks=pytest.mark.xfail(strict=True, reason=body["reason"]))
    for klass, body in DATA["xfail"].items()
    for index, command in enumerate(body["block"], start=1)
]  # fmt: skip


def _blocked(tmp_path: Path, packs: dict[str, Any], command: str) -> None:
    missing = _missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert in_bash(command, tmp_path), f"bash did no damage: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize("command", BLOCK)
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    _blocked(tmp_path, packs, command)


@pytest.mark.parametrize("command", XFAIL)
def test_what_still_gets_through(tmp_path: Path, packs: dict[str, Any], command: str) -> None:
    _blocked(tmp_path, packs, command)


@pytest.mark.parametrize("command", PASS)
def test_near_misses_pass(packs: dict[str, Any], command: str) -> None:
    assert verdict(command, packs) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body.get("pass"), klass
    for klass, body in DATA["xfail"].items():
        assert body["reason"] and body["block"], klass
