"""Session 29 (issue 24), the open edges of the command analysis: what the hook finds on the
disk when it decides. Each case is performed in real bash first, where it does the damage,
then the starter's answer must not be an allow."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hookwise.policy.rules.trees import MAX_ENTRIES
from tests.policy.test_kept_copies import MARK, _bash, _decision


def _tree_project(tmp_path: Path) -> Path:
    """A project whose first directory holds more entries than the hook's look, and whose
    secret lies in a directory the look never reaches (breadth first)."""
    root = tmp_path / "proj"
    bulk = root / "a"
    bulk.mkdir(parents=True)
    for n in range(MAX_ENTRIES + 50):
        (bulk / f"f{n}.txt").write_text("x\n")
    (root / "zz" / "d1").mkdir(parents=True)  # (two levels down: past `a` in either order)
    (root / "zz" / "d1" / ".env").write_text(f"TOKEN={MARK}\n")
    (tmp_path / "home").mkdir()
    return root


def test_a_tree_past_the_bound_is_unverifiable_not_allowed(tmp_path: Path) -> None:
    project = _tree_project(tmp_path)
    for command in ("grep -rh TOKEN .", "tar cf - .", "grep -rh TOKEN"):
        assert MARK in _bash(command, project), command  # it reads the hidden secret
        decision, reason = _decision(command, project)
        assert decision == "ask", (command, decision)
        assert f"more than {MAX_ENTRIES} entries" in reason, reason


def test_a_tree_within_the_bound_without_a_secret_stays_free(tmp_path: Path) -> None:
    project = _tree_project(tmp_path)
    subprocess.run(["rm", "-rf", str(project / "zz")], check=True)
    assert _decision("grep -rh TOKEN zz", project) == ("none", "")  # (not there: nothing)
    (project / "src").mkdir()
    (project / "src" / "m.py").write_text("print(1)\n")
    assert _decision("grep -rn TODO src", project) == ("none", "")
