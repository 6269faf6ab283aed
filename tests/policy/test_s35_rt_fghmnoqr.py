"""Red team s35 (shell), classes F, G, H, M, N, O, Q, R (session 35, issue 24): files a
program writes, named in its options or its script.

One principle closes them (policy/trust/named_places.py, protect._named_place): the guard
no longer assumes that a program only reads what it is told inside its words. A guard
place (hookwise's code, its interpreter and site directory, a PATH directory where a new
file would shadow a hook program, the policy, the trust store...) named anywhere in what a
program that is neither a known reader nor a known writer is given (an option's value
after ``=``, after ``,``, glued to a short option; its script text; its environment,
exported on the line too; its input: a here-document, a here-string, a piped ``printf``,
a file written on the line) is unverifiable; a word that is the place itself is still
denied. No option of node, gcc, tar, perl, sqlite3, vim, ed or awk is listed.

Every row of those classes in corpus/redteam_s35_open.tsv, and variants the red team did
not list (at least three a class), do their damage in real bash in a fresh copy of the
red team's fixture with hookwise installed in it (test_redteam_s33_table's machinery), and
the real hook must ask or deny their first call. Friction twins (everyday commands of the
same programs) must be allowed by the same hook."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.canonical import embedded_paths
from hookwise.policy.trust.named_places import pieces
from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV, guards
from tests.policy.test_redteam_s33_table import (
    RED_ROOT,
    _bare_main,
    _damage,
    _files,
    _hook,
    _run,
    fixture,
)

__all__ = ["fixture"]  # (the s33 table's fixture: the red team's tree, hookwise in hw/)

CLASSES = "FGHMNOQR"
C = "printf 'int main(){return 0;}\\n' > a.c && "


def _table_rows() -> list[Any]:
    lines = (CORPUS / "redteam_s35_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    rows = [line.split("\t") for line in lines if line.strip()]
    return [
        pytest.param(row[1], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(rows, 1)
        if row[0][:1] in CLASSES and row[0][1:2] == "."
    ]


# variants the red team did not list: (class, command); each does its damage in bash
VARIANTS = [
    ("F", "awk -vf=../home/.local/bin/bash 'BEGIN{print \"x\" > f}'"),
    ("F", "awk '{print > f}' f=../home/.local/bin/sh README"),
    ("F", 'awk \'BEGIN{d="../home/.local/bin/"; print "x" > (d "bash")}\''),
    ("F", 'D=../home/.local/bin awk \'BEGIN{print "x" > (ENVIRON["D"] "/sh")}\''),
    ("F", 'echo \'BEGIN{f="../home/.local/bin/" "sh"; print 1 > f}\' > a.awk && awk -f a.awk'),
    ("G", "printf 'w ../home/.local/bin/bash\\nq\\n' > c.vim && vim -es -S c.vim README"),
    ("G", "vim -es -c 'write ../home/.local/bin/bash' -c 'q!' README"),
    ("G", "vim -es -c 'saveas! ../home/.local/bin/sh' -c 'q!' README"),
    ("G", "vim -es -c 'wviminfo ../home/.local/bin/bash' -c 'q!'"),
    ("G", "vim -es -c 'cd ../home/.local/bin' -c 'w sh' -c 'q!' README"),
    ("G", "vi -es -c 'redir >> ../home/.local/bin/bash' -c 'echo 1' -c 'redir END' -c 'q!'"),
    ("H", "printf 'w ../home/.local/bin/bash\\nq\\n' | ed -s README"),
    ("H", "printf 'w ../home/.local/bin/sh\\nq\\n' > cmds.ed && ed -s README < cmds.ed"),
    ("H", "ed -s README <<< $'W ../hw/bin/hookwise\\nq'"),
    ("H", "echo 'w ../home/.local/bin/bash' | ed -s README"),
    ("M", "node --cpu-prof --cpu-prof-dir ../home/.local/bin --cpu-prof-name bash -e 1"),
    (
        "M",
        "NODE_OPTIONS='--redirect-warnings=../home/.local/bin/bash' node -e "
        "'process.emitWarning(\"x\")'",
    ),
    (
        "M",
        "node --trace-event-categories=v8 --trace-event-file-pattern=../home/.local/bin/sh -e 1",
    ),
    (
        "M",
        "node --report-directory ../home/.local/bin --report-filename sh -e "
        "'process.report.writeReport()'",
    ),
    ("N", "tar -cf /dev/null -g../home/.local/bin/bash README"),
    ("N", "tar --create --file=/dev/null --listed-incremental=../home/.local/bin/sh README"),
    ("N", "tar -cvf /dev/null README --index-fi=../home/.local/bin/bash"),
    ("N", "TAR_OPTIONS=--index-file=../home/.local/bin/sh tar -cvf /dev/null README"),
    ("O", "sqlite3 :memory: <<< $'.log ../home/.local/bin/bash\\nselect x;'"),
    ("O", "printf '.trace ../home/.local/bin/sh\\nselect 1;\\n' | sqlite3 :memory:"),
    ("O", "sqlite3 -cmd '.log ../home/.local/bin/bash' :memory: 'select x'"),
    ("O", "echo '.log ../home/.local/bin/bash' > x.sql && sqlite3 -init x.sql :memory: 'select x'"),
    ("Q", "perl -MO=Xref,-r,-o../home/.local/bin/bash -e 1"),
    (
        "Q",
        "PERLDB_OPTS='NonStop LineInfo=../home/.local/bin/sh'; export PERLDB_OPTS; perl -d -e 1",
    ),
    ("Q", "set -a; PERLDB_OPTS='NonStop LineInfo=../home/.local/bin/bash'; perl -d -e 1"),
    ("Q", "PERLDB_OPTS='noTTY=1 NonStop=1 LineInfo=../hw/bin/hookwise' perl -d -e 'print 1'"),
    ("R", C + "gcc -c a.c -o a.o -Wa,-ahl=../home/.local/bin/sh"),
    ("R", C + "gcc a.c -o a.out -Xlinker -Map=../home/.local/bin/bash"),
    ("R", C + "gcc a.c -o a.out -Wl,-Map -Wl,../home/.local/bin/sh"),
    ("R", C + "cc -c a.c -o a.o -Wa,-a=../home/.local/bin/bash"),
]

# ordinary commands of the same programs: allowed
FRICTION = [
    "gcc -Wl,-rpath,/usr/lib -o app main.c",
    "gcc -Wl,--as-needed -o app main.c -lm",
    "gcc -c a.c -o a.o -Wa,-adhln=a.lst",
    "gcc a.c -o a.out -Wl,-Map=app.map",
    "gcc -c a.c -Wp,-MD,a.d",
    "gcc -I/usr/local/include -L/usr/local/lib -o app main.c",
    "clang -fsanitize=address -Wl,-z,relro main.c",
    "rustc -C link-arg=-Wl,-rpath,/usr/lib main.rs",
    "node --cpu-prof app.js",
    "node --cpu-prof --cpu-prof-dir=./prof app.js",
    "node --redirect-warnings=warnings.log app.js",
    "node --test --test-reporter=tap --test-reporter-destination=report.tap",
    "node --require ./setup.js app.js",
    "vim -es -c wq README",
    "vim -es -c 'w backup.txt' -c 'q!' README",
    "ex -s -c '%s/foo/bar/g' -c wq README",
    "ed -s README <<< $'1d\\nw\\nq'",
    "printf 'set x 1\\n' > c.vim && vim -es -S c.vim README",
    "echo 'BEGIN{print 1}' > a.awk && awk -f a.awk",
    "echo '.log app.log' > init.sql && sqlite3 -init init.sql app.db 'select 1'",
    "sqlite3 db '.tables'",
    "sqlite3 app.db '.log app.log' 'select 1'",
    "tar -czf out.tgz src",
    "tar -cf backup.tar --listed-incremental=snap.file src",
    "tar -cvf /dev/null README --index-file=index.txt",
    "awk -v out=report.txt '{print > out}' README",
    "awk '{print > \"out.txt\"}' README",
    "awk -F, '{print $1}' data.csv",
    'PERLDB_OPTS="NonStop LineInfo=db.out" perl -d -e 1',
    "perl -MO=Xref,-oxref.txt -e 1",
    "perl -MO=Deparse -e 'print 1'",
    'export PATH="$HOME/.local/bin:$PATH"',
    "PATH=~/.local/bin:$PATH make test",
    "set -a; . ./ci.env; set +a; make test",
    "cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr/local",
    "./configure --prefix=/usr/local",
    "LD_LIBRARY_PATH=/usr/local/lib ./app",
    'docker run --rm -v "$PWD":/app -w /app node:20 npm test',
    "npm run build -- --outDir=dist",
    # a variable's whole value that is a program PATH finds names the program to run
    "make SHELL=/bin/bash test",
    "SHELL=/bin/bash flock lk -c 'ls'",
    "CONFIG_SHELL=/bin/bash ./configure",
]


def _blocked_after_damage(command: str, fixture: dict[str, Any]) -> None:
    """``command``'s first call is asked or denied by the fixture's hook; all its calls
    (``⟫`` between them) then do their damage in real bash there."""
    env, calls, work = fixture["env"], command.split(" ⟫ "), fixture["fresh"]()
    decided = _hook(calls[0].replace(RED_ROOT, str(work)), work, env)
    before = {"bare": _bare_main(work), "guards": guards(work.parent), "hw": _files(work / "hw")}
    output = ""
    for call in calls:
        done = _run(["bash", "-c", call.replace(RED_ROOT, str(work))], work / "proj",
                    {**env, **GIT_ENV})  # fmt: skip
        output += done.stdout + done.stderr
    if not any(sign in output for sign in ABSENT):
        assert _damage(work, output, before), (command, output[-2000:])
    assert decided[0] in ("deny", "ask"), (command, decided)


def test_the_classes_rows_are_all_here() -> None:
    rows = _table_rows()
    assert len(rows) == 47
    assert {row.id[0] for row in rows} == set(CLASSES)


@pytest.mark.parametrize("command", _table_rows())
def test_a_row_does_its_damage_and_the_hook_blocks_it(
    command: str, fixture: dict[str, Any]
) -> None:
    _blocked_after_damage(command, fixture)


@pytest.mark.parametrize(
    "command", [pytest.param(c, id=f"{k}-{n}") for n, (k, c) in enumerate(VARIANTS)]
)
def test_a_variant_does_its_damage_and_the_hook_blocks_it(
    command: str, fixture: dict[str, Any]
) -> None:
    _blocked_after_damage(command, fixture)


def test_every_class_has_three_variants() -> None:
    for letter in CLASSES:
        assert len([c for k, c in VARIANTS if k == letter]) >= 3, letter


@pytest.mark.parametrize("command", FRICTION)
def test_an_everyday_command_of_those_programs_is_allowed(
    command: str, fixture: dict[str, Any]
) -> None:
    work = fixture["fresh"]()
    assert _hook(command, work, fixture["env"])[0] == "allow", command


def test_the_reason_names_the_piece_and_the_place(fixture: dict[str, Any]) -> None:
    work = fixture["fresh"]()
    answer, why = _hook("node --redirect-warnings=../hw/bin/hookwise -e 1", work, fixture["env"])
    assert answer == "ask"
    assert "`node` is given ../hw/bin/hookwise" in why
    assert str(work / "hw" / "bin" / "hookwise") in why


def test_a_word_that_is_the_place_itself_is_still_denied(fixture: dict[str, Any]) -> None:
    work = fixture["fresh"]()
    for command in ("node --redirect-warnings ../hw/bin/hookwise -e 1",
                    "awk 'BEGIN{print \"x; y\" > \"../home/.local/bin/bash\"}'"):  # fmt: skip
        assert _hook(command, work, fixture["env"])[0] == "deny", command


@pytest.mark.skipif(not os.access("/bin/bash", os.W_OK), reason="/bin/bash is no guard place")
def test_an_options_value_naming_a_program_to_write_is_asked(fixture: dict[str, Any]) -> None:
    """As root, ``/bin/bash`` is a guard place: named as an option's value (not run here:
    it would overwrite the machine's bash) it is asked; a variable's value is the program
    to run (FRICTION)."""
    work = fixture["fresh"]()
    answer = _hook("node --redirect-warnings=/bin/bash -e 1", work, fixture["env"])
    assert answer[0] == "ask", answer


def test_a_shells_script_is_read_as_its_commands(fixture: dict[str, Any]) -> None:
    """``bash -c 'cat F'`` names F for ``cat`` (a reader), not for bash: allowed; the
    same script's ``vim -c 'w F'`` is asked."""
    work, env = fixture["fresh"](), fixture["env"]
    assert _hook("bash -c 'cat ../hw/bin/hookwise'", work, env)[0] == "allow"
    assert _hook("bash -c \"vim -es -c 'w ../hw/bin/hookwise' README\"", work, env)[0] == "ask"


