"""Run the matrix through the real CLIs and write the fixtures the fast suite replays.

    python -m tests.e2e.record [--clis claude,codex,gemini] [--jobs 4] [--cells ID,...]
                               [--check] [--predict] [--matrix CELLS.jsonl] [--out DIR]

Writes tests/e2e/fixtures/<cli>.jsonl (one record per cell, matrix order; the run's wall
time is left out so a re-recording only differs where a CLI behaves differently) and prints
a table of the outcomes. ``--cells`` re-records some cells and keeps the others.
``--check`` writes nothing; the exit status says whether every run still gives its fixture.
``--predict`` also puts every run through hookwise (compare.py) and fails on disagreement.
``--matrix`` runs other cells (JSON lines ``{"id", "event", "answer", "note"}``, see
matrix.py for answers) and writes their records only with ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.matrix import CLIS, Cell, runs
from tests.e2e.runner import run_cell

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VOLATILE = ("seconds", "offline")
# what a live run must reproduce of its fixture
STABLE = (
    "hook_calls",
    "tool_ran",
    "input_rewritten",
    "proceeded",
    "reason_reached_model",
    "context_reached_model",
    "user_text_reached_model",
    "session_stopped",
    "waiting",
)


def load_fixtures(cli: str, where: Path = FIXTURES) -> dict[str, dict[str, Any]]:
    path = where / f"{cli}.jsonl"
    if not path.exists():
        return {}
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["cell"]: r for r in records}


def fixture_record(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in VOLATILE}


def stable_view(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record["observed"].get(k) for k in STABLE}


def summary_row(record: dict[str, Any]) -> str:
    o = record["observed"]

    def flag(value: Any) -> str:
        return "-" if value is None else ("yes" if value else "no")

    def text(value: Any) -> str:
        return "-" if value is None else json.dumps(value[:70])

    return (
        f"{record['cli']:<7} {record['cell']:<42} calls={o['hook_calls']} "
        f"proceeded={flag(o['proceeded']):<3} tool_ran={flag(o['tool_ran']):<3} "
        f"stopped={flag(o['session_stopped']):<3} reason={text(o['reason_reached_model'])} "
        f"context={text(o['context_reached_model'])}"
    )


def outcome_cell(observed: dict[str, Any]) -> str:
    """A compact view of one observation for the fixtures' table."""
    from tests.e2e.compare import unwrap

    if observed["proceeded"] is None:
        return "hook not run"
    parts = ["goes ahead" if observed["proceeded"] else "**blocked**"]
    if observed["input_rewritten"]:
        parts.append("rewritten")
    if observed["session_stopped"]:
        parts.append("session ends")
    if observed.get("waiting"):
        parts.append("waits for a confirmation")
    for key, label in (
        ("reason_reached_model", "model gets"),
        ("context_reached_model", "context"),
    ):
        text = observed[key]
        if text is not None:
            core = unwrap(text).replace("POLICY-E2E-REASON: marker files are forbidden", "R")
            core = core.replace("POLICY-E2E-CONTEXT: ", "C: ").replace("|", "\\|")
            parts.append(f"{label} `{core[:40]}`")
    return ", ".join(parts)


def table(chosen: tuple[str, ...]) -> str:
    """The fixtures as a markdown table: one row per cell, one column per CLI."""
    fixtures = {cli: load_fixtures(cli) for cli in chosen}
    versions = [next(iter(fixtures[c].values()), {}).get("cli_version", "?") for c in chosen]
    head = " | ".join(f"{c} {v}" for c, v in zip(chosen, versions, strict=True))
    lines = [f"| cell | answer | {head} |", "|---" * (len(chosen) + 2) + "|"]
    for _, cell in runs(chosen[:1]):
        row = [fixtures[c].get(cell.id) for c in chosen]
        seen = " | ".join(outcome_cell(r["observed"]) if r else "-" for r in row)
        lines.append(f"| `{cell.id}` | {cell.note} | {seen} |")
    return "\n".join(lines)


def run_one(cli: str, cell: Cell, attempts: int = 2) -> dict[str, Any] | None:
    """One run, tried again once when the runner itself fails (not when the CLI does)."""
    for attempt in range(attempts):
        try:
            return run_cell(cli, cell)
        except (RuntimeError, OSError, ValueError) as exc:
            tail = str(exc).splitlines()[-1:] or [""]
            print(
                f"# runner failed ({attempt + 1}/{attempts}) {cli} {cell.id}: {tail[0]}",
                file=sys.stderr,
            )
    return None


