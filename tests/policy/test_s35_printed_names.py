"""``$(dirname F)`` and ``$(basename F)`` of a literal F (session 35, issue 24 friction):
what they print is known from F alone (variables.printed_name), so ``cp src/app.py
"$(dirname src/app.py)/app2.py"`` writes src/app2.py and is judged as that, not as "a
path the line computes". The attack twins: a line that names those programs anywhere
else (a function, an alias, ``hash -p``, a file written of that name) or sets PATH may
make them print anything, so the word stays computed; an operand that reaches a guard
file or a secret is judged as that file.

Each twin first does its damage in real bash (the trust store written, a secret
printed); printed_name is checked against the real programs by Hypothesis."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell.variables import printed_name, printed_name_line
from tests.policy.redteam_tree import MARKS, in_bash, red_place

RED_ROOT = "/tmp/rt35s"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with red_place(tmp_path_factory.mktemp("s35") / "rt35s", RED_ROOT) as found:
        yield found


_bash = in_bash


EVERYDAY = [
    'cp src/app.py "$(dirname src/app.py)/app2.py"',
    'cp README "$(dirname src/app.py)/README.copy"',
    "cp README $(dirname src/app.py)/README.copy",
    'cp src/app.py "$(basename src/app.py).bak"',
    'mkdir -p "$(dirname build/out/x.txt)" && cp README build/out/x.txt',
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_a_literals_directory_or_name_is_known(command: str, place: dict[str, Any]) -> None:
    answer = place["decided"](command)
    assert answer[0] == "allow", (command, answer)


TRUST = "../home/.config/hookwise/trust.json"
# (command, what the damage leaves: a mark printed or "trust" for the trust store written)
TWINS = [
    (f'cp README "$(dirname {TRUST})/trust.json"', "trust"),
    ('dirname() { echo ../home/.config/hookwise; }; cp README "$(dirname src/app.py)/trust.json"',
     "trust"),
    ("alias dirname='echo ../home/.config/hookwise; :'; shopt -s expand_aliases\n"
     'cp README "$(dirname src/app.py)/trust.json"', "trust"),
    ("mkdir -p b && printf '#!/bin/sh\\necho ../home/.config/hookwise\\n' > b/dirname && "
     'chmod +x b/dirname && PATH=$PWD/b:$PATH; cp README "$(dirname src/app.py)/trust.json"',
     "trust"),
    ('cat "$(dirname .env)/.env"', "s3cr3t"),
    ('cat "$(dirname ../home/.netrc)/.netrc"', "netrcpw"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "sign"), TWINS)
def test_a_twin_that_reaches_a_guard_or_a_secret_stays_stopped(
    command: str, sign: str, place: dict[str, Any]
) -> None:
    trust = place["root"] / "work" / "home" / ".config" / "hookwise" / "trust.json"
    before = trust.read_bytes()
    try:
        output = _bash(command, place)
        if sign == "trust":
            assert trust.read_bytes() != before, (command, output)
        else:
            assert sign in output and sign in MARKS, (command, output)
    finally:
        trust.write_bytes(before)
    answer = place["decided"](command)
    assert answer[0] in ("deny", "ask"), (command, answer)


@pytest.mark.parametrize(
    "line",
    ['dirname() { :; }; x "$(dirname a)"', 'PATH=b:$PATH; x "$(dirname a)"',
     'hash -p ./e dirname; x "$(dirname a)"', "x $(basename a) basename"],
)  # fmt: skip
def test_a_line_that_may_redefine_the_programs_is_not_read(line: str) -> None:
    assert not printed_name_line(line)


@pytest.mark.parametrize(
    "piece", ["$(dirname $x)", '$(dirname "a b")', "$(dirname -z a)", "$(dirname a*)",
              "$(dirname a b)", "$(dirname ~/x)", "$(basename a .py)", "$(echo a)"],
)  # fmt: skip
def test_anything_but_one_literal_operand_is_unknown(piece: str) -> None:
    assert printed_name(piece) is None


_NAME = st.text(alphabet="ab./_-0", min_size=1, max_size=12).filter(lambda s: s[0] != "-")


@settings(max_examples=60, deadline=None)
@given(_NAME, st.sampled_from(["dirname", "basename"]))
def test_printed_name_is_what_the_program_prints(name: str, program: str) -> None:
    printed = printed_name(f"$({program} {name})")
    real = subprocess.run([program, name], capture_output=True, text=True, check=True)
    assert printed == real.stdout.rstrip("\n")
