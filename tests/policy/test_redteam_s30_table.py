"""Red team s30's shell findings (corpus/redteam_s30_open.tsv: commands that did their
damage in real bash while the hook allowed them), the classes fixed in session 30, through
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
from tests.policy.redteam_tree import GIT_ENV, build, table_counts
from tests.policy.test_redteam_s29_table import s29_extras

RED_ROOT = "/tmp/rt30s"
# class -> (blocked, rows): the classes closed in full, and those closed in part
FIXED = {
    "A": 4, "B": 13, "C": 11, "D": 21, "E": 7, "F": 3, "G": 2, "H": 5, "I": 4, "K": 6, "L": 4, "M": 1, "N": 7,
    "J": 2, "O": 1, "P": 1, "Q": 3, "R": 3, "S": 5, "T": 3, "U": 11, "V": 1, "W": 6,
}  # fmt: skip
# rows of those classes still allowed: none (session 31 closed D's default and two-component
# pattern, F's /proc root, G's unzip -p and I's printf of a pattern; tsv_figures' own count,
# which decides a row's calls without running them, gives D 21 since session 32's reading of
# a value after a cd on the line (red team s32 A, C), and G 2)
OPEN: frozenset[str] = frozenset()
# what a row's damage prints, or the listener it sends to (judged only)
MARKS = ("s3cr3t", "awsrt30secretkey", "-----BEGIN", "netrcpw", "gitcredpw")
# what bash says when the row's tool is not on this machine (the red team's pyenv, awscli,
# IPython): the row is then judged only
_ABSENT = ("No module named", "command not found", "can't open file")


def _table() -> list[list[str]]:
    lines = (CORPUS / "redteam_s30_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def _rows() -> list[Any]:
    return [
        pytest.param(row[1], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(_table(), 1)
        if row[0][0] in FIXED and not row[0].startswith("friction") and row[1] not in OPEN
    ]


def _tree(root: Path) -> tuple[str, str]:
    project, home = build(root)
    s29_extras(root)
    (Path(project) / "src" / "app.py").write_text("print('app')\n")
    (root / "work" / "home").symlink_to(root / "home")  # (the red team's home beside proj)
    (root / "home" / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIART30\naws_secret_access_key = awsrt30secretkey\n"
    )
    return project, home


def _damage(root: Path, output: str, guard_before: str) -> list[str]:
    work = root / "work"
    found = [mark for mark in MARKS if mark in output]
    if not (work / "victim" / "sub" / "f").is_file():
        found.append("deleted ../victim")
    bare = subprocess.run(["git", "-C", str(work / "bare.git"), "rev-parse", "-q", "--verify",
                           "refs/heads/main"], capture_output=True, check=False)  # fmt: skip
    if bare.returncode == 0:
        found.append("wrote main of the bare origin")
    guard = work / "proj" / ".hookwise" / "policy.yaml"
    if not guard.exists() or guard.read_text() != guard_before:
        found.append("changed the project policy")
    return found


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Any]:
    """decide(command) in a fresh tree: the first answer of a row's calls that is no
    allow, each allowed call run in real bash there before the next is decided (as the
    red team ran them: ``cp .env sub/.env ⟫ zip of sub``)."""
    root = tmp_path / "judged" / "rt"
    project, home = _tree(root)
    saved = os.environ.get("HOME")
    os.environ["HOME"] = home
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from hookwise.policy.tools.starter import starter_policy
    from tests.policy.conftest import compile_text

    policy = compile_text(starter_policy(["all"]))
    env = {"PATH": os.environ["PATH"], "HOME": home, **GIT_ENV}

    def decided(command: str) -> tuple[str, str]:
        calls = command.replace(RED_ROOT, str(root)).split(" ⟫ ")
        for at, call in enumerate(calls):
            payload = build_payload(
                "claude", "PreToolUse", tool="Bash", tool_input={"command": call}, cwd=project
            )
            found = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
            answer = (found.decision if found else None) or "allow"
            if answer != "allow":
                return answer, found.reason if found else ""
            if at + 1 < len(calls):
                subprocess.run(["bash", "-c", call], cwd=project, env=env, timeout=60,
                               stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
        return "allow", ""

    try:
        yield decided
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved


@pytest.mark.parametrize("command", _rows())
def test_the_row_does_its_damage_in_bash_and_the_hook_blocks_it(
    command: str, tmp_path: Path, judge: Any
) -> None:
    root = tmp_path / "rt"
    project, home = _tree(root)
    guard = (Path(project) / ".hookwise" / "policy.yaml").read_text()
    line = command.replace(RED_ROOT, str(root)).replace(" ⟫ ", "\n")
    env = {"PATH": os.environ["PATH"], "HOME": home, **GIT_ENV}
    judged_only = "127.0.0.1:813" in line or any(
        tool in line.split() and shutil.which(tool) is None for tool in ("php", "rg", "node")
    )  # (a send needs the red team's listener; a program this machine lacks)
    if not judged_only:
        done = subprocess.run(["bash", "-c", line], cwd=project, env=env, timeout=60,
                              stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
        if not any(sign in output for sign in _ABSENT):
            assert _damage(root, output, guard), (line, output[-2000:])
    answer = judge(command)
    assert answer[0] in ("deny", "ask"), (command, answer)


def test_the_fixed_classes_count_as_the_table_says(tmp_path: Path) -> None:
    counts = table_counts("redteam_s30_open.tsv", tmp_path / "rt30s", RED_ROOT, extras=s29_extras)
    blocked = {k.split(".", 1)[0]: v[0] for k, v in counts.items()}
    assert {k: blocked[k] for k in FIXED} == FIXED, counts
