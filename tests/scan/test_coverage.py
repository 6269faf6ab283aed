"""``hookwise coverage`` on recorded real sessions (tests/scan/fixtures/coverage/README.md).

The fixtures are the records, audit logs and settings of tests/e2e/test_coverage_live.py's
runs of the real CLIs; here they are laid out again in a temporary HOME and project and
joined without any CLI: the same answers as the live runs, then every cause on variations
of them (the audit log gone, the registration removed, a subagent's transcript, a hook the
host recorded as timed out, a decision past the timeout).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hookwise.cli.app import cli as hookwise_cli
from hookwise.policy.install.launcher import hook_command
from hookwise.scan.coverage import build_report

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "coverage"
WRITE_TOOL = {"claude": "Write", "codex": "apply_patch", "gemini": "write_file"}


def lay_out(name: str, root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The fixture's files under ``root`` ($RUN put back); the environment to read them."""
    source = FIXTURES / name
    for path in source.rglob("*"):
        if path.is_file():
            target = root / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                path.read_text(encoding="utf-8").replace("$RUN", str(root)), encoding="utf-8"
            )
    env = {
        "HOME": str(root / "home"),
        "CODEX_HOME": str(root / "home" / ".codex"),
        "PATH": os.environ.get("PATH", ""),
        # the live Gemini CLI run trusted its workspace this way (tests/e2e/clis.py)
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for key in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "HOOKWISE_AUDIT_LOG", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(key, raising=False)
    return env


def report_of(host: str, env: dict[str, str], **options: Any) -> dict[str, Any]:
    result: dict[str, Any] = build_report(hosts=[host], env=env, **options).to_json()
    return result


def causes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(u["tool"], u["cause"]) for u in report["unguarded"]]


HOSTS = ["claude", "codex", "gemini"]


@pytest.mark.parametrize("host", HOSTS)
def test_a_complete_real_session_is_all_guarded(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = lay_out(f"{host}-complete", tmp_path, monkeypatch)
    report = report_of(host, env)
    assert report["hosts"][host] | {"causes": {}} == {
        "title": report["hosts"][host]["title"],
        "sessions": 1,
        "calls": 2,
        "guarded": 2,
        "unguarded": 0,
        "outside_hooks": 0,
        "denied_by_host": 0,
        "causes": {},
    }
    assert report["unguarded"] == [] and report["warnings"] == []


def test_a_call_the_host_denied_itself_is_counted_and_not_unguarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code's auto mode refused the Write (PermissionDenied): the real ``hookwise
    hook`` logged that event, so the call, which never ran, is counted as denied by the host
    and not reported as a matcher gap."""
    import subprocess
    import sys

    env = lay_out("claude-gap", tmp_path, monkeypatch)
    transcript = next((tmp_path / "home/.claude/projects").rglob("*.jsonl"))
    write_id = next(
        block["id"]
        for line in transcript.read_text().splitlines()
        for block in (json.loads(line).get("message") or {}).get("content") or []
        if isinstance(block, dict) and block.get("name") == "Write"
    )
    session = transcript.stem
    payload = {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(tmp_path / "proj"),
        "permission_mode": "auto",
        "hook_event_name": "PermissionDenied",
        "tool_name": "Write",
        "tool_input": {"file_path": str(tmp_path / "proj/second.txt"), "content": "x"},
        "tool_use_id": write_id,
        "reason": "the auto mode classifier denied it",
    }
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={"PATH": env["PATH"], "HOME": env["HOME"]},
        cwd=tmp_path / "proj",
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = report_of("claude", env)
    assert report["unguarded"] == []
    assert report["hosts"]["claude"]["guarded"] == 1
    assert report["hosts"]["claude"]["denied_by_host"] == 1
    assert report["sessions"][0]["denied_by_host"] == 1


@pytest.mark.parametrize("host", HOSTS)
def test_a_real_session_with_a_matcher_gap_reports_exactly_the_gap(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = lay_out(f"{host}-gap", tmp_path, monkeypatch)
    report = report_of(host, env)
    assert causes(report) == [(WRITE_TOOL[host], "matcher-gap")]
    gap = report["unguarded"][0]
    assert "second.txt" in gap["input"] and gap["cwd"] == str(tmp_path / "proj")
    assert "does not match the tool" in gap["detail"]
    assert report["hosts"][host]["guarded"] == 1


@pytest.mark.parametrize("host", HOSTS)
def test_without_the_audit_log_every_call_is_unguarded_and_said_why(
    host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = lay_out(f"{host}-complete", tmp_path, monkeypatch)
    (tmp_path / "home/.local/state/hookwise/audit.jsonl").unlink()
    report = report_of(host, env)
    assert [c for _, c in causes(report)] == ["unknown", "unknown"]
    assert any("no hookwise decision" in w for w in report["warnings"])


SETTINGS = {
    "claude": "proj/.claude/settings.json",
    "codex": "proj/.codex/hooks.json",
    "gemini": "proj/.gemini/settings.json",
}


@pytest.mark.parametrize("host", HOSTS)
def test_no_registration(host: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = lay_out(f"{host}-complete", tmp_path, monkeypatch)
    (tmp_path / "home/.local/state/hookwise/audit.jsonl").unlink()
    settings = tmp_path / SETTINGS[host]
    data = json.loads(settings.read_text(encoding="utf-8"))
    data.pop("hooks")
    settings.write_text(json.dumps(data), encoding="utf-8")
    report = report_of(host, env)
    assert [c for _, c in causes(report)] == ["no-registration", "no-registration"]


def test_an_untrusted_codex_hook_is_no_registration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook is written, but its hash is no longer trusted: Codex does not run it."""
    env = lay_out("codex-gap", tmp_path, monkeypatch)
    (tmp_path / "home/.local/state/hookwise/audit.jsonl").unlink()
    config = tmp_path / "home/.codex/config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        "\n".join(x for x in text.splitlines() if "trusted_hash" not in x) + "\n", "utf-8"
    )
    report = report_of("codex", env)
    assert [c for _, c in causes(report)] == ["no-registration", "no-registration"]
    assert "written but not run" in report["unguarded"][0]["detail"]


