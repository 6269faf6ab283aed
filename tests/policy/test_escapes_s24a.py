"""Session 24a's classes (tests/policy/corpus/escapes_s24a.yaml): red team s24's findings 1,
2, 3, 5 and 7. Each command first does its damage in real bash against a throwaway world
(test_unverifiable's, whose remote's main also counts as damaged once it no longer holds
the commit `two`: a rewind there is what a force push does), then the hook must deny or
ask; the near misses must get no decision. A class marked `starter` is judged as the red
team judged it: the starter with every pack, in a project under /tmp."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.tools.starter import starter_policy
from tests.policy.conftest import compile_text
from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import _missing, damage, packs, verdict, world

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "escapes_s24a.yaml").read_text())
STARTER_HOME, STARTER_CWD = "/tmp/rt/home", "/tmp/rt/work/proj"  # the red team's places


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


def _verdict(command: str, starter_class: bool, packs: dict[str, Any],
             starter: dict[str, Any]) -> tuple[str, str]:  # fmt: skip
    if not starter_class:
        return verdict(command, packs)
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=STARTER_CWD
    )
    found = decide(payload, starter, "claude", {"HOME": STARTER_HOME}, now=0.0).decision
    assert found is not None
    return found.decision or "none", found.reason


def _rewound(remote: Path | None) -> bool:
    """The remote's main no longer holds the commit `two` (moved back, or gone)."""
    if remote is None:
        return False
    log = subprocess.run(["git", "log", "--format=%s", "main"], cwd=remote,
                         capture_output=True, text=True, check=False)  # fmt: skip
    return "two" not in log.stdout.split()


def in_bash(command: str, root: Path) -> list[str]:
    place = world(root, "git" in command or "prog2" in command)
    try:
        done = subprocess.run(["bash", "-c", command], cwd=place["project"], env=place["env"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        output = ""
    found = damage(place, output)
    if _rewound(place["remote"]):
        found.append("remote rewound")
    return found


@pytest.mark.parametrize(("command", "starter_class"), _cases("block"))
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path,
    packs: dict[str, Any],
    starter: dict[str, Any],
    command: str,
    starter_class: bool,
) -> None:
    missing = _missing(command) or next(
        (
            t
            for t in ("cc", "gdb", "7za", "rsync")
            if t in command.split() and shutil.which(t) is None
        ),
        None,
    )
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
