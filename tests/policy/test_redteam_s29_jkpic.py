"""Red team s29 (shell) classes C, I, J, K and P (corpus/redteam_s29_open.tsv): each row
of these classes through the hook in the red team's tree, built here (redteam_tree.py, with
the fixture's Makefile), must be blocked (deny or ask); the rows whose damage is deleting
``../victim`` are first run in real bash in a fresh tree, so the table only holds real
damage. Near misses (the same programs with files already on disk, or written but not
given to them) must stay allowed.

- C: a link whose source the line computes (``ln "$(rev <<< ...)" x``) may be any file.
- I: a compiler response file (``gcc @o``) written on the line is arguments not read.
- J: make's ``.SHELLFLAGS``/``SHELL``/``MAKEFLAGS`` on the line change how the project's
  own recipes run.
- K: a hooks directory set on the line (``git config core.hooksPath h``) whose hooks the
  line writes.
- P: a configuration file written on the line given to a program that runs commands from
  its configuration (``ssh -F c``, ``vim -u c``, ``cmake -C c``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import GIT_ENV, build

CLASSES = "CIJKP"
RED_ROOT = "/tmp/rt29s"


def _rows() -> list[tuple[str, str, str]]:
    lines = (CORPUS / "redteam_s29_open.tsv").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in lines if line.strip()]
    return [(r[0][0], r[1], r[3]) for r in rows if r[0][:2] in {f"{c}." for c in CLASSES}]


ROWS = _rows()


def _tree(root: Path) -> tuple[str, str]:
    project, home = build(root)
    # the red team's fixture (redteam/s29/shell/fixture.sh) has a Makefile with `test`
    (Path(project) / "Makefile").write_text("test:\n\t@echo ok\n")
    return project, home


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("rt29") / "rt29s"
    project, home = _tree(root)
    saved = os.environ.get("HOME")
    os.environ["HOME"] = home  # the packs' ~ globs read the home at compile time
    try:
        from hookwise.policy.pipeline import decide
        from hookwise.policy.tools.payloads import build_payload
        from hookwise.policy.tools.starter import starter_policy
        from tests.policy.conftest import compile_text

        policy = compile_text(starter_policy(["all"]))
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved

    def answers(command: str) -> list[str]:
        """Each hook call's answer (a row with ``⟫`` is several calls)."""
        found: list[str] = []
        for part in command.replace(RED_ROOT, str(root)).split(" ⟫ "):
            payload = build_payload(
                "claude", "PreToolUse", tool="Bash", tool_input={"command": part}, cwd=project
            )
            decision = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
            found.append((decision.decision if decision else None) or "allow")
        return found

    return answers


def test_the_hot_gate_names_every_program_of_the_option_file_table() -> None:
    from hookwise.shell.accounting import OPTION_FILE_PROGRAMS
    from hookwise.shell.commands.build_files import OPTION_FILES

    assert set(OPTION_FILES) == OPTION_FILE_PROGRAMS


def test_the_table_holds_the_classes_rows() -> None:
    counts = {c: sum(1 for k, _, _ in ROWS if k == c) for c in CLASSES}
    assert counts == {"C": 5, "I": 5, "J": 8, "K": 5, "P": 11}


@pytest.mark.parametrize(("klass", "command", "damage"), ROWS, ids=[f"{r[0]}-{i}" for i, r in
                                                                    enumerate(ROWS)])  # fmt: skip
def test_every_row_of_the_classes_is_blocked(
    judge: Any, klass: str, command: str, damage: str
) -> None:
    got = judge(command)
    assert any(a in ("deny", "ask") for a in got), (klass, command, got)


_PROGRAMS = ("gcc", "g++", "make", "git", "ssh", "scp", "sftp", "vim", "ex", "cmake")
_REAL = [(k, c) for k, c, d in ROWS if d == "deleted ../victim" and " ⟫ " not in c]


@pytest.mark.parametrize(("klass", "command"), _REAL, ids=[f"{r[0]}-{i}" for i, r in
                                                          enumerate(_REAL)])  # fmt: skip
def test_bash_deletes_the_victim_and_the_hook_blocks_it(
    tmp_path: Path, judge: Any, klass: str, command: str
) -> None:
    needed = [p for p in _PROGRAMS if f"{p} " in command and shutil.which(p) is None]
    if needed:
        pytest.skip(f"{needed} not installed")
    project, home = _tree(tmp_path / "rt29s")
    env = {**os.environ, **GIT_ENV, "HOME": home}
    env.pop("MAKEFLAGS", None)
    line = command.replace(RED_ROOT, str(tmp_path / "rt29s"))
    subprocess.run(["bash", "-c", line], cwd=project, env=env, stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=60, check=False)  # fmt: skip
    assert not (tmp_path / "rt29s" / "work" / "victim" / "sub" / "f").exists(), line
    assert any(a in ("deny", "ask") for a in judge(command)), command


NEAR_MISSES = [
    # C: links whose source is a name written out, or a value bash knows
    'ln -s "$(pwd)/src" lib',
    "cp -l README r2",
    'f=README; ln "$f" x',
    # I, P: the same options given a file already on disk, or a file written but not given
    "gcc @build.rsp -o app main.c",
    'printf "x\\n" > notes.txt && gcc -O2 -o app main.c',
    "ssh -F ~/.ssh/config host uptime",
    'printf "Host x\\n" > c; ssh -F ~/.ssh/config x true',
    "vim -u NONE -es -c 'q!'",
    "cmake -C cache.cmake -S . -B build",
    # K: the repository's own hooks directory; a hook written there whose content is read
    "git config core.hooksPath .githooks && git commit -qm x",
    "mkdir -p h && printf 'x\\n' > notes.txt && git config core.hooksPath h",
    "git config core.hooksPath h && printf '#!/bin/sh\\necho ok\\n' > h/pre-commit",
    # J: variables make passes on as data, a shell as SHELL, options in MAKEFLAGS
    "make CC=clang",
    "make SHELL=/bin/bash test",
    "make ENV=.env up",
    "make test PYTHONPATH=src",
    "make install PREFIX=$HOME/.local",
    "MAKEFLAGS=-j4 make test",
    "make test MAKEFLAGS=-j2",
]


@pytest.mark.parametrize("command", NEAR_MISSES)
def test_near_misses_stay_allowed(judge: Any, command: str) -> None:
    assert judge(command) == ["allow"], command