def _claude_transcript(root: Path) -> Path:
    return next((root / "home/.claude/projects/-RUN-proj").glob("*.jsonl"))


def test_a_subagent_call_without_a_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The subagent's transcript (Claude Code's <session>/subagents/agent-<id>.jsonl layout,
    its lines carrying the parent's sessionId and the agentId) has calls hookwise never saw,
    while the registration matches them: the host did not run the hook for its subagent."""
    env = lay_out("claude-complete", tmp_path, monkeypatch)
    main = _claude_transcript(tmp_path)
    sub = main.parent / main.stem / "subagents" / "agent-a0123456789abcdef.jsonl"
    sub.parent.mkdir(parents=True)
    lines = []
    for raw in main.read_text(encoding="utf-8").splitlines():
        line = json.loads(raw)
        line["isSidechain"] = True
        line["agentId"] = "a0123456789abcdef"
        for block in (line.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                block["id"] = block["id"] + "-sub"
        lines.append(json.dumps(line))
    sub.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = report_of("claude", env)
    assert causes(report) == [("Bash", "subagent"), ("Write", "subagent")]
    assert report["unguarded"][0]["agent"] == "a0123456789abcdef"
    assert report["hosts"]["claude"]["guarded"] == 2
    assert report["hosts"]["claude"]["sessions"] == 2


@pytest.mark.parametrize(
    ("attachment", "expected"),
    [
        # the shapes Claude Code 2.1.330 wrote for a timed-out and a failing hook
        (
            {"type": "hook_cancelled", "timedOut": True, "timeoutMs": 10000, "durationMs": 10024},
            "hook-timeout",
        ),
        (
            {
                "type": "hook_non_blocking_error",
                "stderr": "Failed with non-blocking status code: boom",
                "stdout": "",
                "exitCode": 1,
                "durationMs": 33,
            },
            "hook-failed",
        ),
    ],
)
def test_a_hook_the_host_recorded_as_failed(
    attachment: dict[str, Any], expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = lay_out("claude-gap", tmp_path, monkeypatch)
    transcript = _claude_transcript(tmp_path)
    lines = transcript.read_text(encoding="utf-8").splitlines()
    write = next(json.loads(x) for x in lines if '"name":"Write"' in x.replace(" ", ""))
    call_id = write["message"]["content"][0]["id"]
    record = {
        "parentUuid": write["uuid"],
        "isSidechain": False,
        "attachment": {
            **attachment,
            "hookName": "PreToolUse:Write",
            "toolUseID": call_id,
            "hookEvent": "PreToolUse",
            "command": hook_command("claude"),
        },
        "type": "attachment",
        "uuid": "0f0e0d0c-0000-4000-8000-000000000001",
        "timestamp": write["timestamp"],
        "sessionId": write["sessionId"],
        "cwd": write["cwd"],
    }
    transcript.write_text("\n".join([*lines, json.dumps(record)]) + "\n", encoding="utf-8")
    report = report_of("claude", env)
    assert causes(report) == [("Write", expected)]
    assert "recorded the hookwise hook" in report["unguarded"][0]["detail"]


def test_a_decision_past_the_registered_timeout_did_not_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = lay_out("gemini-complete", tmp_path, monkeypatch)
    audit = tmp_path / "home/.local/state/hookwise/audit.jsonl"
    records = [json.loads(x) for x in audit.read_text(encoding="utf-8").splitlines()]
    records[0]["latency_ms"] = 999_000.0  # install registers 10 s
    audit.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    report = report_of("gemini", env)
    assert causes(report) == [("run_shell_command", "hook-timeout")]


def test_without_call_ids_decisions_are_used_once_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gemini CLI sends no call id: the same command twice with one decision leaves one
    call unguarded, never both guarded by the same record."""
    env = lay_out("gemini-complete", tmp_path, monkeypatch)
    chat = next((tmp_path / "home/.gemini/tmp/proj/chats").glob("*.jsonl"))
    lines = chat.read_text(encoding="utf-8").splitlines()
    with_calls = [json.loads(x) for x in lines if '"toolCalls"' in x]
    shell = next(m for m in with_calls if m["toolCalls"][0]["name"] == "run_shell_command")
    again = json.loads(json.dumps(shell))
    again["id"] = "again-1"
    again["toolCalls"][0]["id"] = "run_shell_command_again"
    lines.append(json.dumps(again))
    chat.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = report_of("gemini", env)
    assert report["hosts"]["gemini"]["calls"] == 3
    assert [c for _, c in causes(report)] == ["unknown"]


