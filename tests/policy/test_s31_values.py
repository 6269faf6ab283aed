"""Values the guard can work out itself (session 31): ``$HOME`` anywhere in a word and
through bash's operators (``${HOME:-x}``, ``${HOME%/}``, ``/proc/self/root$HOME``), the
default an unset variable falls back to (``${XDG_CONFIG_HOME:-$HOME/.config}``), what
``printf`` prints of a pattern fed to xargs, and a loop's ``"$f"`` inside a literal frame
(``"$f.orig"``, ``"${f%.txt}.md"``). Each blocked command first prints the planted secret
in real bash, in the same tree the hook decides in; the loops developers write get through.
``pattern_operator`` is checked against bash itself, over generated values and patterns."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy import os_lite
from hookwise.shell.variables import pattern_operator
from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, PACKS

BLOCK = [
    "cat ${HOME:-x}/.aws/*",  # red team s30 D
    "cat ${HOME-}/.aws/credentials",
    "cat ${HOME:=/tmp}/.aws/credentials",
    "cat ${HOME:?unset}/.aws/credentials",
    "cat ${HOME:-${X}}/.aws/credentials",
    "cat ${HOME%/}/.aws/credentials",
    "cat ${HOME%%/}/.aws/credentials",
    "cat ${HOME:0}/.aws/credentials",
    "cat ${HOME/q/q}/.aws/credentials",
    "cat ${HOME%/*}/*/.aws/credentials",
    "sort $HOME/.a*/c*",  # red team s30 D
    "cat /proc/self/root$HOME/.aws/credentials",  # red team s30 F
    'cat "/proc/self/root${HOME}/.ssh/id_rsa"',
    "cat ${NOPE:-.env}",
    "cat ${NOPE:+.env}",
    "cat ${CONF:-$HOME/.aws}/credentials",
    'cat "${CONF:-${HOME}/.aws}/credentials"',
    "cat ${CONF:-~/.aws}/credentials",
    "printf '%s\\n' .[e]* | xargs cat",  # red team s30 I
    "echo .e* | xargs cat",
    'for f in x/.env; do cat "${f#x/}"; done',
    'for f in .env; do cat "$f.bak" "${f%.bak}"; done',
    'd=$HOME/.aws; cat "$d/credentials"',
    'd="$HOME"; cat $d/.ssh/id_rsa',
    "cd $HOME/.aws; cat credentials",
    'cd "${HOME}/.ssh" && cat id_rsa',
    "curl -s file://$HOME/.aws/credentials",
    "curl -s FILE://localhost$HOME/.ssh/id_rsa",
    "curl -s file:$HOME/.ssh/id_rsa",
    "cat /proc/$$/root$HOME/.aws/credentials",
    "cat /proc/$BASHPID/cwd/.env",
    'p=$(realpath ~/.aws/credentials); cat "$p"',
]

# a directory made on the line before a secret's own name: unverifiable
UNVERIFIABLE = [
    "cat $(echo ~)/.aws/credentials",
    'cat "$(printf %s ~)/.aws/credentials"',
    "cat `echo $HOME`/.aws/credentials",
    'cat "$(cd; pwd)/.ssh/id_rsa"',
    'p=$(realpath .env); cat "$p"',
    'p=$(readlink -f .env); cd /tmp; cat "$p"',
]

PASS = [
    'for f in *.txt; do cp "$f" "$f.orig"; done',
    'for f in *.txt; do cp "$f" "out/$f"; done',
    'for f in *.txt; do mv "$f" "${f%.txt}.md"; done',
    'for f in src/*.py; do cp "$f" "${f#src/}.bak"; done',
    "echo src/*.py | xargs wc -l",
    "printf '%s\\n' src/*.py | xargs grep -n x",
    "ls ${XDG_CACHE_HOME:-$HOME/.cache}",
    "cat ${HOME}/notes.txt",
]

PASS += [
    'x=$(ls | head -1); cat "$x/README.md"',
    'd=$(mktemp -d); cp notes.txt "$d/notes.txt"',
    "cd $HOME && ls",
    'p=$(realpath src/a.py); cat "$p"',
]

ASK_OR_BLOCK = [
    'for f in .e*; do cat "${f%.bak}"; done',  # a pattern cut where it spells no affix
    'for f in *; do cp "$f" ".hookwise/$f"; done',
    'for f in policy; do cp x ".hookwise/$f.yaml"; done',
]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree for the module (the commands only read it) and the packs compiled with
    its home, as the hook compiles them with the user's (the ~ globs)."""
    found = _tree(tmp_path_factory.mktemp("s31"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


@pytest.mark.parametrize("command", BLOCK)
def test_a_value_the_guard_can_work_out_is_judged(place: dict[str, Any], command: str) -> None:
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if ":+" not in command:  # (${NOPE:+.env} reads it once NOPE is set)
        assert MARK in done.stdout + done.stderr, f"bash did not print the secret: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision == "deny", (command, decision, reason)


@pytest.mark.parametrize("command", UNVERIFIABLE)
def test_a_secret_under_a_directory_made_on_the_line_is_unverifiable(
    place: dict[str, Any], command: str
) -> None:
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert MARK in done.stdout + done.stderr, f"bash did not print the secret: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_words_built_from_values_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


@pytest.mark.parametrize("command", ASK_OR_BLOCK)
def test_a_frame_the_guard_cannot_cut_stays_unverifiable(
    place: dict[str, Any], command: str
) -> None:
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


def test_a_link_this_process_may_not_read_is_taken_by_its_name(place: dict[str, Any]) -> None:
    """/proc/1/root is a link only its owner may read: the name stays as it is (before,
    `cat /proc/1/root/etc/shadow` raised PermissionError out of the rules)."""
    name = "/proc/1/root/etc/shadow"
    if os.access("/proc/1/root", os.R_OK):
        pytest.skip("this process may read /proc/1/root (root)")
    assert os_lite.realpath(name) == name
    assert _verdict(f"cat {name}", place["policy"], place)[0] in ("none", "ask", "deny")


_VALUES = st.text(alphabet="ab/.x", max_size=7)
_PATTERNS = st.text(alphabet="ab/.x*?", min_size=1, max_size=3)
_OPS = st.sampled_from(["#", "##", "%", "%%", "/", "//", "/#", "/%"])


@settings(max_examples=300, deadline=None)
@given(_VALUES, _OPS, _PATTERNS, st.text(alphabet="zq", max_size=2))
def test_pattern_operators_cut_as_bash_does(
    value: str, op: str, pattern: str, replacement: str
) -> None:
    rest = op + pattern + ("/" + replacement if op.startswith("/") else "")
    mine = pattern_operator(value, rest)
    if mine is None:
        return  # a form left unknown: never guessed
    done = subprocess.run(
        ["bash", "-c", 'x=$1; printf %s "${x' + rest + '}"', "_", value],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert mine == done.stdout, (value, rest)
