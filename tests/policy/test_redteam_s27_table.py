"""Red team s27's shell findings (corpus/redteam_s27_open.tsv: 137 commands that did their
damage in real bash while the hook allowed them, and 2 everyday commands it asked about)
through the hook again, judged as the red team judged them (``policy init --packs all``, in
a project that holds its policy, a ``.env`` and a key, and a home with ``~/.ssh``). The
classes fixed this session are blocked in full; the ones left open are listed in OPEN
with their floor. The classes' damage is performed in real bash by test_escapes_s27.py,
with spellings the red team did not try."""

from __future__ import annotations

import pytest

from tests.policy.redteam_tree import table_counts

# classes still open, with how many of their escapes are blocked now (a floor): D's
# array holding $HOME (a value made of the environment's pieces), H's rgrep of the
# project (a recursive search of the project is allowed, as grep -r is), M's worktree of
# the remote rebased, N's moves and compressions (all but tar --recursive-unlink), Q's
# curl config and gio move of $PWD; O's logins are `machine` entries sent to their own
# host (the red team's netrc and git-credentials for 127.0.0.1): their intended use,
# documented with the secrets pack (a netrc `default` sent to another host is blocked:
# test_escapes_s27). Session 28 fixed K, P, M's ref file removed by hand and Q's URL
# inside code.
OPEN: dict[str, int] = {"D": 4, "H": 5, "M": 5, "N": 1, "O": 0, "Q": 17}


@pytest.fixture(scope="module")
def counts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, int]]:
    root = tmp_path_factory.mktemp("rt27") / "rt27s"
    return table_counts("redteam_s27_open.tsv", root, "/tmp/rt27s")


def test_every_fixed_escape_class_of_the_table_is_blocked(
    counts: dict[str, tuple[int, int]],
) -> None:
    escapes = {k.split(".", 1)[0]: v for k, v in counts.items() if k != "friction"}
    assert sum(total for _, total in escapes.values()) == 137, counts
    assert set(OPEN) <= set(escapes), set(OPEN) - set(escapes)
    fixed = {k: v for k, v in escapes.items() if k not in OPEN}
    assert len(fixed) == 15, sorted(fixed)
    assert {k: v for k, v in fixed.items() if v[0] != v[1]} == {}
    assert {k: escapes[k][0] for k in OPEN if escapes[k][0] < OPEN[k]} == {}


def test_the_everyday_commands_of_the_table_are_judged_as_before(
    counts: dict[str, tuple[int, int]],
) -> None:
    # tar xzf and patch -p1 where .hookwise/ lives: asked by choice since s24
    assert counts["friction"] == (2, 2)
