"""Red team s33, shell classes A, M, B, L, K, J (session 33, issue 24), by mechanism.

- A: a part the line makes, then a literal starting with ``.`` or ``/``: the two meet
  only when the line runs (``"$(echo .)./home"`` is ``../home``), so the made part's
  parent is any directory (variables.past_parent).
- M: a Tcl command word with a substitution or an escape in it (``[string map {X x}
  eXec] rm``) is a command known only when it runs (tool_scripts._TCL_MADE_COMMAND).
- B: an environment file named by a value the line makes (``--env-file="$(echo .)env"``)
  may be any file: unverifiable (parser._made_env_file).
- L: pathlib under another name, subprocess's ``cwd=`` as a ``cd``, perl's ``qx`` with
  any delimiter, php's highlight_file/show_source/parse_ini_file (code_commands,
  code_paths/path_objects).
- K: sqlite3's ``.import [OPTIONS] FILE`` reads FILE (tool_scripts._sqlite_source).
- J: a linker's response file passed through the compiler (``-Wl,@F``, ``-Xlinker @F``)
  is read as the compiler's own ``@F`` is (programs._linker_words); Rust's
  ``include_str!``/``include_bytes!``/``include!`` read their file when it compiles
  (includes._rust_included; a name not a literal is known only when it runs).

Blocked rows do their damage in real bash first where the tool is installed here; the
everyday neighbours must get through."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.policy.redteam_tree import GIT_ENV, MARKS, judging

RED_ROOT = "/tmp/rt33s"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One tree for the module (redteam_tree.red_tree), the starter policy with every
    pack compiled once with its home."""
    root = tmp_path_factory.mktemp("s33a") / "rt33s"
    with judging(root, RED_ROOT) as decided:
        project = root / "work" / "proj"
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
        env = {"PATH": path, "HOME": str(root / "work" / "home"), **GIT_ENV}
        yield {"decided": decided, "project": project, "env": env, "root": root}


