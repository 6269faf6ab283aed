"""A second newcomer's audit (issue 14): the CLI's one word for the project directory, and
wrong invocations a first hour produces, each run as a user would: the real ``hookwise``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.usage.conftest import User

BLOCKING_PROJECT_HOOK = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": 'echo ran > "$CLAUDE_PROJECT_DIR/ran.txt"; echo no >&2; exit 2',
                    }
                ],
            }
        ]
    }
}

SCENARIO = (
    "name: trust\nhost: claude\nsteps:\n  - user: list the files\n    model:\n"
    "      - calls:\n          - name: Bash\n            args: {command: ls}\n"
    "            result: x\n      - text: done\n"
)


def _untrusted_claude_project(user: User) -> Path:
    settings = user.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(BLOCKING_PROJECT_HOOK), encoding="utf-8")
    scenario = user.home / "session.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    return scenario


@pytest.mark.parametrize("command", ["simulate", "fire"])
def test_help_speaks_of_the_project_not_the_workspace(user: User, command: str) -> None:
    shown = user.run(command, "--help").stdout
    assert "--trust-project" in shown
    assert "workspace" not in shown.lower(), shown


@pytest.mark.parametrize("flag", [None, "--trust-project", "--trust-workspace"])
def test_simulate_trusts_the_project_for_one_run(user: User, flag: str | None) -> None:
    """--trust-project runs the project's own hooks; --trust-workspace is its old name."""
    scenario = _untrusted_claude_project(user)
    args = ["simulate", str(scenario), "--project", str(user.project), "--json"]
    args += ["--rollout", str(user.home / "rollout.jsonl")]
    result = user.run(*args, *([flag] if flag else []))
    ran = (user.project / "ran.txt").exists()
    document = json.loads(result.stdout)
    tool = next(e for e in document["events"] if e.get("name") == "tool_call")
    if flag is None:
        assert not ran
        assert "will not run until the project is trusted" in result.stderr
    else:
        assert ran, result.stderr
        assert "not run" not in result.stderr
        assert tool["data"]["status"] == "blocked", tool
    assert not (user.home / ".claude.json").exists()  # nothing recorded as trusted


def test_turns_check_takes_the_project_option(user: User, tmp_path: Path) -> None:
    """The docs' example, verbatim; --project is the one spelling, the argument its former."""
    agent = user.project / ".agent"
    agent.mkdir()
    (agent / "hook.toml").write_text(
        '[turn_start]\ncomand = "scripts/context.sh"\n\n[turn_end]\nrun_on_hook_input = true\n'
    )
    found = user.run("turns", "check", check=1)
    assert found.stderr.splitlines() == [
        "Error: .agent/hook.toml:1: turn_start: missing required key 'command' "
        "(the program to run)",
        ".agent/hook.toml:2: turn_start.comand: unknown key (expected one of: command, args, "
        "run_on_hook_input, timeout_ms); did you mean 'command'?",
        ".agent/hook.toml:4: turn_end: missing required key 'command' (the program to run)",
        ".agent/hook.toml:5: turn_end.run_on_hook_input: unknown key; run_on_hook_input is "
        "only valid in [turn_start]",
    ]
    elsewhere = user.run("turns", "check", "--project", str(user.project), cwd=tmp_path, check=1)
    assert f"{agent / 'hook.toml'}:2: turn_start.comand" in elsewhere.stderr
    assert user.run("turns", "check", str(user.project), cwd=tmp_path, check=1).stderr == (
        elsewhere.stderr
    )
    missing = user.run("turns", "check", "--project", str(tmp_path / "nope"), check=2)
    assert "Invalid value for '--project'" in missing.stderr and "does not exist" in missing.stderr
    assert "workspace" not in user.run("turns", "check", "--help").stdout.lower()


