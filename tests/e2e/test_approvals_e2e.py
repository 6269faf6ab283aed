"""The approval relay through the real CLIs, headless and offline (issue 15, item 6).

Claude Code ``-p``, Codex ``exec`` and Gemini ``-p`` run against the fake model (whose one
tool call is ``echo hi > marker``), with ``hookwise install`` registering the hook and a
user policy whose ``ask`` rule matches that call and whose ``settings.approvals`` points at
a real ``hookwise serve`` (SQLite) with an agent token in a private file. The three CLIs of
a case run at once (threads); a Playwright-driven Chromium at a phone's viewport signs in
on the service's page as the approver and decides:

* approve: the command runs (marker present); the audit log and the service name alice;
* deny with a note: the command does not run and the note reaches the model (in the fake
  model's recorded requests);
* nobody answers: the fallback denies within the configured wait;
* the service is stopped: the fallback denies at once;
* forged: a test-controlled relay answers "allowed" for a different input hash; the hook
  refuses it (the only case without the real service).

The agent-side token can neither sign in on the page nor decide through the API.

The CLIs run in a loopback-only network namespace where the machine allows one; the
service runs outside it, reached through a Unix-socket bridge (bridge.py).
``python -m tests.e2e.test_approvals_e2e CLI ROOT [--bridge PORT:SOCKET]`` is the child.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from hookwise.api.settings import sqlite_url
from tests.api.conftest import LiveServer, start_server
from tests.approval_relay import FakeRelay, Relay, answer_for, start_relay, write_private
from tests.e2e import clis
from tests.e2e.bridge import TcpToUnix, UnixToTcp
from tests.e2e.observe import find_segment, is_turn_request
from tests.e2e.runner import ROOT, bring_loopback_up, namespace_prefix
from tests.e2e.test_policy_install import (
    audit_records,
    hookwise,
    run_child,
    session,
    user_env,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CLIS = ("claude", "codex", "gemini")
NOTE = "RELAY-E2E-NOTE: write to the scratch directory instead"
REASON = "RELAY-E2E-REASON: the marker needs a person's approval"
PHONE = {"width": 390, "height": 844}
WAIT_MS = 20_000
RULE = f"""\
  - id: ask-marker
    match: {{tool: shell, command: {{program: [echo]}}}}
    action: ask
    reason: "{REASON}"