def test_since_leaves_out_older_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = lay_out("codex-gap", tmp_path, monkeypatch)
    assert report_of("codex", env, since="2026-11-24T00:00:00.000Z")["hosts"]["codex"]["calls"]
    later = report_of("codex", env, since="2099-01-01T00:00:00.000Z")
    assert later["sessions"] == [] and later["unguarded"] == []


def test_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lay_out("claude-gap", tmp_path, monkeypatch)
    runner = CliRunner()
    text = runner.invoke(hookwise_cli, ["coverage", "--host", "claude"])
    assert text.exit_code == 1, text.output
    assert "Claude Code: 2 tool calls in 1 session: 1 guarded, 1 UNGUARDED" in text.output
    assert "matcher-gap" in text.output
    as_json = runner.invoke(hookwise_cli, ["coverage", "--host", "claude", "--json"])
    data = json.loads(as_json.stdout)
    assert data["version"] == 1 and set(data) == {
        "version",
        "since",
        "audit_logs",
        "decisions",
        "hosts",
        "sessions",
        "unguarded",
        "warnings",
    }
    assert set(data["unguarded"][0]) == {
        "host",
        "session",
        "agent",
        "parent_session",
        "call_id",
        "tool",
        "recorded_tool",
        "time",
        "cwd",
        "command",
        "input",
        "cause",
        "detail",
        "file",
        "line",
    }
    bad = runner.invoke(hookwise_cli, ["coverage", "--since", "last tuesday"])
    assert bad.exit_code == 2 and "--since" in bad.output
    moved = tmp_path / "elsewhere.jsonl"
    shutil.move(str(tmp_path / "home/.local/state/hookwise/audit.jsonl"), moved)
    again = runner.invoke(hookwise_cli, ["coverage", "--host", "claude", "--audit-log", str(moved)])
    assert "1 guarded, 1 UNGUARDED" in again.output
    clean = runner.invoke(hookwise_cli, ["coverage", "--host", "gemini"])
    assert clean.exit_code == 0 and "Gemini CLI: no session recorded" in clean.output


def test_a_record_a_session_stamped_as_no_hooks_is_no_decision(tmp_path: Path) -> None:
    """rt24 #5: inside `hookwise run` any process can send a record; the session's sink stamps
    each with its sender. A forged ``allow`` from a process that was no hook must not fill
    the gap a killed hook left, and a hook's record is dated when the sink received it."""
    from hookwise.scan.coverage import read_decisions

    base = {"source": "hook", "host": "claude", "event": "PreToolUse", "host_tool": "Bash"}
    lines = [
        {**base, "time": "2026-11-27T10:00:00.000Z", "command": "plain", "decision": "deny"},
        {
            **base,
            "time": "2020-01-01T00:00:00.000Z",
            "command": "forged",
            "decision": "allow",
            "sender": {"pid": 9, "hook": False, "received": "2026-11-27T10:00:01.000Z"},
        },
        {
            **base,
            "time": "2020-01-01T00:00:00.000Z",
            "command": "hook",
            "decision": "deny",
            "sender": {"pid": 8, "hook": True, "received": "2026-11-27T10:00:02.000Z"},
        },
    ]
    log = tmp_path / "audit.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    decisions = read_decisions([str(log)], [])
    assert [d.command for d in decisions] == ["plain", "hook"]
    assert decisions[1].time > decisions[0].time  # (the sink's time, not the claimed 2020)
