"""Red team s35 #1, #2: the shells' start-up files are hook code.

``export NODE_OPTIONS="--require /tmp/x.js"`` appended to ``~/.bashrc`` was allowed; the
next Gemini CLI started from that shell, under ``hookwise run`` too, ran every hook as
/bin/true. Inside a session the start-up files are read-only (made when missing, and
removed after), and ``hookwise run`` refuses an environment carrying a variable that
loads code into the agent (run/start_env.CODE_LOADING), naming it and how to override.
"""

from __future__ import annotations

import subprocess

import pytest

from hookwise.run.guarded_paths import NEUTRAL_BASH_PROFILE
from hookwise.run.start_env import code_loading
from tests.run.conftest import HOOKWISE, World, needs_namespaces

pytestmark = needs_namespaces

LINE = 'export NODE_OPTIONS="--require /tmp/x.js"'


def test_startup_files_are_read_only_inside_and_made_only_for_the_session(world: World) -> None:
    bashrc = world.home / ".bashrc"
    bashrc.write_text("# the person's\n")
    script = (
        f"echo '{LINE}' >> ~/.bashrc; echo rc=$?;"
        " echo 'alias ll=ls -l' >> ~/.bashrc; echo rc=$?;"
        " printf x > ~/.profile; echo rc=$?; printf x > ~/.bash_login; echo rc=$?;"
        " printf x > ~/.bash_profile; echo rc=$?;"
        " echo made > made.txt; echo rc=$?"  # (the project stays writable)
    )
    result = world.run(script)
    assert result.returncode == 0, result.stderr
    codes = [line for line in result.stdout.splitlines() if line.startswith("rc=")]
    assert "rc=0" not in codes[:5], (result.stdout, result.stderr)  # (dash: 2)
    assert result.stderr.count("Read-only file system") == 5, result.stderr
    assert codes[5] == "rc=0"
    assert bashrc.read_text() == "# the person's\n"
    assert (world.project / "made.txt").read_text() == "made\n"
    for name in (".profile", ".bash_login", ".bash_profile"):  # (placeholders removed)
        assert not (world.home / name).exists(), name


def test_a_login_shell_inside_reads_what_it_read_before(world: World) -> None:
    """The ~/.bash_profile made for the session leads bash to ~/.profile, as without it."""
    (world.home / ".profile").write_text("echo PROFILE-READ\n")
    result = world.run("bash -lc 'echo login'")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["PROFILE-READ", "login"], result.stdout
    assert b'. "$HOME/.profile"' in NEUTRAL_BASH_PROFILE


def test_a_node_options_line_from_bashrc_stops_the_start(world: World) -> None:
    """The attack's path: the line is in ~/.bashrc (written before), the person's shell
    reads it, and the agent would be started from that shell."""
    (world.home / ".bashrc").write_text(LINE + "\n")
    result = subprocess.run(
        ["bash", "-ic", f"'{HOOKWISE}' run -- sh -c 'echo started'"],
        capture_output=True,
        text=True,
        env=world.env,
        cwd=world.project,
        timeout=60,
        check=False,
    )
    assert result.returncode == 125, (result.stdout, result.stderr)
    assert "started" not in result.stdout
    assert "NODE_OPTIONS=--require /tmp/x.js" in result.stderr
    assert "env -u NODE_OPTIONS" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("NODE_OPTIONS", "--require /tmp/x.js"),
        ("NODE_OPTIONS", "--import=data:text/javascript,1"),
        ("NODE_OPTIONS", "--max-old-space-size=4096 -r /tmp/x.js"),
        ("NODE_OPTIONS", "--experimental-loader ./l.mjs"),
        ("NODE_OPTIONS", "--inspect=0.0.0.0:9229"),
        ("LD_PRELOAD", "/tmp/x.so"),
        ("LD_AUDIT", "/tmp/x.so"),
        ("BASH_ENV", "/tmp/x.sh"),
        ("PERL5OPT", "-MX"),
        ("RUBYOPT", "-r/tmp/x"),
        ("JAVA_TOOL_OPTIONS", "-javaagent:/tmp/a.jar"),
    ],
)
def test_code_loading_variables_refuse_the_start(world: World, name: str, value: str) -> None:
    result = world.run("echo started", env={**world.env, name: value})
    assert result.returncode == 125, result.stderr
    assert "started" not in result.stdout
    assert f"{name}=" in result.stderr and f"env -u {name}" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("NODE_OPTIONS", "--max-old-space-size=4096"),
        ("NODE_OPTIONS", "--enable-source-maps --no-warnings"),
        ("RUBYOPT", "-W0"),
        ("JAVA_TOOL_OPTIONS", "-Xmx2g -Dfile.encoding=UTF-8"),
        ("PYTHONPATH", "/usr/lib/python3/dist-packages"),
    ],
)
def test_ordinary_values_start(world: World, name: str, value: str) -> None:
    import os

    if name == "PYTHONPATH" and os.access("/usr/lib/python3", os.W_OK) and os.geteuid() != 0:
        pytest.skip("this user can write /usr/lib/python3")
    assert code_loading({name: value}) == []
    result = world.run("echo started", env={**world.env, name: value})
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


def test_a_writable_python_path_is_refused(world: World) -> None:
    found = code_loading({"PYTHONPATH": str(world.outside)})
    assert len(found) == 1 and str(world.outside) in found[0]


def test_the_override_on_the_agents_command_line_starts(world: World) -> None:
    """What the refusal says to do when the person set the variable on purpose."""
    done = subprocess.run(
        [HOOKWISE, "run", "--", "env", "NODE_OPTIONS=--require /tmp/x.js", "sh", "-c",
         'echo "started $NODE_OPTIONS"'],
        cwd=world.project, env=world.env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "started --require /tmp/x.js" in done.stdout
