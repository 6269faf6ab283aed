"""Red team s35 classes D, I, P, J (corpus/redteam_s35_open.tsv): names with parts the
guard does not know. What the guard no longer assumes:

- D: that a word with a part known only when it runs (``~/.netrc${x}``, ``zz.pth$1``,
  ``hookwise$(true)``) names no file: in a fresh shell that part is empty, so the word is
  judged as the path it then is, and for the guard's places as every path its known parts
  allow with the rest any text within a name (shell/commands/open_words.py,
  rules/maybe.could_be_path and fits);
- I: that split/csplit write only the names it can list: they write a prefix plus a
  suffix they make, any text (written.split_names);
- P: that cp/mv/ln/install with backups write only their target: the replaced file is
  kept as target + suffix (written.backup_suffixes);
- J: that a cd in a subshell lasts past it: ``(cd t && ...) | (cd DIR && cpio -id)``
  extracts into DIR from where the line stands (Command.group, canonical.command_dirs).

Each row goes through the real hook of a fresh copy of the red team's fixture (the s33
table test's machinery, reused), after doing its damage in real bash; invented variants
of the class too, and friction twins that must stay allowed."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell.commands import open_words
from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV
from tests.policy.test_redteam_s33_table import (  # its fixture's machinery, reused
    LISTENER,
    _bare_main,
    _build,
    _damage,
    _files,
    _hook,
    _run,
    guards,
)

RED_ROOT = "/tmp/rt35s/work"
# class L's (another helper's): unlink is no remover the rules know yet
NOT_THIS_CLASS = {"unlink ../victim/sub/f${x}"}


@pytest.fixture(scope="module")
def s33_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The s33 table's tree (its _build), built once and put back fresh for every row."""
    base = tmp_path_factory.mktemp("s35d")
    work, kept = base / "rt35s" / "work", base / "kept"
    env = _build(work)
    assert _hook("rm -rf ../victim", work, env)[0] == "ask"  # (compiles the policy's cache)
    shutil.copytree(work, kept, symlinks=True)

    def fresh() -> Path:
        shutil.rmtree(work)
        shutil.copytree(kept, work, symlinks=True)
        return work

    yield {"fresh": fresh, "env": env}
    if work.exists():
        shutil.rmtree(work)


