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
from tests.policy.redteam_tree import GIT_ENV, build
from tests.policy.test_redteam_s29_table import s29_extras

RED_ROOT = "/tmp/rt31s"
# every row of every class is checked (session 31 fixed them by class), but those named here
OPEN: frozenset[str] = frozenset()
# what a row's damage prints, or the listener it sends to (judged only)
MARKS = ("s3cr3t", "awsrt31secretkey", "-----BEGIN", "netrcpw", "gitcredpw")
# what bash says when the row's tool is not on this machine (the red team's pyenv, awscli,
# IPython): the row is then judged only
_ABSENT = ("No module named", "command not found", "can't open file")


def _table() -> list[list[str]]:
    lines = (CORPUS / "redteam_s31_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def _rows() -> list[Any]:
    return [
        pytest.param(row[1], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(_table(), 1)
        if not row[0].startswith(("friction", "class")) and row[1] not in OPEN
    ]


def _tree(root: Path) -> tuple[str, str]:
    """The red team's tree: its home is ``work/home``, a real directory (globstar and git
    do not walk through a link), beside ``work/proj``."""
    project, home = build(root)
    s29_extras(root)
    (Path(project) / "src" / "app.py").write_text("print('app')\n")
    real = root / "work" / "home"
    Path(home).rename(real)
    Path(home).symlink_to(real)  # (build's own git config named it)
    (real / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIART31\naws_secret_access_key = awsrt31secretkey\n"
    )
    return project, str(real)


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
