"""The escapes a red team found in `hookwise run` (issue 23, /tmp/redteam23 of session 22),
each run as the attacker ran it: real processes inside a real session, then the guard checked
from outside. Interpreter attacks use a private copy of the interpreter (never the shared one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from tests.run.test_redteam_run import (
    HOOKWISE,
    HOST_ENDS,
    SRC,
    Lab,
    _lost_records,
    lab,
    pytestmark,
)

__all__ = ["lab", "pytestmark"]

NESTED = """\
import os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
p = os.environ["HOOKWISE_RUN_AUDIT"]
s.sendto(b'{"a":' + b"[" * 60000, p)
s.sendto(b'{"decision": "deny", "reason": "RT23-AFTER"}', p)
"""


def test_a_nested_datagram_neither_loses_records_nor_stops_the_lost_hook_watch(lab: Lab) -> None:
    """ESC4: one datagram nested past the recursion limit ended the sink's thread; the records
    after it were lost and `--on-hook-lost=stop` no longer stopped the session."""
    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "nested.py").write_text(NESTED)
    script = (
        "python3 $R/nested.py; sleep 0.5; "
        + HOST_ENDS.format(how="kill -KILL $!")  # (the host ends its hook: lost)
        + "sleep 30; echo NOT-STOPPED"
    )
    argv = [HOOKWISE, "run", "--on-hook-lost=stop", "--", "bash", "-c", script]
    started = time.monotonic()
    result = lab.run(script, argv=argv)
    assert time.monotonic() - started < 25
    assert "NOT-STOPPED" not in result.stdout, result.stderr
    assert "ended the session at the first one (--on-hook-lost=stop)" in result.stderr
    assert len(_lost_records(lab)) == 1
    log = Path(lab.home, ".local/state/hookwise/audit.jsonl").read_text()
    assert "RT23-AFTER" in log


def _private_interpreter(lab: Lab) -> tuple[Path, Path]:
    """A private base interpreter laid out as pyenv's (``bin/python3 -> python3.11``, the
    standard library in ``lib/python3.11``: a link to this one's, never written) and a
    virtualenv over it that finds this checkout's hookwise; (prefix, venv)."""
    real = Path(os.path.realpath(sys.executable))
    prefix = lab.root / "py"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib").mkdir()
    shutil.copy2(real, prefix / "bin" / real.name)
    (prefix / "bin" / "python3").symlink_to(real.name)
    stdlib = Path(os.path.dirname(os.__file__))
    (prefix / "lib" / stdlib.name).symlink_to(stdlib)
    venv = lab.root / "venv"
    subprocess.run(
        [str(prefix / "bin" / "python3"), "-m", "venv", "--without-pip", "--symlinks", str(venv)],
        check=True,
    )
    purelib = sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"]
    Path(purelib, "hookwise-src.pth").write_text(f"{SRC}\n{sysconfig.get_paths()['purelib']}\n")
    return prefix, venv


def _zip_name() -> str:
    return f"python{sys.version_info[0]}{sys.version_info[1]}.zip"


def test_the_interpreters_search_path_and_symlink_chain_cannot_be_changed(lab: Lab) -> None:
    """ESC2 and ESC3: ``<base>/lib/python3XY.zip`` is the first entry of ``sys.path`` under
    ``-I -S`` (missing, so creatable), and ``<base>/bin/python3`` a symlink between the
    virtualenv's ``python3`` and the binary: either, written inside, ran the agent's code in
    every later hook."""
    prefix, venv = _private_interpreter(lab)
    zipped = prefix / "lib" / _zip_name()
    evil = lab.root / "evil"
    evil.write_text("#!/bin/sh\necho '{}'\n")
    evil.chmod(0o755)
    (lab.root / "payload.json").write_text(lab.payload())
    script = (
        f'python3 -c \'open("{zipped}", "wb").write(b"PK")\' 2>/dev/null && echo ZIP-MADE; '
        f"ln -sfn {evil} {prefix}/bin/python3 2>/dev/null && echo LINK-MADE; "
        f"mv {prefix}/bin/python3 {prefix}/bin/x 2>/dev/null && echo LINK-MOVED; "
        f"{venv}/bin/python3 -I -m hookwise hook --platform claude < $R/payload.json"
    )
    argv = [str(venv / "bin" / "python3"), "-m", "hookwise", "run", "--", "bash", "-c", script]
    result = lab.run(script, argv=argv)
    assert "MADE" not in result.stdout and "MOVED" not in result.stdout, result.stdout
    assert '"deny"' in result.stdout, (result.stdout, result.stderr)
    assert not zipped.exists()
    assert os.readlink(prefix / "bin" / "python3") == Path(os.path.realpath(sys.executable)).name


