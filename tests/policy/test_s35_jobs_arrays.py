"""Session 35 friction (issue 24): a job's pid kept in a variable, and arrays of a
pattern's files.

- ``sleep 30 & pid=$!; kill $pid``: ``pid`` holds the pid of the line's own last job
  (variables.record_word), which process_targets lets ``kill`` signal as it does ``kill
  $!``; a command after ``cmd &`` runs in the shell for sure, so its assignment is known.
  Any other value of the name (``$PPID``, set again later) stays unverifiable.
- ``files=(src/*.py)``: bash puts the files the pattern matches in the array, so
  ``"${files[@]}"``, quoted or not, stands for those files (variables.array_patterns);
  before, a quoted expansion was read as a file literally named ``src/*.py``, and
  ``files=(*); cat "${files[@]}"`` printed server.pem while the hook allowed it. A loop
  over the array walks its values (``for f in "${files[@]}"``), as a loop over the
  pattern itself does.

Blocked rows do their damage in real bash first; the everyday neighbours get through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.policy.redteam_tree import MARKS, in_bash, red_place

RED_ROOT = "/tmp/rt35s"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with red_place(tmp_path_factory.mktemp("s35ja") / "rt35s", RED_ROOT) as found:
        yield found


_bash = in_bash


EVERYDAY = [
    "sleep 30 & pid=$!; kill $pid",
    'sleep 30 & pid="$!"; kill -9 "$pid"; wait',
    "sleep 30 & SERVER=${!}; kill -TERM $SERVER",
    'files=(src/*.py); wc -l "${files[@]}"',
    'declare -a files=(src/*.py); for f in "${files[@]}"; do head -1 "$f"; done',
    'files=(src/*.py); for f in "${files[@]}"; do python3 -m py_compile "$f"; done',
    "sleep 1 & cd src; ls",
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_jobs_and_arrays_get_through(command: str, place: dict[str, Any]) -> None:
    _bash(command, place)  # (runs in bash: nothing outside the project is touched)
    answer = place["decided"](command)
    assert answer[0] == "allow", (command, answer)


SECRET_ARRAYS = [
    'files=(*); cat "${files[@]}"',
    'files=(*); for f in "${files[@]}"; do cat "$f"; done',
    'f=(*.pem); head "${f[@]}"',
    'declare -a f=(*); head -n 5 "${f[@]}"',
    'f=(../home/.n*); cat "${f[@]}"',
    'f=(src/*.py .env); for x in "${f[@]}"; do cat "$x"; done',
]


@pytest.mark.parametrize("command", SECRET_ARRAYS)
def test_an_array_of_a_pattern_that_reaches_a_secret_is_stopped(
    command: str, place: dict[str, Any]
) -> None:
    output = _bash(command, place)
    assert any(mark in output for mark in MARKS), (command, output)
    answer = place["decided"](command)
    assert answer[0] in ("deny", "ask"), (command, answer)


# decided only: these signal the test's own parent when run
OTHER_PIDS = [
    "pid=$PPID; kill $pid",
    "sleep 1 & pid=$!; pid=$PPID; kill $pid",
    "sleep 1 & pid=$!0; kill $pid",
    "sleep 1 & pid=$! ; pid+=0; kill $pid",
    "pid=$! & kill $pid",
    'read pid < run.pid; kill "$pid"',
]


@pytest.mark.parametrize("command", OTHER_PIDS)
def test_a_pid_that_is_not_the_lines_own_job_stays_unverifiable(
    command: str, place: dict[str, Any]
) -> None:
    answer = place["decided"](command)
    assert answer[0] == "ask", (command, answer)
