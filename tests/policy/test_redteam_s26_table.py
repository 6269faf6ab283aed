"""Red team s26's shell findings (corpus/redteam_s26_open.tsv: 171 commands that did their
damage in real bash while the hook allowed them, and 13 everyday commands it asked about or
denied) through the hook again, judged as the red team judged them (``policy init --packs
all``, their project and home under /tmp/rt26s, built for the test by redteam_tree.py).
Every class is blocked in full (a class left open would be listed in OPEN with its floor).
The classes' damage is performed in real bash by test_escapes_s26.py, with spellings the
red team did not try."""

from __future__ import annotations

from pathlib import Path

from tests.policy.redteam_tree import table_counts

# classes still open, with how many of their escapes are blocked now (a floor): none
OPEN: dict[str, int] = {}


def test_every_fixed_escape_class_of_the_table_is_blocked(tmp_path: Path) -> None:
    counts = table_counts("redteam_s26_open.tsv", tmp_path / "rt26s", "/tmp/rt26s")
    escapes = {k: v for k, v in counts.items() if k != "friction"}
    assert sum(total for _, total in escapes.values()) == 171, counts
    assert set(OPEN) <= set(escapes), set(OPEN) - set(escapes)
    fixed = {k: v for k, v in escapes.items() if k not in OPEN}
    assert len(fixed) == 18, sorted(fixed)
    assert {k: v for k, v in fixed.items() if v[0] != v[1]} == {}
    assert {k: escapes[k][0] for k in OPEN if escapes[k][0] < OPEN[k]} == {}
