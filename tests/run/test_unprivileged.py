"""The same confinement for an ordinary user (nobody, through setpriv), not only for root.

The checkout's own interpreter lives under /root, which nobody cannot read, so this runs
the system's Python 3.11 on the source tree (``hookwise run`` imports only the standard
library and hookwise before it starts the agent).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.run.conftest import World, needs_namespaces

SRC = Path(__file__).resolve().parents[2] / "src"
PYTHON = "/usr/bin/python3"
NOBODY = 65534


def _usable() -> str | None:
    if os.geteuid() != 0:
        return "needs root to become nobody"
    if not shutil.which("setpriv"):
        return "no setpriv"
    try:
        version = subprocess.run(
            [PYTHON, "-c", "import sys; print(sys.version_info >= (3, 11))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"no {PYTHON}"
    return None if version == "True" else f"{PYTHON} is older than 3.11"


REASON = _usable()
pytestmark = [needs_namespaces, pytest.mark.skipif(REASON is not None, reason=str(REASON))]


@pytest.fixture
def nobody_world() -> Iterator[World]:
    root = Path(tempfile.mkdtemp(prefix="hookwise-nobody-", dir="/tmp"))
    try:
        world = World(root)
        for directory, dirs, files in os.walk(root):
            os.chown(directory, NOBODY, NOBODY)
            for name in dirs + files:
                os.lchown(os.path.join(directory, name), NOBODY, NOBODY)
        root.chmod(0o755)
        yield world
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _run_as_nobody(world: World, script: str) -> subprocess.CompletedProcess[str]:
    entry = (
        f"import sys; sys.path.insert(0, {str(SRC)!r}); "
        "from hookwise.cli.entry import main; "
        "sys.exit(main(['run', '--', 'sh', '-c', sys.argv[1]]))"
    )
    return subprocess.run(
        [
            "setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            PYTHON,
            "-c",
            entry,
            script,
        ],
        cwd=world.project,
        env={**world.env, "PATH": "/usr/local/bin:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_an_ordinary_user_is_confined_the_same_way(nobody_world: World) -> None:
    world = nobody_world
    before = world.snapshot()
    c = '"$HOME/.config/hookwise"'
    script = (
        "id -u; "
        f"rm -f {c}/policy.yaml && echo BROKEN1; "
        "python3 -c \"open('.hook'+'wise/policy.yaml','w').write('x')\" && echo BROKEN2; "
        f'mv "$HOME/.config" "$HOME/cfg" && echo BROKEN3; '
        "echo '{}' > .claude/settings.local.json && echo BROKEN4; "
        f"unshare -Urm sh -c 'umount {c} || mount -o remount,rw {c}' && echo BROKEN5; "
        f"unshare -Um sh -c 'umount -l {c} && echo BROKEN6'; "
        "echo work > notes.txt && git add notes.txt && git commit -qm notes && echo WORKED"
    )
    done = _run_as_nobody(world, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(NOBODY)
    assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
    assert "WORKED" in done.stdout, done.stderr
    assert world.snapshot() == before
    assert (world.project / "notes.txt").read_text() == "work\n"
