"""os_lite (the hook's os without the import of os) against os itself.

Every function the hot path uses is compared with :mod:`os` / :mod:`os.path` on generated
paths, and ``realpath``/``lexists``/``isdir``... on a real tree with symlinks, loops,
dangling links and ``..``. A difference here would be a path the guard resolves
differently from the system.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy import os_lite

SRC = str(Path(os_lite.__file__).resolve().parents[2])

# path-like strings: the characters that matter to path functions, and some that do not
parts = st.sampled_from(["", ".", "..", "a", "b", "~", "~root", "x.y", " ", "é", "a b", "..."])
paths = st.lists(parts, max_size=7).map("/".join) | st.text(
    alphabet=st.sampled_from("/.~ab"), max_size=12
)


@given(paths)
def test_pure_path_functions_agree_with_posixpath(name: str) -> None:
    assert os_lite.normpath(name) == os.path.normpath(name)
    assert os_lite.split(name) == os.path.split(name)
    assert os_lite.dirname(name) == os.path.dirname(name)
    assert os_lite.basename(name) == os.path.basename(name)
    assert os_lite.isabs(name) == os.path.isabs(name)
    assert os_lite.abspath(name) == os.path.abspath(name)
    assert os_lite.path.join is os_lite.join


@given(paths, st.lists(paths, max_size=4))
def test_join_agrees(first: str, rest: list[str]) -> None:
    assert os_lite.join(first, *rest) == os.path.join(first, *rest)


@pytest.mark.parametrize("home", ["/home/me", "/home/me/", "/", "//", "relative", "", None])
@given(name=paths)
@settings(max_examples=60)
def test_expanduser_agrees(home: str | None, name: str) -> None:
    old = os.environ.get("HOME")
    if home is None:  # no HOME: the password database
        os.environ.pop("HOME", None)
    else:
        os.environ["HOME"] = home
    try:
        assert os_lite.expanduser(name) == os.path.expanduser(name)
    finally:
        if old is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = old


def _tree(root: Path) -> list[str]:
    """A tree with the links path resolution must get right; the names to resolve."""
    (root / "d" / "e").mkdir(parents=True)
    (root / "f").write_text("x")
    (root / "d" / "g").write_text("y")
    links = {
        "to_d": "d",
        "to_abs_d": str(root / "d"),
        "up": "..",
        "dangling": "nowhere/at/all",
        "loop1": "loop2",
        "loop2": "loop1",
        "self": "self",
        "chain": "to_d/e/../g",
        "d/back": "../f",
        "d/e/deep": "../../to_d",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    names = []
    for base in ["", "d", "d/e", "to_d", "up", "to_abs_d/e"]:
        for leaf in ["", ".", "..", "f", "g", "back", "deep", "dangling", "loop1", "self"]:
            names.append(str(root / base / leaf) if base or leaf else str(root))
            names.append(f"{root}/{base}/../{leaf}")
    names += [str(root / "chain"), str(root / "loop1" / "x"), str(root / "self" / "..")]
    return names


def test_realpath_and_file_tests_agree_on_a_real_tree(tmp_path: Path) -> None:
    names = _tree(tmp_path)
    for name in names:
        assert os_lite.realpath(name) == os.path.realpath(name), name
        for test in ("lexists", "exists", "isdir", "isfile", "islink"):
            assert getattr(os_lite, test)(name) == getattr(os.path, test)(name), (test, name)


def test_realpath_of_relative_names_follows_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path / "d")
    for name in ["back", "../to_d/e", "e/deep/g", "../loop1", ".", "../up/x"]:
        assert os_lite.realpath(name) == os.path.realpath(name), name


def test_makedirs_agrees(tmp_path: Path) -> None:
    os_lite.makedirs(str(tmp_path / "a" / "b" / "c"), 0o700)
    assert (tmp_path / "a" / "b" / "c").is_dir()
    assert (tmp_path / "a" / "b" / "c").stat().st_mode & 0o777 == 0o700
    os_lite.makedirs(str(tmp_path / "a" / "b" / "c"), exist_ok=True)
    with pytest.raises(FileExistsError):
        os_lite.makedirs(str(tmp_path / "a" / "b" / "c"))
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError):
        os_lite.makedirs(str(tmp_path / "file"), exist_ok=True)
    os_lite.makedirs(str(tmp_path / "p" / "q" / "."), exist_ok=True)
    assert (tmp_path / "p" / "q").is_dir()


def test_the_environment_without_os_is_the_one_os_would_give() -> None:
    """In a process that never imports os (the hook), the environment is decoded as os
    decodes it, undecodable bytes included; once os is loaded, its live mapping counts."""
    probe = (
        "import sys\n"
        f"sys.path[0] = {SRC!r}\n"
        "from hookwise.policy import os_lite\n"
        "assert 'os' not in sys.modules\n"
        "lite = os_lite.environ_copy()\n"
        "home = os_lite.getenv('HOME'), os_lite.getenv('ODD'), os_lite.getenv('NOPE')\n"
        "import os\n"
        "assert lite == dict(os.environ), (lite, dict(os.environ))\n"
        "assert home == (os.environ['HOME'], os.environ['ODD'], None), home\n"
        "os.environ['LATER'] = 'set'\n"
        "assert os_lite.environ_copy()['LATER'] == 'set'\n"
        "assert os_lite.getenv('LATER') == 'set'\n"
        "print('ok')\n"
    )
    env = {"HOME": "/home/tester", "ODD": "caf\udce9", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"


def test_file_types_agree_with_stat() -> None:
    import stat

    for kind in range(16):
        for low in (0, 0o644, 0o7777):
            mode = (kind << 12) | low
            for name in (
                "S_ISDIR",
                "S_ISREG",
                "S_ISLNK",
                "S_ISFIFO",
                "S_ISCHR",
                "S_ISBLK",
                "S_ISSOCK",
            ):
                assert getattr(os_lite, name)(mode) == getattr(stat, name)(mode), (name, oct(mode))
