"""A loop's ``"$f"`` is one of its list's words (session 30): ``for f in src/*.py; do python3
-m py_compile "$f"; done`` reads the files the pattern matches on disk, not any file, so a
secrets rule lets it through; a list that reaches a secret, a variable the loop's body
or another command sets as well (``read f``, ``f=.env``, a nameref, a function), glob
options that widen the pattern, or an unquoted ``$f`` (split and globbed again) still
block. Each blocked loop first prints the planted secret in real bash, in the same tree the
hook decides in (its patterns are matched on that disk)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.policy.test_unverifiable import MARK, packs, world

__all__ = ["packs"]  # the module fixture, shared

PASS = [
    'for f in src/*.py; do python3 -m py_compile "$f"; done',
    'for f in src/*.py README.md; do wc -l "$f"; done',
    'for f in *.txt; do cp "$f" out/; done',
    'for f in notes.txt seed; do cat "$f"; done',
    'for f in src/*.py; do grep -n TODO "$f"; done',
]

BLOCK = [
    'for f in .e*; do cat "$f"; done',
    'for f in .env; do cat "$f"; done',
    'for f in src/*.py .env; do cat "$f"; done',
    'for f in .env; do cp "$f" x; done; cat x',
    'for f in src/*.py; do read -r f; cat "$f"; done < list',
    'for f in src/*.py; do f=.env; cat "$f"; done',
    'for f in src/*.py; do g() { f=.env; }; g; cat "$f"; done',
    'for f in src/*.py; do declare -n r=f; r=.env; cat "$f"; done',
    'shopt -s dotglob; for f in *; do cat "$f"; done',
    'GLOBIGNORE=x; for f in *; do cat "$f"; done',
    'for f in .[e]nv; do cat "$f"; done',
    'for f in ~/.ssh/*; do cat "$f"; done',
    'for f in src/*.py; do :; done; for f in .env; do cat "$f"; done',
]


def _tree(root: Path) -> dict[str, Any]:
    place = world(root, git=False)
    project = place["project"]
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x = 1\n")
    (project / "src" / "b.py").write_text("y = 2\n")
    (project / "notes.txt").write_text("notes\n")
    (project / "README.md").write_text("readme\n")
    (project / "out").mkdir()
    (project / "list").write_text(".env\n")
    return place


def _verdict(command: str, policy: dict[str, Any], place: dict[str, Any]) -> tuple[str, str]:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command},
        cwd=str(place["project"]),
    )  # fmt: skip
    env = {"HOME": place["env"]["HOME"]}
    decision = decide(payload, policy, "claude", env, now=0.0).decision
    assert decision is not None
    return decision.decision or "none", decision.reason


@pytest.mark.parametrize("command", PASS)
def test_a_loop_over_names_and_patterns_reads_what_they_match(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    place = _tree(tmp_path)
    assert _verdict(command, packs, place) == ("none", ""), command


@pytest.mark.parametrize("command", BLOCK)
def test_a_loop_that_reaches_a_secret_is_not_let_through(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    place = _tree(tmp_path)
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert MARK in done.stdout + done.stderr, f"bash did not print the secret: {command}"
    place = _tree(tmp_path / "again")  # (the same tree, before the command ran)
    decision, reason = _verdict(command, packs, place)
    assert decision in ("deny", "ask"), (command, decision, reason)
