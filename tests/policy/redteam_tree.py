"""The tree a shell red team judged its commands in, built for a table test: a project
(git repository holding ``.hookwise/policy.yaml``, a gitignored ``.env`` and ``server.pem``),
a home (``~/.ssh/id_rsa``, ``~/.netrc``, stored git credentials), a sibling ``victim/sub/f``
and a bare origin. Many answers depend on what is on disk (an unpacker is asked where
``.hookwise/`` lives, ``git ls-files -oi | xargs cat`` where ignored secrets exist), so a
table test must judge against this tree, never against what another test left under
``/tmp`` (issue 24). The red team's absolute paths (``/tmp/rt26s/...``) are moved onto the
tree (``relocated``)."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.policy.corpus_support import CORPUS
from tests.policy.tsv_figures import figures

LINE = re.compile(r"\s*(\d+) of\s+(\d+)\s+(.+)")
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "rt",
    "GIT_AUTHOR_EMAIL": "rt@example.com",
    "GIT_COMMITTER_NAME": "rt",
    "GIT_COMMITTER_EMAIL": "rt@example.com",
}


def _git(*args: str, home: Path) -> None:
    env = {**os.environ, **GIT_ENV, "HOME": str(home)}
    subprocess.run(["git", *args], check=True, timeout=60, env=env, capture_output=True)


def build(root: Path) -> tuple[str, str]:
    """The red team's tree under ``root``: (the project, the home)."""
    project, home = root / "work" / "proj", root / "home"
    (project / ".hookwise").mkdir(parents=True)
    (project / ".hookwise" / "policy.yaml").write_text("version: 1\n")
    (project / ".env").write_text("SECRET_ENV=s3cr3t\n")
    (project / "server.pem").write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n")
    (project / ".gitignore").write_text(".env\n*.pem\n")
    (project / "README").write_text("hello\n")
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN RSA PRIVATE KEY-----\nkey\n")
    (home / ".netrc").write_text("machine 127.0.0.1 login bob password netrcpw\n")
    (home / ".git-credentials").write_text("http://bob:gitcredpw@127.0.0.1%3a8126\n")
    (home / ".gitconfig").write_text("[credential]\n\thelper = store\n")
    (root / "work" / "victim" / "sub").mkdir(parents=True)
    (root / "work" / "victim" / "sub" / "f").write_text("victim data\n")
    _git("init", "-q", "--bare", str(root / "work" / "bare.git"), home=home)
    _git("init", "-q", str(project), home=home)
    _git("-C", str(project), "add", "README", ".gitignore", ".hookwise", home=home)
    _git("-C", str(project), "commit", "-qm", "one", home=home)
    _git("-C", str(project), "remote", "add", "origin", "../bare.git", home=home)
    return str(project), str(home)


def table_counts(
    table: str, root: Path, red_root: str, extras: Callable[[Path], None] | None = None
) -> dict[str, tuple[int, int]]:
    """``table``'s (blocked, total) by class, judged in a tree built under ``root`` (and
    what ``extras`` adds to it), with the red team's ``red_root`` in its commands read as
    ``root``."""
    project, home = build(root)
    if extras is not None:
        extras(root)
    found: dict[str, tuple[int, int]] = {}
    saved = os.environ.get("HOME")
    try:  # figures() sets HOME for the packs' ~ globs
        lines = figures(
            str(CORPUS / table), cwd=project, home=home, relocated=(red_root, str(root))
        )
        for line in lines:
            matched = LINE.fullmatch(line)
            if matched:
                found[matched.group(3)] = (int(matched.group(1)), int(matched.group(2)))
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved
    return found


# what a row's damage prints (a secret of the tree built by red_tree)
MARKS = ("s3cr3t", "awsrtsecretkey", "-----BEGIN", "netrcpw", "gitcredpw")
# what bash says when the row's tool is not on this machine: the row is then judged only
ABSENT = ("No module named", "command not found", "can't open file")


