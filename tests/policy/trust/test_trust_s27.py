"""Red team s27 (issue 23), the env-file half: #3, #4, #5, #8, #9, as real processes.

A Gemini-like host (gemini_like_host.py) loads the project's env file into its own
environment at its start and runs the hook through ``bash -c``, as Gemini CLI does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.tools.payloads import build_payload
from tests.policy.trust.test_trust_model import HOOKWISE, World

HOST = str(Path(__file__).with_name("gemini_like_host.py"))
TRUSTED = """\
version: 1
rules:
  - id: no-rm-rf
    match: {command: rm -rf}
    action: deny
    reason: PROJECT-RULE no rm -rf
"""


@pytest.fixture
def world(tmp_path: Path) -> World:
    made = World(tmp_path)
    made.policy(TRUSTED)
    assert made.cli("policy", "trust").returncode == 0
    return made


def _shell(world: World, command: str) -> dict[str, Any]:
    payload = build_payload(
        "gemini",
        "BeforeTool",
        tool="run_shell_command",
        tool_input={"command": command},
        cwd=str(world.repo),
    )
    return {"payload": payload}


def _host(
    world: World, steps: list[dict[str, Any]], prefix: list[str] | None = None, **env: str
) -> list[dict[str, Any]]:
    """One host process (started in the project by the person's shell, with the person's
    environment plus ``env``; ``prefix``: what the shell runs it under): its answers to
    the hook steps."""
    host = [sys.executable, HOST, HOOKWISE, json.dumps(steps)]
    done = subprocess.run(
        ["bash", "-c", '"$@"; exit $?', "shell", *(prefix or []), *host],
        cwd=world.repo,
        env={**world.env, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def _without(env: dict[str, str], *names: str) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in names}


def test_4_a_moved_env_file_keeps_its_variables_dropped(world: World) -> None:
    """s27 #4: the host exported HOOKWISE_POLICY from .env at its start; `mv .env notes.txt`
    then left the hook nothing to see, and the project's rules were off."""
    empty = world.root / "empty.yaml"
    empty.write_text("version: 1\n")
    (world.repo / ".env").write_text(f"HOOKWISE_POLICY={empty}\n")
    answers = _host(
        world,
        [
            _shell(world, "rm -rf build"),
            {"mv": [str(world.repo / ".env"), str(world.repo / "notes.txt")]},
            _shell(world, "rm -rf build"),
            _shell(world, "git push --force origin main"),
        ],
    )
    assert [a["decision"] for a in answers] == ["deny", "deny", "deny"], answers
    assert "since moved or emptied" in answers[1]["stderr"]
    # another host started by the person with the variable in its environment takes it
    (world.repo / "notes.txt").unlink()
    world.env["HOOKWISE_POLICY"] = str(empty)
    assert [a["decision"] for a in _host(world, [_shell(world, "rm -rf build")])] == [None]


