"""``hookwise run``'s command line: parsing, help, --print-paths, errors, registration."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli
from hookwise.cli.run_cmd import UsageError, parse
from hookwise.run.available import available
from tests.run.conftest import HOOKWISE, World


def test_options_then_the_command() -> None:
    options = parse(["--protect-secrets", "--host", "claude", "--", "claude", "--resume"])
    assert options.protect_secrets and options.host == "claude"
    assert options.command == ["claude", "--resume"]
    # the command's own options are never hookwise's
    assert parse(["ls", "--print-paths"]).command == ["ls", "--print-paths"]
    assert parse(["--host=codex"]).command == ["codex"]  # the host's CLI by default
    assert parse(["--print-paths"]).print_paths
    hardened = parse(["--read-only-proc", "--on-hook-lost=stop", "--", "x"])
    assert hardened.read_only_proc and hardened.on_hook_lost == "stop"
    assert parse(["--on-hook-lost", "report", "x"]).on_hook_lost == "report"
    assert parse(["x"]).on_hook_lost == "report" and not parse(["x"]).read_only_proc


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host"], "--host needs a value"),
        (["--host", "cursor", "--", "x"], "--host 'cursor': one of gemini, claude, codex"),
        (["--frobnicate", "--", "x"], "no such option: --frobnicate"),
        (["--on-hook-lost", "ignore", "x"], "--on-hook-lost 'ignore': one of report, stop"),
        (["--on-hook-lost"], "--on-hook-lost needs a value"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse(args)


def test_the_console_script_answers_help_and_usage_errors(world: World) -> None:
    helped = subprocess.run(
        [HOOKWISE, "run", "--help"], capture_output=True, text=True, check=False
    )
    assert helped.returncode == 0
    assert helped.stdout.startswith("Usage: hookwise run")
    missing = subprocess.run([HOOKWISE, "run"], capture_output=True, text=True, check=False)
    assert missing.returncode == 2
    assert "no command to run" in missing.stderr
    wrong = subprocess.run(
        [HOOKWISE, "run", "--nope", "--", "true"], capture_output=True, text=True, check=False
    )
    assert wrong.returncode == 2
    assert "no such option: --nope" in wrong.stderr


def test_print_paths_lists_what_a_session_protects(world: World) -> None:
    done = subprocess.run(
        [HOOKWISE, "run", "--print-paths"],
        cwd=world.project,
        env=world.env,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert f"read-only  {world.project / '.hookwise'}  (state: project policy" in done.stdout
    assert any(
        line.startswith(f"read-only  {world.project / '.gemini'}  ") and "made empty" in line
        for line in lines
    )
    assert f"read-only  {world.audit_log}  (audit log" in done.stdout
    assert not (world.project / ".gemini").exists()  # listing makes nothing


def test_the_command_is_registered_in_the_cli(world: World) -> None:
    runner = CliRunner()
    listed = runner.invoke(cli, ["--help"])
    assert " run " in listed.output
    shown = runner.invoke(cli, ["run", "--help"])
    assert shown.exit_code == 0
    assert "Usage: hookwise run" in shown.output


@pytest.mark.skipif(available() is None, reason="the refusal is for machines without namespaces")
def test_it_refuses_where_it_cannot_confine(world: World) -> None:
    done = world.run("echo STARTED")
    assert done.returncode == 125
    assert "cannot confine here" in done.stderr and "STARTED" not in done.stdout


def test_available_names_the_setting_that_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookwise.run import available as module

    switch = tmp_path / "max_user_namespaces"
    switch.write_text("0\n")
    rows = [(str(switch), "0", False, "user namespaces are disabled"), *module._SYSCTLS[1:]]
    monkeypatch.setattr(module, "_SYSCTLS", tuple(rows))
    assert module.available(probe=False) == "user namespaces are disabled"
    switch.write_text("15000\n")
    assert module.available(probe=False) != "user namespaces are disabled"