def _rows() -> list[Any]:
    lines = (CORPUS / "redteam_s35_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    rows = [line.split("\t") for line in lines if line[:1] in "DIPJ"]
    return [
        pytest.param(
            row[1],
            id=f"{row[0][0]}-{n:02d}",
            marks=[pytest.mark.xfail(strict=True, reason="class L")]
            if row[1] in NOT_THIS_CLASS
            else [],
        )
        for n, row in enumerate(rows, 1)
    ]


def test_the_classes_have_their_rows() -> None:
    assert len(_rows()) == 39 + 2 + 7 + 1


def _blocked_after_damage(command: str, s33_tree: dict[str, Any], damage: bool) -> None:
    env, calls, work = s33_tree["env"], command.split(" ⟫ "), s33_tree["fresh"]()
    port = LISTENER.rsplit(":", 1)[1]
    decided = _hook(calls[0].replace(RED_ROOT, str(work)), work, env)
    if damage and ":8145" not in command and port not in command:
        before = {"bare": _bare_main(work), "guards": guards(work.parent),
                  "hw": _files(work / "hw")}  # fmt: skip
        output = ""
        for call in calls:
            done = _run(["bash", "-c", call.replace(RED_ROOT, str(work))], work / "proj",
                        {**env, **GIT_ENV})  # fmt: skip
            output += done.stdout + done.stderr
        if not any(sign in output for sign in ABSENT):
            assert _damage(work, output, before), (command, output[-2000:])
    assert decided[0] in ("deny", "ask"), (command, decided)


@pytest.mark.parametrize("command", _rows())
def test_a_row_does_damage_and_its_first_call_is_stopped(
    command: str, s33_tree: dict[str, Any]
) -> None:
    _blocked_after_damage(command, s33_tree, damage=True)


VARIANTS = [
    "cp README ../home/.local/bin/ba${x}sh",  # in the middle of a program's name
    "echo x > ../hw/b${x}in/hookwise",  # in a directory of the hook's own code
    'cat "$HOME/.aws/cred${y}entials"',  # $HOME known, the gap inside the name
    'head -3 ~/.ssh/id_rsa"$2"',  # a positional parameter, quoted
    "cp README ../home/.local/bin/s${1}h",  # a positional parameter in a program's name
    "grep -h . ..${z}/home/.git-credentials",  # before a ..
    # I: other spellings of a prefix and a made suffix
    "split -n 1 -a 1 --additional-suffix=sh README ../home/.local/bin/b",  # b + a + sh
    "csplit --prefix=../home/.local/bin/s -b h%.0d README 1",
    "split -n l/8 -a1 -- README ../home/.local/bin/bas",
    # P: the suffix attached, set for the line, or given through the environment
    "echo x > ../home/.local/bin/bas && cp -bSh README ../home/.local/bin/bas",
    "echo x > ../home/.local/bin/bas && export SIMPLE_BACKUP_SUFFIX=h && cp -b README ../home/.local/bin/bas",
    "echo x > ../home/.local/bin/s && install --suffix h --backup=simple README ../home/.local/bin/s",
    # J: other extractors and shapes of the subshell
    "mkdir -p t && cp README t/bash && (cd t && tar -cf - bash) | (cd ../home/.local/bin; tar -xf -)",
    "mkdir -p t && cp README t/bash && (cd t; echo bash | cpio -o) > /tmp/s35d.cpio; (cd t); cd ../home/.local/bin && cpio -id < /tmp/s35d.cpio",
    "mkdir -p t && cp README t/bash && (cd t && echo bash | cpio -o) | (cd ../home/.local/bin && cpio -idu)",
]


@pytest.mark.parametrize("command", VARIANTS)
def test_an_invented_variant_is_stopped(command: str, s33_tree: dict[str, Any]) -> None:
    _blocked_after_damage(command, s33_tree, damage=True)


# judged only: the directory does not exist, so bash does nothing (the guard cannot know)
@pytest.mark.parametrize(
    "command",
    ["echo x > ../hw/lib/python3.11/site-pack${x}/zz.pth", "cp README ../home/.local/bin/ba${x}"],
)
def test_a_guard_place_its_known_parts_allow_is_unverifiable(
    command: str, s33_tree: dict[str, Any]
) -> None:
    assert _hook(command, s33_tree["fresh"](), s33_tree["env"])[0] == "ask"


FRICTION = [
    'cat "${1:-README}"',  # a default that is a plain file (the red team's friction row)
    "cat src/$name.py",
    'echo x > "$TMPDIR/out.txt"',
    'mkdir -p out && cp README "out/$name"',
    'cp README "$HOME/bin/$tool"',
    'mkdir -p out && cp README "out/copy$x.txt"',
    "cat README$x",
    'tee -a "$GITHUB_STEP_SUMMARY" < README',
    # I, P, J twins: the same programs on the project's own files
    "split -l 100 README part_",
    "csplit -s README 1",
    "split -b 1M --additional-suffix=.txt README out_",
    "cp -b README src/app.py",
    "mv --backup=numbered README README.md",
    "install -m 644 -b README docs.txt",
    "mkdir -p t && (cd t && touch a) && ls t",
    "mkdir -p build && (cd build && echo ok) | cat",
]


@pytest.mark.parametrize("command", FRICTION)
def test_an_everyday_word_with_an_unknown_part_is_allowed(
    command: str, s33_tree: dict[str, Any]
) -> None:
    assert _hook(command, s33_tree["fresh"](), s33_tree["env"])[0] == "allow"


_TEXT = st.text(alphabet="ab./~-_", max_size=6)
_PIECE = st.sampled_from(["$x", "${x}", "$1", "$(true)", "`true`", "${x#y}", "$@"])


@given(st.lists(st.one_of(_TEXT, _PIECE), min_size=1, max_size=6))
def test_the_emptied_word_is_what_a_fresh_bash_makes(parts: list[str]) -> None:
    import subprocess

    word = "".join(parts)
    done = subprocess.run(["bash", "-c", f"unset x; printf '%s' {word}"], capture_output=True,
                          text=True, timeout=30, check=False)  # fmt: skip
    if done.returncode == 0 and "~" not in word and not any(c in word for c in "*?["):
        assert open_words.emptied(word) == done.stdout.replace("\n", ""), word


@given(st.text(max_size=40))
def test_pieces_take_any_text(word: str) -> None:
    found = open_words.pieces(word)
    assert all(isinstance(text, str) for text, _known in found)
    open_words.shape(word)
    open_words.emptied(word)
