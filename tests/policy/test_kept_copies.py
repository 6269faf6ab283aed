"""Session 29 (issue 24): a copy, move or link whose every new name the rule that guards
the source guards too exposes nothing (policy/rules/kept.py), so everyday renames of a
secret pass: ``mv .env .env.bak``, ``cp .env .env.local``, ``ln -s ../.env .env`` in a
subdirectory, ``cp .env.example .env`` under a ``.env*`` rule. Each is run in real bash
after the hook's answer, and the secret is found only under a name the rule guards.

Where a new name is one another program reads out, the copy stays a read: an existing
FIFO, a symbolic link, a file with another hard link, a directory another command of the
line reads, a name git would add. Each of those is performed in real bash, where it puts
the secret under a name no rule guards (or prints it), after the hook denied it."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.tools.starter import starter_policy
from tests.policy.conftest import compile_text

MARK = "KEPT-S29-7f3a"
DOT_ENV_STAR = """\
version: 1
rules:
  - id: env-files
    match:
      command: {reads: true}
      files: {globs: [".env*"]}
    action: deny
    reason: env files hold secrets
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project holding a secret .env (ignored with its variants, as a Node or
    Python .gitignore does), a public .env.example, and a subdirectory."""
    root = tmp_path / "proj"
    (root / "sub").mkdir(parents=True)
    (root / ".env").write_text(f"TOKEN={MARK}\n")
    (root / ".env.example").write_text("TOKEN=\n")
    (root / ".gitignore").write_text(".env\n.env.*\n")
    (root / "README").write_text("hi\n")
    env = _env(tmp_path)
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True, capture_output=True)
    return root


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {"PATH": os.environ["PATH"], "HOME": str(home), "GIT_AUTHOR_NAME": "a",
            "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a",
            "GIT_COMMITTER_EMAIL": "a@x"}  # fmt: skip


def _policy(text: str | None, home: str) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", home)  # (the packs' ~ globs read the home at compile time)
        return compile_text(text if text is not None else starter_policy(["all"]))


def _decision(command: str, project: Path, text: str | None = None) -> tuple[str, str]:
    home = str(project.parent / "home")
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=str(project)
    )
    found = decide(payload, _policy(text, home), "claude", {"HOME": home}, now=0.0).decision
    assert found is not None
    return found.decision or "none", found.reason


def _bash(command: str, project: Path) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=project, env=_env(project.parent),
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
                          check=False)  # fmt: skip
    return (done.stdout + done.stderr).decode(errors="replace")


def _holding(project: Path) -> set[str]:
    """Every file under the project (not .git) that holds the secret, relative."""
    found = set()
    for path in project.rglob("*"):
        if ".git" in path.relative_to(project).parts or not path.is_file():
            continue
        if MARK in path.read_text(errors="replace"):
            found.add(str(path.relative_to(project)))
    return found


RENAMES = [
    # (command, where it runs, the names that hold the secret after it)
    ("mv .env .env.bak", "", {".env.bak"}),
    ("cp .env .env.local", "", {".env", ".env.local"}),
    ("cp -p .env .env.production.local", "", {".env", ".env.production.local"}),
    ("install -m 600 .env .env.prod", "", {".env", ".env.prod"}),
    ("cp .env sub/", "", {".env", "sub/.env"}),
    ("cp -t sub .env", "", {".env", "sub/.env"}),
    ("ln .env .env.hard", "", {".env", ".env.hard"}),
    ("ln -s ../.env .env", "sub", {".env", "sub/.env"}),
    ("mkdir -p .env.d && cp .env .env.d/", "", {".env", ".env.d/.env"}),
]


@pytest.mark.parametrize(("command", "where", "holders"), RENAMES)
def test_a_rename_under_the_same_rule_passes_and_the_secret_stays_guarded(
    project: Path, command: str, where: str, holders: set[str]
) -> None:
    cwd = project / where
    assert _decision(command, cwd) == ("none", ""), command
    _bash(command, cwd)
    assert _holding(project) == holders, command
    for name in holders:  # each name the secret is under is still denied to a reader
        assert _decision(f"cat {name}", project)[0] == "deny", name


def test_a_copy_onto_a_name_of_a_broader_user_rule_passes(project: Path) -> None:
    """``cp .env.example .env`` where a user's rule guards ``.env*``: both names are the
    rule's (the starter's rules exclude .env.example: no rule of theirs is read)."""
    assert _decision("cp .env.example .env.new", project, DOT_ENV_STAR) == ("none", "")
    assert _decision("cp .env.example notes.txt", project, DOT_ENV_STAR)[0] == "deny"
    assert _decision("cp .env.example .env", project) == ("none", "")


def test_a_copy_under_an_unguarded_name_stays_a_read(project: Path) -> None:
    for command in ("cp .env notes.txt", "mv .env /tmp/x.env", "cp .env .env.example",
                    "cp .env $X", "cp .env .env.$X", "cp .env README sub/",
                    "cp .env .env.bak && cat .env.bak", "cp .env /dev/stdout",
                    "ln -s .env ../up.env"):  # fmt: skip
        assert _decision(command, project)[0] == "deny", command


def _later(command: str, project: Path) -> str:
    """The hook's answer, then the command run in bash (its output)."""
    decision, reason = _decision(command, project)
    assert decision == "deny", (command, reason)
    return _bash(command, project)


def test_a_fifo_at_the_new_name_stays_a_read(project: Path) -> None:
    _bash("mkfifo .env.bak", project)
    reader = subprocess.Popen(["bash", "-c", "cat .env.bak > ../caught"], cwd=project)
    time.sleep(0.2)
    try:
        _later("cp .env .env.bak", project)
    finally:
        reader.wait(timeout=10)
    assert MARK in (project.parent / "caught").read_text()  # another program read it out


def test_a_symbolic_link_at_or_above_the_new_name_stays_a_read(project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    # (cp does not write through a dangling link: the file is there)
    _bash(
        f"touch {outside}/leak && ln -s {outside}/leak .env.bak && ln -s {outside} .env.d", project
    )
    _later("cp .env .env.bak", project)
    _later("cp .env .env.d/", project)
    assert MARK in (outside / "leak").read_text() and MARK in (outside / ".env").read_text()


def test_a_new_name_with_another_hard_link_stays_a_read(project: Path) -> None:
    _bash("echo public > notes.txt && ln notes.txt .env.bak", project)
    _later("cp .env .env.bak", project)
    assert MARK in (project / "notes.txt").read_text()  # the other name holds it now


def test_a_directory_another_command_reads_stays_a_read(project: Path) -> None:
    output = _later("cp .env sub/.env && tar cf - sub", project)
    assert MARK in output


def test_a_name_git_would_add_stays_a_read(project: Path) -> None:
    (project / ".gitignore").write_text(".env\n")  # (only the original's own name)
    command = "mv .env .env.bak && git add -A && git commit -qm two"
    _later(command, project)
    shown = _bash("git show HEAD:.env.bak", project)
    assert MARK in shown  # committed: the next push publishes it
    # an ignore file git may take back (a `!` line) is not read as ignoring
    (project / ".gitignore").write_text(".env*\n!.env.example\n")
    assert _decision("cp .env.bak .env.local", project)[0] == "deny"
    (project / ".gitignore").write_text(".env*\n")
    assert _decision("cp .env.bak .env.local", project) == ("none", "")
