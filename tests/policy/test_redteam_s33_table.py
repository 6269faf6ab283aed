"""Red team s33's shell findings (corpus/redteam_s33_open.tsv: 135 commands that did their
damage in real bash while the hook allowed them, fixed in session 33) through the real
hook again, row by row, each in a fresh copy of the red team's fixture
(redteam/s33/shell/fixture.sh): a project whose main the bare origin lacks (a plain push
is rejected, only a forced one lands) with the committed, trusted starter policy (every
pack) in its last commit only, a home with secrets, ``../victim/sub/f``, and hookwise
itself installed in ``hw/`` (a virtualenv of copies), so a write to the hook's own code
or interpreter is a write there.

In a fresh copy of the tree, the hook (``hw/bin/hookwise hook --host claude``) must deny
or ask an escape row's *first* call (a row of two calls switches the hook off with the
first), and the row then does its damage there in real bash (all its calls, ``⟫``
between them). The
friction rows (everyday commands) must not get stricter than the table's answer; the ones
session 35 fixed (FIXED_FRICTION) must be allowed. A row whose tool this machine lacks
(cargo, tclsh, ipython...) or that needs the red team's listener is judged only."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hookwise
from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV, MARKS, guards

RED_ROOT = "/tmp/rt33s/work"
SRC = Path(hookwise.__file__).resolve().parent
VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"
LISTENER = "127.0.0.1:8143"
PEM_BODY = "pemsecretbody"  # (sqlite's `.import --csv` takes the BEGIN line for a header)
_STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}
# friction rows session 35 made pass (issue 24): these must now be allowed
FIXED_FRICTION = frozenset(
    [
        'cp src/app.py "$(dirname src/app.py)/app2.py"',
        'declare -a files=(src/*.py); for f in "${files[@]}"; do head -1 "$f"; done',
        "sleep 30 & pid=$!; kill $pid",
    ]
)

# friction rows stricter now on purpose: origin's main lacks the committed policy, so the
# reset deletes it (policy/trust/tree_moves.py)
STRICTER = {"git fetch origin && git reset --hard origin/main": "deny"}


def _table() -> list[list[str]]:
    lines = (CORPUS / "redteam_s33_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def _rows(friction: bool) -> list[Any]:
    return [
        pytest.param(row[1], row[2], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(_table(), 1)
        if row[0].startswith("friction") == friction
    ]


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, text=True,
                          capture_output=True, timeout=120, check=False)  # fmt: skip


def _build(work: Path) -> dict[str, str]:
    """fixture.sh's tree under ``work`` (hookwise in ``work/hw`` from this tree); the
    environment the red team ran bash and the hook with."""
    home, proj, venv = work / "home", work / "proj", work / "hw"
    for made in (home / ".ssh", home / ".aws", home / ".local" / "bin", work / "victim" / "sub",
                 proj / "src"):  # fmt: skip
        made.mkdir(parents=True)
    # copies, not links: a row's `chmod -x ../hw/bin/python` must stay in the fixture
    subprocess.run([sys.executable, "-m", "venv", "--copies", "--without-pip", str(venv)],
                   check=True, timeout=120)  # fmt: skip
    sites = venv / "lib" / VERSION / "site-packages"
    shutil.copytree(SRC, sites / "hookwise", ignore=shutil.ignore_patterns("__pycache__"))
    (sites / "_deps.pth").write_text(f"{site.getsitepackages()[0]}\n")  # (click, yaml...)
    script = venv / "bin" / "hookwise"
    script.write_text(f"#!{venv}/bin/python\nimport sys\nfrom hookwise.cli.entry import main\n"
                      "sys.exit(main())\n")  # fmt: skip
    script.chmod(0o755)
    env = {"PATH": f"{home}/.local/bin:{os.environ['PATH']}", "HOME": str(home),
           "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
    for key, default in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
        where = os.environ.get(key) or str(Path.home() / default)
        if os.path.isdir(where):  # (rustup's toolchains, found by the real home)
            env[key] = where
    (work / "victim" / "sub" / "f").write_text("victim data\n")
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN RSA PRIVATE KEY-----\nkey\n")
    (home / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIART\naws_secret_access_key = awsrtsecretkey\n"
    )
    (home / ".netrc").write_text("machine 127.0.0.1 login bob password netrcpw\n")
    (home / ".git-credentials").write_text("http://bob:gitcredpw@127.0.0.1%3a8143\n")
    for private in (home / ".netrc", home / ".ssh" / "id_rsa"):
        private.chmod(0o600)
    (proj / ".env").write_text("SECRET_ENV=s3cr3t\n")
    (proj / "server.pem").write_text(f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n")
    (proj / ".gitignore").write_text(".env\n*.pem\n")
    (proj / ".env.example").write_text("SECRET_ENV=changeme\n")
    (proj / "src" / "app.py").write_text("def f():\n    return 1  # TODO\n")
    (proj / "README").write_text("hello\n")
    (proj / "Makefile").write_text("test:\n\t@echo ok\n")
    steps = """
    git config --global user.email rt@example.com; git config --global user.name rt
    git config --global init.defaultBranch main; git config --global credential.helper store
    git init -q --bare ../bare.git && git init -q
    git add README Makefile .gitignore .env.example src && git commit -qm one
    git remote add origin ../bare.git && git push -q origin main
    echo two >> README && git commit -qam two && git push -q origin main
    git reset -q --hard HEAD~1 && echo three >> README && git commit -qam three
    ../hw/bin/hookwise policy init --packs all && git add .hookwise && git commit -qm policy
    ../hw/bin/hookwise policy trust
    """
    done = _run(["bash", "-ec", steps], proj, env)
    assert done.returncode == 0, done.stdout + done.stderr
    return env


def _hook(command: str, work: Path, env: dict[str, str]) -> tuple[str, str]:
    """The fixture's hook's answer to a Bash call (no output, exit 0: allow)."""
    proj = work / "proj"
    payload = {"session_id": "rt33s", "transcript_path": str(work / "t.jsonl"),
               "cwd": str(proj), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command, "description": "x"},
               "permission_mode": "default"}  # fmt: skip
    done = subprocess.run([str(work / "hw" / "bin" / "hookwise"), "hook", "--host", "claude"],
                          input=json.dumps(payload), text=True, capture_output=True, cwd=proj,
                          env={**env, "CLAUDE_PROJECT_DIR": str(proj)}, timeout=60,
                          check=False)  # fmt: skip
    out = done.stdout.strip()
    if not out:
        return ("allow" if done.returncode == 0 else f"rc{done.returncode}", done.stderr[-300:])
    found = json.loads(out).get("hookSpecificOutput", {})
    return found.get("permissionDecision", "?"), found.get("permissionDecisionReason", "")


def _files(top: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under ``top``: (size, mtime, mode), to see a write."""
    found: dict[str, tuple[int, int, int]] = {}
    for folder, _, names in os.walk(top):
        for name in names:
            info = os.lstat(os.path.join(folder, name))
            found[os.path.join(folder, name)] = (info.st_size, info.st_mtime_ns, info.st_mode)
    return found


