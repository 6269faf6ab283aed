"""Red team s30 run #1: the supervisor's one watch thread resolved every exec's program
path in Python (``os.path.realpath``), and a 3.9 KB path of 790 symbolic links took it 8 to
16 s, while every other exec and signal of the session waited: the real Claude Code timed
the hook out and ran the tool. A hook program is now known by its file (device, inode)
through one ``stat``, which the kernel bounds (40 links: past them exec fails too)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hookwise.run import exec_watch
from hookwise.run.exec_watch import HookExecs


def _execs(tmp_path: Path) -> HookExecs:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home")}
    return HookExecs(env, lambda script: False)


def _chain(where: Path, target: str, links: int) -> str:
    """``links`` symbolic links, each to the next, the last to ``target``."""
    previous = target
    for n in range(links):
        link = where / f"l{n}"
        link.symlink_to(previous)
        previous = str(link)
    return previous


def test_a_shell_is_known_by_its_file_through_links(tmp_path: Path) -> None:
    execs = _execs(tmp_path)
    sh = shutil.which("sh") or "/bin/sh"
    assert execs.program(sh) == "shell"
    assert execs.program(_chain(tmp_path, sh, 10)) == "shell"
    assert execs.program(str(tmp_path / "nothing")) is None
    assert execs.program("/usr/bin/env") is None


def test_a_path_past_the_kernels_links_is_no_hook_and_costs_one_stat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    execs = _execs(tmp_path)
    sh = shutil.which("sh") or "/bin/sh"
    long = _chain(tmp_path, sh, 60)  # (execve refuses it too: ELOOP)
    with pytest.raises(OSError):
        os.stat(long)

    def refused(path: str) -> str:
        raise AssertionError(f"resolved in Python: {path}")

    monkeypatch.setattr(exec_watch.os.path, "realpath", refused)
    assert execs.program(long) is None
    assert execs.kind(long, ["sh", "-c", "x"]) is None
