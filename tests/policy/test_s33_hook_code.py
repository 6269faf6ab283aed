"""Red team s33 #1, #4, #5: what the hook's interpreter maps, the loader's configuration and
the hosts' own programs decide whether a hook runs at all. One allowed ``truncate -s 0
<libpython>`` and every later hook died in the loader (exit 127, no decision); a line in
``/etc/ld.so.preload`` ran code in every hook before Python; a ``node`` (or ``gemini``)
put on PATH before the real one ran the host without its hooks.

Each call goes through ``hookwise hook`` as a real process; the libpython attack is run on
a private copy of the interpreter (its binary and libpython copied, the loader pointed at
the copy), never on the machine's own files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hookwise
from hookwise.policy.trust import hook_code
from tests.policy.test_hook_process import pre_payload
from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

MAPPED = hook_code.mapped_files()
LIBPYTHON = next((p for p in MAPPED if "/libpython" in p), None)
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(hookwise.__file__)))


def _private_interpreter(root: Path) -> tuple[list[str], dict[str, str], str]:
    """A copy of this interpreter's binary and libpython under ``root`` that loads the copy
    (LD_LIBRARY_PATH comes before the binary's RUNPATH), on the same standard library:
    (argv of its ``hookwise hook``, its environment, the copied libpython)."""
    assert LIBPYTHON is not None
    (root / "bin").mkdir(parents=True)
    (root / "lib").mkdir()
    binary = root / "bin" / os.path.basename(os.path.realpath(sys.executable))
    shutil.copy2(os.path.realpath(sys.executable), binary)
    library = root / "lib" / os.path.basename(LIBPYTHON)
    shutil.copy2(LIBPYTHON, library)
    environment = dict(os.environ)
    environment["LD_LIBRARY_PATH"] = str(root / "lib")
    environment["PYTHONHOME"] = sys.base_prefix
    environment["PYTHONPATH"] = SOURCE
    return [str(binary), "-m", "hookwise", "hook"], environment, str(library)


def _hook(
    argv: list[str], environment: dict[str, str], command: str, cwd: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        input=pre_payload("claude", command, cwd),
        capture_output=True,
        text=True,
        env=environment,
        cwd=cwd,
        timeout=60,
        check=False,
    )


@pytest.mark.skipif(LIBPYTHON is None, reason="this interpreter maps no libpython (static)")
def test_truncating_the_hooks_libpython_is_denied_and_would_kill_every_hook(
    isolated: Path,
) -> None:
    """s33 #1 on a private copy: the hook that runs on it denies the write naming the copy;
    the same write made anyway (as a person could) leaves every later hook dead in the
    loader, exit 127 and no decision: what the denial keeps."""
    argv, environment, library = _private_interpreter(isolated / "py")
    environment["HOOKWISE_AUDIT_LOG"] = str(isolated / "audit.jsonl")
    environment["HOOKWISE_CACHE_DIR"] = str(isolated / "cache")
    cwd = str(isolated)
    result = _hook(argv, environment, f"truncate -s 0 {library}", cwd)
    assert result.returncode == 0, result.stderr
    assert '"deny"' in result.stdout, result.stdout
    assert library in result.stdout and "maps" in result.stdout
    for command in (f"cp /dev/null {library}", f"sleep 100 3>>{library} &"):
        assert '"deny"' in _hook(argv, environment, command, cwd).stdout, command
    # the attack itself, outside the agent: every later hook dies before any decision
    subprocess.run(["truncate", "-s", "0", library], check=True)
    after = _hook(argv, environment, "echo hi", cwd)
    assert after.returncode == 127 and after.stdout == ""
    assert "file too short" in after.stderr or "error while loading" in after.stderr


@pytest.mark.skipif(LIBPYTHON is None, reason="this interpreter maps no libpython (static)")
def test_the_machines_hook_denies_its_own_libpython(env: dict[str, str], isolated: Path) -> None:  # noqa: F811
    """The installed hook, on this interpreter's libpython (decided, never run)."""
    assert LIBPYTHON is not None
    if not os.access(LIBPYTHON, os.W_OK):
        pytest.skip("this user cannot change the interpreter's libpython")
    decision, reason = decide(env, f"truncate -s 0 {LIBPYTHON}", str(isolated))
    assert decision == "deny" and LIBPYTHON in reason


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can change the loader and its config")
@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("echo /tmp/quiet_hook.so > /etc/ld.so.preload", "/etc/ld.so.preload"),
        ("printf '/opt/x\\n' > /etc/ld.so.conf.d/zz.conf", "/etc/ld.so.conf.d"),
        ("cp /tmp/x /etc/ld.so.cache", "/etc/ld.so.cache"),
        (f"cp /tmp/x {os.path.realpath('/lib64/ld-linux-x86-64.so.2')}", "ld-linux"),
        (
            f"cp /tmp/x {next((p for p in MAPPED if '/libc.so' in p), '/lib/libc.so.6')}",
            "libc",
        ),
    ],
)
def test_root_cannot_change_the_loader_nor_what_it_maps(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
    named: str,
) -> None:
    """s33 #4: the loader's configuration and the libraries every hook maps."""
    decision, reason = decide(env, command, str(isolated))
    assert decision == "deny", (command, reason)
    assert named in reason and "hookwise protects its own guardrails" in reason


