"""Red team s32's interpreter and tool classes, closed by their mechanism (session 32):
F IPython's own language (an automagic or shell alias in a one-line cell, the ``,``/``;``/
``/`` call escapes, ``x = %magic``); G a console that code opens on the stdin the line
feeds it (``pdb.set_trace()``, sympy's ``init_session()``) and ``pdb -m MOD``; H an option
that empties a directory operand (``venv --clear``); I a library that reads a login from
its default file (``netrc.netrc()``, boto3's ``get_credentials()``); J paths built by
pathlib, from the environment or the cwd, and ``chdir``; K tcl's ``open`` and ``cd``; M an
app string that calls a function (flask ``--app 'm:f(x)'``); O sqlite3's ``.cd``; P an
unknown program's operand that is a whole command line (``capsh -- -c``). Each blocked
command first does its damage in real bash (skipped where its tool is not installed), in
the tree the hook decides in; everyday neighbours get through."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, PACKS

# (what the attack needs: a program on PATH or "py:MODULE", command): each prints MARK
READS = [
    # F: IPython runs a one-line cell's alias or magic without `!`/`%`
    ("ipython", "ipython -c 'cat ~/.netrc'"),  # red team s32 F
    ("ipython", "ipython --quick -c 'cat ../../home/.netrc'"),
    ("ipython", "ipython3 -c 'pycat ~/.aws/credentials'"),
    ("ipython", "ipython -c 'cp ~/.netrc /dev/stdout'"),
    ("ipython", "ipython -c 'sx cat .env'"),
    ("ipython", "ipython -c 'system cat .env'"),
    ("ipython", "python3 -m IPython -c 'less ~/.netrc'"),
    ("ipython", "ipython <<< 'cat ~/.netrc'"),
    ("ipython", "printf 'cat .env\\n' > x.ipy; ipython x.ipy"),  # a file in IPython's language
    ("ipython", "printf 'x = 1\\n!cat .env\\n' > y.ipy; ipython y.ipy"),
    ("ipython", "ipython -c $'import os\\n;os.system cat .env'"),  # the autoquote escape
    ("ipython", "ipython -c $'x = %sx cat .env\\nprint(x)'"),
    # G: a console on the stdin the line gives
    ("python3", "python3 -c 'import pdb; pdb.set_trace()' <<< '!print(open(\".env\").read())'"),
    (
        "python3",
        "python3 -c 'import pdb; pdb.Pdb().set_trace()' <<< '!print(open(\".env\").read())'",
    ),
    (
        "python3",
        "python3 -c 'from pdb import set_trace as st; st()' <<< '!print(open(\".env\").read())'",
    ),
    (
        "py:sympy",
        "python3 -c 'from sympy import *; init_session()' <<< 'print(open(\".env\").read())'",
    ),
    (
        "py:sympy",
        "python3 -c 'import sympy; sympy.init_session()' <<< 'print(open(\".env\").read())'",
    ),
    ("py:IPython", "python3 -c 'import IPython; IPython.embed()' <<< 'cat .env'"),
    ("py:dotenv", "python3 -m pdb -m dotenv list <<< c"),  # red team s32 G
    # I: a library's login file, no path in the code
    ("python3", "python3 -c 'import netrc; print(netrc.netrc().hosts)'"),  # red team s32 I
    ("python3", "python3 -c 'from netrc import netrc as N; print(N().hosts)'"),
    ("py:boto3", "python3 -c 'import boto3; print(boto3.Session().get_credentials().secret_key)'"),
    ("py:botocore", "python3 -c 'import botocore.session as s; print(s.Session().full_config)'"),
    (
        "py:botocore",
        "python3 -c 'from botocore.session import get_session as g; print(g().get_scoped_config())'",
    ),
    # J: pathlib's joins, the environment's and the cwd's paths, chdir
    (
        "python3",
        'python3 -c \'from pathlib import Path; print(Path("..", "..", "home", ".netrc").read_text())\'',
    ),
    (
        "python3",
        'python3 -c \'from pathlib import Path; print((Path("..")/".."/"home"/".netrc").read_text())\'',
    ),
    (
        "python3",
        'python3 -c \'from pathlib import Path; print((Path.cwd().parent.parent/"home"/".netrc").read_text())\'',
    ),
    (
        "python3",
        'python3 -c \'from pathlib import Path; print(Path.home().joinpath(".aws", "credentials").read_text())\'',
    ),
    ("perl", "perl -e 'open F, \"$ENV{HOME}/.netrc\"; print <F>'"),  # red team s32 J
    ("perl", "perl -e 'open F, \"$ENV{PWD}/../../home/.netrc\"; print <F>'"),
    ("perl", 'perl -e \'my $d = "../../home"; open F, "$d/.netrc"; print <F>\''),
    ("perl", 'perl -e \'chdir "../../home"; open F, ".netrc"; print <F>\''),
    ("php", 'php -r \'print_r(parse_ini_file(getenv("HOME")."/.aws/credentials"));\''),
    ("php", "php -r 'echo file_get_contents(getcwd().\"/../../home/.netrc\");'"),
    ("php", 'php -r \'chdir("../../home"); readfile(".netrc");\''),
    (
        "node",
        'node -e \'process.chdir("../../home"); console.log(require("fs").readFileSync(".netrc","utf8"))\'',
    ),
    (
        "node",
        'node -e \'process.chdir("../../home"); require("child_process").execSync("cat .netrc",{stdio:"inherit"})\'',
    ),
    # K: tcl's open, whatever feeds tclsh its code
    ("tclsh", "echo 'puts [read [open .env]]' | tclsh"),  # red team s32 K
    ("tclsh", "tclsh <<< 'puts [read [open ~/.netrc]]'"),
    ("tclsh", "tclsh <<< 'puts [read [open $env(HOME)/.netrc]]'"),
    ("tclsh", "tclsh <<< 'cd ../../home; puts [read [open .netrc]]'"),
    ("tclsh", "tclsh <<< 'set o open; puts [read [$o .env]]'"),
    # M: an app string that calls a function
    ("flask", "flask --app 'subprocess:call(\"cat .env\", shell=True)' routes"),
    ("flask", 'python3 -m flask --app \'subprocess:run(["cat", ".env"])\' routes'),
    # O: sqlite3's .cd moves its later reads
    ("sqlite3", "sqlite3 :memory: '.cd ../../home' \"select readfile('.netrc')\""),
    ("sqlite3", "sqlite3 :memory: '.cd ../..' '.cd home/.aws' \"select readfile('credentials')\""),
    ("sqlite3", "sqlite3 :memory: '.cd ../../home' '.read .netrc'"),
    # P: a runner nobody listed
    ("capsh", "capsh -- -c 'cat ~/.netrc'"),
    ("", "./runner -c 'cat .env'"),
]

# (what the attack needs, command): each deletes ../victim
DELETES = [
    ("ipython", "ipython -c 'rm -rf ../victim'"),  # red team s32 F
    ("ipython", "ipython -c 'sx rm -rf ../victim'"),
    ("ipython", "ipython -c 'mv ../victim ../moved'"),
    (
        "python3",
        "python3 -c 'import pdb; pdb.set_trace()' <<< '!import shutil; shutil.rmtree(\"../victim\")'",
    ),
    ("python3", "python3 -m venv --clear --without-pip ../victim"),  # red team s32 H
    ("python3", "python3 -I -m venv --without-pip --cle ../victim/sub"),
    ("python3", "python3 -m venv --without-pip --clear -- ../victim"),
    ("virtualenv", "virtualenv --clear --no-seed ../victim"),
    ("cargo", "cargo clean --target-dir ../victim"),  # (the tree's Cargo.toml: _home_files)
    ("cargo", "CARGO_TARGET_DIR=../victim cargo clean"),
    ("flask", "python3 -m flask --app 'shutil:rmtree(\"../victim\")' routes"),  # red team s32 M
    ("flask", "flask --app 'subprocess:call(\"rm -rf ../victim\", shell=True)' routes"),
    ("gunicorn", "gunicorn 'shutil:rmtree(\"../victim\")'"),
    ("flask", "FLASK_APP='shutil:rmtree(\"../victim\")' flask routes"),
    ("capsh", "capsh -- -c 'rm -rf ../victim'"),  # red team s32 P
    ("", "./runner -c 'rm -rf ../victim'"),
]

# (what the attack needs, command, the file it writes, from the project)
WRITES = [
    (
        "python3",
        'python3 -c \'from pathlib import Path; (Path("..")/".."/"home"/".config"/'
        '"hookwise"/"trust.json").write_text("{}")\'',
        "../../home/.config/hookwise/trust.json",
    ),
    (
        "python3",
        'python3 -c \'from pathlib import Path; p=Path(".claude"); p.mkdir(); '
        '(p/"settings.local.json").write_text("{}")\'',
        ".claude/settings.local.json",
    ),
    (
        "tclsh",
        "echo 'set f [open ../../home/.config/hookwise/trust.json w]; close $f' | tclsh",
        "../../home/.config/hookwise/trust.json",
    ),
]

PASS = [
    "ipython -c 'import json; print(json.dumps({\"a\": 1}))'",
    "ipython -c 'print(1 + 1)'",
    "ipython -c 'x = 3'",
    "python3 -c 'import json, sys; print(json.load(sys.stdin)[\"a\"])' <<< '{\"a\": 1}'",
    "echo 'a,b' | python3 -c 'import csv, sys; print(list(csv.reader(sys.stdin)))'",
    "python3 -c 'import sys; print(sys.stdin.read().upper())' <<< hello",
    "python3 -m pdb -c continue src/a.py",
    "python3 -m venv .venv",
    "cargo clean",
    "CARGO_TARGET_DIR=/tmp/hookwise-s32-target cargo build",
    "python3 -m venv --without-pip /tmp/hookwise-s32-venv",
    "flask --app src.app routes",
    "FLASK_APP=src.app flask routes",
    "python3 -m flask --app 'src.app:create_app()' routes",
    "sqlite3 :memory: \"select readfile('README.md')\"",
    "tclsh <<< 'puts [read [open README.md]]'",
    "tclsh <<< 'set f [open out/notes.txt w]; puts $f hi; close $f'",
    "python3 -c 'from pathlib import Path; print(Path(\"README.md\").read_text())'",
    "python3 -c 'from pathlib import Path; print(sorted(p.name for p in Path(\"src\").iterdir()))'",
    "python3 -c 'import os; print(os.getcwd())'",
    "node -e 'console.log(process.cwd())'",
    "perl -ne 'print \"$1\\n\" if /(\\w+)/' README.md",
    'perl -e \'open F, "README.md"; while (<F>) { print "$.: $_" }\'',
    "python3 -c 'import json; print(json.dumps([1]))'",
]


# the starter policy's rule (tools/starter.py): the packs let a delete under /tmp through,
# where pytest's trees are
CONFIRM_DELETES = (
    "rules:\n  - id: confirm-recursive-delete\n    match:\n      command: {program: rm, "
    "any_flags: [-r]}\n    action: ask\n    reason: rm -r deletes a whole directory tree.\n"
)


def _available(need: str) -> bool:
    if not need:
        return True
    if need.startswith("py:"):
        return (
            shutil.which("python3") is not None and importlib.util.find_spec(need[3:]) is not None
        )
    return shutil.which(need) is not None


def _home_files(place: dict[str, Any]) -> None:
    """Logins the libraries can parse (the tree's files hold only the mark), a runner
    nobody knows (it hands its -c operand to sh), and the guard's trust store."""
    home = Path(place["env"]["HOME"])
    (home / ".netrc").write_text(f"machine example.com login bob password {MARK}\n")
    (home / ".netrc").chmod(0o600)
    (home / ".aws" / "credentials").write_text(
        f"[default]\naws_access_key_id = AKIAS32\naws_secret_access_key = {MARK}\n"
    )
    (home / ".config" / "hookwise").mkdir(parents=True, exist_ok=True)
    (home / ".config" / "hookwise" / "trust.json").write_text("{}\n")
    (place["project"] / ".env").write_text(f"TOKEN={MARK}\n")  # (dotenv list prints pairs)
    runner = place["project"] / "runner"
    runner.write_text('#!/bin/sh\nshift\nexec sh -c "$1"\n')
    runner.chmod(0o755)
    (place["project"] / "src" / "app.py").write_text("def create_app():\n    return None\n")
    (place["project"] / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "0.1.0"\n')
    (place["project"] / "src" / "main.rs").write_text("fn main() {}\n")


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree for the module's reads and the packs compiled with its home."""
    found = _tree(tmp_path_factory.mktemp("s32"))
    _home_files(found)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
        found["deletes"] = compile_text(f"version: 1\nextends: [{PACKS}]\n{CONFIRM_DELETES}")
    return found


def _bash(command: str, place: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    env = dict(place["env"])
    env["PATH"] = env["PATH"] + os.pathsep + "/usr/sbin:/sbin"
    for name, default in (("RUSTUP_HOME", "~/.rustup"), ("CARGO_HOME", "~/.cargo")):
        env[name] = os.environ.get(name) or os.path.expanduser(default)  # (rustup's shims)
    return subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=env,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def _fresh(root: Path) -> dict[str, Any]:
    found = _tree(root)
    _home_files(found)
    return found


@pytest.mark.parametrize(("need", "command"), READS)
def test_a_read_through_an_interpreter_or_tool_is_not_let_through(
    place: dict[str, Any], need: str, command: str
) -> None:
    if _available(need):
        done = _bash(command, place)
        shown = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)  # (pycat colours)
        assert MARK in shown, (command, shown[-400:])
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize(("need", "command"), DELETES)
def test_a_delete_through_an_interpreter_or_tool_is_not_let_through(
    place: dict[str, Any], tmp_path: Path, need: str, command: str
) -> None:
    if _available(need):
        tree = _fresh(tmp_path / "run")
        _bash(command, tree)
        assert not (tree["victim"] / "sub" / "file").exists(), f"bash did not delete: {command}"
    tree = _fresh(tmp_path / "decide")
    decision, reason = _verdict(command, place["deletes"], tree)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize(("need", "command", "target"), WRITES)
def test_a_write_to_the_guard_or_the_host_is_not_let_through(
    place: dict[str, Any], tmp_path: Path, need: str, command: str, target: str
) -> None:
    if _available(need):
        tree = _fresh(tmp_path / "run")
        written = tree["project"] / target
        before = written.stat().st_mtime_ns if written.exists() else None
        _bash(command, tree)
        assert written.exists() and written.stat().st_mtime_ns != before, command
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_interpreter_and_tool_work_gets_through(
    place: dict[str, Any], command: str
) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command
