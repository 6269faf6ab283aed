"""After ``source .env`` on the line (session 30): the project's own code runs with the
file's values without a read of it (``npm run dev``, ``./manage.py migrate``: why the
file is sourced), while what the line hands a value, code or a program hookwise does not
account for is a read. And a copy's source known only when it runs (a loop's variable)
stays unknown in the reading made of the copy. Each leak first prints the planted secret
in real bash; then the hook with every pack must deny or ask."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.policy.test_escapes_s24 import reads_in_bash
from tests.policy.test_unverifiable import packs, verdict

__all__ = ["packs"]  # the module fixture, shared

PROJECT_CODE = [
    "source .env && npm run dev",
    ". ./.env && ./manage.py migrate",
    "set -a; . ./.env; set +a; python3 -m pytest -x -q",
    ". ./.env; python3 manage.py runserver",
    ". ./.env && make test",
    "npx dotenv -e .env -- jest",
    ". ./.env; dir=$HOME/x; npm test",
    "set -a; . ./.env; set +a; bash scripts/deploy.sh staging",
]

LEAKS = [
    ". ./.env; LC_ALL=$SECRET_ENV; :",  # bash: setlocale: cannot change locale (s3cr3t)
    ". ./.env; BASH_XTRACEFD=$SECRET_ENV; :",  # bash: invalid value for trace file descriptor
    ". ./.env; n=${!SECRET_ENV}; :",  # bash: s3cr3t...: invalid indirect expansion
    "set -a; . ./.env; set +a; make -f /dev/null --ev='$(info $(SECRET_ENV))'",
    "set -a; . ./.env; set +a; date +%Z",  # a program that reads TZ=... the file may set
    "set -a; . ./.env; set +a; printenv | grep -i secret",
    "set -a; . ./.env; set +a; python3 -c 'import os; print(os.environ[\"SECRET_ENV\"])'",
    "set -a; . ./.env; set +a; echo 'import os; print(os.environ)' | python3",
    'for f in .env; do cp "$f" x; done; cat x',
    'for f in .e*; do cp "$f" x; done; cat x',
    'for f in .env; do mv "$f" x; done; cat x',
]

# bash's own output for these shows the value only with what the .env in the test sets
SHOWN_ONLY_BY_SETTING = {"set -a; . ./.env; set +a; date +%Z"}


@pytest.mark.parametrize("command", PROJECT_CODE)
def test_the_projects_code_runs_with_the_sourced_values(
    packs: dict[str, Any], command: str
) -> None:
    assert verdict(command, packs) == ("none", ""), command


@pytest.mark.parametrize("command", LEAKS)
def test_what_the_line_hands_a_value_is_a_read(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    if command not in SHOWN_ONLY_BY_SETTING:
        assert reads_in_bash(command, tmp_path), f"bash did not show the value: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


def test_an_assignment_shows_by_name_and_value() -> None:
    from hookwise.shell.commands.env_files import assignment_shows

    assert assignment_shows("LC_ALL", "$X")
    assert assignment_shows("TZ", "$X")
    assert assignment_shows("histchars", "$X")
    assert assignment_shows("n", "$((X + 1))")
    assert assignment_shows("n", "${!X}")
    assert assignment_shows("n", "${X:?}")
    assert assignment_shows("n", "$(cat x)")
    assert not assignment_shows("dir", "$HOME/x")
    assert not assignment_shows("dir", '"${HOME}/x"')