def run_all(pairs: list[tuple[str, Cell]], jobs: int) -> list[dict[str, Any]]:
    """Every pair, ``jobs`` at a time, in matrix order; progress on stderr."""
    done = 0

    def one(pair: tuple[str, Cell]) -> dict[str, Any] | None:
        nonlocal done
        record = run_one(*pair)
        done += 1
        if done % 25 == 0 or done == len(pairs):
            print(f"# {done}/{len(pairs)} runs", file=sys.stderr, flush=True)
        return record

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        records = list(pool.map(one, pairs))
    failed = [f"{cli} {cell.id}" for (cli, cell), r in zip(pairs, records, strict=True) if not r]
    if failed:
        print("# no record (runner failed twice): " + ", ".join(failed), file=sys.stderr)
    return [r for r in records if r is not None]


def read_matrix(path: Path) -> list[Cell]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Cell.from_json(json.loads(line)) for line in lines if line.strip()]


def predicted_disagreements(records: list[dict[str, Any]]) -> int:
    """Print hookwise's agreement with every record; return how many disagree."""
    import tempfile

    from tests.e2e.compare import dialect_missing, disagreements, predict

    differ = 0
    with tempfile.TemporaryDirectory(prefix="hookwise-e2e-predict-") as tmp:
        for n, record in enumerate(records):
            missing = dialect_missing(record["cli"])
            if missing:
                print(f"SKIP    {record['cli']} {record['cell']}: {missing}")
                continue
            problems = disagreements(record, predict(record, Path(tmp) / str(n)))
            differ += bool(problems)
            verdict = "DIFFERS" if problems else "agrees "
            print(
                f"{verdict} {record['cli']} {record['cell']}"
                + "".join(f"\n    {p}" for p in problems)
            )
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clis", default=",".join(CLIS), help="comma-separated (default: all)")
    parser.add_argument("--jobs", type=int, default=4, help="runs at once (default 4)")
    parser.add_argument("--cells", default="", help="comma-separated cell ids (default: all)")
    parser.add_argument(
        "--matrix", type=Path, help="JSONL of cells {id, event, answer, note} instead of matrix.py"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="write <cli>.jsonl here (default: tests/e2e/fixtures, not with --matrix)",
    )
    parser.add_argument("--check", action="store_true", help="compare with the fixtures only")
    parser.add_argument(
        "--table", action="store_true", help="print the fixtures as a markdown table, run nothing"
    )
    parser.add_argument(
        "--predict", action="store_true", help="also compare every run with hookwise's prediction"
    )
    parser.add_argument(
        "--replay",
        type=Path,
        nargs="?",
        const=FIXTURES,
        help="run nothing: compare hookwise with the records in this directory (default:"
        " the fixtures)",
    )
    args = parser.parse_args(argv)
    chosen = tuple(c for c in args.clis.split(",") if c)
    if args.table:
        print(table(chosen))
        return 0
    if args.replay is not None:
        wanted_ids = {c for c in args.cells.split(",") if c}
        stored = [
            r
            for cli in chosen
            for r in load_fixtures(cli, args.replay).values()
            if not wanted_ids or r["cell"] in wanted_ids
        ]
        differ = predicted_disagreements(stored)
        print(f"# {differ} of {len(stored)} records differ", file=sys.stderr)
        return 1 if differ else 0
    for cli in chosen:
        problem = clis.node_missing() or clis.install_problem(cli)
        if problem:
            print(f"{cli}: {problem}", file=sys.stderr)
            return 2
    wanted = {c for c in args.cells.split(",") if c}
    matrix = read_matrix(args.matrix) if args.matrix else None
    pairs = runs(chosen, matrix)
    pairs = [(cli, cell) for cli, cell in pairs if not wanted or cell.id in wanted]
    started = time.monotonic()
    records = run_all(pairs, args.jobs)
    elapsed = time.monotonic() - started
    for record in records:
        print(f"{summary_row(record)}  ({record['seconds']}s)")
    print(f"# {len(records)} runs in {elapsed:.1f}s with {args.jobs} jobs", file=sys.stderr)
    status = 0
    if args.predict:
        status = 1 if predicted_disagreements(records) else 0
    if args.check:
        for record in records:
            known = load_fixtures(record["cli"]).get(record["cell"])
            if known is None or stable_view(known) != stable_view(record):
                status = 1
                print(f"DIFFERS from fixture: {record['cli']} {record['cell']}", file=sys.stderr)
        return status
    out = args.out or (None if matrix else FIXTURES)
    if out is not None:
        write_fixtures(out, chosen, records, merge=bool(wanted) and out == FIXTURES)
    return status


def write_fixtures(
    out: Path, chosen: tuple[str, ...], records: list[dict[str, Any]], *, merge: bool
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for cli in chosen:
        mine = [fixture_record(r) for r in records if r["cli"] == cli]
        if merge:  # re-recorded some cells of the matrix: keep the others
            merged = load_fixtures(cli) | {r["cell"]: r for r in mine}
            mine = [merged[cell.id] for _, cell in runs((cli,)) if cell.id in merged]
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in mine)
        (out / f"{cli}.jsonl").write_text(lines, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