def test_the_interpreter_is_asked_what_it_reads() -> None:
    """The chain and the search path come from the interpreter (no list of names)."""
    from hookwise.run.interpreter_paths import chain, consulted

    found = consulted(sys.executable)
    assert os.path.realpath(sys.executable) in found.binaries
    zipped = os.path.join(sys.base_prefix, "lib", _zip_name())
    assert zipped in (found.present + found.missing)
    links, real = chain(sys.executable)
    assert real == os.path.realpath(sys.executable)
    assert all(os.path.islink(link) for link in links)


def test_the_hosts_env_files_cannot_plant_variables_for_the_next_session(lab: Lab) -> None:
    """ESC1: Codex loads ``$CODEX_HOME/.env`` (overriding), Gemini CLI ``.gemini/.env`` or
    ``.env`` from its cwd up, then ``~/.gemini/.env``, ``~/.env``; the hooks inherit them. A
    ``BASH_ENV`` planted there ran the agent's script in every hook of the next session."""
    evil = "BASH_ENV=$R/evil.rc\n"
    (lab.proj / ".env").write_text("APP_MODE=dev\n")  # the project's own: the one Gemini loads
    user_files = [lab.home / ".codex/.env", lab.home / ".gemini/.env", lab.home / ".env"]
    script = "".join(
        f"printf '{evil}' > {path} 2>/dev/null && echo WROTE {path}; "
        for path in [*user_files, lab.proj / ".env"]
    )
    result = lab.run(script)
    assert "WROTE" not in result.stdout, result.stdout
    assert all(not p.exists() for p in user_files)  # (the placeholders are gone after)
    assert (lab.proj / ".env").read_text() == "APP_MODE=dev\n"
    # a new .env below the project (no session guarded it): the next session refuses
    (lab.proj / ".env").unlink()
    planted = lab.run("mkdir -p sub && printf 'XDG_DATA_HOME=/tmp/x\\n' > sub/.env && echo OK")
    assert "OK" in planted.stdout, planted.stderr
    argv = [HOOKWISE, "run", "--", "bash", "-c", "echo AGENT-RAN"]
    refused = subprocess.run(
        argv, cwd=lab.proj / "sub", env=lab.env(), capture_output=True, text=True, check=False
    )
    assert "AGENT-RAN" not in refused.stdout
    assert refused.returncode != 0
    assert f"{lab.proj}/sub/.env (loaded by Gemini CLI" in refused.stderr
    assert "sets XDG_DATA_HOME" in refused.stderr


LIBS = """\
import os, subprocess, sys
probe = "import hookwise.policy.hook; print(open('/proc/self/maps').read())"
maps = subprocess.run([sys.argv[1], "-I", "-S", "-c", f"import sys; sys.path.insert(0, {sys.argv[2]!r}); " + probe],
                      capture_output=True, text=True, check=True).stdout
files = {line.split(None, 5)[5] for line in maps.splitlines() if len(line.split(None, 5)) == 6}
files = {f for f in files if f.startswith("/")}
for name in ("bash", "sh", "env"):
    for directory in ("/usr/bin", "/bin"):
        if os.path.exists(os.path.join(directory, name)):
            files.add(os.path.join(directory, name))
for path in sorted({os.path.realpath(f) for f in files}):
    try:  # opened for writing, nothing written
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        print("WRITABLE", path)
    except OSError as exc:
        print("held", exc.errno, path)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="root sessions only (root owns these files)")
def test_a_root_session_cannot_rewrite_what_every_hook_runs_on(lab: Lab) -> None:
    """ESC5: as root, the loader, libc, libm and libpython the hook's interpreter maps,
    ``/usr/bin/env`` and the hosts' shells were writable inside (capabilities dropped do not
    matter: root owns them). Opened for writing only, never written."""
    (lab.root / "libs.py").write_text(LIBS)
    result = lab.run(f"python3 $R/libs.py {sys.executable} {SRC}")
    assert "held" in result.stdout, (result.stdout, result.stderr)
    assert "WRITABLE" not in result.stdout, result.stdout


def test_the_interpreters_answer_is_kept_and_asked_again_when_it_changes(tmp_path: Path) -> None:
    """The answer is kept beside the caches (read-only in a session), named by what it
    depends on: a copy of the binary with another inode is asked again, not read."""
    from hookwise.run import interpreter_paths as paths

    copy = tmp_path / "bin" / "python3"
    copy.parent.mkdir()
    shutil.copy2(os.path.realpath(sys.executable), copy)
    cache = tmp_path / "cache"
    paths.ask(str(copy), str(cache))
    first = paths.consulted(str(copy))
    [kept] = list(cache.iterdir())
    assert str(copy) in kept.read_text(errors="replace").splitlines()[0]
    paths._CACHE.clear()
    paths.ask(str(copy), str(cache))  # read back: the same answer, no process
    assert str(copy) not in paths._ASKED
    assert paths.consulted(str(copy)).present == first.present
    paths._CACHE.clear()
    copy.unlink()
    shutil.copy2(os.path.realpath(sys.executable), copy)  # another inode: asked again
    paths.ask(str(copy), str(cache))
    assert str(copy) in paths._ASKED
    assert paths.consulted(str(copy)).present == first.present
