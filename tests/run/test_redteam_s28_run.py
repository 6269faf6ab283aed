"""Red team s28 run (issue 23) inside real sessions: #1's way in (a missing project env file
written from inside a session) and #4 (the session's busy loops against the hooks' CPU)."""

from __future__ import annotations

import subprocess

from tests.run.test_redteam_run import HOOKWISE, Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]


def test_a_missing_project_env_file_cannot_be_made_for_the_next_session(lab: Lab) -> None:
    """s28 #1: ``.gemini/.env`` did not exist at the start, so it was not guarded; a program
    of the session wrote LOCPATH and LC_CTYPE there, and every hook of the next Gemini
    session died before hookwise's first line. Gemini CLI loads ``.gemini/.env`` before
    ``.env`` in each directory: both are made empty and read-only when missing."""
    (lab.proj / ".env").write_text("APP_MODE=dev\n")
    script = (
        "mkdir -p .gemini; "
        "python3 -c \"open('.gemini/.env','w').write('LOCPATH=/tmp/x\\nLC_CTYPE=xx\\n')\" "
        "2>/dev/null && echo WROTE-GEMINI; "
        "ls -la .gemini/.env; cat .gemini/.env | wc -c"
    )
    result = lab.run(script)
    assert "WROTE-GEMINI" not in result.stdout, result.stdout + result.stderr
    assert not (lab.proj / ".gemini" / ".env").exists()  # the placeholder is gone after
    assert (lab.proj / ".env").read_text() == "APP_MODE=dev\n"
    # none at all: the start directory's are made too
    (lab.proj / ".env").unlink()
    result = lab.run("printf 'LC_ALL=xx\\n' > .env 2>/dev/null && echo WROTE-ENV")
    assert "WROTE-ENV" not in result.stdout, result.stdout + result.stderr
    assert not (lab.proj / ".env").exists()


def test_a_project_env_file_setting_the_locale_stops_hookwise_run(lab: Lab) -> None:
    """s28 #1: the locale variables are in guard_env's table, so `hookwise run` refuses a
    project env file that sets them, naming it."""
    (lab.proj / ".env").write_text("LOCPATH=/tmp/x\nLC_CTYPE=xx\n")
    argv = [HOOKWISE, "run", "--", "bash", "-c", "echo AGENT-RAN"]
    refused = subprocess.run(
        argv, cwd=lab.proj, env=lab.env(), capture_output=True, text=True, check=False
    )
    assert "AGENT-RAN" not in refused.stdout and refused.returncode != 0
    assert "sets LC_CTYPE, LOCPATH" in refused.stderr or "LOCPATH" in refused.stderr, refused.stderr