def test_hooks_trust_for_codex_trusts_codex_not_gemini(user: User) -> None:
    """`hooks trust --host codex` used to approve Gemini CLI's hooks and say nothing of
    Codex; doctor's advice for an untrusted Codex project now names a command that works."""
    user.run("policy", "init")
    user.run("install", "codex")
    config = user.home / ".codex" / "config.toml"
    before = config.read_text()
    doctor = user.run("doctor", "--host", "codex", check=1)
    assert "hookwise hooks trust --host codex --folder" in doctor.stdout

    listed = user.run("hooks", "trust", "--host", "codex", "--list", "--json")
    assert json.loads(listed.stdout)["hooks"] == []  # install approved its own hook
    approved = user.run("hooks", "trust", "--host", "codex")
    assert "Approved 1 project hook" in approved.stdout
    assert "hookwise hooks trust --host codex --folder" in approved.stdout
    assert config.read_text() == before  # without --folder Codex's own file is untouched
    assert not (user.home / ".gemini").exists()

    trusted = json.loads(user.run("hooks", "trust", "--host", "codex", "--folder", "--json").stdout)
    assert trusted["projectTrusted"] is True
    assert config.read_text() == (
        f'{before}\n[projects."{user.project}"]\ntrust_level = "trusted"\n'
    )
    assert "all good" in user.run("doctor", "--host", "codex").stdout
    user.run("hooks", "trust", "--host", "codex", "--folder")  # twice: one entry
    assert config.read_text().count("[projects.") == 1
    assert not (user.home / ".gemini").exists()


def test_hooks_trust_for_codex_refuses_a_layout_it_cannot_edit(user: User) -> None:
    codex = user.home / ".codex"
    codex.mkdir()
    (user.project / ".codex").mkdir()
    (user.project / ".codex" / "hooks.json").write_text('{"hooks": {}}')
    config = codex / "config.toml"
    inline = f'projects = {{ "{user.project}" = {{ trust_level = "untrusted" }} }}\n'
    config.write_text(inline)
    refused = user.run("hooks", "trust", "--host", "codex", "--folder", check=2)
    assert f"{config}: cannot record the project trust safely" in refused.stderr
    assert f'[projects."{user.project}"]\ntrust_level = "trusted"' in refused.stderr
    assert config.read_text() == inline
    config.write_text("model = \n")
    broken = user.run("hooks", "trust", "--host", "codex", "--folder", check=2)
    assert f"{config}:1:" in broken.stderr and "invalid TOML" in broken.stderr
    assert config.read_text() == "model = \n"


