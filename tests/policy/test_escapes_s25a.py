"""Session 25a's classes (tests/policy/corpus/escapes_s25a.yaml): red team s25's parser,
wrapper and code-from-data findings. Each command first does its damage in real bash
against test_escapes_s24a's throwaway world, then the hook must deny or ask; the near misses
must get no decision."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from hookwise.policy.tools.starter import starter_policy
from tests.policy.conftest import compile_text
from tests.policy.corpus_support import CORPUS
from tests.policy.test_escapes_s24a import STARTER_HOME, _verdict, in_bash
from tests.policy.test_unverifiable import _missing, packs

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "escapes_s25a.yaml").read_text())


def _cases(part: str) -> list[Any]:
    return [
        pytest.param(command, bool(body.get("starter")), id=f"{klass}-{index:02d}")
        for klass, body in DATA["classes"].items()
        for index, command in enumerate(body[part], start=1)
    ]


@pytest.fixture(scope="module")
def starter() -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", STARTER_HOME)
        return compile_text(starter_policy(["all"]))


def _tool_missing(command: str) -> str | None:
    words = command.replace("\n", " ").replace("(", " ").replace("|", " ").split()
    return _missing(command) or next(
        (t for t in DATA["tools"] if t in words and shutil.which(t) is None), None
    )


@pytest.mark.parametrize(("command", "starter_class"), _cases("block"))
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path,
    packs: dict[str, Any],
    starter: dict[str, Any],
    command: str,
    starter_class: bool,
) -> None:
    missing = _tool_missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert in_bash(command, tmp_path), f"bash did no damage: {command}"
    decision, reason = _verdict(command, starter_class, packs, starter)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize(("command", "starter_class"), _cases("pass"))
def test_near_misses_pass(
    packs: dict[str, Any], starter: dict[str, Any], command: str, starter_class: bool
) -> None:
    assert _verdict(command, starter_class, packs, starter) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body["pass"], klass