def _bash(command: str, place: dict[str, Any]) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=place["project"], env=place["env"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    return done.stdout + done.stderr


def _victim(place: dict[str, Any]) -> Path:
    return Path(place["root"]) / "work" / "victim" / "sub" / "f"


# (command, the program that must be installed for bash to run it here)
BLOCK_RUN = [
    # A: a made `.` (or `..`) meets a literal `.`/`/` only when the line runs
    ('cat "$(echo .)./home/.netrc"', "cat"),
    ('cat "$(printf .)./home/.netrc"', "cat"),
    ("cat $(echo .)./home/.netrc", "cat"),
    ('x=$(echo .); cat "$x./home/.netrc"', "cat"),
    ('cat "$(echo .)"".""/home/.netrc"', "cat"),
    ('cat "$(basename "$PWD" | head -c0).$(echo .)/home/.netrc"', "cat"),
    ('cat "$(echo ..)/home/.netrc"', "cat"),
    ('cat "$(echo .)"./home/.aws/credentials', "cat"),
    ('python3 "$(echo .)./home/.netrc"', "python3"),
    ('grep -r pass "$(echo .)./home"', "grep"),
    ('grep -r pass "$(echo ..)/home"', "grep"),
    ('cp "$(echo .)./home/.netrc" /dev/stdout', "cp"),
    ('wc -c "$(echo .)./home/.netrc" && head "$(echo .)./home/.netrc"', "head"),
    # L: interpreter readers, new spellings
    ("python3 -c 'from pathlib import Path as P; print(P(\"..\", \"home\", \".netrc\").read_text())'",
     "python3"),
    ("python3 -c 'from pathlib import Path as P; print((P(\"..\")/\"home\"/\".netrc\").read_text())'",
     "python3"),
    ("python3 -c 'import pathlib as pl; print(pl.Path(\"../home/.netrc\").read_text())'",
     "python3"),
    ("python3 -c 'import pathlib; Q = pathlib.Path; print(Q(\"../home/.netrc\").read_text())'",
     "python3"),
    ("python3 -c 'import subprocess; subprocess.run([\"cat\", \".netrc\"], cwd=\"../home\")'",
     "python3"),
    ("python3 -c 'import subprocess; print(subprocess.check_output([\"cat\",\"credentials\"], "
     "cwd=\"../home/.aws\").decode())'", "python3"),
    ("python3 -c 'import subprocess, os; subprocess.run([\"cat\", \".netrc\"], "
     "cwd=os.path.expanduser(\"~\"))'", "python3"),
    ("perl -e 'print qx(cat ../home/.netrc)'", "perl"),
    ("perl -e 'print qx{cat ../home/.netrc}'", "perl"),
    ("perl -e 'print qx!cat ../home/.netrc!'", "perl"),
    ("perl -e 'print qx[cat ../home/.netrc]'", "perl"),
    ("php -r 'highlight_file(\"../home/.netrc\");'", "php"),
    ("php -r 'show_source(\"../home/.netrc\");'", "php"),
    ("php -r 'print_r(parse_ini_file(\"../home/.aws/credentials\"));'", "php"),
    ("php -r 'echo php_strip_whitespace(\"../home/.netrc\");'", "php"),
    # K: sqlite3's .import reads its file, past its options
    ("sqlite3 :memory: '.import --csv ../home/.netrc t' '.schema'", "sqlite3"),
    ("sqlite3 :memory: '.import --csv .env t' '.schema'", "sqlite3"),
    ("sqlite3 -cmd '.import --csv .env t' :memory: '.schema'", "sqlite3"),
    ("sqlite3 :memory: '.import -v --csv ../home/.aws/credentials t' '.dump'", "sqlite3"),
    ("sqlite3 :memory: '.import --skip 0 --csv ../home/.git-credentials t' '.schema'",
     "sqlite3"),
    ("sqlite3 :memory: '.import --csv server.pem t' '.schema'", "sqlite3"),
]  # fmt: skip

# B: an environment file named by a value the line makes (dotenv: python-dotenv's CLI)
ENV_FILE_RUN = [
    ('dotenv --file="$(echo .)env" list', "dotenv"),
    ("dotenv --file=$(git ls-files -oi --exclude-standard | grep -v pem) list", "dotenv"),
    ('dotenv -f "$(printf .e)nv" list', "dotenv"),
    ('node --env-file="$(echo .)env" -p process.env.SECRET_ENV', "node"),
    ('node --env-file "$(echo .)env" -p process.env.SECRET_ENV', "node"),
]

# M: a Tcl command word made when the code runs (its damage: ../victim deleted)
TCL_RUN = [
    "tclsh <<< '[string map {X x} eXec] rm -rf ../victim'",
    "tclsh <<< '[string index xexec 1][string range xexec 2 end] rm -rf ../victim'",
    "tclsh <<< 'e[string index xx 0]ec rm -rf ../victim'",
    "tclsh <<< 'e\\x78ec rm -rf ../victim'",
    "tclsh <<< '{*}[list exec rm -rf ../victim]'",
    "tclsh <<< 'puts hi; [join {ex ec} \"\"] rm -rf ../victim'",
]

# J: what the compiler's linker or its language reads when it compiles (the tree's
# absolute paths as the red team's, relocated onto it)
COMPILE_RUN = [
    ("gcc -x c - -o x -Wl,@../home/.netrc <<< 'int main(){}'", "gcc"),
    ("gcc -x c - -o x -Wl,--as-needed,@../home/.netrc <<< 'int main(){}'", "gcc"),
    ("gcc -x c - -o x -Xlinker @../home/.netrc <<< 'int main(){}'", "gcc"),
    ("rustc -o x - <<< 'fn main(){print!(\"{}\", include_str!(\"/tmp/rt33s/work/home/.netrc\"));}'"
     " && ./x", "rustc"),
    ("rustc -o x - <<< 'fn main(){print!(\"{:?}\", include_bytes!(r\"/tmp/rt33s/work/home/.netrc\"));}'"
     " && ./x", "rustc"),
    ("rustc -o x - <<< 'fn main(){print!(\"{}\", include_str!(concat!(\"/tmp/rt33s/work/home/\", "
     "\".netrc\")));}' && ./x", "rustc"),
]  # fmt: skip

PASS = [
    "gcc -x c - -o x -Wl,--as-needed <<< 'int main(){}'",
    "rustc -o x - <<< 'fn main(){println!(\"hi\");}'",
    'cat "$(git rev-parse --show-toplevel)/README"',
    "cat ./README",
    'cat "$(ls -d src)/app.py"',
    'cat "$(dirname "$0")/README"',
    'cat "$(echo src)/app.py"',
    'grep -r TODO "$(echo src)/x"',
    'grep -rn TODO "$(git rev-parse --show-toplevel)/src"',
    'for f in src/*.py; do cat "$f"; done',
    "python3 -c 'from pathlib import Path as P; print(P(\"README\").read_text())'",
    'python3 -c \'import subprocess; subprocess.run(["ls"], cwd="src")\'',
    "perl -e 'print qx(ls)'",
    "php -r 'highlight_file(\"src/app.py\");'",
    "sqlite3 :memory: '.import --csv README t' '.schema'",
    "tclsh <<< 'puts [string map {X x} eXec]'",
    "tclsh <<< 'set x [expr {1 + 2}]; puts $x'",
    "node --env-file=.env.example -p 1",
    "dotenv --file=.env.example list",
]


@pytest.mark.parametrize(("command", "tool"), BLOCK_RUN)
def test_a_read_the_line_hides_is_held(place: dict[str, Any], command: str, tool: str) -> None:
    if shutil.which(tool, path=place["env"]["PATH"]) is not None:
        output = _bash(command, place)
        assert any(mark in output for mark in MARKS), f"bash printed no secret: {command}"
    decision, reason = place["decided"](command)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize(("command", "tool"), ENV_FILE_RUN)
def test_an_env_file_named_by_a_made_value_is_unverifiable(
    place: dict[str, Any], command: str, tool: str
) -> None:
    if shutil.which(tool, path=place["env"]["PATH"]) is not None:
        output = _bash(command, place)
        assert "s3cr3t" in output, f"bash printed no secret: {command}: {output}"
    decision, reason = place["decided"](command)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", TCL_RUN)
def test_a_tcl_command_word_made_when_it_runs_is_unverifiable(
    place: dict[str, Any], command: str
) -> None:
    victim = _victim(place)
    if shutil.which("tclsh") is not None:
        _bash(command, place)
        assert not victim.exists(), f"tclsh did not delete the victim: {command}"
        victim.parent.mkdir(parents=True, exist_ok=True)
        victim.write_text("victim data\n")
    decision, reason = place["decided"](command)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_get_through(place: dict[str, Any], command: str) -> None:
    decision, reason = place["decided"](command)
    assert decision == "allow", (command, decision, reason)


@pytest.mark.parametrize(("command", "tool"), COMPILE_RUN)
def test_what_a_compile_reads_is_read(place: dict[str, Any], command: str, tool: str) -> None:
    if shutil.which(tool, path=place["env"]["PATH"]) is not None:
        # (rustup's toolchains are under the real home, not the tree's)
        real = pwd.getpwuid(os.getuid()).pw_dir
        env = {**place["env"], "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", f"{real}/.rustup")}
        done = subprocess.run(["bash", "-c", command.replace(RED_ROOT, str(place["root"]))],
                              cwd=place["project"], env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
        output = done.stdout + done.stderr
        shown = "netrcpw" in output or str(list(b"netrcpw"))[1:-1] in output
        assert shown, f"no secret shown: {command}: {output[-300:]}"
    decision, reason = place["decided"](command)
    assert decision in ("ask", "deny"), (command, decision, reason)
