"""Red team s32's shell findings (corpus/redteam_s32_open.tsv: 138 commands that did their
damage in real bash while the hook allowed them; fixed in session 32) through the hook
again, row by row, in the red team's tree (redteam_tree.red_tree). Each row first does its
damage in real bash in a fresh copy of one tree built for the module (a secret printed,
``../victim`` deleted, the bare origin written or removed, a guard file written or
removed, the host's settings created), then the hook, judging in a tree of its own compiled
once for the module, must deny or ask. The friction rows must not get stricter than the
table's answer. A row whose tool this machine lacks (IPython, boto3, tclsh...) or that
sends to the red team's listener is judged only (and JUDGED_ONLY)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV, damage, guards, judging, red_tree

RED_ROOT = "/tmp/rt32s"
# rows judged only: venv installing pip takes half a minute (the same clear is done by its
# neighbours with --without-pip)
JUDGED_ONLY = frozenset(["python3 -m venv --clear ../victim"])
_STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}


def _table() -> list[list[str]]:
    lines = (CORPUS / "redteam_s32_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def _rows(friction: bool) -> list[Any]:
    return [
        pytest.param(row[1], row[2], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(_table(), 1)
        if row[0].startswith("friction") == friction
    ]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tree for the module; each row runs in a copy of it."""
    root = tmp_path_factory.mktemp("s32tree") / "rt32s"
    red_tree(root)
    return root


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Any]]:
    """The hook's answer in a tree of its own, the policy compiled once (no row has
    several calls, so no row changes it)."""
    with judging(tmp_path_factory.mktemp("s32judged") / "rt32s", RED_ROOT) as decided:
        yield decided


def test_the_table_has_every_class_and_no_several_call_row() -> None:
    rows = _table()
    assert len([r for r in rows if not r[0].startswith("friction")]) == 138
    assert {r[0][0] for r in rows if not r[0].startswith("friction")} == set("ABCDEFGHIJKLMNOPQ")
    assert not [r for r in rows if " ⟫ " in r[1]]


@pytest.mark.parametrize(("command", "answer"), _rows(friction=False))
def test_the_row_does_its_damage_in_bash_and_the_hook_blocks_it(
    command: str, answer: str, tmp_path: Path, pristine: Path, judge: Any
) -> None:
    root = tmp_path / "rt32s"  # (its parent is TMPDIR: `$(mktemp -d)/../rt32s/...` is it)
    shutil.copytree(pristine, root, symlinks=True)
    before = guards(root)
    line = command.replace(RED_ROOT, str(root))
    env = {"PATH": os.environ["PATH"], "HOME": str(root / "work" / "home"),
           "TMPDIR": str(tmp_path), **GIT_ENV}  # fmt: skip
    if "127.0.0.1:8141" not in line and command not in JUDGED_ONLY:  # (a send needs the
        # red team's listener)
        done = subprocess.run(["bash", "-c", line], cwd=root / "work" / "proj", env=env,
                              timeout=60, stdin=subprocess.DEVNULL, capture_output=True,
                              check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
        if not any(sign in output for sign in ABSENT):
            assert damage(root, output, before), (line, output[-2000:])
    assert answer == "allow"  # (what the red team saw)
    decided = judge(command)
    assert decided[0] in ("deny", "ask"), (command, decided)


@pytest.mark.parametrize(("command", "answer"), _rows(friction=True))
def test_a_friction_row_is_no_stricter_than_the_table_says(
    command: str, answer: str, judge: Any
) -> None:
    decided = judge(command)
    assert _STRICTNESS[decided[0]] <= _STRICTNESS[answer], (command, decided)
