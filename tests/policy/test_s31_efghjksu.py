"""Red team s31's interpreter and tool classes, closed by their mechanism (session 31):
E/F a python script or ``-m`` module found after python's options and by its real path
(``//``, ``/./``, ``__pycache__/*.pyc``, a package directory, a name after ``cd``, any
module of a tool's package); G IPython's shells fed code on stdin or in settings; H npm's
own options anywhere before the package, ``npm_config_X`` and npm's script by any path;
S sqlite3's dot-commands by prefix; J php's ini from ``-c``/``PHPRC``/``PHP_INI_SCAN_DIR``
and ``include_path``; K ``RIPGREP_CONFIG_PATH``; U ``#include`` in a file the line
writes. Each blocked command first prints the planted secret in real bash (skipped where
its tool is not installed), in the tree the hook decides in; everyday neighbours pass."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Any

import pytest

from hookwise.shell.py_entry import library_module, python_entry
from tests.policy.conftest import compile_text
from tests.policy.test_s30_loop_choices import _tree, _verdict
from tests.policy.test_unverifiable import MARK, PACKS


def _python_facts() -> dict[str, str]:
    """Where python3's standard library and site-packages are, and timeit's .pyc."""
    if shutil.which("python3") is None:
        return {}
    code = (
        "import sysconfig, importlib.util as u; p = sysconfig.get_paths();"
        "print(p['stdlib']); print(p['purelib']);"
        "print(u.cache_from_source(p['stdlib'] + '/timeit.py'))"
    )
    done = subprocess.run(["python3", "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {}
    stdlib, site, pyc = done.stdout.split("\n")[:3]
    return {"stdlib": stdlib, "site": site, "pyc": pyc}


PY = _python_facts()
NPM = os.path.realpath(shutil.which("npm") or "/nonexistent/npm")
NPM_DIR = os.path.dirname(os.path.dirname(NPM))  # .../node_modules/npm
CODE = "'import os;os.system(\"cat .env\")'"

# (tool the attack needs, command): {stdlib}, {site}, {pyc}, {npm}, {npm_dir}, {project}
BLOCK = [
    # E: standard-library scripts behind python's options, odd spellings of their path
    ("python3", "python3 -u {stdlib}/timeit.py -n1 -r1 " + CODE),  # red team s31 E
    ("python3", "python3 -X utf8 -B {stdlib}//timeit.py -n1 -r1 " + CODE),
    ("python3", "python3 -W ignore {stdlib}/json/../timeit.py -n1 -r1 " + CODE),
    ("python3", "python3 -I {pyc} -n1 -r1 " + CODE),  # red team s31 E: the .pyc
    (
        "python3",
        "cd {stdlib} && python3 -q timeit.py -n1 -r1 'import os;os.system(\"cat {project}/.env\")'",
    ),
    ("python3", "python3 -E {stdlib}/pdb.py -c '!import os;os.system(\"cat .env\")' -c q src/a.py"),
    ("python3", "python3 -Imtimeit -n1 -r1 " + CODE),
    ("python3", "python3 -bb {stdlib}/cProfile.py -m timeit -n1 -r1 " + CODE),
    ("python3", "printf 'import os; os.system(\"cat .env\")' > m.py; python3 -m pydoc ./m.py"),
    # F: a tool's package by -m after options, its submodules, its directory, by code
    ("dotenv", "python3 -Im dotenv run sh -c 'cat .env'"),  # red team s31 F
    ("dotenv", "python3 -u -mdotenv.__main__ run cat .env"),
    ("ipython", "python3 {site}/IPython -c '!cat .env'"),  # red team s31 F
    ("dotenv", "python3 -c 'from dotenv.cli import cli; cli()' run cat .env"),
    ("ipython", "python3 -s -m IPython -c '!cat .env'"),  # red team s31 F
    ("ipython", "python3 -m IPython.__main__ --c '!cat .env'"),
    # G: IPython's shells: stdin, --c, settings holding code
    ("ipython", "ipython <<< '!cat .env'"),  # red team s31 G
    ("ipython", "ipython3 --no-banner --quick <<< 'x = !cat .env\nprint(x)'"),
    ("ipython", "ipython --c '!cat .env'"),  # red team s31 G
    ("ipython", "ipython --InteractiveShellApp.code_to_run='!cat .env'"),
    ("ipython", "ipython --InteractiveShellApp.exec_lines='[\"!cat .env\"]' -c pass"),
    ("isympy", "isympy -q <<< 'import os; os.system(\"cat .env\")'"),  # red team s31 G
    ("isympy", "python3 -m isympy -I <<< 'print(open(\".env\").read())'"),
    # H: npm's --call anywhere before the package, npm_config_call, npm by another path
    ("npm", "npm --call 'cat .env' exec"),  # red team s31 H
    ("npm", "npm exec -yc 'cat .env'"),
    ("npm", "npm --yes -c 'cat .env' x --"),
    ("npm", "npm_config_call='cat .env' npm exec"),  # red team s31 H
    ("npm", "NPM_Config_Call='cat .env' npx"),
    ("npm", "export npm_config_call='cat .env'; npm exec"),
    ("npm", "node {npm} exec --call 'cat .env'"),
    ("npm", "node --no-warnings -- {npm_dir} exec --call 'cat .env'"),
    ("npm", "cd {npm_dir}/bin && node npm-cli.js exec --call 'cat {project}/.env'"),
    # S: sqlite3's dot-commands by a prefix of their names
    ("sqlite3", "sqlite3 :memory: '.sh cat .env'"),  # red team s31 S
    ("sqlite3", "sqlite3 :memory: '.sys cat .env'"),
    ("sqlite3", "sqlite3 -cmd '.shel cat .env' :memory: 'select 1'"),
    ("sqlite3", "sqlite3 :memory: '.o |cat .env' 'select 1'"),
    # J: php's ini from a file, a search path, include_path
    ("php", "printf 'auto_prepend_file=.env\\n' > x.ini; php -c x.ini seed"),  # s31 J
    ("php", "printf 'auto_append_file=.env\\n' > x.ini; php --php-ini=x.ini seed"),
    ("php", "printf 'auto_prepend_file=.env\\n' > php.ini; PHPRC=. php seed"),
    (
        "php",
        "mkdir -p ini; printf 'auto_prepend_file=.env\\n' > ini/a.ini; PHP_INI_SCAN_DIR=ini php seed",
    ),
    ("php", "php -d include_path=../../home/.aws -d auto_append_file=credentials seed"),
    ("php", "php -n -d include_path=/tmp:.. -d auto_prepend_file=project/.env seed"),
    # K: ripgrep's options from a file
    (
        "rg",
        "printf -- '--pre\\nsh\\n' > rc; echo 'cat .e\"\"nv' > p; RIPGREP_CONFIG_PATH=rc rg -N -g p SECRET .",
    ),
    (
        "rg",
        "export RIPGREP_CONFIG_PATH=rc; printf -- '--pre=sh\\n' > rc; echo 'cat .env' > p; rg -N -g p S .",
    ),
    # U: #include in a file the line writes
    ("cpp", "printf '#include \"../../home/.aws/credentials\"\\n' > x.c; cpp -P x.c"),
    ("cpp", "mkdir -p d; printf '#include \"../.env\"\\n' > d/y.h; cpp -P d/y.h"),
    ("groff", "printf '.so .env\\n' > x.ms; groff -Tascii x.ms"),
]

PASS = [
    "python3 -m cProfile -o prof.out src/a.py",  # red team s31 friction
    "python3 -m cProfile -s cumtime src/a.py",
    "python3 -m trace --count src/a.py",  # red team s31 friction
    "python3 -m pydoc json",  # red team s31 friction
    "python3 -u src/a.py",
    "python3 -X dev -W error src/a.py",
    "python3 -B -m pytest -q",
    "python3 -c 'import json; print(json.dumps([1]))'",
    "cd src && python3 a.py",
    "npm run build",
    "npm ci",
    "npm_config_loglevel=silent npm install",
    "npx eslint -c .eslintrc.json src",
    "npm exec -- eslint -c x src",
    "node --no-warnings src/a.js",
    "ipython -c 'print(1)'",
    "ipython --no-banner <<< 'print(1 + 1)'",
    "sqlite3 db.sqlite '.tables'",
    "sqlite3 db.sqlite '.schema'",
    "sqlite3 db.sqlite 'select 1'",
    "php -d memory_limit=1G src/a.php",
    "php -l src/a.php",
    "rg -n TODO src",
    "printf 'int x;\\n' > y.c; cpp -P y.c",
    "gcc -c prog.c",
]


def _filled(command: str, place: dict[str, Any]) -> str:
    return command.format(**PY, npm=NPM, npm_dir=NPM_DIR, project=place["project"])


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tree for the module and the packs compiled with its home, as the hook compiles
    them with the user's (the ~ globs)."""
    found = _tree(tmp_path_factory.mktemp("s31efghjksu"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", found["env"]["HOME"])
        found["policy"] = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    return found


def _installed(tool: str) -> bool:
    if tool in ("dotenv", "ipython", "isympy") and not PY:
        return False
    if tool == "npm" and shutil.which("node") is None:
        return False
    return shutil.which(tool) is not None


@pytest.mark.parametrize(("tool", "command"), BLOCK)
def test_an_interpreter_or_tool_running_unread_code_is_not_let_through(
    place: dict[str, Any], tool: str, command: str
) -> None:
    if not PY and any(k in command for k in ("{stdlib}", "{site}", "{pyc}")):
        pytest.skip("python3 is not installed")
    line = _filled(command, place)
    if _installed(tool):
        env = {**place["env"], "PATH": os.environ["PATH"]}
        done = subprocess.run(
            ["bash", "-c", line], cwd=place["project"], env=env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert MARK in done.stdout + done.stderr, f"bash did not print the secret: {line}"
    decision, reason = _verdict(line, place["policy"], place)
    assert decision in ("ask", "deny"), (line, decision, reason)


@pytest.mark.parametrize("command", PASS)
def test_everyday_interpreter_and_tool_commands_get_through(
    place: dict[str, Any], command: str
) -> None:
    assert _verdict(command, place["policy"], place) == ("none", ""), command


@pytest.mark.parametrize(
    ("argv", "kind", "value"),
    [
        (["python3", "-IBu", "x.py", "-c", "y"], "script", "x.py"),
        (["python3", "-Im", "dotenv", "list"], "module", "dotenv"),
        (["python3", "-mdotenv", "list"], "module", "dotenv"),
        (["python3", "-X", "utf8", "-Wignore", "-c", "print(1)"], "code", "print(1)"),
        (["python3", "-Ic", "print(1)"], "code", "print(1)"),
        (["python3", "--check-hash-based-pycs", "never", "x.py"], "script", "x.py"),
        (["python3", "-u"], "stdin", ""),
        (["python3", "-u", "-", "a"], "stdin", "-"),
        (["python3", "-Z", "x.py"], "unknown", "-Z"),
    ],
)
def test_python_options_are_read_as_python_reads_them(
    argv: list[str], kind: str, value: str
) -> None:
    entry = python_entry(argv)
    assert (entry.kind, entry.value) == (kind, value)


@pytest.mark.parametrize(
    "options",
    [["-IB"], ["-X", "utf8"], ["-Wignore", "-u"], ["-bb", "-E"], ["-q", "-s", "-P"], ["-OO"]],
)
def test_python_runs_what_python_entry_finds(tmp_path: Any, options: list[str]) -> None:
    """The reading of python's options, checked against python itself: after each set of
    options, the script, the -m module and the -c code python runs are the ones found."""
    python = shutil.which("python3")
    if python is None:
        pytest.skip("python3 is not installed")
    script = tmp_path / "s.py"
    script.write_text("print('SCRIPT-RAN')\n")
    for tail, kind, mark in (
        ([str(script), "-c", "x"], "script", "SCRIPT-RAN"),
        (["-c", "print('CODE-RAN')", "s.py"], "code", "CODE-RAN"),
        (["-mjson.tool", "--help"], "module", "json.tool"),
    ):
        argv = ["python3", *options, *tail]
        done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=tmp_path)
        if done.returncode != 0 and "Unknown option" in done.stderr:
            pytest.skip(f"this python3 does not know {options}")
        assert mark in done.stdout, (argv, done.stdout, done.stderr)
        assert python_entry(argv).kind == kind, argv


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("/usr/lib/python3.11/timeit.py", ("timeit", False)),
        ("/usr/lib/python3.11/http/server.py", ("http.server", False)),
        ("/usr/lib/python3.11/__pycache__/timeit.cpython-311.opt-1.pyc", ("timeit", False)),
        ("/x/lib/python3.12/site-packages/IPython", ("IPython", True)),
        ("/x/lib/python3.12/site-packages/dotenv/__main__.py", ("dotenv", True)),
        ("/home/u/project/src/app.py", None),
    ],
)
def test_a_library_path_is_read_as_its_module(path: str, module: object) -> None:
    assert library_module(path) == module
