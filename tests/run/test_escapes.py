"""The ways around the read-only binds rather than through them: moving a parent away,
a second name made earlier, a descriptor opened outside, a symlink on the way, the terminal.
"""

from __future__ import annotations

import os
import pty
import select
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.run.conftest import HOOKWISE, World, needs_namespaces

pytestmark = needs_namespaces

ANCESTORS = [
    ("home", "home/.config/hookwise/policy.yaml"),
    ("home/.config", "home/.config/hookwise/policy.yaml"),
    ("home/.local", "home/.local/share/hookwise/hook"),
    ("home/.local/share", "home/.local/share/hookwise/hook"),
    ("home/.local/state", "home/.local/state/hookwise/audit.jsonl"),
    ("home/.cache", "home/.cache/hookwise/rules-0123.cache"),
    ("home/.claude", "home/.claude/settings.json"),
    ("home/.gemini", "home/.gemini/trustedFolders.json"),
    ("home/.codex", "home/.codex/config.toml"),
    ("project", "project/.hookwise/policy.yaml"),
    ("project/.claude", "project/.claude/settings.json"),
    ("", "home/.config/hookwise/policy.yaml"),  # the test's own directory, above both
]


@pytest.mark.parametrize(("ancestor", "target"), ANCESTORS)
def test_a_parent_cannot_be_moved_away_and_replaced(
    world: World, ancestor: str, target: str
) -> None:
    before = world.snapshot()
    moved = world.root / ancestor
    goal = world.root / target
    script = (
        f"echo SESSION; mv '{moved}' '{moved}.moved' && echo MOVED; "
        f"mkdir -p '{goal.parent}' && echo 'version: 1' > '{goal}' && echo BROKEN; "
        f"rm -rf '{moved}' && echo REMOVED; true"
    )
    done = world.run(script)
    assert "SESSION" in done.stdout, done.stderr
    assert "MOVED" not in done.stdout and "BROKEN" not in done.stdout, done.stdout
    assert "REMOVED" not in done.stdout, done.stdout
    assert world.snapshot() == before


def test_a_hard_link_made_before_reaches_only_the_old_file(world: World) -> None:
    """The trust store linked from a scratch directory before the session: the guarded
    name gets an inode of its own, so writing the other name leaves it as it was."""
    link = world.outside / "trust-link.json"
    os.link(world.trust, link)
    original = world.trust.read_bytes()
    done = world.run(f"echo SESSION; echo '{{\"evil\": 1}}' > '{link}' && echo WROTE-LINK; true")
    assert "SESSION" in done.stdout and "WROTE-LINK" in done.stdout, done.stderr
    assert world.trust.read_bytes() == original
    assert world.trust.stat().st_nlink == 1
    assert f"{world.trust} had 2 hard links" in done.stderr


def test_a_hard_linked_code_file_is_refused(world: World) -> None:
    """The launcher's hookwise (a package with a file linked from elsewhere, as uv's cache
    links them): hookwise run names the file and how to reinstall, and starts nothing."""
    package = world.root / "site/hookwise"
    (package / "policy").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "policy/run_hook.py").write_text("print('hook')\n")
    os.link(package / "policy/run_hook.py", world.outside / "cache-copy.py")
    world.launcher.write_text(
        f"#!/usr/bin/python3 -IS\nimport sys\nsys.path[0] = '{package}/policy'\n"
    )
    done = world.run("echo STARTED")
    assert done.returncode == 125
    assert "STARTED" not in done.stdout
    assert str(package / "policy/run_hook.py") in done.stderr
    assert "UV_LINK_MODE=copy" in done.stderr


def test_a_descriptor_opened_outside_is_closed_inside(world: World) -> None:
    fd = os.open(world.project_policy, os.O_RDWR)
    try:
        before = world.snapshot()
        script = (
            "echo SESSION; python3 -c \"import os; os.ftruncate(int(os.environ['FD']), 0)\" "
            "&& echo BROKEN; ls -l /proc/self/fd/ | grep -c policy; true"
        )
        done = world.run(script, pass_fds=(fd,), env={**world.env, "FD": str(fd)})
    finally:
        os.close(fd)
    assert "SESSION" in done.stdout and "BROKEN" not in done.stdout, done.stderr
    assert "Bad file descriptor" in done.stderr
    assert world.snapshot() == before


@pytest.mark.parametrize("stream", ["stdout", "stdin"])
def test_a_guarded_file_as_a_standard_stream_is_refused(world: World, stream: str) -> None:
    before = world.snapshot()
    with open(world.project_policy, "r+b") as handle:
        if stream == "stdout":
            done = world.run(
                "echo STARTED", stdout=handle, stderr=subprocess.PIPE, capture_output=False
            )
        else:
            done = world.run("echo STARTED", stdin=handle)
    assert done.returncode == 125
    assert f"is open on the guarded file {world.project_policy}" in done.stderr
    assert world.snapshot() == before


