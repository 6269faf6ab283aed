"""Red team s35 #1, #2 outside ``hookwise run``: a write of a shell's start-up file is
unverifiable (ask), whatever writes it and whatever it holds, naming the file; a line
setting hookwise's own variables stays denied; reading them stays allowed.

The effect, with real bash: a line in ``~/.bashrc`` is in the environment of the next
shell (the one that starts the agent), and, where bash reads it for ``bash -c`` (an
interactive shell; sshd's SSH_SOURCE_BASHRC), an ``exit`` there ends a hook's own shell
before the hook command runs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from hookwise.policy.trust.hook_code import startup_files
from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

LINE = 'export NODE_OPTIONS="--require /tmp/x.js"'


def test_a_bashrc_line_reaches_the_next_shell_and_is_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    home = Path(env["HOME"])
    command = f"echo '{LINE}' >> ~/.bashrc"
    decision, reason = decide(env, command, str(isolated))
    # (a name the guard's runners read: denied, startup_lines; issue 24 s35 B)
    assert decision == "deny", reason
    assert f"{home}/.bashrc" in reason and "start-up file" in reason, reason
    # what the write does: the next (interactive) shell carries it to what it starts
    subprocess.run(["bash", "-c", command], env=env, check=True)
    out = subprocess.run(
        ["bash", "-ic", 'echo "$NODE_OPTIONS"'],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    ).stdout
    assert out.strip() == "--require /tmp/x.js"


@pytest.mark.parametrize(
    ("command", "name"),
    [
        # (an alias over a program name; `alias ll='ls -l'` is harmless: startup_lines)
        ("echo 'alias ls=\"rm -i\"' >> ~/.bashrc", ".bashrc"),
        (
            "printf '%s\\n' 'case $BASH_EXECUTION_STRING in *ookwis*) exit 0;; esac' >> ~/.bashrc",
            ".bashrc",
        ),
        ("cat /tmp/x | tee -a ~/.profile", ".profile"),
        ("cp /tmp/x ~/.bash_profile", ".bash_profile"),
        ("ln -sf /tmp/x ~/.bash_login", ".bash_login"),
        ("sed -i '$a exit 0' ~/.bashrc", ".bashrc"),
        ("cd ~ && echo x >> .zshenv", ".zshenv"),
        ("f=$HOME/.zshrc; echo x >> $f", ".zshrc"),
        ("mkdir -p ~/.config/fish/conf.d && echo x > ~/.config/fish/conf.d/a.fish", "a.fish"),
        ("dd of=$HOME/.profile conv=notrunc < /tmp/x", ".profile"),
        ("mv /tmp/x ~/.bashrc", ".bashrc"),
    ],
)
def test_writes_of_startup_files_are_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
    name: str,
) -> None:
    decision, reason = decide(env, command, str(isolated))
    assert decision == "ask", (command, reason)
    assert name in reason and "start-up file" in reason, reason


def test_a_file_named_by_bash_env_is_a_startup_file(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    named = isolated / "env.sh"
    decision, reason = decide({**env, "BASH_ENV": str(named)}, f"echo x >> {named}", str(isolated))
    assert decision == "ask" and "BASH_ENV" in reason, reason
    assert any(p == str(named) for p, _why, _e in startup_files({"BASH_ENV": str(named)}))


def test_hookwise_variables_into_a_startup_file_stay_denied(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    decision, _reason = decide(
        env, "echo 'export HOOKWISE_ON_ERROR=allow' >> ~/.bashrc", str(isolated)
    )
    assert decision == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.bashrc",
        "grep alias ~/.bashrc",
        "source ~/.bashrc",
        ". ~/.profile && echo ok",
        "cp ~/.bashrc /tmp/bashrc.backup",
        "echo x > ~/.bashrc.bak",
        "diff ~/.zshrc /tmp/zshrc",
        "echo x > notes/.bashrc-tips.md",
    ],
)
def test_reading_startup_files_stays_allowed(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    (isolated / "notes").mkdir(exist_ok=True)
    assert decide(env, command, str(isolated))[0] is None, command


def test_the_system_files_are_listed_only_where_this_user_can_change_them() -> None:
    listed = {p for p, _why, _e in startup_files({"HOME": "/nonexistent"})}
    assert ("/etc/profile" in listed) == os.access("/etc", os.W_OK)
