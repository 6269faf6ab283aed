"""Names ``find`` prints, read by a program ``xargs`` runs (session 30, red team s29 B): the
reader reads what find walks, hidden names and every depth, as ``find -exec cat {} +``
does; ``find ~ -type f | xargs cat`` printed ``~/.ssh/id_rsa`` while the hook read find's
names as a bash pattern (``~/?*``, no dot names). Each row prints the key in real bash
first; near misses in the project stay allowed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, packs

__all__ = ["packs"]  # the module fixture, shared

BLOCK = [
    "find ~ -type f | xargs cat",
    "find ~ -name '*rsa*' | xargs cat",
    "find ~ -type f | grep rsa | xargs cat",
    "find ~ -path '*ssh*' -type f -print0 | xargs -0 cat",
    "find ~ -type f | sort | xargs -n1 head -c 100",
]

PASS = [
    "find . -name '*.py' | xargs wc -l",
    "find src -name '*.py' -print0 | xargs -0 python3 -m py_compile",
    "find . -name '*.pyc' | xargs rm -f",
    "find . -name '*.md' | xargs wc -w",
]


@pytest.mark.parametrize("command", BLOCK)
def test_a_reader_of_finds_names_reads_what_find_walks(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    place = _tree(tmp_path)
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert MARK in done.stdout, f"bash did not print the key: {command}"
    judged = _tree(tmp_path / "again")
    decision, reason = _verdict(command, packs, judged)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_finds_names_in_the_project_stay_allowed(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    assert _verdict(command, packs, _tree(tmp_path)) == ("none", ""), command


@pytest.mark.parametrize("command", ["find ~ -type f | parallel cat", "find ~ | parallel 'cat {}'"])
def test_parallels_inputs_are_values_made_when_it_runs(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    """GNU parallel runs its template on each line of its input: ``{}`` (or the end of the
    template) is a value made when it runs, not the environment's (it was ``E`` before,
    and let through). Where parallel is installed, the key is printed first."""
    place = _tree(tmp_path)
    if shutil.which("parallel"):
        done = subprocess.run(
            ["bash", "-c", command], cwd=place["project"], env=place["env"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert MARK in done.stdout, command
        place = _tree(tmp_path / "again")
    decision, reason = _verdict(command, packs, place)
    assert decision in ("deny", "ask"), (command, decision, reason)
    assert _verdict("find . -name '*.py' | parallel wc -l", packs, place) == ("none", "")
