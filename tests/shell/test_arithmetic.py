"""Arithmetic contexts read as bash reads them (red team s24, findings 1 and 2).

``$((...))`` is arithmetic only when bash's own test says so (subst.c, chk_arithsub); any
other ``$((`` is a command substitution of a subshell, and its commands run. Inside
``((...))``, ``for ((...))``, ``$[...]`` and an array subscript in an assignment, ``<<`` is a
shift, never a here-document: the lines after it are commands. The property tests ask real
bash which marker functions ran and require the parser to list each of them.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.shell.parser import split_command
from hookwise.shell.variables import is_arithmetic


def argvs(text: str) -> list[list[str]]:
    return [c.argv for c in split_command(text).commands]


@pytest.mark.parametrize(
    ("piece", "arithmetic"),
    [
        ("$((1+2))", True),
        ("$(( (1+2)*3 ))", True),
        ("$((${#a[@]}-1))", True),
        ("$(( x > 3 ? 1 : 0 ))", True),
        ("$((cat .env))", True),  # an expression bash cannot evaluate: an error, no command
        ("$[1<<2]", True),
        ("$((cat .env) )", False),
        ("$((echo hi); cat .env)", False),
        ("$((a) + (b))", False),
        ("$((echo ')') )", False),
        ("$(cat x)", False),
    ],
)
def test_bash_s_own_test_for_arithmetic(piece: str, arithmetic: bool) -> None:
    assert is_arithmetic(piece) is arithmetic


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("echo $((rm -rf ../victim) )", ["rm", "-rf", "../victim"]),
        ("echo $((cd ..; rm -rf victim); )", ["rm", "-rf", "victim"]),
        ('echo "$((cat .env) )"', ["cat", ".env"]),
        ("x=$((cat ~/.ssh/id_rsa) | base64)", ["cat", "~/.ssh/id_rsa"]),
        ("echo $((echo a) ; (git push -f))", ["git", "push", "-f"]),
        ("((a=1<<E))\nrm -rf ../victim\nE", ["rm", "-rf", "../victim"]),
        ("((a = (1 << E) ))\ncat .env\nE", ["cat", ".env"]),
        ("(( a=1<<E ))\n(( b=2<<F ))\nrm x\nE\nF", ["rm", "x"]),
        ("if ((1<<E)); then :; fi\nrm -rf x\nE", ["rm", "-rf", "x"]),
        ("for ((i=0; i<1<<E; i++)); do :; done\nrm -rf x\nE", ["rm", "-rf", "x"]),
        ("echo $[1<<E]\nrm -rf x\nE", ["rm", "-rf", "x"]),
        ("a[1<<E]=1\nrm -rf x\nE", ["rm", "-rf", "x"]),
        ("x=1 a[1<<E]=1\nrm -rf x\nE", ["rm", "-rf", "x"]),
        ("if true; then a[1<<E]=1\nrm -rf x\nE\nfi", ["rm", "-rf", "x"]),
        ("((a[$(cat .env)]++))", ["cat", ".env"]),
        ("((cat .env) )", ["cat", ".env"]),
    ],
)
def test_what_bash_runs_in_arithmetic_contexts(text: str, runs: list[str]) -> None:
    assert runs in argvs(text), argvs(text)


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("cat <<E\nrm -rf x\nE", "rm -rf x\n"),
        ("let a=1<<E\nrm -rf x\nE", "rm -rf x\n"),  # let's words are words: a here-document
        ("echo a[1<<E]\nrm -rf x\nE", "rm -rf x\nE\n"),  # not where an assignment goes
        ("declare -i b=1<<E\nrm -rf x\nE", "rm -rf x\n"),
    ],
)
def test_a_here_document_outside_arithmetic_stays_data(text: str, body: str) -> None:
    found = split_command(text).commands
    assert ["rm", "-rf", "x"] not in [c.argv for c in found]
    assert any(body in "".join(c.stdin) for c in found)


def test_an_arithmetic_command_is_let_of_its_text() -> None:
    assert argvs("((i++)) && rm -rf y") == [["let", "i++"], ["rm", "-rf", "y"]]
    assert argvs("echo $((1+2)) $[3]") == [["echo", "$((1+2))", "$[3]"]]
    assert argvs("a[$i + 1]=3") == [["a[$i + 1]=3"]]


_BASH = shutil.which("bash")
_ATOMS = st.sampled_from(["f", "g", "1", "x", "f "])
_PIECES = st.recursive(
    _ATOMS,
    lambda inner: st.one_of(
        st.builds("({})".format, inner),
        st.builds("({}) ".format, inner),
        st.builds("{}{}{}".format, inner, st.sampled_from(["+", "; ", " ", "<<E", "|"]), inner),
    ),
    max_leaves=6,
)
_FRAMES = st.sampled_from(["echo $({})", "{}", "x=$({}) ", "a[{}]=1", "echo $[{}]"])


def _ran(line: str) -> set[str]:
    """The marker functions real bash ran for ``line`` (f and g print their names)."""
    assert _BASH is not None
    script = "f() { echo RAN-f; }; g() { echo RAN-g; }\n" + line + "\n"
    done = subprocess.run([_BASH, "-c", script], capture_output=True, text=True, timeout=10,
                          stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    return {name for name in ("f", "g") if f"RAN-{name}" in done.stdout}


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FRAMES, _PIECES, st.sampled_from(["", "\nf\nE", "\ng\nE\nf"]))
def test_every_command_bash_runs_in_an_arithmetic_context_is_seen(
    frame: str, piece: str, tail: str
) -> None:
    line = frame.format(piece) + tail
    script = split_command(line)
    if not script.complete:
        return  # the hook answers unverifiable for an incomplete line
    seen = {c.argv[0] for c in script.commands if c.argv}
    assert _ran(line) <= seen, (line, seen)
