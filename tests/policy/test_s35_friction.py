"""Session 35 friction (issue 24): php's ``fopen`` of a named file for writing, pm2.

- ``php -r '$f=fopen("out.txt","w"); fwrite($f,"x");'``: a literal plain path with a
  write mode and two arguments is a write of that file (code_commands: judged as any
  write is), no longer "a call that runs programs". A wrapper (``expect://`` runs a
  command, ``php://filter/resource=F`` writes F), a computed path, a read mode (its
  reads are accounted by the reader) or a third argument (the include path) stay as they
  were; a guard file named is denied.
- ``pm2 start app.js``, ``pm2 logs``: the project's own code run by a process manager.

Blocked twins do their damage in real bash first (php is installed here, else decided
only); the everyday neighbours get through."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.policy.redteam_tree import in_bash, red_place

RED_ROOT = "/tmp/rt35s"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with red_place(tmp_path_factory.mktemp("s35f") / "rt35s", RED_ROOT) as found:
        yield found


_bash = in_bash


EVERYDAY = [
    'php -r \'$f=fopen("out.txt","w"); fwrite($f,"x"); fclose($f);\'',
    "php -r '$f = fopen('\"'\"'build.log'\"'\"', '\"'\"'a'\"'\"'); fwrite($f, \"ok\\n\");'",
    'php -r \'$h=fopen("src/gen.php","w+"); fwrite($h,"<?php");\'',
    "pm2 start app.js",
    "pm2 logs",
    "pm2 start npm --name web -- start",
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_writes_and_process_managers_get_through(
    command: str, place: dict[str, Any]
) -> None:
    answer = place["decided"](command)
    assert answer[0] == "allow", (command, answer)


POLICY = ".hookwise/policy.yaml"
TWINS = [
    f'php -r \'$f=fopen("{POLICY}","w"); fwrite($f,"x");\'',
    f'php -r \'$f=fopen("{POLICY}","a"); fwrite($f,"x");\'',
    f'php -r \'$f=fopen("php://filter/resource={POLICY}","w"); fwrite($f,"x");\'',
    'php -r \'$p=".hook"."wise/policy.yaml"; $f=fopen($p,"w"); fwrite($f,"x");\'',
]


@pytest.mark.parametrize("command", TWINS)
def test_a_write_of_the_policy_stays_stopped(command: str, place: dict[str, Any]) -> None:
    policy = place["root"] / "work" / "proj" / ".hookwise" / "policy.yaml"
    before = policy.read_bytes()
    try:
        if shutil.which("php") is not None:  # (else decided only)
            output = _bash(command, place)
            assert policy.read_bytes() != before, (command, output)
    finally:
        policy.write_bytes(before)
    answer = place["decided"](command)
    assert answer[0] in ("deny", "ask"), (command, answer)


@pytest.mark.parametrize(
    "command",
    ["php -r '$f=fopen(\"expect://rm -rf ../victim\",\"w\");'",
     "php -r '$f=fopen(\"$x\",\"w\");'",
     "php -r '$f=fopen(\"out.txt\",\"w\",true);'"],
)  # fmt: skip
def test_a_wrapper_a_computed_path_or_the_include_path_stays_unverifiable(
    command: str, place: dict[str, Any]
) -> None:
    answer = place["decided"](command)
    assert answer[0] == "ask", (command, answer)


def test_export_of_an_env_files_words_is_not_allowed(place: dict[str, Any]) -> None:
    """Decided (session 35): ``export $(grep -v '^#' .env | xargs)`` stays stopped.
    Unlike ``set -a; . ./.env; set +a`` (allowed: bash reads .env as the project's own
    code, and a later print of its values is caught), the values become export's words
    after field splitting and globbing, so a value can be an option or a pattern of file
    names, and grep's output is .env's secret lines; the spelled-out form is the one to
    use."""
    output = _bash("export $(grep -v '^#' .env | xargs); echo $SECRET_ENV", place)
    assert "s3cr3t" in output
    assert place["decided"]("export $(grep -v '^#' .env | xargs)")[0] in ("deny", "ask")
    assert place["decided"]("set -a; . ./.env; set +a; python3 src/app.py")[0] == "allow"
