"""The live half of the differential matrix: the real CLIs, offline, on a sample of it.

Each cell runs the pinned real CLI (installed by `make e2e-install`) against the fake model
(runner.py). The outcome must be the recorded fixture's (the pinned CLI still behaves as
recorded, so the fast replay stays meaningful) and hookwise's prediction (compare.py).

A CLI run is half waiting, so each test runs a few cells at once (PER_TEST) on top of
pytest-xdist's workers. `make test` runs ``matrix.SAMPLE`` (every group of the matrix on
every event, the cells where the CLIs disagree most) on the three CLIs; the whole matrix
runs with HOOKWISE_E2E_MATRIX=all (or `python -m tests.e2e.record --check --predict`), and
every recorded cell is replayed without a CLI by test_replay.py. Skipped only when node or
npm is missing; a missing or wrong install fails with the command that fixes it.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.compare import dialect_missing, disagreements, predict
from tests.e2e.matrix import CLIS, SAMPLE, Cell, runs
from tests.e2e.record import load_fixtures, stable_view
from tests.e2e.runner import run_cell

PER_TEST = 3


def batches() -> list[tuple[str, list[Cell]]]:
    every = os.environ.get("HOOKWISE_E2E_MATRIX") == "all"
    out: list[tuple[str, list[Cell]]] = []
    for cli in CLIS:
        mine = [c for _, c in runs((cli,)) if every or c.id in SAMPLE]
        out += [(cli, mine[i : i + PER_TEST]) for i in range(0, len(mine), PER_TEST)]
    return out


def check_against_fixture(cli: str, record: dict[str, Any]) -> str | None:
    known = load_fixtures(cli).get(record["cell"])
    if known is None:
        return f"{record['cell']}: no fixture; record it with python -m tests.e2e.record"
    if record["cli_version"] != known["cli_version"]:
        return f"{record['cell']}: version {record['cli_version']}, fixture {known['cli_version']}"
    if stable_view(record) != stable_view(known):
        return (
            f"{record['cell']}: no longer what its fixture says\n"
            f"    live    {json.dumps(stable_view(record))}\n"
            f"    fixture {json.dumps(stable_view(known))}"
        )
    return None


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("cli", "batch"),
    batches(),
    ids=lambda v: v if isinstance(v, str) else ",".join(c.id for c in v),
)
def test_real_cli_matches_fixture_and_hookwise(cli: str, batch: list[Cell], tmp_path: Path) -> None:
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem(cli)
    assert problem is None, problem
    with ThreadPoolExecutor(max_workers=len(batch)) as pool:
        records = list(pool.map(lambda cell: run_cell(cli, cell), batch))
    stale = [p for p in (check_against_fixture(cli, r) for r in records) if p]
    assert not stale, f"{cli} {records[0]['cli_version']}:\n  " + "\n  ".join(stale)
    missing = dialect_missing(cli)
    if missing:
        pytest.skip(
            f"the real CLI did what its fixtures say; not compared with hookwise: {missing}"
        )
    problems = []
    for record, cell in zip(records, batch, strict=True):
        found = disagreements(record, predict(record, tmp_path / cell.id))
        problems += [f"{cell.id} ({cell.note}): {p}" for p in found]
    assert not problems, f"{cli}:\n  " + "\n  ".join(problems)
