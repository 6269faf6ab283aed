"""The mount plan (run/plan.py) on generated trees of directories, files and symlinks: the
walk that remembers the names it resolved gives the pins and read-only binds of the walk
that resolves every name again (the plan before the start was made faster)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.run.guarded_paths import CODE, HOST, STATE, Guarded
from hookwise.run.plan import MountPlan, PlanError, _resolve, build

NAMES = ("a", "b", "c", "a-b", "d")


def _naive(entries: list[Guarded]) -> MountPlan:
    """build() as it was: every entry resolved from the root, targets compared pairwise."""
    pins: dict[str, bool] = {}
    targets: dict[str, Guarded] = {}
    seen: set[str] = set()
    for entry in sorted((e for e in entries if os.path.lexists(e.path)), key=lambda e: e.path):
        if entry.path in seen:
            continue
        seen.add(entry.path)
        real = _resolve(entry.path, pins)
        os.stat(real)
        targets.setdefault(real, entry)
    kept: list[tuple[str, Guarded]] = []
    for real in sorted(targets):
        if not any(real.startswith(outer.rstrip("/") + "/") for outer, _ in kept):
            kept.append((real, targets[real]))
    return MountPlan(list(pins.items()), kept, [])


# a tree: each node a directory, a file, or a symlink to another generated path
_kind = st.sampled_from(["dir", "file", "link"])
_relative = st.lists(st.sampled_from(NAMES), min_size=1, max_size=4).map("/".join)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.lists(st.tuples(_relative, _kind, _relative), min_size=1, max_size=12),
    picks=st.lists(_relative, min_size=1, max_size=10),
)
def test_the_remembering_walk_plans_as_the_plain_walk(
    nodes: list[tuple[str, str, str]], picks: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for relative, kind, target in nodes:
            path = root / relative
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if kind == "dir":
                    path.mkdir(exist_ok=True)
                elif kind == "file":
                    path.write_bytes(b"x")
                else:
                    path.symlink_to(root / target)
            except OSError:
                continue  # (a parent is a file or a link: that node is not made)
        entries = [Guarded(str(root / p), CODE, "generated") for p in picks]
        try:
            expected = _naive(entries)
        except (PlanError, OSError):
            with pytest.raises(OSError):
                build(entries, [])
            return
        found = build(entries, [])
        assert found.pins == expected.pins
        assert [(real, e.path) for real, e in found.readonly] == [
            (real, e.path) for real, e in expected.readonly
        ]


def test_a_target_inside_another_is_bound_with_it_and_a_sibling_prefix_is_not(
    tmp_path: Path,
) -> None:
    for name in ("a", "a-b", "a/b", "ab"):
        (tmp_path / name).mkdir()
    plan = build([Guarded(str(tmp_path / n), STATE, "t") for n in ("a/b", "a", "a-b", "ab")], [])
    assert [real for real, _ in plan.readonly] == [str(tmp_path / n) for n in ("a", "a-b", "ab")]


def test_a_symlinked_parent_is_pinned_once_and_followed(tmp_path: Path) -> None:
    (tmp_path / "real/x").mkdir(parents=True)
    (tmp_path / "real/x/f").write_bytes(b"")
    (tmp_path / "real/x/g").write_bytes(b"")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    entries = [Guarded(str(tmp_path / "link/x" / n), HOST, "t") for n in ("f", "g")]
    plan = build(entries, [])
    assert dict(plan.pins)[str(tmp_path / "link")] is True
    assert [real for real, _ in plan.readonly] == [
        str(tmp_path / "real/x/f"),
        str(tmp_path / "real/x/g"),
    ]
