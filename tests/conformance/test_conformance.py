"""Replays the recorded oracle cases through `hookwise conformance gemini --batch`.

Every case must give the real engine's answer on the compared keys, except the few
listed in DELIBERATE, where hookwise departs on purpose (docs/conformance.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
SUITES = ("public", "hookwise")

# case id -> why hookwise answers differently on purpose
DELIBERATE: dict[str, str] = {}


def compared(out: dict[str, Any]) -> dict[str, Any]:
    """Every key of the output except the producer's stamp and the one timing figure.

    The issue names plan, stdinPerHook, results (exitCode, success, outputFormat,
    output), aggregated (success, finalOutput), derived and effect; hookwise matches the
    rest too (input, context, stdout/stderr, errors), so all of it is compared.
    """
    view = {k: v for k, v in out.items() if k not in ("oracle", "implementation")}
    effect = view.get("effect")
    if isinstance(effect, dict) and "totalDuration" in effect:
        view["effect"] = {k: v for k, v in effect.items() if k != "totalDuration"}
    return view


def run_suite(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    cases = (HERE / "cases" / f"{name}.jsonl").read_text(encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", "conformance", "gemini", "--batch"],
        input=cases,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    ours = [json.loads(line) for line in proc.stdout.split("\n") if line.strip()]
    reference = [
        json.loads(line)
        for line in (HERE / "reference" / f"{name}.jsonl").read_text(encoding="utf-8").split("\n")
        if line.strip()
    ]
    return ours, reference


@pytest.fixture(scope="module", params=SUITES)
def suite(request: pytest.FixtureRequest) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    ours, reference = run_suite(request.param)
    return request.param, ours, reference


def test_every_case_matches_the_real_engine(
    suite: tuple[str, list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    name, ours, reference = suite
    assert [o.get("id") for o in ours] == [r.get("id") for r in reference]
    mismatches = []
    for mine, theirs in zip(ours, reference, strict=True):
        if mine.get("id") in DELIBERATE:
            continue
        if compared(mine) != compared(theirs):
            mismatches.append(
                f"{mine.get('id')}:\n  hookwise: {json.dumps(compared(mine), sort_keys=True)[:1500]}\n"
                f"  engine:   {json.dumps(compared(theirs), sort_keys=True)[:1500]}"
            )
    assert not mismatches, f"{len(mismatches)} of {len(ours)} {name} cases differ:\n" + "\n".join(
        mismatches
    )


def test_deliberate_differences_really_differ(
    suite: tuple[str, list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    """A deliberate difference that no longer differs must leave the list."""
    _, ours, reference = suite
    for mine, theirs in zip(ours, reference, strict=True):
        if mine.get("id") in DELIBERATE:
            assert compared(mine) != compared(theirs), mine.get("id")
