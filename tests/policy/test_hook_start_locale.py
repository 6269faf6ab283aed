"""What the environment makes the hook's interpreter read before its first line (red team s28
run #1): a project ``.env`` (Gemini CLI exports it to hooks) set ``LOCPATH`` and
``LC_CTYPE`` to a locale whose charset no Python codec knows; Python stopped in
``init_fs_encoding`` with exit 1, no hookwise line ran, and the host ran the tool.

Each test starts the registered command as the hosts do (their shell, ``-c``), with a locale
made by ``localedef`` in its environment, and asks for an answer: deny, for each host's
payload, through the launcher, the ``hookwise hook`` fallback and the direct command.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.config.hookwise_command import portable_argv
from hookwise.policy.install.launcher import hook_argv, launcher_text
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.scopes import launcher_path
from hookwise.policy.trust.store import trust_file
from hookwise.protocol import guard_env

CHARMAP = Path("/usr/share/i18n/charmaps/ANSI_X3.4-1968.gz")
POLICY = """\
version: 1
rules:
  - {id: no-curl, match: {tool: shell, command: curl}, action: deny, reason: no curl here}
"""
# how each host names the event and the tool, and the shell it runs hook commands with
HOSTS = {
    "claude": ("PreToolUse", "Bash", "sh"),
    "gemini": ("BeforeTool", "run_shell_command", "bash"),
    "codex": ("PreToolUse", "Bash", "bash"),
}


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<dir>/xx``: the ASCII charmap renamed to a charset no codec knows, as a tool call
    can make it (the red team's mklocale.sh)."""
    if shutil.which("localedef") is None or not CHARMAP.is_file():
        pytest.skip("no localedef or glibc charmaps here")
    base = tmp_path_factory.mktemp("loc")
    text = gzip.decompress(CHARMAP.read_bytes()).decode("ascii", "replace")
    (base / "bogus.cm").write_text(
        text.replace("<code_set_name> ANSI_X3.4-1968", "<code_set_name> HOOKWISEBOGUS")
    )
    subprocess.run(
        ["localedef", "-f", str(base / "bogus.cm"), "-i", "POSIX", str(base / "xx")],
        capture_output=True,
        check=False,
    )
    if not (base / "xx" / "LC_CTYPE").is_file():
        pytest.skip("localedef made no locale")
    # the attack as such: a plain interpreter dies before its first line
    plain = subprocess.run(
        [sys.executable, "-IS", "-c", "print('ran')"],
        env={**hostile(base)[0], "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=False,
    )
    assert plain.returncode != 0 and "ran" not in plain.stdout, plain
    return base


def hostile(base: Path) -> list[dict[str, str]]:
    """The ways the environment names the locale: LC_CTYPE (the red team's), LC_ALL, LANG."""
    return [
        {"LOCPATH": str(base), "LC_CTYPE": "xx"},
        {"LOCPATH": str(base), "LC_ALL": "xx"},
        {"LOCPATH": str(base), "LANG": "xx"},
    ]


@pytest.fixture
def env(isolated: Path) -> dict[str, str]:
    policy = isolated / "policy.yaml"
    policy.write_text(POLICY)
    environment = {k: v for k, v in os.environ.items() if not guard_env.listed(k, guard_env.LIBC)}
    environment.update(
        {
            "HOOKWISE_POLICY": str(policy),
            "HOOKWISE_AUDIT_LOG": str(isolated / "audit.jsonl"),
            "HOOKWISE_CACHE_DIR": str(isolated / "cache"),
        }
    )
    environment.pop("LOCPATH", None)
    trust_file(str(policy), environment)
    return environment


def install_launcher(env: dict[str, str]) -> None:
    launcher = Path(launcher_path(env))
    launcher.parent.mkdir(parents=True, exist_ok=True)
    launcher.write_text(launcher_text(str(launcher)))
    launcher.chmod(0o755)


def payload(host: str, cwd: str) -> dict[str, Any]:
    event, tool, _shell = HOSTS[host]
    return build_payload(host, event, tool=tool, tool_input={"command": "curl x"}, cwd=cwd)


def denied(result: subprocess.CompletedProcess[str]) -> bool:
    """The hook blocked: exit 2, or a JSON answer that denies (each host's form)."""
    if result.returncode == 2:
        return True
    if result.returncode != 0 or not result.stdout.strip():
        return False
    answer = json.loads(result.stdout)
    inner = answer.get("hookSpecificOutput") or {}
    return "deny" in (answer.get("decision"), inner.get("permissionDecision")) or (
        answer.get("decision") == "block"
    )


def run(argv: list[str], env: dict[str, str], host: str, cwd: Path) -> Any:
    return subprocess.run(
        argv,
        input=json.dumps(payload(host, str(cwd))),
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_the_registered_command_answers_under_a_locale_python_cannot_read(
    host: str, env: dict[str, str], locale_dir: Path, isolated: Path
) -> None:
    install_launcher(env)
    shell = HOSTS[host][2]
    argv = [shell, *portable_argv(host)[1:]]
    assert denied(run(argv, env, host, isolated))  # control
    for extra in hostile(locale_dir):
        result = run(argv, {**env, **extra}, host, isolated)
        assert denied(result), (extra, result.returncode, result.stdout, result.stderr)
        assert "Fatal Python error" not in result.stderr


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_the_direct_command_answers_under_that_locale(
    host: str, env: dict[str, str], locale_dir: Path, isolated: Path
) -> None:
    """A direct command (``--direct``) has no shell text to set the locale: UTF-8 mode."""
    for extra in hostile(locale_dir):
        result = run(hook_argv(host), {**env, **extra}, host, isolated)
        assert denied(result), (extra, result.returncode, result.stderr)


def test_the_fallback_answers_under_that_locale(
    env: dict[str, str], locale_dir: Path, isolated: Path
) -> None:
    """No launcher: ``hookwise`` from PATH (the console script, whose interpreter reads the
    locale)."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**env, "PATH": f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"}
    for extra in hostile(locale_dir):
        result = run(portable_argv("gemini"), {**env, **extra}, "gemini", isolated)
        assert denied(result), (extra, result.returncode, result.stderr)
        assert "Fatal Python error" not in result.stderr


@pytest.mark.parametrize("status", [1, 3, 125])
def test_a_fallback_that_dies_without_answering_blocks(
    status: int, env: dict[str, str], isolated: Path
) -> None:
    """Whatever else stops the fallback's interpreter (status 1: a Fatal Python error, any
    crash) blocks, saying why; before, any status below 126 passed and the host ran the
    tool."""
    fake = isolated / "bin"
    fake.mkdir()
    (fake / "hookwise").write_text(f"#!/bin/sh\necho 'Fatal Python error: x' >&2\nexit {status}\n")
    (fake / "hookwise").chmod(0o755)
    env = {**env, "PATH": f"{fake}:/usr/bin:/bin"}
    result = run(portable_argv("gemini"), env, "gemini", isolated)
    assert result.returncode == 2, result
    assert f"exited with status {status} without answering" in result.stderr


def test_the_locale_variables_are_in_the_one_table() -> None:
    from hookwise.config.env_files import affects_hooks
    from hookwise.mcp_proxy import loader_env

    for name in ("LOCPATH", "LC_CTYPE", "LC_ALL", "LANG", "NLSPATH", "MALLOC_ARENA_MAX"):
        assert affects_hooks(name), name  # hookwise run's refusal, doctor
    assert loader_env({"LOCPATH": "x", "LD_PRELOAD": "y", "LANG": "C"}) == [
        "LD_PRELOAD",
        "LOCPATH",
    ]
