"""config/env_files._glob: the extension env files found without importing :mod:`glob`
(``hookwise run`` reads them at every start) are those ``glob.glob`` finds."""

from __future__ import annotations

import glob
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.env_files import _glob

NAMES = ("a", ".hidden", "ext", ".env", "b c", "*")
_relative = st.lists(st.sampled_from(NAMES), min_size=1, max_size=4).map("/".join)
_pattern = st.lists(st.sampled_from((*NAMES, "*", "*", "e*", "?")), min_size=1, max_size=4)


@settings(max_examples=80, deadline=None)
@given(
    nodes=st.lists(st.tuples(_relative, st.sampled_from(["dir", "file", "link"])), max_size=10),
    parts=_pattern,
)
def test_it_finds_what_glob_finds(nodes: list[tuple[str, str]], parts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for relative, kind in nodes:
            path = root / relative
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if kind == "dir":
                    path.mkdir(exist_ok=True)
                elif kind == "file":
                    path.write_bytes(b"")
                else:  # (a link to a directory, or dangling)
                    path.symlink_to(root / "a")
            except OSError:
                continue
        pattern = f"{root}/{'/'.join(parts)}"
        assert sorted(_glob(pattern)) == sorted(glob.glob(pattern))


def test_a_row_pattern_finds_each_extension_s_env_file(tmp_path: Path) -> None:
    for name in ("one", "two", ".off"):
        (tmp_path / "extensions" / name).mkdir(parents=True)
        (tmp_path / "extensions" / name / ".env").write_bytes(b"A=1\n")
    (tmp_path / "extensions" / "three").mkdir()
    found = sorted(_glob(f"{tmp_path}/extensions/*/.env"))
    assert found == [f"{tmp_path}/extensions/{n}/.env" for n in ("one", "two")]
