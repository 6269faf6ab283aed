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
from collections.abc import Callable
from pathlib import Path

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