"""


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    if clis.node_missing():
        pytest.skip(clis.node_missing() or "")
    root = tmp_path_factory.mktemp("relay-e2e")
    started = start_relay(root / "server", sqlite_url(root))
    try:
        yield started
    finally:
        started.server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    from tests.service_env import launch_chromium, require_chromium

    require_chromium()
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser: Browser, relay: Relay) -> Iterator[Page]:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    context = browser.new_context(
        base_url=relay.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


# --------------------------------------------------------------------------- one run


class Run:
    """One CLI session with the relay: its layout, its bridge and its result."""

    def __init__(self, cli: str, root: Path, port: int, wait: float) -> None:
        self.cli = cli
        self.root = root
        self.layout, project_policy = session(cli, root)
        project_policy.parent.rmdir()  # the rules live in the user's policy
        self.env = user_env(cli, self.layout)
        token_file = self.layout.home / ".config" / "hookwise" / "agent-token"
        self.token_file = token_file
        block = {
            "url": f"http://127.0.0.1:{port}",
            "token_file": str(token_file),
            "wait": wait,
            "on_timeout": "ask",
        }
        write_private(
            self.layout.home / ".config" / "hookwise" / "policy.yaml",
            f"version: 1\nsettings:\n  approvals: {json.dumps(block)}\nrules:\n{RULE}",
        )
        self.port = port
        self.result: dict[str, Any] = {}
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None

    def install(self, token: str) -> None:
        write_private(self.token_file, token + "\n")
        done = hookwise(
            ["install", self.cli, "--scope", "project", "--project", str(self.layout.proj)],
            self.env,
            self.layout.proj,
        )
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        def target() -> None:
            try:
                self.result = run_relayed(self.cli, self.root, self.port)
            except BaseException as exc:
                self.error = exc

        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def join(self) -> dict[str, Any]:
        assert self.thread is not None
        self.thread.join(timeout=200)
        if self.error is not None:
            raise self.error
        assert self.result, f"{self.cli}: the run did not finish"
        return self.result

    @property
    def marker(self) -> bool:
        return (self.layout.proj / "marker").exists()

    def approval(self) -> dict[str, Any]:
        pre = {"gemini": "BeforeTool"}.get(self.cli, "PreToolUse")
        relayed = [r for r in audit_records(self.layout) if r["event"] == pre and "approval" in r]
        assert relayed, f"{self.cli}: no relayed decision in the audit log{self.why()}"
        approval: dict[str, Any] = relayed[0]["approval"]
        return approval

    def turns(self) -> list[dict[str, Any]]:
        return [r for r in self.result["requests"] if is_turn_request(self.cli, r)]

    def why(self) -> str:
        stderr = (self.root / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
        decisions = [
            {k: r.get(k) for k in ("event", "decision", "reason", "approval")}
            for r in audit_records(self.layout)
        ]
        return (
            f"\n  exit {self.result.get('exit_code')} in {self.result.get('seconds')} s"
            f"\n  hook decisions: {json.dumps(decisions)[:2000]}\n  cli stderr: {stderr[-1500:]}"
        )


def run_relayed(cli: str, root: Path, port: int) -> dict[str, Any]:
    """The child (in the namespace when possible), bridged to the service on ``port``."""
    import os
    import subprocess

    prefix = namespace_prefix()
    argv = [sys.executable, "-m", "tests.e2e.test_approvals_e2e", cli, str(root)]
    bridge = None
    socket_dir = tempfile.mkdtemp(prefix="hw-relay-", dir="/tmp")
    if prefix:
        path = os.path.join(socket_dir, "relay.sock")
        bridge = UnixToTcp(path, port)
        argv = [*prefix, *argv, "--namespace", "--bridge", f"{port}:{path}"]
    try:
        proc = subprocess.run(
            argv,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    finally:
        if bridge is not None:
            bridge.close()
        import shutil

        shutil.rmtree(socket_dir, ignore_errors=True)
    assert proc.returncode == 0, f"child failed for {cli}:\n{proc.stderr[-4000:]}"
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def prepared(tmp_path: Path, port: int, token: str, wait: float) -> list[Run]:
    runs = [Run(cli, tmp_path / cli, port, wait) for cli in CLIS]
    for run in runs:
        run.install(token)
    return runs


def requests_of(relay: Relay, runs: list[Run]) -> dict[str, dict[str, Any]]:
    """The pending request of each run (matched by its project directory)."""
    wanted = {str(run.layout.proj): run.cli for run in runs}
    deadline = time.monotonic() + 90
    found: dict[str, dict[str, Any]] = {}
    while len(found) < len(runs):
        for request in relay.pending(0):
            if request["cwd"] in wanted:
                found[wanted[request["cwd"]]] = request
        failed = [run for run in runs if run.thread and not run.thread.is_alive()]
        assert not failed or len(found) == len(runs), (
            f"{failed[0].cli} finished without a pending request: {failed[0].result}"
        )
        assert time.monotonic() < deadline, f"pending requests seen: {sorted(found)}"
        time.sleep(0.1)
    return found


def sign_in(page: Page, token: str) -> None:
    page.locator("#token-input").fill(token)
    page.locator("#login-form button[type=submit]").tap()


# --------------------------------------------------------------------------- the tests


@pytest.mark.e2e
@pytest.mark.parametrize("decision", ["approve", "deny"])
def test_a_person_decides_on_the_phone_page(
    decision: str, relay: Relay, phone: Page, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    runs = prepared(tmp_path, free_port_of(relay.server), relay.agent, wait=90)
    for run in runs:
        run.start()
    pending = requests_of(relay, runs)
    first = pending["claude"]
    # the agent's own token: no sign-in on the page, no decision through the API
    phone.goto(f"/console/approvals/{first['id']}")  # the page_url the hook was given
    sign_in(phone, relay.agent)
    expect(phone.locator("#login-error")).to_contain_text("agent token cannot sign in")
    forged = relay.decide(first, "allow", token=relay.agent)
    assert forged.status_code == 403, forged.text
    sign_in(phone, relay.alice)
    if decision == "deny":
        time.sleep(6)  # the person takes a moment: the hooks keep long-polling meanwhile
    for cli in CLIS:
        request = pending[cli]
        phone.goto(f"/console/approvals/{request['id']}")
        expect(phone.locator("#command")).to_have_text("echo hi > marker")
        expect(phone.locator("#reason")).to_have_text(REASON)
        if decision == "approve":
            phone.locator("#approve").tap()
            expect(phone.locator("#status")).to_have_text("Approved by alice")
        else:
            phone.locator("#note").fill(NOTE)
            phone.locator("#deny").tap()
            expect(phone.locator("#status")).to_contain_text("Denied by alice")
    for run in runs:
        result = run.join()
        why = run.why()
        assert not result["timed_out"], why
        approval = run.approval()
        stored = relay.get(pending[run.cli]["id"])
        assert approval["id"] == stored["id"] and approval.get("approver") == "alice", why
        assert str(approval.get("page_url")).endswith(f"/console/approvals/{stored['id']}"), why
        assert stored["decision"]["approver"] == "alice"
        if decision == "approve":
            assert run.marker, f"{run.cli}: the approved command did not run{why}"
            assert approval["outcome"] == "allowed" and stored["status"] == "allowed", why
        else:
            assert not run.marker, f"{run.cli}: the denied command ran{why}"
            assert approval["outcome"] == "denied" and approval["note"] == NOTE, why
            assert stored["status"] == "denied"
            seen = find_segment(run.turns()[1:], "RELAY-E2E-NOTE")
            assert seen is not None and "scratch directory" in seen, (
                f"{run.cli}: the note did not reach the model{why}"
            )


@pytest.mark.e2e
def test_nobody_answers_the_fallback_denies_within_the_wait(relay: Relay, tmp_path: Path) -> None:
    wait = 4
    runs = prepared(tmp_path, free_port_of(relay.server), relay.agent, wait=wait)
    for run in runs:
        run.start()
    for run in runs:
        run.join()
        why = run.why()
        assert not run.marker, f"{run.cli}: the command ran without an approval{why}"
        approval = run.approval()
        assert approval["outcome"] == "timeout", why
        assert wait * 1000 <= approval["waited_ms"] < (wait + 4) * 1000, why
        assert relay.get(approval["id"])["status"] in ("expired", "withdrawn")
        seen = find_segment(run.turns()[1:], "RELAY-E2E-REASON")
        assert seen is not None and "no decision on approval request" in seen, why


@pytest.mark.e2e
def test_the_service_is_stopped_the_fallback_denies_at_once(relay: Relay, tmp_path: Path) -> None:
    # a second `hookwise serve` on the same database (the agent token is valid there),
    # then stopped: the hook finds nobody listening
    second = start_server(relay.server.data_dir, relay.server.env["HOOKWISE_DATABASE_URL"])
    port = free_port_of(second)
    second.stop()
    runs = prepared(tmp_path, port, relay.agent, wait=60)
    for run in runs:
        run.start()
    for run in runs:
        run.join()
        why = run.why()
        assert not run.marker, f"{run.cli}: the command ran with the service down{why}"
        approval = run.approval()
        assert approval["outcome"] == "unreachable" and approval["waited_ms"] < 3000, why
        seen = find_segment(run.turns()[1:], "RELAY-E2E-REASON")
        assert seen is not None and "cannot be reached" in seen, why


@pytest.mark.e2e
def test_an_approval_for_another_input_is_refused(tmp_path: Path) -> None:
    if clis.node_missing():
        pytest.skip(clis.node_missing() or "")
    other = "sha256:" + "5" * 64
    fake = FakeRelay(lambda request: (200, answer_for(request, input_hash=other)))
    try:
        runs = prepared(tmp_path, int(fake.url.rsplit(":", 1)[1]), "hw_agent_fake", wait=30)
        for run in runs:
            run.start()
        for run in runs:
            run.join()
    finally:
        fake.close()
    for run in runs:
        why = run.why()
        assert not run.marker, f"{run.cli}: a forged approval let the command run{why}"
        approval = run.approval()
        assert approval["outcome"] == "mismatch" and "input_hash" in approval["error"], why
        seen = find_segment(run.turns()[1:], "does not match request")
        assert seen is not None and "input_hash" in seen, why
    assert {r["input"]["command"] for r in fake.requests} == {"echo hi > marker"}


def free_port_of(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


# --------------------------------------------------------------------------- the child


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run one relayed CLI session")
    parser.add_argument("cli", choices=clis.PACKAGES)
    parser.add_argument("root", type=Path)
    parser.add_argument("--namespace", action="store_true", help="bring loopback up first")
    parser.add_argument("--bridge", help="PORT:SOCKET: serve 127.0.0.1:PORT from SOCKET")
    args = parser.parse_args(argv)
    if args.namespace:
        bring_loopback_up()
    bridge = None
    if args.bridge:
        port, _, path = args.bridge.partition(":")
        bridge = TcpToUnix(int(port), path)
    try:
        print(json.dumps(run_child(args.cli, args.root)))
    finally:
        if bridge is not None:
            bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
