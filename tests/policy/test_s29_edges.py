"""Session 29 (issue 24), the open edges of the command analysis: what the hook finds on the
disk when it decides. Each case is performed in real bash first, where it does the damage,
then the starter's answer must not be an allow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hookwise.policy.rules.trees import MAX_ENTRIES
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.tools.starter import starter_policy
from tests.policy.corpus_support import HOOKWISE
from tests.policy.test_kept_copies import MARK, _bash, _decision


def _tree_project(tmp_path: Path) -> Path:
    """A project whose first directory holds more entries than the hook's look, and whose
    secret lies in a directory the look never reaches (breadth first)."""
    root = tmp_path / "proj"
    bulk = root / "a"
    bulk.mkdir(parents=True)
    for n in range(MAX_ENTRIES + 50):
        (bulk / f"f{n}.txt").write_text("x\n")
    (root / "zz" / "d1").mkdir(parents=True)  # (two levels down: past `a` in either order)
    (root / "zz" / "d1" / ".env").write_text(f"TOKEN={MARK}\n")
    (tmp_path / "home").mkdir()
    return root


def test_a_tree_past_the_bound_is_unverifiable_not_allowed(tmp_path: Path) -> None:
    project = _tree_project(tmp_path)
    for command in ("grep -rh TOKEN .", "tar cf - .", "grep -rh TOKEN"):
        assert MARK in _bash(command, project), command  # it reads the hidden secret
        decision, reason = _decision(command, project)
        assert decision == "ask", (command, decision)
        assert f"over {MAX_ENTRIES} entries" in reason, reason


def test_a_tree_within_the_bound_without_a_secret_stays_free(tmp_path: Path) -> None:
    project = _tree_project(tmp_path)
    subprocess.run(["rm", "-rf", str(project / "zz")], check=True)
    assert _decision("grep -rh TOKEN zz", project) == ("none", "")  # (not there: nothing)
    (project / "src").mkdir()
    (project / "src" / "m.py").write_text("print(1)\n")
    assert _decision("grep -rn TODO src", project) == ("none", "")


# ------------------------------------------------------ FIFOs on the disk when the hook decides


def _hook(command: str, project: Path, home: Path) -> tuple[str, str, float]:
    """A real ``hookwise hook`` process with the starter (every pack): its decision, its
    reason and how long it took."""
    policy = home.parent / "policy.yaml"
    policy.write_text(starter_policy(["all"]))
    env = {**os.environ, "HOME": str(home), "HOOKWISE_POLICY": str(policy),
           "HOOKWISE_USER_POLICY": str(home / "none.yaml"),
           "HOOKWISE_CACHE_DIR": str(home / "cache"), "HOOKWISE_AUDIT": "0"}  # fmt: skip
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=str(project)
    )
    start = time.monotonic()
    done = subprocess.run([HOOKWISE, "hook", "--platform", "claude"], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, cwd=project, timeout=60,
                          check=False)  # fmt: skip
    took = time.monotonic() - start
    out = json.loads(done.stdout or "{}").get("hookSpecificOutput", {})
    return out.get("permissionDecision", "allow"), out.get("permissionDecisionReason", ""), took


def _git_project(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    project.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=project, env=env, check=True)
    (project / ".hookwise").mkdir()  # (where the guard has files, a merge's source counts)
    (project / ".hookwise" / "policy.yaml").write_text("version: 1\n")
    return project, home


FIFOS = [
    # (the FIFO, relative to the project, the command whose decision would read it)
    ("../inc.cfg", "git zz"),  # an include of the repository's configuration
    (".git/FETCH_HEAD", "git merge -q FETCH_HEAD"),
    ("../home/.netrc", "GIT_TERMINAL_PROMPT=0 git ls-remote http://127.0.0.1:9/x.git"),
]


@pytest.mark.parametrize(("fifo", "command"), FIFOS)
def test_a_fifo_the_decision_would_read_is_not_opened_and_is_unverifiable(
    tmp_path: Path, fifo: str, command: str
) -> None:
    project, home = _git_project(tmp_path)
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    subprocess.run(["git", "config", "include.path", "../../inc.cfg"], cwd=project, env=env,
                   check=True)  # fmt: skip
    os.mkfifo(project / fifo)
    decision, reason, took = _hook(command, project, home)
    assert took < 6.0, (command, took)  # (a blocking open waits to the 7 s deadline)
    assert decision == "ask", (command, decision, reason)
    assert Path(fifo).name in reason, reason


def test_a_fifo_gives_git_what_its_writer_says(tmp_path: Path) -> None:
    """The damage: git reads an alias from a FIFO fed when it runs (the hook, never
    opening it, cannot know what that is: above)."""
    project, home = _git_project(tmp_path)
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    subprocess.run(["git", "config", "include.path", "../../inc.cfg"], cwd=project, env=env,
                   check=True)  # fmt: skip
    os.mkfifo(tmp_path / "inc.cfg")
    feed = "while :; do printf '[alias]\\n\\tzz = !touch ../pwned\\n' > ../inc.cfg; done"
    line = f'timeout 10 bash -c "{feed}" >/dev/null 2>&1 & git zz; kill %1'
    subprocess.run(["bash", "-c", line], cwd=project, env=env, timeout=30, check=False,
                   capture_output=True)  # fmt: skip
    assert (tmp_path / "pwned").exists()


SHELLS_OF_A_FIFO = ["bash p", "sh -s < p", ". ./p", "bash p x y"]


@pytest.mark.parametrize("command", SHELLS_OF_A_FIFO)
def test_a_script_that_is_a_fifo_on_the_disk_is_unverifiable(tmp_path: Path, command: str) -> None:
    """An earlier call left a FIFO and a writer behind it; a shell run on it later runs
    what the writer says then (red team s28 A's note: allowed outright before)."""
    project, home = _git_project(tmp_path)
    os.mkfifo(project / "p")
    decision, reason, took = _hook(command, project, home)
    assert decision == "ask" and "a FIFO on the disk" in reason, (command, decision, reason)
    assert took < 6.0  # (the deadline is 7 s)
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    # (one writer for the shell's one open of p: it reads to the writer's close)
    line = f"echo 'touch ../pwned' > p & {command}; wait"
    subprocess.run(["bash", "-c", line], cwd=project, env=env, timeout=60, check=False,
                   capture_output=True)  # fmt: skip
    assert (tmp_path / "pwned").exists(), command
    assert _hook("bash /dev/null", project, home)[0] == "allow"


# ------------------------------------------------------------- CDPATH the shell inherits


CDPATH_LINES = [
    # (the line, what it does with CDPATH=$HOME:$HOME/.config inherited)
    ("cd hookwise && echo 'version: 1 # PWNED' > policy.yaml", "user policy written"),
    ("cd .aws && cat credentials", "credentials printed"),
]


@pytest.mark.parametrize(("line", "effect"), CDPATH_LINES)
def test_an_inherited_cdpath_moves_cd_and_is_not_ignored(
    tmp_path: Path, line: str, effect: str
) -> None:
    project, home = _git_project(tmp_path)
    (home / ".config" / "hookwise").mkdir(parents=True)
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(f"{MARK}\n")
    cdpath = f"{home}:{home}/.config"
    decision = _decided(line, project, home, cdpath)
    assert decision in ("deny", "ask"), (line, decision)
    assert _decided(line, project, home, None) in ("deny", "ask", "none")  # (as before)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "CDPATH": cdpath}
    done = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True,
                          text=True, timeout=30, check=False)  # fmt: skip
    policy = home / ".config" / "hookwise" / "policy.yaml"
    assert (MARK in done.stdout) or policy.exists(), effect  # bash went through CDPATH