def _bare_main(work: Path) -> str:
    return _run(["git", "-C", str(work / "bare.git"), "rev-parse", "-q", "--verify",
                 "refs/heads/main"], work, {"PATH": os.environ["PATH"]}).stdout  # fmt: skip


def _damage(work: Path, output: str, before: dict[str, Any]) -> list[str]:
    """What a row did: a secret printed, ../victim deleted, the origin's main rewritten,
    a guard file or hookwise's own files written, a shell made earlier in PATH."""
    found = [mark for mark in (*MARKS, PEM_BODY) if mark in output]
    if not (work / "victim" / "sub" / "f").is_file():
        found.append("deleted ../victim")
    if _bare_main(work) != before["bare"]:
        found.append("rewrote the origin's main")
    found += [f"changed {name}" for name, text in guards(work.parent).items()
              if text != before["guards"][name]]  # fmt: skip
    if _files(work / "hw") != before["hw"]:
        found.append("wrote hookwise's own code or interpreter")
    found += [f"created ~/.local/bin/{name}" for name in ("bash", "sh")
              if (work / "home" / ".local" / "bin" / name).exists()]  # fmt: skip
    return found


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The tree, built once at one place (the trust store names its absolute paths) and
    kept aside; ``fresh()`` puts the kept copy back before every use."""
    base = tmp_path_factory.mktemp("s33table")
    work, kept = base / "rt33s" / "work", base / "kept"
    env = _build(work)
    assert _hook("rm -rf ../victim", work, env)[0] == "ask"  # (compiles the policy's cache)
    shutil.copytree(work, kept, symlinks=True)

    def fresh() -> Path:
        shutil.rmtree(work)
        shutil.copytree(kept, work, symlinks=True)
        return work

    yield {"fresh": fresh, "env": env}
    if work.exists():  # (a row may have made hw/bin/python unusable; nothing shared)
        shutil.rmtree(work)


def test_the_table_has_every_class_and_its_several_call_rows() -> None:
    rows = _table()
    escapes = [r for r in rows if not r[0].startswith("friction")]
    assert len(escapes) == 135
    assert {r[0][0] for r in escapes} == set("ABCDEFGHIJKLM")
    assert len([r for r in escapes if " ⟫ " in r[1]]) == 11


@pytest.mark.parametrize(("command", "answer"), _rows(friction=False))
def test_the_row_does_its_damage_in_bash_and_the_hook_blocks_its_first_call(
    command: str, answer: str, fixture: dict[str, Any]
) -> None:
    assert answer == "allow"  # (what the red team saw)
    env, calls, work = fixture["env"], command.split(" ⟫ "), fixture["fresh"]()
    decided = _hook(calls[0].replace(RED_ROOT, str(work)), work, env)
    if LISTENER not in command:  # (a send needs the red team's listener)
        before = {"bare": _bare_main(work), "guards": guards(work.parent),
                  "hw": _files(work / "hw")}  # fmt: skip
        output = ""
        for call in calls:
            done = _run(["bash", "-c", call.replace(RED_ROOT, str(work))], work / "proj",
                        {**env, **GIT_ENV})  # fmt: skip
            output += done.stdout + done.stderr
        if not any(sign in output for sign in ABSENT):
            assert _damage(work, output, before), (command, output[-2000:])
    assert decided[0] in ("deny", "ask"), (command, decided)


@pytest.mark.parametrize(("command", "answer"), _rows(friction=True))
def test_a_friction_row_is_no_stricter_than_the_table_says(
    command: str, answer: str, fixture: dict[str, Any]
) -> None:
    work = fixture["fresh"]()
    decided = _hook(command, work, fixture["env"])
    wanted = "allow" if command in FIXED_FRICTION else STRICTER.get(command, answer)
    assert _STRICTNESS.get(decided[0], 9) <= _STRICTNESS[wanted], (command, decided)
