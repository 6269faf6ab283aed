"""Session 27's classes (tests/policy/corpus/escapes_s27.yaml): red team s27's namerefs,
variables bash sets from the line, tilde prefixes and IFS joins the line feeds, programs
that print what they were thought not to, copies into process substitutions, searches
narrowed to secrets, names fed to readers of names, javac, make and compilers under other
names. Each command first does its damage in real bash against a throwaway world
(test_escapes_s25b's), then the hook must deny or ask; the near misses get no decision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.policy.corpus_support import CORPUS
from tests.policy.escape_classes import absent, cases
from tests.policy.test_escapes_s24a import _verdict, starter
from tests.policy.test_escapes_s25b import in_bash
from tests.policy.test_unverifiable import packs

__all__ = ["packs", "starter"]  # the module fixtures, shared

DATA = yaml.safe_load((CORPUS / "escapes_s27.yaml").read_text())
# programs of the classes that may be missing here: the case is skipped without them
TOOLS = ("cpio", "javac", "java", "kubectl", "make-first-existing-target", "strings",
         "x86_64-linux-gnu-cpp-12", "c89-gcc", "x86_64-linux-gnu-gcc", "gcc-12")  # fmt: skip


def _cases(part: str) -> list[Any]:
    return cases(DATA, part)


def _absent(command: str) -> str | None:
    return absent(command, TOOLS)


@pytest.mark.parametrize(("command", "starter_class"), _cases("block"))
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path,
    packs: dict[str, Any],
    starter: dict[str, Any],
    command: str,
    starter_class: bool,
) -> None:
    missing = _absent(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert in_bash(command, tmp_path), command
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
