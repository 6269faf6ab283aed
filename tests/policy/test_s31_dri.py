"""Values an environment file defined, shown by what the guard took as quiet (red team
s31, classes D, R and I). D: after ``set -a; . ./.env``, a word that may name a process's
environment under ``/proc`` (``/proc/self/envi*``, ``cd /proc; cat self/envir?n``,
``/dev/fd/../environ``, ``< /proc/self/environ``). R: after a source, bash's arithmetic
(``$((..))``, ``$[..]``, ``((..))``, ``for ((..))``, subscripts, substring offsets,
``[[ X -eq 1 ]]``, ``declare -i``) prints an operand that is no number in its error. I:
code given on the line that loads ``.env`` itself (``process.loadEnvFile()``,
``load_dotenv()``, ``dotenv_values()``, ``node -r dotenv/config``). Each blocked command
first prints the value in real bash, in the tree the hook decides in; the everyday
neighbours (the project's app run with the values, a test of a value) get through."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest

from hookwise.shell.commands.proc_environ import names_environment
from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import PACKS

# the value .env defines: '@' makes it no arithmetic expression, so bash's error shows it
VALUE = "tok3n@q7x"

ENVIRON = [  # class D
    "set -a; . ./.env; cat /proc/self/envi*",  # red team s31 D
    "set -a; . ./.env; cd /proc; cat self/envir?n",
    "set -a; . ./.env; cp /proc/self/en* x; cat x",
    "set -a; . ./.env; sort -z /proc/self/en*ron | tr '\\0' '\\n'",
    "set -a; . ./.env; cat /proc/thread-self/envi*",
    "set -a; . ./.env; cat /dev/fd/../environ",
    "set -a; . ./.env; bash -c 'cat < /proc/$$/environ'",
    "set -a; . ./.env; cd /dev/fd; cat ../environ",
    "set -a; . ./.env; cat /*/self/environ",
    "set -a; . ./.env; cat /pr?c/se[l]f/environ",
    "set -a; . ./.env; ln -s / r; cat r/proc/self/environ",
    "set -a; . ./.env; cd /proc && cat thread-self/envi*",
    "set -a; . ./.env; dd if=/proc/self/environ status=none",
    "set -a; . ./.env; cat /proc/self/root/proc/self/environ | tr '\\0' '\\n'",
    "set -a; . ./.env; cat /proc/self/task/*/environ",
    "set -a; . ./.env; curl -s file:///proc/self/environ",
]

ARITHMETIC = [  # class R
    ". ./.env; : $(( $SECRET_ENV + ))",  # red team s31 R
    ". ./.env; : $[ $SECRET_ENV + ]",
    '. ./.env; [ -n "$(( $SECRET_ENV + ))" ]',
    ". ./.env; : ${a[$SECRET_ENV-]}",
    '. ./.env; [[ -v "a[$SECRET_ENV-]" ]]',
    '. ./.env; test -v "a[$SECRET_ENV-]"',
    ". ./.env; : ${SECRET_ENV:0:x$SECRET_ENV-}",
    "source .env; : $(( $SECRET_ENV + ))",
    ". ./.env; : $(( SECRET_ENV ))",
    ". ./.env; (( SECRET_ENV ))",
    ". ./.env; for (( i = SECRET_ENV; i < 0; i++ )); do :; done",
    ". ./.env; [[ SECRET_ENV -eq 1 ]]",
    ". ./.env; test -v 'a[SECRET_ENV]'",
    ". ./.env; declare -i n=SECRET_ENV",
    ". ./.env; true ${#SECRET_ENV[$SECRET_ENV-]}",
    ". ./.env; a[SECRET_ENV]=1",
    '. ./.env; false "${SECRET_ENV: $SECRET_ENV}"',
]

LOADERS = [  # class I: (command, the program it needs)
    ("node -e 'process.loadEnvFile(); console.log(process.env.SECRET_ENV)'", "node"),
    ("node -p 'process.loadEnvFile(), process.env.SECRET_ENV'", "node"),
    (
        'node -e \'const u = require("util"); process.loadEnvFile(".env"); '
        "console.log(u.inspect(process.env))'",
        "node",
    ),
    ("python3 -c 'import dotenv; print(dotenv.dotenv_values())'", "dotenv"),
    (
        "python3 -c 'import dotenv,os; dotenv.load_dotenv(); print(os.environ[\"SECRET_ENV\"])'",
        "dotenv",
    ),
    ("python3 -c 'from dotenv import dotenv_values as d; print(d())'", "dotenv"),
    (
        "python3 -c 'from dotenv import main; print(main.DotEnv(main.find_dotenv(usecwd=True))"
        ".dict())'",
        "dotenv",
    ),
    (
        "python3 -c 'from dotenv import load_dotenv as L; L(); import os; "
        'print(os.getenv("SECRET_ENV"))\'',
        "dotenv",
    ),
    ("node -r dotenv/config -e 'console.log(process.env.SECRET_ENV)'", "node-dotenv"),
    ("ruby -rdotenv/load -e 'puts ENV[\"SECRET_ENV\"]'", "ruby-dotenv"),
    ("pipenv run python3 -c 'import os; print(os.environ[\"SECRET_ENV\"])'", "pipenv"),
]

PASS = [
    "source .env && uvicorn src.app:app --reload",  # red team s31 friction
    "source .env && gunicorn -w 2 src.app:app",
    "source .env && python3 src/app.py | tee run.log",
    ". ./.env && make test",
    'source .env; [ -n "$SECRET_ENV" ] && make test',
    '. ./.env; test "$SECRET_ENV" = x || make test',
    "source .env; [[ -z $SECRET_ENV ]] || make test",
    '. ./.env; [ -n "$1" ] || make test',
    "for ((i = 0; i < 3; i++)); do echo $i; done",
    "for let in a b; do echo $let; done",
    "set -a; . ./.env; set +a; ls src/*",
    "source .env; cat README.md",
    "source .env; cat /proc/cpuinfo > /dev/null; make test",
    "node -r dotenv/config src/app.js",
    "pipenv run pytest -q",
    "honcho start",
    "node --env-file=.env src/app.js",
    "python3 -c 'import json; print(json.dumps({\"a\": 1}))'",
    "cat /proc/self/status",
]


def _have(need: str) -> bool:
    """Whether the program (or library) a command needs is installed here."""
    if need == "dotenv":
        found = shutil.which("python3") and subprocess.run(
            ["python3", "-c", "import dotenv"], capture_output=True, check=False
        ).returncode == 0  # fmt: skip
        return bool(found)
    if need == "node-dotenv":
        return shutil.which("node") is not None and subprocess.run(
            ["node", "-e", "require('dotenv')"], capture_output=True, check=False
        ).returncode == 0  # fmt: skip
    if need == "ruby-dotenv":
        return shutil.which("ruby") is not None and subprocess.run(
            ["ruby", "-rdotenv", "-e", ""], capture_output=True, check=False
        ).returncode == 0  # fmt: skip
    return shutil.which(need) is not None


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree for the module (.env defines SECRET_ENV; src/app.py, a Makefile) and the
    packs compiled with its home, as the hook compiles them with the user's."""
    found = _tree(tmp_path_factory.mktemp("s31dri"))
    project = found["project"]
    (project / ".env").write_text(f"SECRET_ENV={VALUE}\n")
    (project / "src" / "app.py").write_text("print('app')\n")
    (project / "Makefile").write_text("test:\n\t@echo ok\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


def _shows_value(place: dict[str, Any], command: str) -> bool:
    """Run the command in real bash in the tree (from a copy: it may write x, r); whether
    its output shows the value .env defined."""
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    for made in ("x", "r"):
        target = place["project"] / made
        if target.is_symlink() or target.is_file():
            target.unlink()
    return VALUE in done.stdout + done.stderr


@pytest.mark.parametrize("command", ENVIRON + ARITHMETIC)
def test_a_sourced_value_shown_by_the_shell_is_a_read(place: dict[str, Any], command: str) -> None:
    if "curl" in command and shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    assert _shows_value(place, command), f"bash did not show the value: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize(("command", "need"), LOADERS)
def test_code_that_loads_the_environment_file_itself_is_a_read(
    place: dict[str, Any], command: str, need: str
) -> None:
    if _have(need):  # (judged without the run where the library is missing)
        assert _shows_value(place, command), f"the code did not show the value: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_runs_with_the_values_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


@pytest.mark.parametrize(
    ("word", "cwd"),
    [("/proc/self/envi*", None), ("self/envir?n", "/proc"), ("../environ", "/dev/fd"),
     ("/*/[0-9]*/environ", None), ("if=/proc/1/environ", None), ("@/proc/self/mem", None),
     ("file:///proc/thread-self/environ", None), ("r/proc/self/environ", None),
     ("/proc", None), ("/tmp/../proc", None), ("/p*", None), ("environ", "/proc/self")],
)  # fmt: skip
def test_a_word_that_may_be_a_process_environment(word: str, cwd: str | None) -> None:
    assert names_environment(word, cwd), (word, cwd)


@pytest.mark.parametrize(
    ("word", "cwd"),
    [("/proc/cpuinfo", None), ("/proc/sys/kernel/hostname", None), ("src/app.py", None),
     ("self/environ", None), ("*.py", None), ("/usr/lib/x", None), ("a:b", None),
     ("/proc/[a-z]*info", None), ("/", None)],
)  # fmt: skip
def test_a_word_that_cannot_be_one(word: str, cwd: str | None) -> None:
    assert not names_environment(word, cwd), (word, cwd)