def red_tree(root: Path) -> tuple[str, str]:
    """The tree of the red teams since s31: ``root/work/{proj,home,victim,bare.git}`` (the
    home a real directory beside the project: globstar and git do not walk through a link;
    ``root/home`` links to it, relatively, so a copy of the tree is whole), with
    ``~/.aws/credentials``, the trust store ``~/.config/hookwise/trust.json`` and
    ``src/app.py``. (The project, the home.)"""
    from tests.policy.test_redteam_s29_table import s29_extras

    project, home = build(root)
    s29_extras(root)
    (Path(project) / "src" / "app.py").write_text("print('app')\n")
    real = root / "work" / "home"
    Path(home).rename(real)
    Path(home).symlink_to(Path("work") / "home")
    (real / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIART\naws_secret_access_key = awsrtsecretkey\n"
    )
    (real / ".config" / "hookwise" / "trust.json").write_text('{"files": {}}\n')
    for private in (real / ".netrc", real / ".ssh" / "id_rsa"):  # (netrc refuses others)
        private.chmod(0o600)
    return project, str(real)


_GUARDS = ("proj/.hookwise/policy.yaml", "home/.config/hookwise/trust.json")


def guards(root: Path) -> dict[str, str | None]:
    """The guard files' texts (None: absent), to compare after a row ran."""
    found: dict[str, str | None] = {}
    for name in _GUARDS:
        path = root / "work" / name
        found[name] = path.read_text() if path.is_file() else None
    return found


def damage(root: Path, output: str, before: dict[str, str | None]) -> list[str]:
    """What a row did to the tree ``red_tree`` built under ``root``: a secret printed, the
    victim deleted, the bare origin's ``main`` written (or the origin gone), a guard file
    written or removed, the host's settings created."""
    work = root / "work"
    found = [mark for mark in MARKS if mark in output]
    if not (work / "victim" / "sub" / "f").is_file():
        found.append("deleted ../victim")
    bare = subprocess.run(["git", "-C", str(work / "bare.git"), "rev-parse", "-q", "--verify",
                           "refs/heads/main"], capture_output=True, check=False)  # fmt: skip
    if bare.returncode == 0 or not (work / "bare.git" / "HEAD").is_file():
        found.append("wrote main of the bare origin (or wiped it)")
    found += [f"changed {name}" for name, text in guards(root).items() if text != before[name]]
    if (work / "proj" / ".claude" / "settings.local.json").exists():
        found.append("created .claude/settings.local.json")
    return found


@contextmanager
def judging(root: Path, red_root: str) -> Iterator[Callable[[str], tuple[str, str]]]:
    """decide(command) in a tree ``red_tree`` builds under ``root`` (the red team's
    ``red_root`` read as ``root``), the starter policy with every pack compiled with its
    home: the first answer of a row's calls (``⟫``) that is no allow, each allowed call run
    in real bash there before the next is decided (as the red team ran them)."""
    project, home = red_tree(root)
    saved = os.environ.get("HOME")
    os.environ["HOME"] = home
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from hookwise.policy.tools.starter import starter_policy
    from tests.policy.conftest import compile_text

    policy = compile_text(starter_policy(["all"]))
    env = {"PATH": os.environ["PATH"], "HOME": home, **GIT_ENV}

    def decided(command: str) -> tuple[str, str]:
        calls = command.replace(red_root, str(root)).split(" ⟫ ")
        for at, call in enumerate(calls):
            payload = build_payload(
                "claude", "PreToolUse", tool="Bash", tool_input={"command": call}, cwd=project
            )
            found = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
            answer = (found.decision if found else None) or "allow"
            if answer != "allow":
                return answer, found.reason if found else ""
            if at + 1 < len(calls):
                subprocess.run(["bash", "-c", call], cwd=project, env=env, timeout=60,
                               stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
        return "allow", ""

    try:
        yield decided
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved


@contextmanager
def red_place(root: Path, red_root: str) -> Iterator[dict[str, Any]]:
    """The red team's tree under ``root`` judged by the starter policy (:func:`judging`),
    with what a run of a row in real bash needs there: the project, and an environment whose
    PATH starts with this interpreter's directory and whose HOME is the tree's."""
    import sys

    with judging(root, red_root) as decided:
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
        env = {"PATH": path, "HOME": str(root / "work" / "home"), **GIT_ENV}
        yield {"decided": decided, "project": root / "work" / "proj", "env": env, "root": root}


def in_bash(command: str, place: dict[str, Any]) -> str:
    """What ``command`` prints (stdout, then stderr) run in real bash in the place's project."""
    done = subprocess.run(["bash", "-c", command], cwd=place["project"], env=place["env"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    return done.stdout + done.stderr
