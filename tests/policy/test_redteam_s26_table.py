"""Red team s26's shell findings (corpus/redteam_s26_open.tsv: 171 commands that did their
damage in real bash while the hook allowed them, and 13 everyday commands it asked about or
denied) through the hook again, judged as the red team judged them (``policy init --packs
all``, their project and home under /tmp/rt26s). Every class this session fixed is blocked
in full; the classes still open (docs/redteam/2026-11-28-s26-shell.md says which) may only
gain. The classes' damage is performed in real bash by test_escapes_s26.py, with spellings
the red team did not try."""

from __future__ import annotations

import re

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.tsv_figures import figures

LINE = re.compile(r"\s*(\d+) of\s+(\d+)\s+(.+)")
ROOT = "/tmp/rt26s"
# classes still open, with how many of their escapes are blocked now (a floor)
OPEN = {
    "awk variable (-v f=F or operand f=F) naming the file getline reads": 0,
    "deleters nobody listed (gio trash/remove, systemd-tmpfiles --remove of a config "
    "written on the line)": 0,
    "option value that runs a program (strace -o '|cmd', gcc -wrapper, gdb file+run)": 0,
    "secret file read by default or by a runner's printing subcommand (curl -n: ~/.netrc; "
    "dotenv list/get/run, -f .env)": 0,
    "unpacker not in the list (ptar, gpgtar, gpg --use-embedded-filename)": 0,
    "valgrind --log-file with %q{HOME}: path built by the program": 0,
    "values of a sourced .env printed by a program not in the dumpers list": 1,
    "wget -e wgetrc command (post_file/body_file) sends a file": 0,
}


def _counts() -> dict[str, tuple[int, int]]:
    counts = {}
    for line in figures(str(CORPUS / "redteam_s26_open.tsv"), cwd=f"{ROOT}/work/proj",
                        home=f"{ROOT}/home"):  # fmt: skip
        found = LINE.fullmatch(line)
        if found:
            counts[found.group(3)] = (int(found.group(1)), int(found.group(2)))
    return counts


def test_every_fixed_escape_class_of_the_table_is_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", f"{ROOT}/home")  # figures() sets it for the packs' ~ globs
    counts = _counts()
    escapes = {k: v for k, v in counts.items() if k != "friction"}
    assert sum(total for _, total in escapes.values()) == 171, counts
    assert set(OPEN) <= set(escapes), set(OPEN) - set(escapes)
    fixed = {k: v for k, v in escapes.items() if k not in OPEN}
    assert len(fixed) == 10, sorted(fixed)
    assert {k: v for k, v in fixed.items() if v[0] != v[1]} == {}
    assert {k: escapes[k][0] for k in OPEN if escapes[k][0] < OPEN[k]} == {}
