"""confinement_status: true inside, false outside even when the variables are forged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hookwise.policy.confinement import config_dir, confinement_status
from hookwise.policy.trust.scopes import trust_store_path
from tests.run.conftest import needs_namespaces


def test_outside_without_the_variables() -> None:
    confined, why = confinement_status({"HOME": "/home/x"})
    assert not confined
    assert "HOOKWISE_RUN" in why


def test_forged_variables_do_not_make_a_session(tmp_path: Path) -> None:
    session = "0123456789abcdef"
    directory = tmp_path / "hookwise-run-0"
    directory.mkdir()
    env = {
        "HOME": str(tmp_path),
        "HOOKWISE_RUN": session,
        "HOOKWISE_RUN_AUDIT": str(directory / f"{session}.sock"),
    }
    confined, why = confinement_status(env)
    assert not confined
    assert why == f"the session directory {directory} is writable here"
    confined, why = confinement_status({**env, "HOOKWISE_RUN": "another"})
    assert not confined
    assert "does not name the socket of session another" in why
    elsewhere = {**env, "HOOKWISE_RUN_AUDIT": str(tmp_path / f"{session}.sock")}
    assert "does not name the socket" in confinement_status(elsewhere)[1]
    missing = {**env, "HOOKWISE_RUN_AUDIT": str(tmp_path / f"hookwise-run-x/{session}.sock")}
    assert confinement_status(missing) == (
        False,
        f"the session directory {tmp_path / 'hookwise-run-x'} does not exist here",
    )


PROBE = """
import os, sys
from hookwise.run import libc
from hookwise.policy.confinement import confinement_status
libc.mount(None, "/", None, libc.MS_REC | libc.MS_PRIVATE)
for path in sys.argv[1:]:
    libc.mount(path, path, None, libc.MS_BIND | libc.MS_REC)
    libc.make_readonly(path, True)
print(confinement_status(dict(os.environ)))
"""


@needs_namespaces
def test_both_the_session_directory_and_the_configuration_must_be_read_only(
    tmp_path: Path,
) -> None:
    """What a forger would need: a read-only session directory (a mount namespace of its
    own gives that) is not enough while hookwise's configuration is writable; with both
    read-only, the guard's files are out of reach, which is what "confined" means."""
    session = "0123456789abcdef"
    directory = tmp_path / "hookwise-run-0"
    directory.mkdir()
    config = tmp_path / ".config/hookwise"
    config.mkdir(parents=True)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "HOOKWISE_RUN": session,
        "HOOKWISE_RUN_AUDIT": str(directory / f"{session}.sock"),
    }

    def probe(*paths: Path) -> str:
        done = subprocess.run(
            ["unshare", "-Urm", sys.executable, "-c", PROBE, *map(str, paths)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    assert probe(directory) == f'(False, "hookwise\'s configuration {config} is writable here")'
    assert probe(directory, config) == f"(True, 'confined by `hookwise run` (session {session})')"


def test_the_configuration_directory_is_the_trust_stores() -> None:
    for env in (
        {"HOME": "/home/u"},
        {"HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"},
        {"HOME": "/home/u/", "XDG_CONFIG_HOME": "/cfg/"},
    ):
        assert config_dir(env) == os.path.dirname(trust_store_path(env))
