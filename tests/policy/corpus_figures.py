"""The corpora's figures: how many commands of each the hook blocks (deny or ask) with every
pack, and how many everyday commands it blocks (false positives). Not a test: the numbers
issue 24's results cite, printed by ``.venv/bin/python -m tests.policy.corpus_figures``
(the tests assert the same corpora command by command)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

import yaml

from tests.policy.corpus_support import CORPUS

PACKS = (
    "hookwise/filesystem, hookwise/git, hookwise/secrets, hookwise/database, "
    "hookwise/kubernetes, hookwise/cloud"
)


def _load(name: str) -> Any:
    return yaml.safe_load((CORPUS / name).read_text())


def _open_tsv() -> list[str]:
    """The raw red-team record's third column (`hook-asked-with: <bash word>`), unquoted by bash."""
    commands = []
    for line in (CORPUS / "redteam_s22_open.tsv").read_text().splitlines():
        columns = line.split("\t")
        if line.startswith("#") or len(columns) < 3:
            continue
        word = columns[2].removeprefix("hook-asked-with:").strip()
        script = f'set -- {word}; [ $# -eq 1 ] && printf %s "$1"'
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                              check=False)  # fmt: skip
        # not one quoted word: the command line itself (before a note in parentheses)
        commands.append(done.stdout if done.returncode == 0 else word.split("  (")[0])
    return commands


def _open_tsv_s23() -> list[str]:
    """Session 23's raw red-team record (class, command, hook answer, damage): the commands
    the hook allowed whose damage was seen in bash (the escapes)."""
    lines = (CORPUS / "redteam_s23_open.tsv").read_text().splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    return [r[1] for r in rows[1:] if len(r) >= 4 and r[2] == "allow" and r[3] != "none"]


def corpora() -> dict[str, tuple[str, list[str]]]:
    """name -> (what counts: "block" or "pass", commands)."""
    from tests.policy import test_unverifiable as unverifiable
    from tests.policy.test_redteam_s22 import DATA as REDTEAM

    evasions, everyday, unv = _load("evasions.yaml"), _load("everyday.yaml"), unverifiable.DATA
    found: dict[str, tuple[str, list[str]]] = {
        "redteam_s22.yaml (block + xfail)": (
            "block",
            [
                c
                for part in ("classes", "xfail")
                for b in REDTEAM[part].values()
                for c in b["block"]
            ],
        ),
        "redteam_s22_open.tsv": ("block", _open_tsv()),
        "redteam_s23_open.tsv": ("block", _open_tsv_s23()),
        "evasions.yaml block": (
            "block",
            [c for b in evasions["classes"].values() for c in (b.get("block") or {}).values()],
        ),
        "unverifiable.yaml block": (
            "block",
            [c for b in unv["classes"].values() for c in b["block"]],
        ),
        "unnamed readers (test_unverifiable)": ("block", list(unverifiable.UNNAMED_READERS)),
        "everyday.yaml unverifiable": (
            "block",
            [e["command"] for e in everyday["unverifiable"].values()],
        ),
        "evasions.yaml pass": (
            "pass",
            [c for b in evasions["classes"].values() for c in (b.get("pass") or {}).values()],
        ),
        "unverifiable.yaml near misses": ("pass", list(unv["near-misses"]["pass"])),
        "redteam_s22.yaml near misses": (
            "pass",
            [c for b in REDTEAM["classes"].values() for c in b.get("pass", [])],
        ),
        "everyday.yaml pass": ("pass", [e["command"] for e in everyday["pass"].values()]),
    }
    for name in (
        "escapes_s23.yaml",
        "escapes_s23b.yaml",
        "escapes_s24a.yaml",
        "escapes_s25a.yaml",
        "escapes_s25b.yaml",
        "escapes_s26.yaml",
    ):
        if not (CORPUS / name).exists():
            continue
        classes = _load(name)["classes"].values()
        found[f"{name} block"] = ("block", [c for b in classes for c in b["block"]])
        found[f"{name} pass"] = ("pass", [c for b in classes for c in b.get("pass", [])])
    latest = CORPUS / "escapes_s24.yaml"
    if latest.exists():
        data = _load("escapes_s24.yaml")
        found["escapes_s24.yaml reads block"] = (
            "block",
            [c for b in data["reads"].values() for c in b["block"]],
        )
        found["escapes_s24.yaml reads pass"] = (
            "pass",
            [c for b in data["reads"].values() for c in b.get("pass", [])],
        )
    return found


def figures(verbose: bool = False) -> Iterable[str]:
    from tests.policy.conftest import compile_text
    from tests.policy.test_unverifiable import HOME, verdict

    os.environ["HOME"] = HOME  # the packs' ~ globs read the home at compile time
    policy = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    for name, (expect, commands) in corpora().items():
        decisions = [verdict(c, policy)[0] for c in commands]
        blocked = sum(d in ("deny", "ask") for d in decisions)
        asked = sum(d == "ask" for d in decisions)
        word = "blocked" if expect == "block" else "blocked (false positives)"
        yield f"{name}: {word} {blocked} of {len(commands)} ({asked} asked)"
        if verbose:
            for command, decision in zip(commands, decisions, strict=True):
                wrong = (decision in ("deny", "ask")) != (expect == "block")
                if wrong:
                    yield f"    {decision}: {command!r}"


if __name__ == "__main__":
    for line in figures(verbose="-v" in sys.argv):
        print(line)
