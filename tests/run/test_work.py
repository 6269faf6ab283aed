"""Ordinary work goes on inside: files anywhere in the project (its root included), temp and
cache directories, git, interpreters, subprocesses, and the agent's exit status comes out."""

from __future__ import annotations

import signal
import subprocess
import time

from tests.run.conftest import HOOKWISE, World, needs_namespaces

pytestmark = needs_namespaces


def test_project_files_can_be_created_edited_and_deleted(world: World) -> None:
    script = """
set -e
echo one > new-at-root.txt
mkdir -p src/pkg && echo 'print("hi")' > src/pkg/mod.py
echo two >> new-at-root.txt
sed -i 's/one/uno/' new-at-root.txt
mv src/pkg/mod.py src/pkg/main.py
cp new-at-root.txt src/copy.txt
rm src/copy.txt
mkdir -p .github && echo ci > .github/ci.yml
echo DONE
"""
    done = world.run(script)
    assert done.returncode == 0, done.stderr
    assert "DONE" in done.stdout
    assert (world.project / "new-at-root.txt").read_text() == "uno\ntwo\n"
    assert (world.project / "src/pkg/main.py").exists()
    assert not (world.project / "src/copy.txt").exists()
    assert (world.project / ".github/ci.yml").read_text() == "ci\n"


def test_temp_cache_and_home_files_can_be_written(world: World) -> None:
    script = """
set -e
t=$(mktemp) && echo x > "$t" && rm "$t"
mkdir -p "$HOME/.cache/pip" && echo y > "$HOME/.cache/pip/entry"
mkdir -p "$HOME/.config/git" && echo z > "$HOME/.config/git/ignore"
echo w > "$HOME/.claude/todo.json"
echo DONE
"""
    done = world.run(script)
    assert done.returncode == 0, done.stderr
    assert (world.home / ".cache/pip/entry").read_text() == "y\n"
    assert (world.home / ".config/git/ignore").read_text() == "z\n"
    assert (world.home / ".claude/todo.json").read_text() == "w\n"


def test_git_works(world: World) -> None:
    script = """
set -e
echo hello > hello.txt
git add hello.txt
git commit -q -m first
git log --oneline | wc -l
git init -q nested && cd nested && echo n > n.txt && git add n.txt && git commit -q -m n
echo DONE
"""
    done = world.run(script)
    assert done.returncode == 0, done.stderr
    assert "DONE" in done.stdout
    log = subprocess.run(
        ["git", "-C", str(world.project), "log", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert log.stdout.strip() == "first"


def test_interpreters_and_subprocesses_run(world: World) -> None:
    (world.project / "job.py").write_text(
        "import subprocess, sys\n"
        "out = subprocess.run(['sh', '-c', 'echo child $$'], capture_output=True, text=True)\n"
        "print('parent', out.stdout.strip().split()[0])\n"
        "sys.exit(0)\n"
    )
    done = world.run("python3 job.py && (sleep 0.1 & wait) && echo DONE")
    assert done.returncode == 0, done.stderr
    assert "parent child" in done.stdout and "DONE" in done.stdout


def test_the_exit_status_comes_out(world: World) -> None:
    assert world.run("exit 7").returncode == 7
    assert world.run("exit 0").returncode == 0
    assert world.run("kill -TERM $$").returncode == 128 + signal.SIGTERM


def test_a_missing_command_says_so(world: World) -> None:
    done = subprocess.run(
        [HOOKWISE, "run", "--", "no-such-program-here"],
        cwd=world.project,
        env=world.env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 127
    assert "no-such-program-here: command not found" in done.stderr


def test_stdin_and_stdout_pass_through(world: World) -> None:
    done = subprocess.run(
        [HOOKWISE, "run", "--", "tr", "a-z", "A-Z"],
        cwd=world.project,
        env=world.env,
        input="piped text\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "PIPED TEXT\n"


def test_a_signal_sent_to_the_supervisor_reaches_the_agent(world: World) -> None:
    """kill -TERM on the supervisor (outside) is forwarded: the agent's handler runs once."""
    (world.outside / "agent.py").write_text(
        "import signal, sys, time\n"
        "got = []\n"
        "signal.signal(signal.SIGTERM, lambda *a: got.append(1))\n"
        "print('READY', flush=True)\n"
        "deadline = time.time() + 30\n"
        "while not got and time.time() < deadline:\n"
        "    time.sleep(0.01)\n"
        "time.sleep(0.3)\n"
        "print('TERM', len(got), flush=True)\n"
        "sys.exit(3)\n"
    )
    proc = subprocess.Popen(
        [HOOKWISE, "run", "--", "python3", str(world.outside / "agent.py")],
        cwd=world.project,
        env=world.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "READY"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert "TERM 1" in out, err
    assert proc.returncode == 3


def test_placeholders_are_removed_after_the_session(world: World) -> None:
    """The project had no .gemini/ nor .codex/ and its .claude/ had no settings.local.json:
    they existed (read-only) during the session and are gone after it."""
    inside = world.run(
        "test -d .gemini && test -d .codex && test -f .claude/settings.local.json && "
        "cat .claude/settings.local.json"
    )
    assert inside.returncode == 0, inside.stderr
    assert inside.stdout == "{}\n"
    assert not (world.project / ".gemini").exists()
    assert not (world.project / ".codex").exists()
    assert not (world.project / ".claude/settings.local.json").exists()


def test_sessions_side_by_side_keep_each_others_placeholders(world: World) -> None:
    """A session that ends while another binds the same placeholder leaves it in place (the
    other's mount would be lifted); the last one to end removes it."""
    go, up = world.outside / "go", world.outside / "up"
    first = subprocess.Popen(
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
    )
    deadline = time.monotonic() + 30
    while not up.exists():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    second = world.run("echo evil > .gemini/settings.json && echo BROKEN; true")
    assert "BROKEN" not in second.stdout
    assert (world.project / ".gemini").is_dir()  # still bound by the first session
    go.touch()
    assert first.wait(timeout=60) == 0
    assert not (world.project / ".gemini").exists()


def test_the_session_knows_it_is_confined(world: World) -> None:
    probe = (
        "from hookwise.policy.confinement import confinement_status; import os; "
        "print(confinement_status(dict(os.environ)))"
    )
    done = world.run(f"{HOOKWISE.removesuffix('hookwise')}python -c '{probe}'")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("(True, 'confined by `hookwise run` (session ")


def test_hookwise_run_inside_a_session_runs_the_command_in_it(world: World) -> None:
    done = world.run(
        f"{HOOKWISE} run -- sh -c 'echo INNER; touch .hookwise/x && echo BROKEN; true'"
    )
    assert done.returncode == 0, done.stderr
    assert "INNER" in done.stdout and "BROKEN" not in done.stdout
    assert "already confined (session " in done.stderr
