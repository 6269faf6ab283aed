"""Red team s31's shell classes A, C, L, M, O, P, Q, by mechanism (session 31, issue 24):
a ``for``/``select`` header ended by ``do`` or ``{`` with no separator (the body's first
command was taken as the loop's words), a pattern in a directory a ``cd`` chose at run
time (CDPATH, cdable_vars, ``cd -``), a symbolic link's relative target read from the
link's directory, a ``..`` after a link as the kernel opens it, ``git -C DIR`` naming the
files it reads from DIR, GLOBIGNORE set by any form of assignment, ``**`` under globstar.
Each blocked command first does its damage in real bash, in a fresh copy of the tree the
hook decides in (the commands write links and repositories); everyday neighbours, ``rg
--files src`` among them (it was denied as nested too deep), get through."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookwise.shell.assigns import arithmetic_targets
from hookwise.shell.parser import split_command
from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, PACKS

# (class, command): each prints a planted secret in real bash
BLOCK = [
    # A: for NAME do, select NAME do, for NAME { }, for ((...)) do
    ("A", 'set -- .env; for f do cat "$f"; done'),  # red team s31 A
    ("A", 'set -- x .env; shift; for f do cat "$f"; done'),
    ("A", 'set -- ~/.aws/credentials; for f do cat "$f"; done'),
    ("A", 'set -- .e; for f do cat "${f}nv"; done'),
    ("A", 'set -- .env; select f do cat "$f"; break; done <<< 1'),
    ("A", "for ((i = 0; i < 1; i++)) do cat .env; done"),
    ("A", "for ((;;)) { cat .env; break; }"),
    # C: a cd whose directory the line chooses at run time, then a pattern
    ("C", "CDPATH=~ cd .aws && cat *"),  # red team s31 C
    ("C", 'CDPATH=~ cd .aws; for f in *; do cat "$f"; done'),
    ("C", "CDPATH=../.. cd home; cat .aws/*"),
    ("C", "shopt -s cdable_vars; h=~/.aws; cd h && cat *"),
    ("C", "OLDPWD=~/.aws; cd - >/dev/null && cat *"),
    ("C", "CDPATH=~ pushd .ssh >/dev/null && cat id_*"),
    ("C", "cd ~/.aw[s] && cat c*"),
    ("C", "CDPATH=~ cd -- .aws && grep -r . ."),
    ("C", "cd $(echo ~/.ssh) && cat ./*"),
    # L: a relative target is read from the link's directory
    ("L", "ln -s ../../../home/.aws src/k && cat src/k/credentials"),  # red team s31 L
    ("L", "mkdir d && ln -s ../../../home d/h && cat d/h/.aws/credentials"),
    ("L", "ln -sfn ../../../home/.ssh src/s && cat src/s/id_rsa"),
    ("L", "ln --symbolic -- ../../../home/.aws src/k && cat src/k/credentials"),
    ("L", "mkdir -p a/b && ln -s -t a/b ../../../../home/.aws && cat a/b/.aws/credentials"),
    ("L", "mkdir x && ln -s ../../../home/.aws/credentials x/ && cat x/credentials"),
    ("L", "mkdir d && ln -s ../../../home/.aws d && cat d/.aws/credentials"),
    ("L", 'ln -s ../../../home src/h && for f in src/h/.aws/*; do cat "$f"; done'),
    # M: .. after a link, as the kernel resolves it
    ("M", "cat tools/../.aws/credentials"),  # tools -> ~/.ssh (the tree's own link)
    ("M", "ln -s ../../../home/.ssh src/c && cat src/c/../.aws/credentials"),
    ("M", "ln -s ~/.ssh t && cat t/../.aws/credentials"),
    # O: git -C DIR reads names from DIR
    ("O", "git -C ~ diff --no-index /dev/null .aws/credentials"),  # red team s31 O
    ("O", "git -C ../../home/.aws grep --no-index -h . -- credentials"),
    ("O", "git -C .. -C ../home diff --no-index /dev/null .aws/credentials"),
    ("O", "git --no-pager -C ~ diff --no-index /dev/null .aws/credentials"),
    ("O", "env -C .. git -C ../home diff --no-index /dev/null .aws/credentials"),
    ("O", "git -C ~ init -q && git -C ~ add -f .aws && git -C ~ grep --cached -h SECRET"),
    ("O", "git init -q ~ && git -C ~ add -A && git -C ~ show :.aws/credentials"),
    ("O", "git diff --no-index /dev/null ~/.aws/cr[e]dentials"),
    # P: GLOBIGNORE by any form of assignment turns dotglob on
    ("P", "declare -n g=GLOBIGNORE; g=x; cat ?env"),  # red team s31 P
    ("P", "(( GLOBIGNORE = 1 )); cat ?env"),
    ("P", "let GLOBIGNORE=1; cat ?env"),
    ("P", 'n=GLOB; n+=IGNORE; printf -v "$n" x; cat ?env'),
    ("P", "n=GLOB; n+=IGNORE; : $(( $n = 1 )); cat ?env"),
    ("P", 'n=GLOB; n+=IGNORE; declare -n g="$n"; g=x; cat ?env'),
    # Q: ** under globstar, at any depth
    ("Q", "shopt -s globstar; cat ./**/.e?v"),  # red team s31 Q
    ("Q", "shopt -s dotglob globstar; cat ~/**/credentials"),
    ("Q", "bash -O globstar -O dotglob -c 'cat ../../**/credentials'"),
    ("Q", 'shopt -s globstar dotglob; for f in ~/**/id_*; do cat "$f"; done'),
]

PASS = [
    "rg --files src",  # (was denied: "more than 8 levels of nested commands")
    "rg --files",
    "rg --files src | head",
    "cd src && cat *.py",
    'cd src; for f in *.py; do wc -l "$f"; done',
    "cd src && ls; cd - && ls",
    'for f in *.txt; do cat "$f"; done',
    "shopt -s globstar; wc -l src/**/*.py",
    'shopt -s globstar; for f in src/**/*.py; do wc -l "$f"; done',
    "ln -s src/a.py a.py",
    "ln -sf ../notes.txt src/notes.txt",
    "git -C src diff",
    "git -C src log -p",
    "git add src",
    "cat src/../README.md",
    "i=0; (( i++ )); ls *.txt",
    "x=$(( 1 + 2 )); cat notes.txt",
    'set -- a b; for f in src/*.py; do wc -l "$f"; done',
]


def _world(root: Path) -> dict[str, Any]:
    """The s30 tree, with a link in the project to ~/.ssh (for ``..`` after a link)."""
    found = _tree(root)
    (found["project"] / "tools").symlink_to("../../home/.ssh")
    return found


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree the hook decides in (never written: bash runs in a fresh copy per
    command) and the packs compiled with its home, as the hook compiles them."""
    found = _world(tmp_path_factory.mktemp("s31c"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


@pytest.mark.parametrize(("kind", "command"), BLOCK)
def test_a_red_team_mechanism_is_closed(
    place: dict[str, Any], tmp_path: Path, kind: str, command: str
) -> None:
    fresh = _world(tmp_path)
    done = subprocess.run(
        ["bash", "-c", command], cwd=fresh["project"], env=fresh["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert MARK in done.stdout + done.stderr, f"bash did not print the secret: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (kind, command, decision, reason)


def test_a_link_outside_the_tree_is_read_as_the_kernel_reads_it(place: dict[str, Any]) -> None:
    """Red team s31 M's own spelling: a system link to a directory, then ``..`` past it."""
    link = "/usr/share/groff/site-tmac"
    if not os.path.islink(link) or os.path.realpath(link).count("/") != 2:
        pytest.skip(f"{link} is not a link to a directory one level under /")
    home = place["env"]["HOME"]
    command = f"cat {link}/../..{home}/.aws/credentials"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert MARK in done.stdout
    assert _verdict(command, place["policy"], place)[0] == "deny"


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


def test_a_loop_header_ends_at_do_or_a_brace() -> None:
    """The body's first command is a command of its own, not the loop's words."""
    for line in ('for f do cat "$f"; done', "select f do cat x; done", "for ((;;)) { cat x; }"):
        found = [c.argv[0] for c in split_command(line).commands]
        # (the header of for ((..)) is its arithmetic, read as `let` would read it)
        assert [name for name in found if name != "let"] == ["cat"], line
    # after `in` the list runs to a separator: `do` there is one of its words
    argvs = [c.argv for c in split_command("for f in a do; do echo $f; done").commands]
    assert argvs == [["echo", "$f"]]


@pytest.mark.parametrize(
    ("expression", "names"),
    [
        (" GLOBIGNORE = 1 ", ["GLOBIGNORE"]),
        ("a = b = 2", ["a", "b"]),
        ("i++", ["i"]),
        ("--j", ["j"]),
        ("x += 3, y <<= 1", ["x", "y"]),
        ("a[1] = 2", ["a"]),
        ("x == 1", []),
        ("x <= 1 && y != 2", []),
    ],
)
def test_arithmetic_names_the_variables_it_assigns(expression: str, names: list[str]) -> None:
    assert arithmetic_targets(expression) == names
