"""Project trust through real ``hookwise`` processes: fire, hooks list/trust, the library.

A project's own hooks come with the repository; none may run until the user trusts the
project through hookwise or the host's own record, and a dry run writes no trust state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HOOKWISE = [sys.executable, "-m", "hookwise.cli.entry"]
BLOCK = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "CLAUDE_"))}
    env.pop("GEMINI_CLI_TRUST_WORKSPACE", None)
    env.update(HOME=str(home), **extra)
    return env


def _run(
    args: list[str], home: Path, stdin: str = "", **extra: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HOOKWISE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=_env(home, **extra),
        timeout=60,
        check=False,
    )


@pytest.fixture
def claude_project(tmp_path: Path) -> tuple[Path, Path]:
    """A Claude Code project whose one hook blocks every Bash call, and an empty home."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    hook = {"type": "command", "command": "echo blocked-by-project >&2; exit 2"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    return project.resolve(), home


def _fire(project: Path, home: Path, *flags: str, **extra: str) -> tuple[dict[str, object], str]:
    done = _run(
        [
            "fire",
            "PreToolUse",
            "--host",
            "claude",
            "--settings",
            str(project),
            "--home",
            str(home),
            "--payload",
            "-",
            "--json",
            *flags,
        ],
        home,
        json.dumps(BLOCK),
        **extra,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr  # stdout is pure JSON: warnings are not on it


def _blocked(result: dict[str, object]) -> bool:
    outcome = result["outcome"]
    assert isinstance(outcome, dict)
    return outcome["proceed"] is False


def test_claude_project_hooks_wait_for_workspace_trust(claude_project: tuple[Path, Path]) -> None:
    project, home = claude_project
    result, stderr = _fire(project, home)
    assert not _blocked(result) and result["runs"] == []
    assert "not a trusted Claude Code workspace" in stderr
    assert result["untrusted"] and "not a trusted" in str(result["untrusted"])


def test_claude_own_record_trusts_the_workspace_and_its_children(
    claude_project: tuple[Path, Path],
) -> None:
    project, home = claude_project
    record = {"projects": {str(project.parent): {"hasTrustDialogAccepted": True}}}
    (home / ".claude.json").write_text(json.dumps(record))
    result, stderr = _fire(project, home)
    assert _blocked(result), stderr
    assert result["untrusted"] == []
    record = {"projects": {str(project): {"hasTrustDialogAccepted": False}}}
    (home / ".claude.json").write_text(json.dumps(record))
    assert not _blocked(_fire(project, home)[0])


def test_trust_project_flag_runs_them_and_writes_nothing(
    claude_project: tuple[Path, Path],
) -> None:
    project, home = claude_project
    result, _ = _fire(project, home, "--trust-project")
    assert _blocked(result)
    assert list(home.rglob("*")) == []


def test_hookwise_trust_and_enforce_mode(claude_project: tuple[Path, Path]) -> None:
    project, home = claude_project
    enforce = {"HOOKWISE_HOOK_TRUST": "enforce"}
    result, stderr = _fire(project, home, "--trust-project", **enforce)
    assert not _blocked(result) and "not approved" in stderr
    assert _blocked(_fire(project, home, "--trust-workspace", "--bypass-hook-trust", **enforce)[0])
    done = _run(
        ["hooks", "trust", "--host", "claude", "--settings", str(project), "--home", str(home)],
        home,
    )
    assert done.returncode == 0, done.stderr
    assert not (home / ".claude.json").exists()  # Claude Code's own record is never written
    assert _blocked(_fire(project, home, **enforce)[0])
    assert _blocked(_fire(project, home)[0])
    (project / ".claude" / "settings.json").write_text(
        (project / ".claude" / "settings.json").read_text().replace("exit 2", "exit 2 # changed")
    )
    assert not _blocked(_fire(project, home, **enforce)[0])  # changed since approved
    assert _blocked(_fire(project, home)[0])  # warn mode: the workspace trust is enough


def test_hooks_trust_list_on_claude_shows_and_writes_nothing(
    claude_project: tuple[Path, Path],
) -> None:
    """`--list` shows the project hooks `hooks trust` would approve; before, on Claude Code
    it approved them (a listing that changed the trust)."""
    project, home = claude_project
    base = ["hooks", "trust", "--host", "claude", "--settings", str(project), "--home", str(home)]
    before = sorted(p for p in home.rglob("*"))
    done = _run([*base, "--list"], home)
    assert done.returncode == 0, done.stderr
    assert "would approve" in done.stdout and "PreToolUse" in done.stdout, done.stdout
    listed = _run([*base, "--list", "--json"], home)
    assert json.loads(listed.stdout)["hooks"], listed.stdout
    assert sorted(p for p in home.rglob("*")) == before  # nothing written
    enforce = {"HOOKWISE_HOOK_TRUST": "enforce"}
    result, stderr = _fire(project, home, "--trust-project", **enforce)
    assert not _blocked(result) and "not approved" in stderr  # still not approved


def test_hooks_list_shows_untrusted_claude_hooks(claude_project: tuple[Path, Path]) -> None:
    project, home = claude_project
    done = _run(
        [
            "hooks",
            "list",
            "--host",
            "claude",
            "--settings",
            str(project),
            "--home",
            str(home),
            "--json",
        ],
        home,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["hooks"]
    assert [row["trust"] for row in rows] == ["untrusted"]


def test_library_reports_skipped_hooks_on_stderr(claude_project: tuple[Path, Path]) -> None:
    project, home = claude_project
    script = (
        "from hookwise.host.loading import load_hook_system\n"
        f"hooks = load_hook_system({str(project)!r}, home={str(home)!r})\n"
        "print(len(hooks.untrusted))\n"
        f"result = hooks.fire_sync('PreToolUse', {BLOCK!r})\n"
        "print(len(result.runs))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "0"]
    assert "HookTrustWarning" in done.stderr and "settings.json" in done.stderr


def _gemini_project(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "gproject"
    (project / ".gemini").mkdir(parents=True)
    hook = {"type": "command", "command": "echo nope >&2; exit 2", "name": "deny"}
    settings = {"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [hook]}]}}
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return project.resolve(), home


@pytest.mark.parametrize("record", [False, True])
def test_gemini_fire_writes_trust_state_only_when_asked(tmp_path: Path, record: bool) -> None:
    project, home = _gemini_project(tmp_path)
    payload = json.dumps({"tool_name": "read_file", "tool_input": {"absolute_path": "a"}})
    flags = ["--record-trust"] if record else []
    done = _run(
        [
            "fire",
            "BeforeTool",
            "--host",
            "gemini",
            "--settings",
            str(project),
            "--home",
            str(home),
            "--payload",
            "-",
            "--json",
            "--trust-project",
            *flags,
        ],
        home,
        payload,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"]["proceed"] is False
    assert "project-level hooks have been detected" in done.stderr
    stores = {p.name for p in home.rglob("*.json")}
    expected = {"trusted_hooks.json", "hookwise_trusted_hooks.json"} if record else set()
    assert stores == expected


def test_gemini_untrusted_folder_skips_project_hooks(tmp_path: Path) -> None:
    project, home = _gemini_project(tmp_path)
    payload = json.dumps({"tool_name": "read_file", "tool_input": {"absolute_path": "a"}})
    done = _run(
        [
            "fire",
            "BeforeTool",
            "--host",
            "gemini",
            "--settings",
            str(project),
            "--home",
            str(home),
            "--payload",
            "-",
        ],
        home,
        payload,
    )
    assert done.returncode == 0, done.stderr
    assert "not trusted" in done.stderr and "not trusted" not in done.stdout