# A newcomer's wrong invocations: (arguments, stdin, exit code, what the message must say).
# 2 is a usage or input error (README: an unknown option or value, a file that cannot be
# read or parsed), 1 a check that failed.
WRONG = [
    (["polcy", "init"], "", 2, "No such command 'polcy'. Did you mean 'policy'?"),
    (["install", "claud"], "", 2, "'claud' is not one of 'gemini', 'claude', 'codex'"),
    (["install", "claude", "--scope", "global"], "", 2, "'global' is not one of 'project'"),
    (["install", "claude", "--project", "/etc/passwd"], "", 2, "'/etc/passwd' is a file"),
    (["explain", "missing.json"], "", 2, "cannot read missing.json: no such file or directory"),
    (["explain", "."], "", 2, "cannot read .: is a directory"),
    (["explain", "-"], "", 2, "stdin: not JSON ("),
    (["explain", "-"], "[1, 2]", 2, "stdin: not a JSON object; a hook event is one"),
    (["test", "missing.yaml"], "", 2, "cannot read missing.yaml: no such file or directory"),
    (["logs", "-n", "-5"], "", 2, "-5 is not in the range x>=0"),
    (["logs", "--since", "tomorrowish"], "", 2, "'tomorrowish' is not a time"),
    (["logs", "--path", "nowhere.jsonl"], "", 2, "--path nowhere.jsonl: no such file"),
    (["fire", "BeforeToool"], "", 2, "unknown Gemini hook event 'BeforeToool'; expected one of"),
    (["fire", "BeforeTool", "--payload", "missing.json"], "", 2, "cannot read missing.json"),
    (["simulate", "nope.yaml"], "", 2, "nope.yaml: no such file"),
    (["migrate", "--from", "claude", "--to", "claude"], "", 2, "must name different agents"),
    (["policy", "validate", "nope.yaml"], "", 2, "nope.yaml: no such file"),
    (["policy", "init"], "", 2, "policy.yaml exists (use --force to overwrite it)"),
    (["policy", "trust", "nope.yaml"], "", 2, "nope.yaml: does not exist"),
    (["conformance", "gemini"], "", 2, "no case on stdin"),
    (["conformance", "gemini", "--batch"], "x\n", 2, "line 1: not JSON"),
    (["rollout", "show", "missing.jsonl"], "", 2, "missing.jsonl: cannot read"),
    (["hooks", "enable", "nope"], "", 2, 'no hook named "nope" is defined here'),
    (["hooks", "disable", "nope"], "", 2, 'no hook named "nope" is defined here'),
    (["scan", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not exist"),
    (["turns", "check", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not exist"),
    (["doctor", "--host", "claud"], "", 2, "'claud' is not one of"),
    (["serve", "--port", "99999"], "", 2, "99999 is not in the range 0<=x<=65535"),
    (["serve", "--bind", "nope.invalid", "--port", "0"], "", 2, "'nope.invalid' does not resolve"),
    (["explain", "-", "--project", "nowhere"], "{}", 2, "Directory 'nowhere' does not exist"),
    (["fire", "BeforeTool", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not"),
    (["migrate", "--from", "claude", "--to", "gemini", "--project", "nowhere"], "", 2, "nowhere"),
    (["policy", "show", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not exist"),
    (["simulate", "s.yaml", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not"),
    (["hooks", "list", "--project", "nowhere"], "", 2, "Directory 'nowhere' does not exist"),
    (["hook", "--platform", "claud"], "{}", 2, "unknown host 'claud'"),
    (["hook", "--platform", "claude"], "garbage", 2, "stdin is not a JSON event"),
]


@pytest.mark.parametrize(("args", "stdin", "code", "says"), WRONG, ids=lambda v: str(v)[:40])
def test_wrong_invocations_say_what_is_wrong(
    user: User, args: list[str], stdin: str, code: int, says: str
) -> None:
    user.run("policy", "init")
    before = sorted(p for p in user.project.rglob("*") if ".git" not in p.parts)
    result = user.run(*args, stdin=stdin, check=code)  # no traceback: User.run checks
    assert says in result.stderr, result.stderr
    after = sorted(p for p in user.project.rglob("*") if ".git" not in p.parts)
    assert after == before  # a refused command leaves nothing behind


def test_a_scenario_file_names_its_missing_policy(user: User) -> None:
    """docs/policy.md's scenario example runs verbatim from the project root, and a
    `policy:` that names nothing says which key and where it looked."""
    user.run("policy", "init")
    docs = Path(__file__).resolve().parents[2] / "docs" / "policy.md"
    text = docs.read_text(encoding="utf-8")
    start = text.index("```yaml\npolicy: ") + len("```yaml\n")
    example = text[start : text.index("```", start)]
    scenarios = user.project / "scenarios.yaml"
    scenarios.write_text(example, encoding="utf-8")
    assert "2 passed, 0 failed" in user.run("test", "scenarios.yaml").stdout
    scenarios.write_text(example.replace("policy: .hookwise/", "policy: ../.hookwise/"))
    missing = user.run("test", "scenarios.yaml", check=2)
    assert (
        f"scenarios.yaml: policy: no such policy file {user.project.parent}/.hookwise/policy.yaml"
        in missing.stderr
    )
    assert "--policy nope.yaml: no such policy file" in (
        user.run("test", "scenarios.yaml", "--policy", "nope.yaml", check=2).stderr
    )


def test_token_mistakes_are_input_errors(user: User, tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "service")]
    user.run("serve", "token", "add", "laptop", "--role", "agent", *data)
    again = user.run("serve", "token", "add", "laptop", "--role", "agent", *data, check=2)
    assert "a token named 'laptop' exists" in again.stderr
    nobody = user.run("serve", "token", "revoke", "nobody", *data, check=2)
    assert "no token named 'nobody'" in nobody.stderr
    role = user.run("serve", "token", "add", "x", "--role", "admin", *data, check=2)
    assert "'admin' is not one of 'approver', 'agent'" in role.stderr


def test_explain_on_a_terminal_says_it_reads_stdin(user: User) -> None:
    """A bare `hookwise explain` in a terminal waits for the event: it says so."""
    user.run("policy", "init")
    import os
    import pty
    import time

    from tests.usage.conftest import HOOKWISE

    pid, fd = pty.fork()
    if pid == 0:  # the child: hookwise with the terminal on stdin
        os.chdir(user.project)
        os.execve(HOOKWISE, [HOOKWISE, "explain"], user.env)
    output = b""
    deadline = time.monotonic() + 60
    while b"Ctrl-D" not in output and time.monotonic() < deadline:
        output += os.read(fd, 4096)
    os.write(fd, b'{"hook_event_name": "PreToolUse", "tool_name": "Bash",\n')
    os.write(fd, b'"tool_input": {"command": "git push -f origin main"}}\n\x04')
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    text = output.decode(errors="replace")
    assert "reading the hook event (JSON) from stdin; end it with Ctrl-D" in text
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "decision: deny by rule 'no-force-push'" in text


def test_hooks_trust_from_a_subdirectory_trusts_the_project_doctor_checks(user: User) -> None:
    """doctor advises `hookwise hooks trust --folder`; from a subdirectory that used to
    trust the subdirectory, and doctor kept failing."""
    user.run("policy", "init")
    sub = user.project / "src" / "pkg"
    sub.mkdir(parents=True)
    user.run("install", "gemini", cwd=sub)
    advice = user.run("doctor", "--host", "gemini", cwd=sub, check=1).stdout
    assert "hookwise hooks trust --folder" in advice
    done = user.run("hooks", "trust", "--folder", cwd=sub)
    assert f"Trusted folder {user.project} " in done.stdout
    folders = json.loads((user.home / ".gemini" / "trustedFolders.json").read_text())
    assert folders == {str(user.project): "TRUST_FOLDER"}
    # the trust holds at the root; doctor run in the subdirectory now checks Gemini CLI as
    # started there, which reads no project settings from the root (not registered here),
    # so the root's checks are asked for with --project
    root = str(user.project)
    assert "all good" in user.run("doctor", "--host", "gemini", "--project", root, cwd=sub).stdout
    listed = user.run("hooks", "list", "--host", "gemini", cwd=sub).stdout
    assert listed.startswith(f"Gemini CLI hooks · project {user.project} ")


def test_scan_takes_the_project_option(user: User, tmp_path: Path) -> None:
    """docs/scan.md's CI line, verbatim; the positional directory is its former spelling."""
    user.run("policy", "init")
    user.run("install", "claude")
    line = (
        "scan --project . --format sarif --output hookwise.sarif --fail-on high "
        "--baseline .hookwise/scan-baseline.json"
    )
    docs = (Path(__file__).resolve().parents[2] / "docs" / "scan.md").read_text()
    assert f"hookwise {line}" in docs
    user.run(*line.split())
    sarif = json.loads((user.project / "hookwise.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    by_option = json.loads(
        user.run("scan", "--project", str(user.project), "--format", "json", cwd=tmp_path).stdout
    )
    by_argument = json.loads(
        user.run("scan", str(user.project), "--format", "json", cwd=tmp_path).stdout
    )
    assert by_option == by_argument
    assert any("hookwise" in str(item) for item in by_option["runnables"])
    both = user.run("scan", str(tmp_path), "--project", str(user.project), check=2)
    assert "give the project once" in both.stderr


def test_make_demo_prints_plain_text_to_a_pipe(user: User) -> None:
    """`make demo | less` showed raw escape codes and "warning: WARNING:"."""
    import subprocess

    from tests.usage.conftest import HOOKWISE

    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in user.env.items() if k != "NO_COLOR"}
    env |= {
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "HOOKWISE_EXAMPLE_BIN": str(Path(HOOKWISE).parent),
    }
    demo = subprocess.run(  # noqa: PLW1510 (checked below)
        ["sh", str(repo / "examples" / "gemini-project" / "demo.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr
    assert "\x1b" not in demo.stdout + demo.stderr
    assert "\n=== BeforeTool: rm -rf is blocked (exit 2, reason from stderr)\n" in demo.stdout
    assert "warning: WARNING:" not in demo.stderr
    assert "Traceback" not in demo.stderr


def test_settings_files_it_cannot_parse_are_input_errors(user: User) -> None:
    """install, uninstall and hooks trust refuse a broken file (exit 2) and write nothing."""
    user.run("policy", "init")
    claude = user.project / ".claude" / "settings.json"
    claude.parent.mkdir()
    claude.write_text('{"hooks": {,}}')
    refused = user.run("install", "claude", check=2)
    assert f"{claude}:1:12: invalid JSON" in refused.stderr and "nothing written" in refused.stderr
    assert user.run("uninstall", "claude", check=2).stderr.count("invalid JSON") == 1
    assert claude.read_text() == '{"hooks": {,}}'
    folders = user.home / ".gemini" / "trustedFolders.json"
    folders.parent.mkdir()
    folders.write_text("nope")
    broken = user.run("hooks", "trust", "--folder", "--host", "gemini", check=2)
    assert f"{folders}:1:1: invalid JSON" in broken.stderr
    assert folders.read_text() == "nope"
    config = user.home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text("x = [")
    toml = user.run("install", "codex", check=2)
    assert f"{config}: invalid TOML" in toml.stderr
    assert not (user.project / ".codex").exists()