def test_a_cdpath_of_the_working_directory_alone_moves_nothing(tmp_path: Path) -> None:
    project, home = _git_project(tmp_path)
    (project / "src").mkdir()
    for cdpath in (".", "", ":."):
        assert _decided("cd src && ls", project, home, cdpath) == "none", cdpath


def _decided(line: str, project: Path, home: Path, cdpath: str | None) -> str:
    from hookwise.policy.pipeline import decide
    from tests.policy.test_kept_copies import _policy

    env = {"HOME": str(home), **({"CDPATH": cdpath} if cdpath is not None else {})}
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": line}, cwd=str(project)
    )
    found = decide(payload, _policy(None, str(home)), "claude", env, now=0.0).decision
    return (found.decision if found else None) or "none"


# ------------------------------------------------------------ rg's ignore and hidden files


RG_LINES = [
    # (the line, the file it reads past what a bare rg skips)
    ("RIPGREP_CONFIG_PATH=../rg.cfg rg -N SECRET", ".env"),  # the options file: --hidden
    ("export RIPGREP_CONFIG_PATH=../rg.cfg; rg -N SECRET", ".env"),
    ("rg -N -i. SECRET", ".env"),  # -. in a cluster of short options
    ("rg -N -iuu SECRET", ".env"),
    ("rg -N -u -u SECRET", ".env"),
    ("rg -N --no-ignore SECRET", "server.pem"),  # .gitignore hides it from a bare rg
]


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
@pytest.mark.parametrize(("line", "secret"), RG_LINES)
def test_what_rg_may_read_past_its_ignores_and_hidden_files_is_counted(
    tmp_path: Path, line: str, secret: str
) -> None:
    project, home = _git_project(tmp_path)
    (project / secret).write_text(f"SECRET={MARK}\n")
    (project / ".gitignore").write_text("server.pem\n")
    (project / "README").write_text("hi\n")
    (tmp_path / "rg.cfg").write_text("--hidden\n")
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    bare = subprocess.run(["rg", "-N", "SECRET"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=30, check=False)  # fmt: skip
    assert MARK not in bare.stdout  # (a bare rg skips it)
    done = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True,
                          text=True, timeout=30, check=False)  # fmt: skip
    assert MARK in done.stdout, line  # this one read the secret
    assert _decided(line, project, home, None) == "ask", line
    if secret == ".env":
        assert _decided("rg -N SECRET", project, home, None) == "none"
