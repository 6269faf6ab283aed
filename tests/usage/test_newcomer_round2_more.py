"""Issue 26 ("a newcomer's first hour, round 2"), items 5-8 and 10-14, as a user meets them.

A fresh HOME and project (tests/usage/conftest.py), ``hookwise`` run as a real process.
"""

from __future__ import annotations

from pathlib import Path

from tests.usage.conftest import User


def test_hook_on_a_terminal_says_what_it_reads_and_ctrl_c_leaves_quietly(user: User) -> None:
    """Item 8: typed by hand, the hook says what it waits for; Ctrl-C exits 130, no
    traceback, no answer printed."""
    user.run("policy", "init")
    status, out = user.at_terminal("hook", wait_for="reading one JSON event on stdin")
    assert status == 130, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert "Ctrl-D" in out and "decision" not in out


def test_ctrl_c_ends_every_command_with_130(user: User) -> None:
    """Item 8 (and 14: serve): a command waiting on the user ends quietly on Ctrl-C."""
    user.run("policy", "init")
    user.run("hook", "--host", "claude", stdin='{"hook_event_name":"Stop","session_id":"s"}')
    for args, ready in (
        (("logs", "--follow"), "Stop"),
        (("serve", "--port", "0"), "data directory:"),
    ):
        status, out = user.at_terminal(*args, wait_for=ready)
        assert status == 130, (args, out)
        assert "Traceback" not in out and "Aborted" not in out, out


def test_ctrl_c_on_make_run_is_no_error(user: User) -> None:
    """Item 14: `make run` stopped with Ctrl-C reports no error."""
    import shutil
    import sys

    make = shutil.which("make")
    assert make is not None
    repo = str(Path(__file__).resolve().parents[2])
    user.env["HOOKWISE_PORT"] = "0"
    bin_dir = str(Path(sys.executable).parent)
    pid_args = (make, "-C", repo, "run", f"BIN={bin_dir}", "RUN_STAMP=")
    _, out = user.at_program(*pid_args, wait_for="data directory:")
    assert "Error" not in out and "Interrupt" not in out and "Traceback" not in out, out
    assert "Shutting down" in out, out
