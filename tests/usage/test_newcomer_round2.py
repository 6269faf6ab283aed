"""Issue 26 ("a newcomer's first hour, round 2"): each item as a user meets it.

A fresh HOME and project (tests/usage/conftest.py), ``hookwise`` run as a real process.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.usage.conftest import User

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gemini-project"


def _claude_user_hook(user: User) -> None:
    """Any hook in ~/.claude/settings.json: most Claude Code users have one."""
    settings = user.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    hook = {"type": "command", "command": "true"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}))


def test_readme_fire_example_with_a_claude_user_hook(user: User) -> None:
    """Item 2: `fire BeforeTool` is Gemini's event whatever else the user has set up."""
    _claude_user_hook(user)
    example = user.home / "gemini-project"
    shutil.copytree(EXAMPLE, example)
    user.run("hooks", "trust", "--folder", "--project", str(example))
    fired = user.run(
        "fire",
        "BeforeTool",
        "--project",
        str(example),
        "--payload",
        str(example / "payloads" / "shell_rm_rf.json"),
    )
    assert "unknown claude hook event" not in fired.stdout + fired.stderr
    fired = user.run(
        "fire",
        "BeforeTool",
        "--payload",
        "-",
        "--json",
        stdin='{"tool_name":"read_file","tool_input":{"absolute_path":"a"}}',
        cwd=user.home,
    )
    assert json.loads(fired.stdout)["effect"]


def test_fire_an_event_several_hosts_have_asks_for_host(user: User) -> None:
    """Item 2: with all three hosts installed, PreToolUse is Claude Code's or Codex's."""
    user.run("policy", "init")
    user.run("policy", "trust")
    for host in ("claude", "gemini", "codex"):
        user.run("install", host)
    payload = '{"tool_name":"Bash","tool_input":{"command":"ls"}}'
    ambiguous = user.run("fire", "PreToolUse", "--payload", "-", stdin=payload, check=2)
    assert "PreToolUse is an event of Claude Code and Codex" in ambiguous.stderr
    assert "--host claude or --host codex" in ambiguous.stderr
    user.run("fire", "PreToolUse", "--host", "claude", "--payload", "-", stdin=payload)
    # BeforeTool is Gemini's alone: no --host needed
    gemini = '{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}'
    user.run("fire", "BeforeTool", "--payload", "-", "--trust-project", stdin=gemini)
    listed = user.run("hooks", "list")
    assert listed.stdout.startswith("Gemini CLI hooks (detected"), listed.stdout
    listed = user.run("hooks", "list", "--host", "codex")
    assert listed.stdout.startswith("Codex hooks · project"), listed.stdout
    assert json.loads(user.run("hooks", "list", "--host", "claude", "--json").stdout)["host"] == (
        "claude"
    )


def test_fire_a_claude_only_project_needs_no_host(user: User) -> None:
    """Item 2: PreToolUse in a project set up for Claude Code alone is Claude Code's."""
    user.run("policy", "init")
    user.run("policy", "trust")
    user.run("install", "claude")
    payload = '{"tool_name":"Bash","tool_input":{"command":"ls"}}'
    fired = user.run("fire", "PreToolUse", "--payload", "-", "--trust-project", stdin=payload)
    assert "hookwise" in fired.stdout


def _serve_banner(user: User) -> list[str]:
    """`hookwise serve` started as a user does, its start lines, then Ctrl-C."""
    import signal
    import subprocess

    from tests.usage.conftest import HOOKWISE

    proc = subprocess.Popen(
        [HOOKWISE, "serve", "--port", "0"],
        cwd=user.project,
        env=user.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if "data directory:" in line:
                break
    finally:
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=60)
    assert "Traceback" not in rest, rest
    return lines


def test_every_serve_start_says_how_to_open_the_console(user: User) -> None:
    """Item 3: the first start prints the token URL; every later one where the token is."""
    data = user.home / ".local" / "share" / "hookwise"
    first = "\n".join(_serve_banner(user))
    token = (data / "api-token").read_text().strip()
    assert f"#token={token}" in first, first
    assert f"{data / 'api-token'}" in first and f"{data / 'service.db'}" in first, first
    second = "\n".join(_serve_banner(user))
    assert token not in second, second  # the secret is printed once
    assert f"sign in with the one in {data / 'api-token'}" in second, second
    assert f"database: {data / 'service.db'}" in second, second
    assert not (user.project / ".hookwise").exists()
    page = (
        Path(__file__).resolve().parents[2] / "src" / "hookwise" / "api" / "console" / "index.html"
    ).read_text()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for text in (page, readme):
        assert ".hookwise/api-token" not in text and "./.hookwise" not in text
        assert "~/.local/share/hookwise" in text


def test_claude_workspace_trust_is_one_story(user: User) -> None:
    """Item 4: doctor, fire and hooks trust say the same about Claude's workspace trust;
    fire says first that it skipped the hook, never just "no hook matched"."""
    user.run("policy", "init")
    user.run("policy", "trust")
    user.run("install", "claude")
    untrusted = "is not a trusted Claude Code workspace: `fire` and `simulate` skip"
    assert untrusted in user.run("doctor", "--host", "claude").stdout
    push = '{"tool_name":"Bash","tool_input":{"command":"git push --force"}}'
    fired = user.run("fire", "PreToolUse", "--host", "claude", "--payload", "-", stdin=push)
    first = fired.stdout.splitlines()[0]
    assert first.startswith("PreToolUse: skipped 1 project hook(s) for trust"), fired.stdout
    assert "no hook matched" not in fired.stdout
    trusted = user.run("hooks", "trust", "--host", "claude").stdout
    story = "workspace trusted by hookwise"
    assert story in trusted
    doctor = user.run("doctor", "--host", "claude").stdout
    assert f"ok    trust: {story}" in doctor, doctor
    fired = user.run("fire", "PreToolUse", "--host", "claude", "--payload", "-", stdin=push)
    assert "skipped" not in fired.stdout and '"proceed": false' in fired.stdout


def test_explain_without_an_event_name_is_an_input_error(user: User) -> None:
    """Item 9: a payload that is no host's event exits 2; --host/--event fill it in."""
    user.run("policy", "init")
    user.run("policy", "trust")
    event = user.project / "event.json"
    event.write_text('{"tool_name":"Bash","tool_input":{"command":"git push --force"}}')
    missing = user.run("explain", str(event), check=2)
    assert "no hook_event_name: give it with --event" in missing.stderr
    assert "decision" not in missing.stdout
    filled = user.run("explain", str(event), "--event", "PreToolUse", "--host", "claude")
    assert "decision: deny" in filled.stdout and "no-force-push" in filled.stdout
    bogus = '{"hook_event_name":"Bogus","tool_name":"Bash"}'
    assert "unknown Claude Code event" in user.run("explain", stdin=bogus, check=2).stdout