def test_comma_lists_are_read_item_by_item() -> None:
    assert "../x/y" in embedded_paths("-Wl,-Map,../x/y")
    assert "../x/y" in embedded_paths("-Wp,-MD,../x/y")
    assert "../x/y" in embedded_paths("-Wa,-a=../x/y")
    assert "../x/y" in embedded_paths("-MO=Xref,-o../x/y")
    assert embedded_paths("-Wl,,") == []


_SAFE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._", min_size=1, max_size=8)
_CUT = st.sampled_from(list(" \t\n'\"`=,;(){}[]<>|&!\\"))


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(_SAFE, min_size=1, max_size=4),
    before=st.text(max_size=20),
    after=st.text(max_size=20),
    left=_CUT,
    right=_CUT,
)
def test_a_path_between_any_cuts_is_a_piece(
    parts: list[str], before: str, after: str, left: str, right: str
) -> None:
    path = "../" + "/".join(parts)
    assert path in pieces(before + left + path + right + after)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_no_piece_holds_a_cut(text: str) -> None:
    for piece in pieces(text):
        assert piece
        assert not set(piece) & set(" \t\n'\"`=,;(){}[]<>|&!\\"), piece


@settings(max_examples=200, deadline=None)
@given(letters=st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                       min_size=1, max_size=3),
       parts=st.lists(_SAFE, min_size=1, max_size=3))  # fmt: skip
def test_a_path_glued_to_a_short_option_is_a_piece(letters: str, parts: list[str]) -> None:
    path = "../" + "/".join(parts)
    assert path in pieces(f"x -{letters}{path} y")
    assert path in pieces(f"-W{letters},-{letters}{path}")
