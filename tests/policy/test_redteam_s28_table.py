"""Red team s28's shell findings (corpus/redteam_s28_open.tsv: 105 commands that did their
damage in real bash while the hook allowed them) through the hook again, in the red team's
tree built for the test (redteam_tree.py: the project with its policy, ``.env`` and key, a
home with ``~/.ssh``, ``../victim``, the red team's ``/tmp/rt28s`` paths). The classes
fixed on this branch are blocked in full; the ones left open are listed in OPEN with their
floor. The classes' damage is performed in real bash by test_escapes_s27.py (its s28
section: A-E, Q, S) and test_escapes_s28_programs.py (F-P, R), with spellings the red team
did not try."""

from __future__ import annotations

from pathlib import Path

from tests.policy.redteam_tree import table_counts

# classes still open, with how many of their escapes are blocked now (a floor): none, every
# class A-S is blocked in full (F-P and R: issue-24-s28d, performed in real bash by
# test_escapes_s28_programs.py)
OPEN: dict[str, int] = {}


def test_every_fixed_escape_class_of_the_table_is_blocked(tmp_path: Path) -> None:
    counts = table_counts("redteam_s28_open.tsv", tmp_path / "rt28s", "/tmp/rt28s")
    escapes = {k.split(".", 1)[0]: v for k, v in counts.items()}
    assert sum(total for _, total in escapes.values()) == 105, counts
    assert set(OPEN) <= set(escapes), set(OPEN) - set(escapes)
    fixed = {k: v for k, v in escapes.items() if k not in OPEN}
    assert len(fixed) == 19 - len(OPEN), sorted(fixed)
    assert {k: v for k, v in fixed.items() if v[0] != v[1]} == {}
    assert {k: escapes[k][0] for k in OPEN if escapes[k][0] < OPEN[k]} == {}
