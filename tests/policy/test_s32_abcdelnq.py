"""Shell values and paths the guard now reads (red team s32 A, B, C, D, E, L, N, Q).

A: a command substitution that prints the project or a path made of its operands
(``$(pwd)``, ``$(dirname "$PWD")``, ``$(realpath ..)``, ``$(git rev-parse
--show-toplevel)/..``, ``$(mktemp -d -p ..)/..``): ``$(pwd)`` is ``$PWD``; a ``..`` after
any part known only when it runs is any directory. B: ``/proc/PID/task/TID/root|cwd``.
C: the directory-stack tildes. D: a ``for``/``select`` whose name is CDPATH or HOME.
E: ``xargs -I`` fed the names a pattern printed. L: git's pack programs on any subcommand,
and ``GIT_WORK_TREE``/``--work-tree`` as ``-C``. N: a process substitution inside a word
(``env NAME=<(..)``). Q: braces inside an array assignment.

Each blocked command first does its damage in real bash, in a fresh copy of the tree the
hook decides in (the secret printed, or ``../victim`` gone); the hook must then ask or
deny. Everyday neighbours get through."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookwise.shell.parser import split_command
from hookwise.shell.variables import past_parent
from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _verdict
from tests.policy.test_unverifiable import MARK, PACKS, world

# home is ../../home from the project (root/work/project, root/home)
BLOCK = [
    # A: the project, its parent, or a path made of operands, then ..
    ("A", "cat $(pwd)/../../home/.aws/credentials"),
    ("A", "cat `pwd`/../../home/.aws/credentials"),
    ("A", 'cat "$(pwd -P)"/../../home/.aws/credentials'),
    ("A", 'cat "$(builtin pwd)/../../home/.aws/credentials"'),
    ("A", 'cat "$(dirname "$(dirname "$PWD")")/home/.aws/credentials"'),
    ("A", 'cat "$(realpath ../..)/home/.aws/credentials"'),
    ("A", 'cat "$(readlink -f ../..)/home/.aws/credentials"'),
    ("A", 'cat "$(realpath "$PWD"/../..)/home/.aws/credentials"'),
    ("A", 'cat "$(git rev-parse --show-toplevel)/../../home/.aws/credentials"'),
    ("A", 'cat "$(git rev-parse --absolute-git-dir)/../../../home/.aws/credentials"'),
    ("A", 'cat "$(git rev-parse --show-cdup)../../home/.aws/credentials"'),
    ("A", 'p=$(dirname "$PWD"); cat "$p/../home/.aws/credentials"'),
    ("A", 'd=$(mktemp -d -p ..); cat "$d/../../home/.aws/credentials"'),
    ("A", "cat $(mktemp -d -p ..)/../../h*/.aws/credentials"),
    ("A", 'cat "$(dirname "$(which cat)")/../..$HOME/.aws/credentials"'),
    ("A", 'cd "$(dirname "$PWD")/../home/.aws" && cat credentials'),
    ("A", 'cd "$(git rev-parse --show-toplevel)/../.." && cat home/.aws/credentials'),
    ("A", "cd $(pwd)/../../home && cat .aws/credentials"),
    # B: a task's links are its process's
    ("B", "cat /proc/$$/task/$$/root$HOME/.aws/credentials"),
    ("B", "cat /proc/self/task/*/cwd/../../home/.aws/credentials"),
    ("B", "cat /proc/$$/task/$BASHPID/cwd/../../home/.aws/credentials"),
    ("B", "cat /proc/$$/task/$$/../../root$HOME/.aws/credentials"),
    ("B", "cat /proc/self/task/[0-9]*/root/$HOME/.aws/credentials"),
    # C: the directory stack
    ("C", "cat ~0/../../home/.aws/credentials"),
    ("C", "cat ~+0/../../home/.aws/credentials"),
    ("C", "cat ~-0/../../home/.aws/credentials"),
    ("C", "pushd . >/dev/null; cat ~1/../../home/.aws/credentials"),
    ("C", "pushd / >/dev/null; cat ~-0/../../home/.aws/credentials"),
    ("C", "cd / && cat ~-/../../home/.aws/credentials"),
    # D: a loop assigns a variable cd reads
    ("D", "for CDPATH in ../../home; do cd .aws && cat credentials; done"),
    ("D", "select CDPATH in ../../home; do cd .aws && cat credentials; break; done <<< 1"),
    ("D", "for CDPATH in ~; do cd .aws; cat *; done"),
    ("D", "for HOME in ../../home/.aws; do cd && cat credentials; done"),
    # E: xargs -I fed what a pattern printed
    ("E", "printf '%s\\n' ~/.a*/c* | xargs -I{} cat {}"),
    ("E", "echo ~/.ss*/id_* | xargs -n1 -I% cat %"),
    ("E", "printf '%s\\n' .e* | xargs -i cat {}"),
    ("E", "printf '%s\\n' ~/.[a]ws/cred* | xargs --replace=F cat F"),
    ("E", "printf '%s\\n' ~/.a*/c* | xargs -I{} sort -o /dev/stdout {}"),
    # Q: braces inside an array assignment
    ("Q", 'x=(.e{nv,x}); cat "${x[0]}"'),
    ("Q", 'x=({.e,.x}nv); cat "${x[0]}"'),
    ("Q", 'x=(~/.a{ws,x}); cat "${x[0]}/credentials"'),
    ("Q", 'x=(a ~/.{aws,x}); cat "${x[1]}/credentials"'),
    ("Q", 'x+=(~/.a{ws,x}); cat "${x[0]}/credentials"'),
    ("Q", 'declare -a x=(~/.a{ws,x}); cat "${x[0]}/credentials"'),
    ("Q", 'declare -a x=($(echo ~/.aws)); cat "${x[0]}/credentials"'),
]

# commands that change the tree (git's index, the victim): each in a fresh tree
CHANGE = [
    ("L", "git fetch-pack --upload-pack='cat $HOME/.aws/credentials >&2;:' . HEAD"),
    ("L", "git fetch-pack --exec='cat ~/.aws/credentials >&2;:' . HEAD"),
    ("L", "git send-pack --receive-pack='cat ~/.aws/credentials >&2;:' ../remote.git main"),
    (
        "L",
        "GIT_DIR=../../home/.git git init -q && GIT_DIR=../../home/.git "
        "GIT_WORK_TREE=../../home git add -f .aws/credentials && "
        "GIT_DIR=../../home/.git git show :.aws/credentials",
    ),
    (
        "L",
        "git init -q ../../home && git --git-dir=../../home/.git --work-tree=../../home "
        "add -f .aws/credentials && git --git-dir=../../home/.git show :.aws/credentials",
    ),
    ("N", "env RIPGREP_CONFIG_PATH=<(echo --pre=rm) rg x ../victim"),
    ("N", 'env -i PATH="$PATH" RIPGREP_CONFIG_PATH=<(printf -- --pre=rm) rg x ../victim'),
    ("N", "RIPGREP_CONFIG_PATH=<(echo --pre=rm) rg x ../victim"),
]

PASS = [
    "cat $(pwd)/README.md",
    'python3 "$(pwd)/src/a.py"',
    'ls "$(git rev-parse --show-toplevel)/src"',
    'cd "$(git rev-parse --show-toplevel)" && ls src',
    'd=$(mktemp -d); cp notes.txt "$d/notes.txt"',
    'export PYTHONPATH="$(pwd)/src" && python3 -c "print(1)"',
    "cat ~+/README.md",
    "cat ~0/README.md",
    "pushd src >/dev/null && ls && popd",
    "cd src && ls ~-/out",
    "printf '%s\\n' src/*.py | xargs -I{} wc -l {}",
    "printf '%s\\n' src/*.py | xargs -I{} cp {} out/",
    'a=(src/{a,b}.py); cat "${a[@]}"',
    'declare -a a=(README.md notes.txt); cat "${a[@]}"',
    'for f in src/*.py; do d=$(dirname "$f"); ls "$d"; done',
    "env FOO=1 python3 -c 'print(1)'",
    "for d in src out; do ls $d; done",
    "cat /proc/self/status",
    "ls /proc/$$/task",
    "git fetch origin",
    "git log --oneline -3",
    "GIT_WORK_TREE=. git status",
]


def _tree(root: Path) -> dict[str, Any]:
    """A git project next to a victim and a home holding the secrets."""
    found = world(root, git=True)
    project = found["project"]
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x = 1\n")
    (project / "src" / "b.py").write_text("y = 2\n")
    (project / "out").mkdir()
    (project / "notes.txt").write_text("notes\n")
    (project / "README.md").write_text("readme\n")
    return found


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree the hook decides in (never written: bash runs in a fresh copy per
    command) and the packs compiled with its home, as the hook compiles them."""
    found = _tree(tmp_path_factory.mktemp("s32a"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


def _damage(command: str, fresh: dict[str, Any]) -> bool:
    """Run ``command`` in real bash in ``fresh``: whether it printed a secret or removed
    the victim."""
    done = subprocess.run(
        ["bash", "-c", command], cwd=fresh["project"], env=fresh["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return MARK in done.stdout + done.stderr or not (fresh["victim"] / "sub" / "file").exists()


@pytest.mark.parametrize(("kind", "command"), BLOCK + CHANGE)
def test_a_red_team_s32_value_is_read(
    place: dict[str, Any], tmp_path: Path, kind: str, command: str
) -> None:
    if " rg " in f" {command}" and shutil.which("rg") is None:
        pytest.skip("ripgrep is not installed: judged only")
    elif "/proc/" in command and not Path("/proc/self/task").is_dir():
        pytest.skip("no /proc here: judged only")
    else:
        assert _damage(command, _tree(tmp_path)), f"bash did no damage: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (kind, command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("echo $(pwd)/x", "$PWD/x"),
        ("echo `pwd -P`/x", "$PWD/x"),
        ("echo ~0/x ~+0/x", "$PWD/x"),
        ("echo ~-0/x", "${DIRSTACK[-1]}/x"),
        ("echo ~2/x", "${DIRSTACK[2]}/x"),
        ("echo $(pwd | tr a b)/x", "$(pwd | tr a b)/x"),
    ],
)
def test_the_working_directory_is_read_as_pwd(line: str, value: str) -> None:
    """What bash gives ``$(pwd)`` and ``~0`` is ``$PWD``; ``~-N`` counts from the stack's
    bottom; a pipeline after pwd is another program's output."""
    assert split_command(line).commands[0].argv[1] == value


def test_a_process_substitution_inside_a_word_is_part_of_it() -> None:
    """bash gives ``a<(cmd)b`` as one word (``a/dev/fd/63b``), also after a digit."""
    found = split_command("env X=<(echo y) rg z")
    assert found.commands[0].env == {"X": "<(echo y)"}
    for line, inner in (("echo a<(true)b", "true"), ("echo 2>(cat)", "cat")):
        script = split_command(line)
        assert script.complete, line
        assert [c.argv for c in script.commands] == [["echo", script.commands[0].argv[1]], [inner]]
        assert script.commands[0].dynamic == [False, True], line


@pytest.mark.parametrize(
    ("shape", "left"),
    [
        ((("/",), ("L", "/../home/.netrc")), (("*",), ("L", "/home/.netrc"))),
        ((("*",), ("L", "../x/../y")), (("*",), ("L", "/y"))),
        ((("C",), ("L", "/..")), (("*",),)),
        ((("L", "../"), ("E",), ("L", "/a")), None),
        ((("/",), ("L", "/a..b")), None),
        ((("E",), ("L", "/../h*/c")), (("*",), ("L", "/h"), ("*",), ("L", "/c"))),
        ((("*",), ("L", "/.."), ("/",), ("L", "/c")), (("*",), ("L", "/c"))),
    ],
)
def test_a_dotdot_after_an_unknown_part_is_any_directory(
    shape: tuple[tuple[str, ...], ...], left: tuple[tuple[str, ...], ...] | None
) -> None:
    assert past_parent(shape, pattern=True) == left
