"""The fast half of the differential matrix: hookwise predicts every recorded real outcome.

tests/e2e/fixtures/<cli>.jsonl hold what the real CLIs did with each hook answer of the
matrix (matrix.py, generated from its dimensions; recorded by `python -m tests.e2e.record`). Every record is replayed through
`hookwise fire --host <cli> --json`, and its ``outcome`` must agree (compare.py).
No real CLI is needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.compare import dialect_missing, disagreements, predict
from tests.e2e.host_matrix import HOST_CLIS
from tests.e2e.matrix import CLIS, cells, runs
from tests.e2e.record import load_fixtures

ALL_CLIS = CLIS + HOST_CLIS


def recorded() -> list[dict[str, Any]]:
    return [r for cli in ALL_CLIS for r in load_fixtures(cli).values()]


def test_every_cell_of_the_matrix_is_recorded_for_every_cli() -> None:
    for cli in ALL_CLIS:
        ids = [cell.id for _, cell in runs((cli,))]  # the matrix less the CLI's exclusions
        fixtures = load_fixtures(cli)
        assert sorted(fixtures) == sorted(ids), f"{cli}: re-record with python -m tests.e2e.record"
        assert all(r["observed"]["hook_calls"] >= 1 for r in fixtures.values()), cli
        assert all(r["cli_version"] == clis.pinned_versions()[cli] for r in fixtures.values())
    assert len(cells()) > 300  # the product of the dimensions, not a hand-picked list


@pytest.mark.parametrize("record", recorded(), ids=lambda r: f"{r['cli']}-{r['cell']}")
def test_hookwise_predicts_the_real_cli(record: dict[str, Any], tmp_path: Path) -> None:
    missing = dialect_missing(record["cli"])
    if missing:
        pytest.skip(missing)
    outcome = predict(record, tmp_path)
    problems = disagreements(record, outcome)
    assert not problems, (
        f"{record['cli']} {record['cli_version']} / {record['cell']} ({record['note']}), "
        f"answer {record['answer']}:\n  " + "\n  ".join(problems)
    )
