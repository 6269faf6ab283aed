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

Interactive (item 5): Claude Code and Gemini CLI in their terminal UI under a pty (no
``-p``): the hook sees a person (Claude's CLAUDE_CODE_SESSION_ATTENDED=1, Gemini's
process with a terminal), waits ``interactive_wait``, withdraws the remote request and
answers ``ask``; the host's own confirmation is then on the screen.

The CLIs run in a loopback-only network namespace where the machine allows one; the
service runs outside it, reached through a Unix-socket bridge (bridge.py).
``python -m tests.e2e.test_approvals_e2e CLI ROOT [--bridge PORT:SOCKET]`` is the child.
"""

from __future__ import annotations

import argparse
import json
import re
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
from tests.approval_relay import (
    FakeRelay,
    Relay,
    answer_for,
    sign_in,
    start_relay,
    write_private,
)
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

    def __init__(
        self, cli: str, root: Path, port: int, wait: float, interactive_wait: float = 15
    ) -> None:
        self.cli = cli
        self.root = root
        self.interactive = False
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
            "interactive_wait": interactive_wait,
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
                self.result = run_relayed(self.cli, self.root, self.port, self.interactive)
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


def run_relayed(cli: str, root: Path, port: int, interactive: bool = False) -> dict[str, Any]:
    """The child (in the namespace when possible), bridged to the service on ``port``."""
    import os
    import subprocess

    prefix = namespace_prefix()
    argv = [sys.executable, "-m", "tests.e2e.test_approvals_e2e", cli, str(root)]
    if interactive:
        argv.append("--interactive")
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
    sign_in(phone, relay.alice, "alice")
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


@pytest.mark.e2e
def test_interactive_sessions_hand_over_to_the_hosts_own_prompt(
    relay: Relay, tmp_path: Path
) -> None:
    """Claude Code and Gemini CLI in their terminal UI (a pty, no -p): a person is there,
    so after interactive_wait the hook withdraws the remote request and lets the host ask;
    the two prompts are never open together."""
    runs = [
        Run(cli, tmp_path / cli, free_port_of(relay.server), wait=60, interactive_wait=2)
        for cli in ("claude", "gemini")
    ]
    for run in runs:
        run.interactive = True
        run.install(relay.agent)
        run.start()
    for run in runs:
        result = run.join()
        why = run.why() + f"\n  screen: {result.get('screen', '')[-800:]}"
        approval = run.approval()
        assert approval["outcome"] == "handed_over", why
        assert 2000 <= approval["waited_ms"] < 8000, why
        assert relay.get(approval["id"])["status"] == "withdrawn", why
        pre = {"gemini": "BeforeTool"}.get(run.cli, "PreToolUse")
        (record,) = [r for r in audit_records(run.layout) if r["event"] == pre]
        assert record["decision"] == "ask", why  # the host's own prompt, nobody answered it
        assert not run.marker, why
        # the host's own prompt is on the screen (cursor moves stand for some spaces)
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\s", "", result["screen"])
        assert PROMPTED[run.cli] in shown, why


def free_port_of(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


# --------------------------------------------------------------------------- the child

READY = {"claude": ("\u276f", ">"), "gemini": ("Type your message",)}
# what each host's own confirmation prompt shows (Claude Code 2.1.330, Gemini CLI 0.61.0)
PROMPTED = {"claude": "requiresconfirmation", "gemini": "Allowonce"}


def run_interactive(cli: str, root: Path) -> dict[str, Any]:
    """The CLI's terminal UI under a pty: type the prompt, wait for the relayed decision
    in the audit log (plus a moment for the host's own prompt), then end the session."""
    import os
    import pty
    import select
    import signal

    from tests.e2e.fake_model import FakeModel

    layout = clis.Layout(root)
    argv = json.loads((root / "argv.json").read_text(encoding="utf-8"))
    argv = [argv[0]] if cli == "claude" else [argv[0], "--yolo", "-m", "gemini-2.5-flash"]
    if cli == "claude":  # the interactive UI asks once whether to use an API key
        state = layout.home / ".claude.json"
        data = json.loads(state.read_text(encoding="utf-8"))
        data["customApiKeyResponses"] = {"approved": ["dummy"], "rejected": []}
        state.write_text(json.dumps(data), encoding="utf-8")
    audit = layout.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    screen = b""
    with FakeModel() as fake:
        env = {**clis.environment(cli, layout, fake.url), "TERM": "xterm-256color"}
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover - the child execs the CLI
            os.chdir(layout.proj)
            os.execve(argv[0], argv, env)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        started = time.monotonic()
        typed_at = 0.0
        decided_at = 0.0
        try:
            while time.monotonic() - started < 90:
                ready, _, _ = select.select([fd], [], [], 0.3)
                if ready:
                    try:
                        screen += os.read(fd, 65536)
                    except OSError:
                        break
                text = screen.decode("utf-8", "replace")
                retry = typed_at and not audit.exists() and time.monotonic() - typed_at > 15
                drawn = any(m in text for m in READY[cli]) or time.monotonic() - started > 10
                if (not typed_at and drawn) or retry:
                    # the UI may still be drawing (Gemini's hook warning): type again later
                    time.sleep(2)
                    os.write(fd, b"\x15" + clis.PROMPT.encode())  # ^U clears a half line
                    time.sleep(0.5)
                    os.write(fd, b"\r")
                    typed_at = time.monotonic()
                if not decided_at and audit.exists() and "approval" in audit.read_text():
                    decided_at = time.monotonic()
                # the host draws its own prompt after the hook answers; a loaded machine
                # takes a while, so wait for it (or 25 s, and let the test say it is missing)
                shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\s", "", text)
                if decided_at and PROMPTED[cli] in shown:
                    time.sleep(1)
                    break
                if decided_at and time.monotonic() - decided_at > 25:
                    break
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        requests = list(fake.requests)
    (root / "cli-stderr.txt").write_bytes(screen[-20000:])
    return {
        "exit_code": None,
        "timed_out": not decided_at,
        "seconds": round(time.monotonic() - started, 2),
        "requests": requests,
        "screen": screen.decode("utf-8", "replace")[-4000:],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run one relayed CLI session")
    parser.add_argument("cli", choices=clis.PACKAGES)
    parser.add_argument("root", type=Path)
    parser.add_argument("--namespace", action="store_true", help="bring loopback up first")
    parser.add_argument("--bridge", help="PORT:SOCKET: serve 127.0.0.1:PORT from SOCKET")
    parser.add_argument("--interactive", action="store_true", help="the terminal UI, in a pty")
    args = parser.parse_args(argv)
    if args.namespace:
        bring_loopback_up()
    bridge = None
    if args.bridge:
        port, _, path = args.bridge.partition(":")
        bridge = TcpToUnix(int(port), path)
    try:
        run = run_interactive if args.interactive else run_child
        print(json.dumps(run(args.cli, args.root)))
    finally:
        if bridge is not None:
            bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
