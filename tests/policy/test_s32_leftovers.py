"""The command analysis's leftovers of session 31 (session 32, issue 24), by mechanism.

Escapes: tools that load a project's ``.env`` by themselves (shell/commands/env_loaders.py:
runners such as ``honcho run CMD``, and ``bun -e``, ``flask shell``, ``docker compose
config``) run what the line gives them as after ``source .env``. Each blocked row first
prints the planted value in real bash where the tool is installed here (the tree is the
one the hook decides in), then the hook must ask or deny.

Friction: ``**`` under globstar is globbed as bash does (recursively, no hidden
directories), a ``for f do`` loop walks the ``set --`` the line made known, an
interpreter's ``--version`` reads no code, ``/proc/net`` and a process's counters hold no
environment, and ``let``/``(( ))`` after a source that only assigns and compares prints
nothing: these get through, and their dangerous neighbours do not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, PACKS

# (command, the program that must be installed for bash to run it here)
BLOCK_RUN = [
    ("honcho run printenv SECRET_ENV", "honcho"),
    ("honcho run sh -c 'echo $SECRET_ENV'", "honcho"),
    ("honcho -e .env run env", "honcho"),
    ("honcho run python3 -c 'import os; print(os.environ[\"SECRET_ENV\"])'", "honcho"),
    ("foreman run printenv SECRET_ENV", "foreman"),
    ("foreman run -e .env env", "foreman"),
    ("dotenv run printenv SECRET_ENV", "dotenv"),
    ("dotenv -f .env run sh -c 'echo $SECRET_ENV'", "dotenv"),
    ("uv run --env-file .env printenv SECRET_ENV", "uv"),
    ("env-cmd printenv SECRET_ENV", "env-cmd"),
    ("dotenvx run -- printenv SECRET_ENV", "dotenvx"),
    ("bun -e 'console.log(process.env.SECRET_ENV)'", "bun"),
    ("bun -p 'process.env.SECRET_ENV'", "bun"),
    ("bun --eval 'console.log(JSON.stringify(Bun.env))'", "bun"),
    ('bun -e \'const e = process["en" + "v"]; console.log(e.SECRET_ENV)\'', "bun"),
    ("echo 'console.log(process.env.SECRET_ENV)' | bun run -", "bun"),
    ("bun run - <<< 'console.log(Bun.env.SECRET_ENV)'", "bun"),
    ("flask shell <<< 'import os; print(os.environ[\"SECRET_ENV\"])'", "flask"),
    ("echo 'import os; print(os.environ)' | flask shell", "flask"),
    ("flask --app app shell <<< 'import os; print(os.environ[\"SECRET_ENV\"])'", "flask"),
    # their dangerous neighbours among the friction fixes
    ('set -- .env; for f do cat "$f"; done', "bash"),
    ('set -- notes.txt .env; for f; do cat "$f"; done', "bash"),
    ('set -- .e; for f do cat "${f}nv"; done', "bash"),
    ("shopt -s globstar; cat **/.env", "bash"),
    ("shopt -s globstar; cat ./**/.e?v", "bash"),
    ("shopt -s globstar; grep -h . **/.env*", "bash"),
    ('shopt -s globstar; for f in **/.e*; do cat "$f"; done', "bash"),
    ("set -a; . ./.env; cat /proc/self/environ", "bash"),
    ("set -a; . ./.env; cat /proc/self/net/../environ", "bash"),
    ("shopt -s dotglob globstar; cat ../../**/credentials", "bash"),
    ("bash -O globstar -O dotglob -c 'cat ../../**/credentials'", "bash"),
    ('source .env; let "n = $SECRET_ENV + "', "bash"),
    ("source .env; (( $SECRET_ENV + 1 ))", "bash"),
    ("source .env; (( n = ${SECRET_ENV} ))", "bash"),
]

# not installed here (or no daemon): decided only
BLOCK = [
    "docker compose config",
    "docker compose --project-directory . config --environment",
    "docker-compose config",
    "docker compose run app env",
    "docker compose run --rm -e X=1 app printenv SECRET_ENV",
    "docker compose exec app sh -c 'echo $SECRET_ENV'",
    "deno eval --env-file 'console.log(Deno.env.get(\"SECRET_ENV\"))'",
    "heroku local:run printenv SECRET_ENV",
    "direnv exec . printenv SECRET_ENV",
    "op run --env-file .env -- printenv SECRET_ENV",
    "bun repl",
    "flask shell",
    # a name read in arithmetic is evaluated in turn: its value is printed in the error
    "source .env; (( n = SECRET_ENV ))",
    "source .env; let n++",
    "source .env; (( n += 1 ))",
    "source .env; (( LC_ALL = 1 ))",
    "source .env; (( a[SECRET_ENV] = 1 ))",
    "source .env; (( n = $(cat .env) ))",
    "source .env; echo $(( n = 3 ))",
    "source .env; (( n = 1, m = n ))",
    # a set -- the line does not make known, or changes
    'for f do cat "$f"; done',
    'set -- x .env; shift; for f do cat "$f"; done',
    'set -- notes.txt; set -- .env; for f do cat "$f"; done',
    'set -- .e*; for f do cat "$f"; done',
    'set -- notes.txt; for f do cat "$f"; f=.env; done',
    "set -a; . ./.env; cat /proc/self/n*",
    "set -a; . ./.env; cat /proc/self/task/*/environ",
    "set -a; . ./.env; cat /proc/1/cmdline",
    "set -a; . ./.env; cat /proc/self/mem",
    "set -a; . ./.env; cat /proc/net/../self/environ",
    "node --env-file=.env -e 'console.log(1)'",
]

PASS = [
    "honcho start",
    "foreman start web",
    "honcho check",
    "bun test",
    "bun run test",
    "bun install",
    "docker compose up -d",
    "docker compose ps",
    "docker compose build",
    "docker compose run --rm app pytest -q",
    "flask run",
    "flask routes",
    "shopt -s globstar; grep -n foo **/*.py",
    "shopt -s globstar; rg foo **/*.py",
    "shopt -s globstar; wc -l **/*.py",
    "shopt -s globstar; cat **/*.py",
    "shopt -s globstar; cat src/**/*.py",
    'shopt -s globstar; for f in **/*.py; do cat "$f"; done',
    "shopt -s nullglob; grep -n foo */*.py",
    "shopt -s globstar; cat ../**/credentials",  # (no dotglob: ~/.aws is never walked)
    'set -- notes.txt README.md; for f do cat "$f"; done',
    'set -- src/a.py src/b.py; for f; do wc -l "$f"; done',
    "ipython --version",
    "ipython3 --help",
    "isympy --version",
    "python3 -V",
    "cat /proc/net/tcp",
    "cat /proc/cpuinfo",
    "head -5 /proc/meminfo",
    "source .env; cat /proc/net/tcp",
    "set -a; . ./.env; grep MHz /proc/cpuinfo",
    "set -a; . ./.env; cat /proc/self/status",
    "source .env; let n=1+2",
    "source .env; (( n = 3 + 4 ))",
    "source .env; (( 0x1f + 16#ff > 2 ))",
    'source .env; let "n = ${#SECRET_ENV} + 1"',
    "source .env; (( ${#SECRET_ENV} > 3 )) && echo long",
    "(( ${#HOME} > 3 )) && echo long",
]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree for the module: the project's .env defines SECRET_ENV (the mark), a
    Flask app for ``flask shell``; the packs compiled with its home."""
    found = _tree(tmp_path_factory.mktemp("s32"))
    project: Path = found["project"]
    (project / ".env").write_text(f"SECRET_ENV={MARK}\n")
    (project / "app.py").write_text("from flask import Flask\napp = Flask(__name__)\n")
    # the tools of this interpreter's environment (dotenv, honcho, flask) come first
    found["env"]["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


def _bash(command: str, place: dict[str, Any], stdin: str | None = None) -> str:
    done = subprocess.run(
        ["bash", "-c", command], cwd=place["project"], env=place["env"], input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.parametrize(("command", "tool"), BLOCK_RUN)
def test_what_runs_with_the_project_env_loaded_is_judged_as_after_source(
    place: dict[str, Any], command: str, tool: str
) -> None:
    if shutil.which(tool, path=place["env"]["PATH"]) is not None:
        assert MARK in _bash(command, place), f"bash did not print the value: {command}"
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", BLOCK)
def test_a_loader_or_a_value_the_line_cannot_account_for_is_not_let_through(
    place: dict[str, Any], command: str
) -> None:
    decision, reason = _verdict(command, place["policy"], place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_commands_near_them_get_through(place: dict[str, Any], command: str) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


def test_an_interactive_shell_with_the_env_loaded_is_unverifiable(place: dict[str, Any]) -> None:
    """``flask shell`` with nothing on its stdin: code typed in later, with .env loaded."""
    decision, reason = _verdict("flask shell", place["policy"], place)
    assert decision == "ask", reason
    assert "typed in later" in reason and ".env" in reason, reason


@pytest.mark.parametrize("program", ["ipython", "python3"])
def test_a_version_query_reads_no_code_from_its_stdin(
    place: dict[str, Any], program: str, tmp_path: Path
) -> None:
    """``ipython --version`` exits before its stdin: code fed to it never runs (so the
    query is no interpreter left waiting for typed code)."""
    flag = "--version" if program == "ipython" else "-V"
    victim = tmp_path / "victim"
    victim.mkdir()
    code = f"import shutil; shutil.rmtree({str(victim)!r})"
    if shutil.which(program, path=place["env"]["PATH"]) is not None:
        _bash(f"{program} {flag}", place, stdin=code + "\n")
        assert victim.exists(), f"{program} {flag} ran its stdin"
    assert _verdict(f"{program} {flag}", place["policy"], place) == ("none", "")


def test_the_env_loader_table_names_each_tool_it_judges() -> None:
    """One table (env_loaders.py's docstring) for the tools programs.ENV_SELF_LOADERS and
    the runners that load a file list: a tool judged is a tool documented."""
    from hookwise.shell import programs, wrappers
    from hookwise.shell.commands import env_loaders

    doc = env_loaders.__doc__ or ""
    for name in sorted(programs.ENV_SELF_LOADERS - {"podman-compose"}):
        assert f"``{name}" in doc or f"{name}``" in doc or name in doc, name
    for name in ("dotenv", "dotenvx", "env-cmd", "honcho", "foreman", "heroku", "pipenv"):
        assert name in wrappers.RUNNERS and name in doc, name
        assert env_loaders.runner_env(name, [name, "run", "x"], 2), name
