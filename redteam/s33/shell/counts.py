#!/usr/bin/env python3
"""The report's figures from the batches: attacks put to the hook and their answers
(batches/b*.tsv), runs in real bash (batches/v*.tsv) and those with damage."""

from __future__ import annotations

import collections
import glob
import os

B = os.path.join(os.path.dirname(os.path.abspath(__file__)), "batches")


def main() -> None:
    answers: collections.Counter[str] = collections.Counter()
    for path in glob.glob(os.path.join(B, "b*.tsv")):
        for line in open(path, encoding="utf-8"):
            first = line.split("\t", 1)[0]
            answers["allow" if first == "allow" else first.rsplit(",", 1)[-1]] += 1
    runs = damage = 0
    for path in glob.glob(os.path.join(B, "v*.tsv")):
        for line in open(path, encoding="utf-8"):
            runs += 1
            damage += not line.rstrip("\n").split("\t")[1].startswith("none")
    print(f"{sum(answers.values())} attacks: " + ", ".join(f"{k} {v}" for k, v in answers.most_common()))
    print(f"{runs} runs in real bash, {damage} with damage")


if __name__ == "__main__":
    main()
