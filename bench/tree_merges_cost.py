"""Benchmark: what judging a merging git command costs the hook (session 35, issue 24),
against the tree-move baseline of session 33.

protect.py asks git about the tracked guard files once a git subcommand may rewrite
the tree: ``git checkout REV`` (the baseline: ``tracked_guards`` then ``lacks``, git's
``cat-file -e`` of each), and now ``merge``/``rebase``/``cherry-pick``/``pull``/``stash
pop`` (``tracked_guards`` then ``changed``: one ``git diff --quiet BASE...REV`` or
``rev-list REV^!``). Each is timed in this process over a throwaway repository whose main
holds a committed policy, ``--runs`` times; the median of each and its ratio to the
baseline are printed::

    .venv/bin/python bench/tree_merges_cost.py [--runs 41]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable

from hookwise.policy.trust import tree_moves

_SETUP = """
git init -q -b main && echo a > README && git add README && git commit -qm one
mkdir .hookwise && echo 'version: 1' > .hookwise/policy.yaml && git add .hookwise
git commit -qm policy && git checkout -q -b feature && echo f > f && git add f
git commit -qm f && git checkout -q main && echo b >> README && git commit -qam two
"""


def _repository(where: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": where, "GIT_AUTHOR_NAME": "b",
           "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@example.com"}  # fmt: skip
    subprocess.run(["bash", "-ec", _SETUP], cwd=where, env=env, check=True, capture_output=True)


def _moved(cwd: str, guards: list[str], rev: str) -> Callable[[], object]:
    def run() -> object:
        return [
            tree_moves.lacks(cwd, rev, rel) for _p, rel in tree_moves.tracked_guards(cwd, guards)
        ]

    return run


def _merged(cwd: str, guards: list[str], sub: str, rest: list[str]) -> Callable[[], object]:
    def run() -> object:
        found = tree_moves.incoming(sub, rest)
        assert found is not None, (sub, rest)
        relatives = [rel for _p, rel in tree_moves.tracked_guards(cwd, guards)]
        return [tree_moves.changed(cwd, check, relatives) for check in found[0]]

    return run


def _median(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=41)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hw-merges-") as where:
        _repository(where)
        guards = [os.path.join(where, ".hookwise", "policy.yaml")]
        base = _median(_moved(where, guards, "HEAD~1"), args.runs)
        print(f"baseline  git checkout HEAD~1       {base:7.2f} ms")
        for label, sub, rest in (
            ("git merge feature", "merge", ["feature"]),
            ("git rebase feature", "rebase", ["feature"]),
            ("git cherry-pick feature", "cherry-pick", ["feature"]),
            ("git revert HEAD", "revert", ["HEAD"]),
        ):
            cost = _median(_merged(where, guards, sub, rest), args.runs)
            print(f"          {label:26} {cost:7.2f} ms  ratio {cost / base:.2f}")


if __name__ == "__main__":
    main()
