"""Red team s25's shell findings (corpus/redteam_s25_open.tsv: 161 commands that did their
damage in real bash while the hook allowed them, and 11 everyday commands it asked about)
through the hook again: every escape class is blocked in full. The escapes are performed in
real bash by test_escapes_s25a.py and test_escapes_s25b.py; this keeps the red team's own
spellings from coming back."""

from __future__ import annotations

import re

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.tsv_figures import figures

LINE = re.compile(r"\s*(\d+) of\s+(\d+)\s+(.+)")


def test_every_escape_class_of_the_table_is_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/tmp/rt24s/home")  # figures() sets it for the packs' ~ globs
    counts = {}
    for line in figures(str(CORPUS / "redteam_s25_open.tsv")):
        found = LINE.fullmatch(line)
        if found:
            counts[found.group(3)] = (int(found.group(1)), int(found.group(2)))
    escapes = {k: v for k, v in counts.items() if k != "friction"}
    assert sum(total for _, total in escapes.values()) == 161, counts
    assert {k: v for k, v in escapes.items() if v[0] != v[1]} == {}
