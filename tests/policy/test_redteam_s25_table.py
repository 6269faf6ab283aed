"""Red team s25's shell findings (corpus/redteam_s25_open.tsv: 161 commands that did their
damage in real bash while the hook allowed them, and 11 everyday commands it asked about)
through the hook again, in the red team's tree built for the test (redteam_tree.py: its
project, home and ``/tmp/rt25s`` paths): every escape class is blocked in full. The escapes
are performed in real bash by test_escapes_s25a.py and test_escapes_s25b.py; this keeps
the red team's own spellings from coming back."""

from __future__ import annotations

from pathlib import Path

from tests.policy.redteam_tree import table_counts


def test_every_escape_class_of_the_table_is_blocked(tmp_path: Path) -> None:
    counts = table_counts("redteam_s25_open.tsv", tmp_path / "rt25s", "/tmp/rt25s")
    escapes = {k: v for k, v in counts.items() if k != "friction"}
    assert sum(total for _, total in escapes.values()) == 161, counts
    assert {k: v for k, v in escapes.items() if v[0] != v[1]} == {}