def test_a_directory_as_a_standard_stream_is_refused(world: World) -> None:
    """``openat(1, ".hookwise/policy.yaml")`` would walk the tree as it is outside. (Python
    refuses to start with a directory as a standard stream; a caller embedding hookwise can
    still put one there, as this one does.)"""
    script = (
        "import os, sys\n"
        "from hookwise.cli.run_cmd import main\n"
        f"fd = os.open({str(world.project)!r}, os.O_RDONLY | os.O_DIRECTORY)\n"
        "os.dup2(fd, 1)\n"
        "sys.exit(main(['--', 'sh', '-c', 'echo STARTED >&2']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=world.project,
        env=world.env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 125, done.stderr
    assert "STARTED" not in done.stderr
    assert f"descriptor 1 is the directory {world.project}" in done.stderr


def test_a_symlinked_settings_file_and_its_target_are_both_guarded(world: World) -> None:
    """~/.claude/settings.json kept in a dotfiles repository: the link cannot be replaced,
    the file it points to cannot be written by either name, its directory cannot move."""
    dotfiles = world.home / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "claude.json"
    target.write_bytes(world.claude_user.read_bytes())
    world.claude_user.unlink()
    world.claude_user.symlink_to(target)
    config = world.home / ".config"
    (dotfiles / "config").mkdir()
    (config / "hookwise").rename(dotfiles / "config/hookwise")
    config.rmdir()
    config.symlink_to(dotfiles / "config")  # a symlinked ancestor of the user policy
    before = world.snapshot() | {str(target): target.read_text()}
    script = (
        "echo SESSION; "
        f"echo '{{}}' > '{world.claude_user}' && echo BROKEN1; "
        f"echo '{{}}' > '{target}' && echo BROKEN2; "
        f"ln -sfn /tmp '{world.claude_user}' && echo BROKEN3; "
        f"mv '{dotfiles}' '{dotfiles}.x' && echo BROKEN4; "
        f"rm '{config}' && echo BROKEN5; "
        f"echo 'version: 1' > '{config}/hookwise/policy.yaml' && echo BROKEN6; true"
    )
    done = world.run(script)
    assert "SESSION" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
    assert (world.snapshot() | {str(target): target.read_text()}) == before


def test_the_terminal_cannot_be_fed_input(world: World) -> None:
    """TIOCSTI would type a command into the shell that reads the terminal after the
    session; the seccomp filter fails it (unconfined, the same call works here)."""
    probe = (
        "import fcntl, termios, sys\n"
        "try:\n"
        "    fcntl.ioctl(0, termios.TIOCSTI, b'#')\n"
        "    print('INJECTED')\n"
        "except OSError as exc:\n"
        "    print('REFUSED', exc.errno)\n"
    )
    (world.outside / "probe.py").write_text(probe)
    outside = _in_pty(["python3", str(world.outside / "probe.py")], world)
    inside = _in_pty([HOOKWISE, "run", "--", "python3", str(world.outside / "probe.py")], world)
    legacy = Path("/proc/sys/dev/tty/legacy_tiocsti")
    if legacy.exists() and legacy.read_text().strip() == "1":
        assert "INJECTED" in outside, outside
    assert "REFUSED 1" in inside, inside


def _in_pty(argv: list[str], world: World) -> str:
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(world.project)
        os.execve(shutil.which(argv[0], path=world.env["PATH"]) or argv[0], argv, world.env)
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif os.waitpid(pid, os.WNOHANG)[0]:
            break
    os.close(master)
    os.waitpid(pid, 0)
    return output.decode("utf-8", "replace")


def test_killing_the_supervisor_ends_the_agent(world: World) -> None:
    """SIGKILL to the supervisor (outside): the parent-death signals end the builder, pid 1
    and with it every process of the session; nothing confined outlives the audit sink. The
    next session to end removes what the killed one left (its socket, its placeholders)."""
    marker = world.outside / "alive"
    proc = subprocess.Popen(
        [HOOKWISE, "run", "--", "sh", "-c", f"echo $HOOKWISE_RUN_AUDIT > '{marker}'; sleep 60"],
        cwd=world.project,
        env=world.env,
    )
    deadline = time.monotonic() + 30
    while not marker.exists() or not marker.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    socket = Path(marker.read_text().strip())
    assert _processes_with(f"{marker}"), "the confined shell is not visible from outside"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while _processes_with(f"{marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(f"{marker}") == []
    assert socket.exists() and (world.project / ".gemini").is_dir()  # left behind
    assert world.run("true").returncode == 0
    assert not socket.exists()
    assert not (world.project / ".gemini").exists()


def _processes_with(text: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if text.encode() in cmdline and b"hookwise" not in cmdline:
            found.append(int(name))
    return found


def test_a_guarded_file_replaced_from_outside_is_reported(world: World) -> None:
    """An unconfined process's atomic save lifts the bind (the kernel detaches mounts from a
    name replaced in another namespace): the session cannot prevent it, so it says so."""
    go, up = world.outside / "go", world.outside / "up"
    proc = subprocess.Popen(
        [
            HOOKWISE,
            "run",
            "--",
            "sh",
            "-c",
            f"touch '{up}'; while [ ! -e '{go}' ]; do sleep 0.02; done",
        ],
        cwd=world.project,
        env=world.env,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not up.exists():  # the agent runs
        assert time.monotonic() < deadline
        time.sleep(0.02)
    fresh = world.outside / "settings.json"
    fresh.write_text("{}\n")
    os.replace(fresh, world.claude_user)
    go.touch()
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert f"{world.claude_user} was replaced from outside during the session" in err


def test_an_interactive_agent_gets_ctrl_c_once(world: World) -> None:
    """In a terminal the agent is in the foreground process group: Ctrl-C reaches it from
    the terminal, and the supervisor does not forward it a second time."""
    agent = world.outside / "agent.py"
    agent.write_text(
        "import signal, sys, time\n"
        "got = []\n"
        "signal.signal(signal.SIGINT, lambda *a: got.append(1))\n"
        "print('READY', flush=True)\n"
        "deadline = time.time() + 20\n"
        "while not got and time.time() < deadline:\n"
        "    time.sleep(0.01)\n"
        "time.sleep(0.5)\n"
        "print('INTS', len(got), flush=True)\n"
    )
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(world.project)
        os.execve(HOOKWISE, [HOOKWISE, "run", "--", "python3", str(agent)], world.env)
    output = b""
    sent = False
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and b"INTS" not in output:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                output += os.read(master, 4096)
            except OSError:
                break
        if b"READY" in output and not sent:
            os.write(master, b"\x03")
            sent = True
    os.close(master)
    _pid, status = os.waitpid(pid, 0)
    assert b"INTS 1" in output, output
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="no tmux")
def test_a_tmux_server_outside_cannot_be_asked_to_run_a_command(world: World) -> None:
    """tmux's server runs outside the session: `tmux run-shell` from inside would run the
    command unconfined. Its socket directory is hidden."""
    env = {**world.env, "TMUX_TMPDIR": str(world.outside)}
    subprocess.run(["tmux", "-L", "hw", "new-session", "-d", "sleep 60"], env=env, check=True)
    try:
        escaped = world.outside / "escaped"
        done = world.run(
            f"echo SESSION; tmux -L hw run-shell 'touch {escaped}' && echo BROKEN; "
            f'ls "$TMUX_TMPDIR/tmux-$(id -u)"; true',
            env=env,
        )
        assert "SESSION" in done.stdout, done.stderr
        assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
        assert not escaped.exists()
        outside = subprocess.run(
            ["tmux", "-L", "hw", "run-shell", f"touch {escaped}"], env=env, check=False
        )
        assert outside.returncode == 0 and escaped.exists()  # the same request from outside works
    finally:
        subprocess.run(["tmux", "-L", "hw", "kill-server"], env=env, check=False)


def test_a_lease_on_a_file_the_session_owns_is_refused(world: World) -> None:
    """fcntl F_SETLEASE on hookwise's launcher (read-only inside, owned by the session's
    uid) would hold every open of it, a hook's among them, past the host's timeout (red team
    s31 run #1): refused, on a guarded file and on a file of the project alike."""
    launcher = world.launcher
    code = (
        "import fcntl, os, sys\n"
        "for name in sys.argv[1:]:\n"
        "    fd = os.open(name, os.O_RDONLY)\n"
        "    try:\n"
        "        fcntl.fcntl(fd, 1024, fcntl.F_RDLCK)\n"
        "        print('LEASED', name)\n"
        "    except OSError as exc:\n"
        "        print('REFUSED', exc.errno, name)\n"
    )
    scratch = world.project / "notes.txt"
    scratch.write_text("x\n")
    done = world.run(
        f"echo SESSION; {sys.executable} -c {shlex.quote(code)} '{launcher}' '{scratch}'"
    )
    assert "SESSION" in done.stdout, done.stderr
    assert f"REFUSED 1 {launcher}" in done.stdout, done.stdout + done.stderr
    assert f"REFUSED 1 {scratch}" in done.stdout, done.stdout + done.stderr
