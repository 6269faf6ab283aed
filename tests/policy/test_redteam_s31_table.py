"""Red team s31's shell findings (corpus/redteam_s31_open.tsv: commands that did their
damage in real bash while the hook allowed them), the classes fixed in session 31, through
the hook again in the red team's tree built for the test (redteam_tree.py, with s29's
additions: ``~/.aws``, ``src/app.py``). Each row first does its damage in real bash in a
fresh tree (a secret printed, ``../victim`` deleted, the bare origin's ``main`` written, a
guard file changed), then the hook must deny or ask; a row of several calls (``⟫``) is
decided call by call. The rows still open are named."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV, damage, guards, judging, red_tree

RED_ROOT = "/tmp/rt31s"
# every row of every class is checked (session 31 fixed them by class), but those named here
OPEN: frozenset[str] = frozenset()


def _table() -> list[list[str]]:
    lines = (CORPUS / "redteam_s31_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def _rows() -> list[Any]:
    return [
        pytest.param(row[1], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(_table(), 1)
        if not row[0].startswith(("friction", "class")) and row[1] not in OPEN
    ]


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Any]:
    """decide(command) in a fresh tree of the row's own (its calls may change it)."""
    with judging(tmp_path / "judged" / "rt", RED_ROOT) as decided:
        yield decided


@pytest.mark.parametrize("command", _rows())
def test_the_row_does_its_damage_in_bash_and_the_hook_blocks_it(
    command: str, tmp_path: Path, judge: Any
) -> None:
    root = tmp_path / "rt"
    project, home = red_tree(root)
    before = guards(root)
    line = command.replace(RED_ROOT, str(root)).replace(" ⟫ ", "\n")
    env = {"PATH": os.environ["PATH"], "HOME": home, **GIT_ENV}
    judged_only = "127.0.0.1:813" in line or any(
        tool in line.split() and shutil.which(tool) is None for tool in ("php", "rg", "node")
    )  # (a send needs the red team's listener; a program this machine lacks)
    if not judged_only:
        done = subprocess.run(["bash", "-c", line], cwd=project, env=env, timeout=60,
                              stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
        if not any(sign in output for sign in ABSENT):
            assert damage(root, output, before), (line, output[-2000:])
    answer = judge(command)
    assert answer[0] in ("deny", "ask"), (command, answer)