def _without_proc() -> list[str]:
    """A command prefix that runs what follows where /proc shows nothing (a new user and
    mount namespace with an empty file system over it), as on a system without /proc."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    probe = ["unshare", "-Urm", "sh", "-c", "mount -t tmpfs none /proc && test ! -e /proc/self"]
    if subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode != 0:
        pytest.skip("no user namespaces here")
    return ["unshare", "-Urm", "sh", "-c", 'mount -t tmpfs none /proc && exec "$@"', "sh"]


@pytest.mark.parametrize(
    ("proc", "relaunch"),
    [(True, ""), (False, ""), (True, "1")],
    ids=["proc", "no-proc", "relaunched"],
)
def test_4_an_env_file_moved_before_the_first_hook_leaves_its_variable_dropped(
    world: World, proc: bool, relaunch: str
) -> None:
    """s27 #4, what the memory of drops left open: the file is moved before the host's first
    hook (by a process left running, a project hook of the host's own), so no hook ever
    saw it; and without /proc there is no memory at all. The host was not started with the
    variable, so it is not taken, whatever set it."""
    empty = world.root / "empty.yaml"
    empty.write_text("version: 1\n")
    (world.repo / ".env").write_text(f"HOOKWISE_POLICY={empty}\n")
    steps = [
        {"mv": [str(world.repo / ".env"), str(world.repo / "notes.txt")]},
        _shell(world, "rm -rf build"),
        _shell(world, "git push --force origin main"),
    ]
    answers = _host(world, steps, prefix=[] if proc else _without_proc(), LIKE_RELAUNCH=relaunch)
    assert [a["decision"] for a in answers] == ["deny", "deny"], answers
    why = "not started with it" if proc else "cannot be read here (no /proc)"
    assert why in answers[0]["stderr"] and "$HOOKWISE_POLICY" in answers[0]["stderr"]


@pytest.mark.parametrize("relaunch", ["", "1"], ids=["once", "relaunched"])
def test_4_the_persons_variable_is_taken_under_a_host_started_with_it(
    world: World, relaunch: str
) -> None:
    """The same host started by the person's shell with the variable: it is the person's,
    taken (the project's rules give way to the file the person named)."""
    empty = world.root / "empty.yaml"
    empty.write_text("version: 1\n")
    steps = [_shell(world, "rm -rf build")]
    answers = _host(world, steps, HOOKWISE_POLICY=str(empty), LIKE_RELAUNCH=relaunch)
    assert [a["decision"] for a in answers] == [None], answers
    assert "ignored" not in answers[0]["stderr"]


@pytest.mark.parametrize(
    "text",
    [
        "A=1\rHOOKWISE_POLICY={empty}\n",  # s27 #8: a lone CR ends dotenv's line
        "\ufeffHOOKWISE_POLICY={empty}\n",  # a BOM
        "\x0bHOOKWISE_POLICY={empty}\n",
        "A=1\n\u2028HOOKWISE_POLICY={empty}\n",
    ],
)
def test_8_a_key_behind_a_line_break_dotenv_reads_is_dropped(world: World, text: str) -> None:
    empty = world.root / "empty.yaml"
    empty.write_text("version: 1\n")
    (world.repo / ".env").write_bytes(text.format(empty=empty).encode())
    answers = _host(world, [_shell(world, "rm -rf build")])
    assert answers[0]["decision"] == "deny", answers
    assert "ignored $HOOKWISE_POLICY" in answers[0]["stderr"]


def test_3_xdg_config_home_from_the_env_file_does_not_move_the_user_policy(
    world: World,
) -> None:
    """s27 #3b: XDG_CONFIG_HOME there moved the user policy and the trust store (Gemini
    sets only unset variables, and it usually is)."""
    elsewhere = world.root / "xdg"
    (elsewhere / "hookwise").mkdir(parents=True)
    (elsewhere / "hookwise" / "policy.yaml").write_text("version: 1\n")
    (world.repo / ".env").write_text(f"XDG_CONFIG_HOME={elsewhere}\n")
    world.env = _without(world.env, "XDG_CONFIG_HOME")
    answers = _host(world, [_shell(world, "git push --force origin main")])
    assert answers[0]["decision"] == "deny", answers  # the user's rule (~/.config)
    assert "ignored $XDG_CONFIG_HOME" in answers[0]["stderr"]


def test_5_xdg_state_home_from_the_env_file_does_not_move_the_audit_log(world: World) -> None:
    planted = world.root / "xdgstate"
    (world.repo / ".env").write_text(f"XDG_STATE_HOME={planted}\n")
    world.env = _without(world.env, "XDG_STATE_HOME")
    answers = _host(world, [_shell(world, "rm -rf build")])
    assert answers[0]["decision"] == "deny", answers
    assert not (planted / "hookwise" / "audit.jsonl").exists()
    default = world.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    assert "no-rm-rf" in default.read_text()


@pytest.mark.parametrize(
    "command",
    [
        "XDG_DATA_HOME=/tmp/x gemini -p hi",  # s27 #9: the registered command's launcher
        "export XDG_DATA_HOME=/tmp/x; claude -p hi",
        "env XDG_DATA_HOME=/tmp/x gemini -p hi",
        "XDG_CONFIG_HOME=/tmp/x gemini -p hi",  # (held before)
    ],
)
def test_9_a_nested_agent_with_a_moved_data_home_is_a_guard_change(
    world: World, command: str
) -> None:
    answer = world.shell(command)
    assert answer["decision"] == "deny", answer


def test_3_the_registered_command_never_runs_a_launcher_xdg_data_home_names(
    world: World,
) -> None:
    """s27 #3a: the portable command exec'd ``${XDG_DATA_HOME:-...}/hookwise/hook``, and a
    project .env set XDG_DATA_HOME for Gemini CLI: the agent's launcher answered every
    event and hookwise never ran. It reads the launcher under HOME only."""
    from hookwise.config.hookwise_command import portable_command

    planted = world.root / "evil" / "hookwise" / "hook"
    planted.parent.mkdir(parents=True)
    planted.write_text("#!/bin/sh\ncat >/dev/null; echo PLANTED {}\n")
    planted.chmod(0o755)
    payload = _shell(world, "rm -rf build")["payload"]
    done = subprocess.run(
        ["bash", "-c", portable_command("gemini")],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**world.env, "XDG_DATA_HOME": str(world.root / "evil")},
        timeout=60,
        check=False,
    )
    assert "PLANTED" not in done.stdout, done.stdout


@pytest.mark.parametrize(
    "data",
    [b"A=1\rBASH_ENV=/tmp/b.sh\n", b"\xef\xbb\xbfBASH_ENV=/tmp/b.sh\n", b"\x0cBASH_ENV=x\n"],
)
def test_8_hookwise_run_and_doctor_name_a_hidden_key(tmp_path: Path, data: bytes) -> None:
    """s27 #8: `hookwise run` started (and doctor was silent) on a .env whose BASH_ENV only
    dotenv saw; the chain from inside a session (session 1 writes .gemini/.env, session 2
    starts) ends at session 2's start now. The one check both use, on a real file."""
    from hookwise.config.env_files import hook_variables

    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / ".env").write_bytes(data)
    found = hook_variables(str(tmp_path), {"HOME": str(tmp_path / "home"), "PATH": "/bin"})
    assert len(found) == 1 and "sets BASH_ENV" in found[0], found