def test_a_node_or_a_hosts_command_planted_on_path_is_denied(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """s33 #5a: ~/.local/bin comes first on PATH (made by the very line that plants)."""
    for command, name in (
        ("mkdir -p ~/.local/bin && printf '#!/bin/sh\\n' > ~/.local/bin/node", "node"),
        ("cp /tmp/x ~/.local/bin/gemini", "gemini"),
        ("ln -s /tmp/evil ~/.local/bin/claude", "claude"),
        ("printf x > ~/.local/bin/codex", "codex"),
        ("printf x > ~/.local/bin/cursor-agent", "cursor-agent"),
    ):
        decision, reason = decide(env, command, str(isolated))
        assert decision == "deny", (command, reason)
        assert f".local/bin/{name}" in reason, reason
    # the directory stays the user's for anything else
    assert decide(env, "cp /tmp/x ~/.local/bin/mytool", str(isolated))[0] is None


def _fake_installs(isolated: Path, environment: dict[str, str]) -> tuple[Path, Path]:
    """Claude Code's native install (a launcher linked to a versioned binary) and an npm
    prefix's Gemini CLI (a bin link into its package), both on PATH."""
    home = isolated / "home"
    versions = home / ".local/share/claude/versions"
    versions.mkdir(parents=True)
    binary = versions / "2.1.330"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    launchers = home / "bin"
    launchers.mkdir()
    (launchers / "claude").symlink_to(binary)
    package = isolated / "npm/lib/node_modules/@google/gemini-cli"
    (package / "dist").mkdir(parents=True)
    (package / "package.json").write_text("{}\n")
    (package / "dist/index.js").write_text("#!/usr/bin/env node\n")
    (package / "dist/index.js").chmod(0o755)
    (isolated / "npm/bin").mkdir()
    (isolated / "npm/bin/gemini").symlink_to(package / "dist/index.js")
    environment["PATH"] = environment["PATH"].replace(
        ":", f":{launchers}:{isolated / 'npm/bin'}:", 1
    )
    return versions, package


def test_a_hosts_install_is_denied(env: dict[str, str], isolated: Path) -> None:  # noqa: F811
    """s33 #5: where the host's command resolves (its versions, its npm package)."""
    versions, package = _fake_installs(isolated, env)
    for command, named in (
        (f"cp /tmp/x {versions}/2.1.330", str(versions)),
        (f"printf '' >> {package}/package.json", str(package)),
        (f"sed -i 1d {package}/dist/index.js", str(package)),
    ):
        decision, reason = decide(env, command, str(isolated))
        assert decision == "deny", (command, reason)
        assert named in reason and "install" in reason, reason
    # an archive's names into it: unknown until it runs (not passed over as a PATH program's)
    decision, reason = decide(env, f"tar -xf /tmp/gemini.tar -C {package}", str(isolated))
    assert decision == "ask" and str(package) in reason, reason


def test_the_session_guards_the_same_programs(env: dict[str, str], isolated: Path) -> None:  # noqa: F811
    """s33 #5b: `hookwise run` makes the same names placeholders on PATH and binds the
    hosts' installs read-only (one list: hook_code.program_names)."""
    from hookwise.run import guarded_paths

    versions, package = _fake_installs(isolated, env)
    found = {g.path: g for g in guarded_paths.guarded_paths(env, str(isolated))}
    local = isolated / "home/.local/bin"  # (first on PATH; home/bin and npm/bin after it)
    for name, _why in hook_code.program_names():
        assert str(local / name) in found, name
    assert str(isolated / "home/bin/gemini") in found  # before the real one
    assert found[str(versions)].role == guarded_paths.CODE
    assert found[str(package)].role == guarded_paths.CODE
    # and the interpreter's libpython, wherever the loader found it
    if LIBPYTHON is not None and os.access(LIBPYTHON, os.W_OK):
        assert any(g.path == LIBPYTHON for g in found.values())


def test_the_host_commands_are_the_protocol_tables() -> None:
    """One list: the names come from HostInfo.commands."""
    from hookwise.protocol.hosts import HOSTS

    names = {name for name, _why in hook_code.program_names()}
    assert {c for h in HOSTS.values() for c in h.commands} <= names
    assert {"node", "bash", "sh", "hookwise"} <= names
