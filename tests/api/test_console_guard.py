"""The console's "Guard decisions", in Debian's headless Chromium against a real `hookwise
serve`: the policy hook's decisions (real `hookwise hook` processes) appear while the page
stays open, labelled, newest first, hostile text shown as text (issue 26, item 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from hookwise.api.settings import sqlite_url
from tests.api.conftest import TOKEN, LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
HOSTILE = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)


@pytest.fixture
def user_env(tmp_path: Path) -> dict[str, str]:
    """One user: the hook and the service share HOME, hence the audit log."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "TMPDIR")}
    env.update(HOME=str(home), HOOKWISE_MANAGED_POLICY=str(tmp_path / "managed.yaml"))
    return env


@pytest.fixture
def server(
    browser: Browser, live_server: Callable[..., LiveServer], user_env: dict[str, str]
) -> LiveServer:
    return live_server(extra_env={"HOME": user_env["HOME"]})


@pytest.fixture
def page(browser: Browser, server: LiveServer) -> Iterator[Page]:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    context = browser.new_context(base_url=server.url, viewport={"width": 1180, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    yield page
    context.close()
    assert problems == []


def hook(env: dict[str, str], project: Path, command: str, *args: str) -> None:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "session_id": "s-guard",
        "cwd": str(project),
    }
    subprocess.run(
        [HOOKWISE, "hook", "--host", "claude", *args],
        input=json.dumps(payload),
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_policy_hook_decisions_appear_live(
    page: Page, server: LiveServer, user_env: dict[str, str], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    subprocess.run([HOOKWISE, "policy", "init"], env=user_env, cwd=project, check=True)
    page.goto(f"/#token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#dec-empty")).to_be_visible()
    log = Path(user_env["HOME"]) / ".local" / "state" / "hookwise" / "audit.jsonl"
    expect(page.locator("#dec-log")).to_have_text(f"from {log}")

    hook(user_env, project, "git push --force origin main")
    rows = page.locator("#dec-list > li")
    expect(rows).to_have_count(1)
    first = rows.first
    expect(first.locator(".exit")).to_have_text("deny")
    expect(first.locator(".exit")).to_have_class("exit exit-blocking")
    expect(first.locator(".kind")).to_have_text("policy hook")
    expect(first.locator(".event")).to_have_text("PreToolUse")
    expect(first.locator(".tool")).to_have_text("Bash")
    expect(first.locator(".host")).to_have_text("Claude Code")
    expect(first.locator(".outcome")).to_have_text("rule no-force-push")
    expect(first.locator(".command")).to_have_text("$ git push --force origin main")
    expect(first.locator(".reason")).to_contain_text("Force pushes are not allowed")

    hook(user_env, project, "rm -rf build")  # the starter's ask, newest first
    expect(rows).to_have_count(2)
    expect(rows.first.locator(".exit")).to_have_text("ask")
    expect(rows.first.locator(".outcome")).to_have_text("rule confirm-recursive-delete")

    # what fire runs is labelled, and hostile text stays text
    fired = {**user_env, "HOOKWISE_AUDIT_SOURCE": "fire"}
    hook(fired, project, f"echo '{HOSTILE}'")
    expect(rows).to_have_count(3)
    expect(rows.first.locator(".kind")).to_have_text("fire")
    expect(rows.first.locator(".exit")).to_have_text("none")
    expect(rows.first.locator(".command")).to_have_text(f"$ echo '{HOSTILE}'")
    assert page.locator("main img").count() == 0
    assert page.evaluate("window.__pwned") is None


def test_the_log_is_read_from_its_end_as_untrusted_text(tmp_path: Path) -> None:
    """Approvals say who decided; a cut first line, bad JSON and other sources are skipped;
    long commands are cut."""
    from hookwise.api import guard_log

    log = tmp_path / "audit.jsonl"
    relayed = {
        "time": "t2",
        "source": "hook",
        "host": "codex",
        "event": "PreToolUse",
        "decision": "allow",
        "approval": {"outcome": "allowed", "approver": "alice", "id": "a1"},
        "command": "x" * 1000,
    }
    lines = [
        "garbage that is not JSON",
        json.dumps({"time": "t0", "source": "explain", "decision": "deny"}),
        json.dumps({"time": "t1", "source": "hook", "host": "claude", "decision": "deny"}),
        json.dumps(relayed),
    ]
    log.write_text("\n".join(lines) + "\n")
    shown = guard_log.recent_decisions(10, str(log))
    assert [d["time"] for d in shown] == ["t2", "t1"]
    assert shown[0]["approval"] == "allowed by alice"
    assert shown[0]["hostTitle"] == "Codex" and len(shown[0]["command"]) == guard_log.TEXT_LIMIT
    assert guard_log.fingerprint(str(log)) != "absent"
    assert guard_log.fingerprint(str(tmp_path / "none")) == "absent"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert guard_log.recent_decisions(10, str(fifo)) == []  # never blocks on a FIFO
