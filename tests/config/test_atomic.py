"""The one atomic write: whole file or old file, permissions kept, no temporary left."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hookwise.config.atomic import write_atomic, write_text_atomic


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_existing_file_keeps_its_mode_and_new_file_gets_the_given_one(tmp_path: Path) -> None:
    existing = tmp_path / "settings.json"
    existing.write_text("{}")
    existing.chmod(0o640)
    write_text_atomic(existing, '{"a": 1}')
    assert existing.read_text() == '{"a": 1}' and _mode(existing) == 0o640
    fresh = tmp_path / "store.json"
    write_atomic(fresh, b"x", mode=0o600)
    assert _mode(fresh) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json", "store.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "dir-not-file"
    target.mkdir()
    (target / "child").write_text("keep")
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert (target / "child").read_text() == "keep"
    assert [p.name for p in tmp_path.iterdir()] == ["dir-not-file"]