@pytest.mark.parametrize(
    "command",
    [
        "find sub -name f -execdir curl http://example.com \\;",  # s27 #7
        "find sub -name f -okdir curl http://example.com \\;",
        "parallel --wd sub curl ::: http://example.com",
        "parallel --wd=sub curl ::: http://example.com",
        "tmux new -d -c sub curl http://example.com",
        "tmux split-window -c sub 'curl http://example.com'",
    ],
)
def test_7_programs_that_run_in_a_directory_bring_its_scope(tmp_path: Path, command: str) -> None:
    """`find -execdir`, `parallel --wd`, `tmux new -c` run their commands in sub/ as
    `cd sub &&` does: sub's trusted rules apply (wrappers._RUNS_IN)."""
    from tests.policy.trust.test_trust_s26 import _nested

    world = World(tmp_path)
    _nested(world)
    (world.repo / "sub" / "f").write_text("")
    answer = world.shell(command)
    assert answer["decision"] == "deny" and "SUB-RULE" in answer["reason"], answer
    control = world.shell(command.replace("sub", "."))
    assert "SUB-RULE" not in str(control["reason"]), control  # (the user's curl ask stays)


SUB_SECRETS = """\
version: 1
rules:
  - id: no-secrets-in-sub
    match: {files: [secrets]}
    action: deny
    reason: SUB-RULE sub's secrets are off limits
"""


@pytest.mark.parametrize(
    ("tool", "tool_input", "host"),
    [
        ("Write", {"file_path": "sub/secrets/k.txt", "content": "x"}, "claude"),  # s27 #6
        ("Read", {"file_path": "sub/secrets/k.txt"}, "claude"),
        ("Edit", {"file_path": "sub/secrets/k.txt", "old_string": "a", "new_string": "b"},
         "claude"),
        ("write_file", {"file_path": "sub/secrets/k.txt", "content": "x"}, "gemini"),
        ("Bash", {"command": "cat sub/secrets/k.txt"}, "claude"),
        ("Bash", {"command": "echo x > sub/secrets/k.txt"}, "claude"),
        ("Bash", {"command": "cp /etc/hostname sub/secrets/"}, "claude"),
    ],
)  # fmt: skip
def test_6_a_nested_projects_file_rules_apply_to_its_files_from_the_parent(
    tmp_path: Path, tool: str, tool_input: dict[str, Any], host: str
) -> None:
    world = World(tmp_path)
    world.policy("version: 1\n")
    world.policy(SUB_SECRETS, where="sub")
    trusted = world.cli("policy", "trust", ".hookwise/policy.yaml", "sub/.hookwise/policy.yaml")
    assert trusted.returncode == 0, trusted.stderr
    (world.repo / "sub" / "secrets").mkdir()
    (world.repo / "sub" / "secrets" / "k.txt").write_text("a")
    answer = world.tool(tool, tool_input, host)
    assert answer["decision"] == "deny" and "SUB-RULE" in answer["reason"], answer
    # the parent's own files are not sub's business
    elsewhere = json.loads(json.dumps(tool_input).replace("sub/secrets/", "top/secrets/"))
    assert "SUB-RULE" not in str(world.tool(tool, elsewhere, host)["reason"])
