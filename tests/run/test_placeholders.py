"""Placeholders: made when missing, removed only when untouched and no session binds them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hookwise.run.guarded_paths import HOST, STATE, Guarded
from hookwise.run.placeholders import Journal, create, remove


def _entries(root: Path) -> list[Guarded]:
    return [
        Guarded(str(root / "a/b/settings.json"), HOST, "t", placeholder=b"{}\n"),
        Guarded(str(root / "c/.hookwise"), STATE, "t", directory=True),
        Guarded(str(root / "optional.json"), HOST, "t"),
    ]


def test_missing_entries_are_made_with_their_parents_and_removed_untouched(tmp_path: Path) -> None:
    made = create(_entries(tmp_path))
    assert (tmp_path / "a/b/settings.json").read_bytes() == b"{}\n"
    assert (tmp_path / "c/.hookwise").is_dir()
    assert not (tmp_path / "optional.json").exists()
    assert [m.path for m in made] == [
        str(tmp_path / "a"),
        str(tmp_path / "a/b"),
        str(tmp_path / "a/b/settings.json"),
        str(tmp_path / "c"),
        str(tmp_path / "c/.hookwise"),
    ]
    assert remove(made) == []
    assert sorted(os.listdir(tmp_path)) == []


def test_what_changed_meanwhile_is_kept(tmp_path: Path) -> None:
    made = create(_entries(tmp_path))
    (tmp_path / "a/b/settings.json").write_bytes(b'{"mine": 1}\n')  # same inode, new content
    (tmp_path / "c/other").write_text("written beside the placeholder\n")
    kept = remove(made)
    assert set(kept) == {
        str(tmp_path / "a/b/settings.json"),
        str(tmp_path / "a/b"),
        str(tmp_path / "a"),
        str(tmp_path / "c"),
    }
    assert not (tmp_path / "c/.hookwise").exists()
    replaced = create([Guarded(str(tmp_path / "x.json"), HOST, "t", placeholder=b"{}\n")])
    (tmp_path / "x.new").write_bytes(b"{}\n")  # same content, another inode: someone's file
    os.replace(tmp_path / "x.new", tmp_path / "x.json")
    assert remove(replaced) == [str(tmp_path / "x.json")]


def test_existing_files_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "a/b").mkdir(parents=True)
    (tmp_path / "a/b/settings.json").write_text("real\n")
    made = create(_entries(tmp_path))
    assert str(tmp_path / "a/b/settings.json") not in [m.path for m in made]
    remove(made)
    assert (tmp_path / "a/b/settings.json").read_text() == "real\n"


def test_a_placeholder_bound_by_a_running_session_stays(tmp_path: Path) -> None:
    journal_dir = tmp_path / "journal"
    journal_dir.mkdir()
    target = tmp_path / "p/.gemini"
    first = Journal(str(journal_dir), "first")
    made = create([Guarded(str(target), HOST, "t", directory=True)])
    first.record(made)
    first.register([str(target)])
    # a second session (another process: the locks are per open file) binds it too
    script = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[2] / 'src')!r})\n"
        "from hookwise.run.placeholders import Journal\n"
        f"j = Journal({str(journal_dir)!r}, 'second')\n"
        f"j.register([{str(target)!r}])\n"
        "print('REGISTERED', flush=True)\n"
        "sys.stdin.readline()\n"
        "print(j.finish([]), flush=True)\n"
    )
    second = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert second.stdout is not None and second.stdin is not None
    assert second.stdout.readline().strip() == "REGISTERED"
    assert first.finish(made) == []
    assert target.is_dir()  # the second session still binds it
    second.stdin.write("\n")
    second.stdin.flush()
    assert second.communicate(timeout=30)[0].strip() == "[]"
    assert not target.exists()  # the last one removed it
    assert os.listdir(journal_dir / "sessions") == []


def test_the_parent_made_for_a_running_session_s_placeholder_stays_recorded(
    tmp_path: Path,
) -> None:
    """Another session ending while this one runs keeps the directory made as the parent
    of this one's placeholder in the journal: this session removes it when it ends."""
    journal_dir = tmp_path / "journal"
    journal_dir.mkdir()
    placeholder = tmp_path / "home/.local/bin/bash"
    running = Journal(str(journal_dir), "running")
    made = create([Guarded(str(placeholder), HOST, "t", placeholder=b"")])
    running.record(made)
    running.register([str(placeholder)])
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[2] / 'src')!r})\n"
        "from hookwise.run.placeholders import Journal\n"
        f"j = Journal({str(journal_dir)!r}, 'other')\n"
        "j.register([])\n"
        "print(j.finish([]))\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    assert placeholder.parent.is_dir()
    assert running.finish(made) == []
    assert not (tmp_path / "home/.local").exists()


def test_an_interrupted_session_s_placeholders_are_removed_later(tmp_path: Path) -> None:
    journal_dir = tmp_path / "journal"
    journal_dir.mkdir()
    target = tmp_path / "p/.codex"
    script = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[2] / 'src')!r})\n"
        "from hookwise.run.guarded_paths import Guarded\n"
        "from hookwise.run.placeholders import Journal, create\n"
        f"j = Journal({str(journal_dir)!r}, 'crashed')\n"
        f"made = create([Guarded({str(target)!r}, 'host', 't', directory=True)])\n"
        "j.record(made)\n"
        f"j.register([{str(target)!r}])\n"
        "os._exit(9)  # killed: no finish\n"
    )
    assert subprocess.run([sys.executable, "-c", script], check=False).returncode == 9
    assert target.is_dir()
    later = Journal(str(journal_dir), "later")
    later.register([])
    assert later.finish([]) == []
    assert not target.exists()
