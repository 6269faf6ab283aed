"""``hookwise hook`` through a real ``hookwise serve`` (issue 15): real processes, tokens
made by ``hookwise serve token add``, SQLite and PostgreSQL.

Each test starts the hook as the host would (payload on stdin), acts as the approver on the
service's API while the hook waits, and checks the host-shaped answer, the audit log and
what the service recorded. A test-controlled fake relay appears only in the forged-answer
tests at the end (a service that answers for another input, or garbage).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.api.settings import sqlite_url
from hookwise.policy.tools.payloads import build_payload
from tests.api.conftest import free_port
from tests.approval_relay import (
    HOOKWISE,
    FakeRelay,
    Relay,
    answer_for,
    relay_policy,
    start_relay,
    write_private,
)
from tests.service_env import drop_postgres_database, fresh_postgres_database, require_postgres

RULES = """\
  - id: ask-push
    match: {command: git push}
    action: ask
    reason: pushing needs a person
  - id: ask-tag-locally
    match: {command: git tag}
    action: ask
    relay: false
    reason: tags are asked in the terminal
"""


@pytest.fixture(params=["sqlite", "postgres"])
def relay(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Relay]:
    if request.param == "sqlite":
        url = sqlite_url(tmp_path)
    else:
        require_postgres()
        url = fresh_postgres_database("relay")
    started = start_relay(tmp_path / "server", url)
    try:
        yield started
    finally:
        started.server.stop()
        if request.param == "postgres":
            drop_postgres_database(url)


@pytest.fixture(scope="module")
def sqlite_relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """One service for the module (each test leaves no request pending)."""
    tmp_path = tmp_path_factory.mktemp("relay")
    started = start_relay(tmp_path / "server", sqlite_url(tmp_path))
    try:
        yield started
    finally:
        started.server.stop()


class Hook:
    """One ``hookwise hook`` process and its environment."""

    def __init__(self, tmp: Path, policy: str, token: str, **env: str) -> None:
        self.tmp = tmp
        self.user = write_private(tmp / "home" / ".config" / "hookwise" / "policy.yaml", policy)
        self.audit = tmp / "audit.jsonl"
        self.project = tmp / "project"
        self.project.mkdir(exist_ok=True)
        self.env = {
            **os.environ,
            "HOME": str(tmp / "home"),
            "XDG_CONFIG_HOME": str(tmp / "home" / ".config"),
            "HOOKWISE_USER_POLICY": str(self.user),
            "HOOKWISE_MANAGED_POLICY": str(tmp / "none.yaml"),
            "HOOKWISE_CACHE_DIR": str(tmp / "cache"),
            "HOOKWISE_AUDIT_LOG": str(self.audit),
            "HOOKWISE_AGENT_TOKEN": token,
            **env,
        }
        for name in ("HOOKWISE_POLICY", "CLAUDE_CODE_SESSION_ATTENDED"):
            if name not in env:
                self.env.pop(name, None)

    def payload(self, host: str, command: str, session: str = "s-1") -> str:
        payload = build_payload(host, "PreToolUse" if host != "gemini" else "BeforeTool")
        payload.update(
            {
                "tool_name": "Bash" if host != "gemini" else "run_shell_command",
                "tool_input": {"command": command},
                "cwd": str(self.project),
                "session_id": session,
            }
        )
        return json.dumps(payload)

    def start(self, host: str, command: str, session: str = "s-1") -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [HOOKWISE, "hook", "--platform", host],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
            cwd=self.project,
        )
        assert proc.stdin is not None
        proc.stdin.write(self.payload(host, command, session))
        proc.stdin.close()
        return proc

    def run(self, host: str, command: str, session: str = "s-1") -> tuple[Any, float]:
        started = time.monotonic()
        proc = self.start(host, command, session)
        return finish(proc), time.monotonic() - started

    def records(self) -> list[dict[str, Any]]:
        lines = self.audit.read_text().splitlines() if self.audit.exists() else []
        return [json.loads(line) for line in lines]


def finish(proc: subprocess.Popen[str], timeout: float = 60) -> Any:
    assert proc.stdout is not None and proc.stderr is not None
    proc.wait(timeout=timeout)
    out, err = proc.stdout.read(), proc.stderr.read()
    assert proc.returncode == 0, err
    return json.loads(out) if out.strip() else {}


def claude_verdict(answer: Any) -> tuple[str | None, str]:
    hso = answer.get("hookSpecificOutput", {})
    return hso.get("permissionDecision"), hso.get("permissionDecisionReason", "")


# --------------------------------------------------------------------------- decisions


def test_an_approval_lets_the_call_through(relay: Relay, tmp_path: Path) -> None:
    hook = Hook(tmp_path, relay_policy(relay.url, rules=RULES), relay.agent)
    proc = hook.start("claude", "git push origin main")
    (request,) = relay.pending()
    assert request["tool"] == "Bash" and request["input"] == {"command": "git push origin main"}
    assert (request["rule_id"], request["reason"]) == ("ask-push", "pushing needs a person")
    assert request["host"] == "claude" and request["session_id"] == "s-1"
    assert request["cwd"] == str(hook.project)
    assert relay.decide(request, "allow", note="go ahead").status_code == 200
    verdict, reason = claude_verdict(finish(proc))
    assert verdict == "allow" and "approved by alice" in reason and request["id"] in reason
    (record,) = hook.records()
    assert record["decision"] == "allow" and record["rule"] == "ask-push"
    approval = record["approval"]
    assert (approval["id"], approval["outcome"], approval["approver"], approval["note"]) == (
        request["id"],
        "allowed",
        "alice",
        "go ahead",
    )
    stored = relay.get(request["id"])
    assert stored["status"] == "allowed" and stored["decision"]["approver"] == "alice"
    logs = subprocess.run(
        [HOOKWISE, "logs", "--path", str(hook.audit)],
        capture_output=True,
        text=True,
        env=hook.env,
        check=True,
    ).stdout
    assert f"[approval {request['id']} allowed by alice: go ahead]" in logs


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
def test_a_denial_blocks_with_the_approvers_note(
    host: str, sqlite_relay: Relay, tmp_path: Path
) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), sqlite_relay.agent)
    proc = hook.start(host, "git push --tags")
    (request,) = sqlite_relay.pending()
    note = "use the staging remote"
    assert sqlite_relay.decide(request, "deny", note=note, token=sqlite_relay.bob).is_success
    answer = finish(proc)
    if host == "gemini":
        verdict, reason = answer["decision"], answer["reason"]
    else:
        verdict, reason = claude_verdict(answer)
    assert verdict == "deny"
    assert reason.startswith(note) and "denied by bob" in reason
    (record,) = hook.records()
    assert record["approval"]["outcome"] == "denied" and record["approval"]["approver"] == "bob"


def test_codex_and_gemini_answer_an_approval_in_their_own_form(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), sqlite_relay.agent)
    codex = hook.start("codex", "git push", session="codex-1")
    gemini = hook.start("gemini", "git push", session="gemini-1")
    for request in sqlite_relay.pending(2):
        assert sqlite_relay.decide(request, "allow").is_success
    assert finish(codex) == {}  # Codex has no explicit allow: its own approval applies
    assert finish(gemini)["decision"] == "allow"
    assert {r["approval"]["outcome"] for r in hook.records()} == {"allowed"}


def test_nobody_answers_the_fallback_denies_within_the_wait(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    policy = relay_policy(sqlite_relay.url, wait=2, rules=RULES)
    hook = Hook(tmp_path, policy, sqlite_relay.agent)
    answer, seconds = hook.run("claude", "git push")
    verdict, reason = claude_verdict(answer)
    assert verdict == "deny" and "no decision on approval request" in reason
    assert reason.startswith("pushing needs a person") and "within 2 s" in reason
    assert 2 <= seconds < 2 + 8, seconds  # a process start-up under load included
    assert 2000 <= hook.records()[0]["approval"]["waited_ms"] < 2000 + 3000
    (record,) = hook.records()
    assert record["approval"]["outcome"] == "timeout"
    stored = sqlite_relay.get(record["approval"]["id"])
    assert stored["status"] in ("expired", "withdrawn")  # closed: nobody can approve it now
    late = sqlite_relay.decide(stored, "allow")
    assert late.status_code in (409, 410), late.text


def test_no_service_denies_at_once(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    hook = Hook(tmp_path, relay_policy(url, wait=60, rules=RULES), "tok-unused-0123456789")
    answer, seconds = hook.run("claude", "git push")
    verdict, reason = claude_verdict(answer)
    assert verdict == "deny" and "cannot be reached" in reason
    assert seconds < 15, seconds  # not the 60 s wait
    assert hook.records()[0]["approval"]["waited_ms"] < 2000
    assert hook.records()[0]["approval"]["outcome"] == "unreachable"


def test_a_revoked_or_unknown_token_denies(sqlite_relay: Relay, tmp_path: Path) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), "not-a-token-0123456789")
    answer, _ = hook.run("claude", "git push")
    verdict, reason = claude_verdict(answer)
    assert verdict == "deny" and "refused the token" in reason and "401" in reason


def test_the_agent_token_cannot_approve(sqlite_relay: Relay, tmp_path: Path) -> None:
    """The agent can read its own token: with it, it can open a request, never decide it."""
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, wait=3, rules=RULES), sqlite_relay.agent)
    proc = hook.start("claude", "git push")
    (request,) = sqlite_relay.pending()
    forged = sqlite_relay.decide(request, "allow", token=sqlite_relay.agent)
    assert forged.status_code == 403, forged.text
    verdict, _ = claude_verdict(finish(proc))
    assert verdict == "deny"
    assert sqlite_relay.get(request["id"])["decision"] is None


def test_a_rule_can_keep_its_ask_off_the_relay(sqlite_relay: Relay, tmp_path: Path) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), sqlite_relay.agent)
    answer, seconds = hook.run("claude", "git tag v1")
    assert claude_verdict(answer)[0] == "ask"  # the host's own prompt, as without a relay
    assert "approval" not in hook.records()[0]
    assert seconds < 15  # not the 20 s wait


def test_an_approver_sees_the_input_the_hook_bound(sqlite_relay: Relay, tmp_path: Path) -> None:
    """A decision for another input hash is refused by the service (409 hash_mismatch)."""
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, wait=3, rules=RULES), sqlite_relay.agent)
    proc = hook.start("claude", "git push")
    (request,) = sqlite_relay.pending()
    other = sqlite_relay.decide(request, "allow", input_hash="sha256:" + "0" * 64)
    assert other.status_code == 409 and "hash" in other.text
    assert claude_verdict(finish(proc))[0] == "deny"


def test_remembered_approval_covers_the_same_call_in_the_session(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    policy = relay_policy(sqlite_relay.url, remember_minutes=10, rules=RULES)
    hook = Hook(tmp_path, policy, sqlite_relay.agent)
    proc = hook.start("claude", "git push")
    (request,) = sqlite_relay.pending()
    assert sqlite_relay.decide(request, "allow", remember_minutes=5).is_success
    assert claude_verdict(finish(proc))[0] == "allow"
    again, seconds = hook.run("claude", "git push")
    assert claude_verdict(again)[0] == "allow" and seconds < 15  # nobody was asked
    assert hook.records()[-1]["approval"]["remembered_from"] == request["id"]
    other_session = hook.start("claude", "git push", session="s-2")
    (fresh,) = sqlite_relay.pending()  # another session asks again
    assert fresh["session_id"] == "s-2"
    assert sqlite_relay.decide(fresh, "deny").is_success
    assert claude_verdict(finish(other_session))[0] == "deny"


# --------------------------------------------------------------------------- interactive


def test_interactive_claude_hands_over_to_its_own_prompt(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    policy = relay_policy(sqlite_relay.url, wait=30, interactive_wait=1, rules=RULES)
    hook = Hook(tmp_path, policy, sqlite_relay.agent, CLAUDE_CODE_SESSION_ATTENDED="1")
    answer, seconds = hook.run("claude", "git push")
    assert claude_verdict(answer)[0] == "ask" and seconds < 15  # not the 30 s wait
    (record,) = hook.records()
    assert record["approval"]["outcome"] == "handed_over"
    assert sqlite_relay.get(record["approval"]["id"])["status"] == "withdrawn"


def test_interactive_remote_answer_first_wins(sqlite_relay: Relay, tmp_path: Path) -> None:
    policy = relay_policy(sqlite_relay.url, wait=30, interactive_wait=20, rules=RULES)
    hook = Hook(tmp_path, policy, sqlite_relay.agent, CLAUDE_CODE_SESSION_ATTENDED="1")
    proc = hook.start("claude", "git push")
    (request,) = sqlite_relay.pending()
    assert sqlite_relay.decide(request, "allow").is_success
    assert claude_verdict(finish(proc))[0] == "allow"


def test_headless_claude_and_on_timeout_deny_never_hand_over(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    policy = relay_policy(
        sqlite_relay.url, wait=1, interactive_wait=1, on_timeout="deny", rules=RULES
    )
    attended = Hook(tmp_path, policy, sqlite_relay.agent, CLAUDE_CODE_SESSION_ATTENDED="1")
    assert claude_verdict(attended.run("claude", "git push")[0])[0] == "deny"
    headless = Hook(
        tmp_path / "b",
        relay_policy(sqlite_relay.url, wait=1, rules=RULES),
        sqlite_relay.agent,
        CLAUDE_CODE_SESSION_ATTENDED="0",
    )
    assert claude_verdict(headless.run("claude", "git push")[0])[0] == "deny"


def test_the_token_file_must_be_private_and_outside_the_project(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    token = write_private(tmp_path / "project" / "agent-token", sqlite_relay.agent)
    policy = relay_policy(sqlite_relay.url, rules=RULES).replace(
        '"token_env": "HOOKWISE_AGENT_TOKEN"', f'"token_file": "{token}"'
    )
    hook = Hook(tmp_path, policy, "")
    verdict, reason = claude_verdict(hook.run("claude", "git push")[0])
    assert verdict == "deny" and "inside the project" in reason
    outside = write_private(tmp_path / "home" / "agent-token", sqlite_relay.agent)
    os.chmod(outside, 0o644)
    hook.user.write_text(policy.replace(str(token), str(outside)))
    verdict, reason = claude_verdict(hook.run("claude", "git push")[0])
    assert verdict == "deny" and "can be read by other users" in reason
    os.chmod(outside, 0o600)
    proc = hook.start("claude", "git push")
    assert sqlite_relay.decide(sqlite_relay.pending()[0], "allow").is_success
    assert claude_verdict(finish(proc))[0] == "allow"


def test_events_that_do_not_ask_load_nothing_of_the_relay(
    sqlite_relay: Relay, tmp_path: Path
) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), sqlite_relay.agent)
    hook.run("claude", "ls")  # warm the cache
    probe = (
        "import sys\nfrom hookwise.cli.entry import main\nmain(['hook'])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    import sys as _sys

    result = subprocess.run(
        [_sys.executable, "-c", probe],
        input=hook.payload("claude", "ls -la"),
        capture_output=True,
        text=True,
        env=hook.env,
        timeout=60,
        check=False,
    )
    modules = set(result.stderr.split())
    assert "hookwise.policy.hook" in modules
    relay_modules = {
        "hookwise.policy.approvals.relay",
        "hookwise.policy.approvals.wire",
        "urllib.request",
        "ssl",
    }
    assert not modules & relay_modules, modules & relay_modules


# --------------------------------------------------------------------------- forged answers


@pytest.mark.parametrize(
    ("forge", "named"),
    [
        (lambda r: (200, answer_for(r, input_hash="sha256:" + "1" * 64)), "input_hash is"),
        (lambda r: (200, answer_for(r, nonce="0" * 32)), "nonce is"),
        (lambda r: (200, answer_for(r, id="r9")), "id is 'r9'"),
        (lambda r: (200, answer_for(r, status="allowed", decision=None)), "without a decision"),
    ],
)
def test_a_forged_approval_is_refused(forge: Any, named: str, tmp_path: Path) -> None:
    fake = FakeRelay(forge)
    try:
        hook = Hook(tmp_path, relay_policy(fake.url, wait=5, rules=RULES), "tok-0123456789abcdef")
        answer, _ = hook.run("claude", "git push")
    finally:
        fake.close()
    verdict, reason = claude_verdict(answer)
    assert verdict == "deny" and "does not match request r1" in reason and named in reason
    approval = hook.records()[0]["approval"]
    assert approval["outcome"] == "mismatch" and approval["waited_ms"] < 4000  # not the wait
    sent = fake.requests[0]
    assert sent["nonce"] and len(sent["nonce"]) == 32 and sent["input"] == {"command": "git push"}


@pytest.mark.parametrize(
    "forge",
    [lambda r: (500, {"error": "boom"}), lambda r: (200, b"<html>not json</html>")],
)
def test_a_broken_service_falls_back_closed(forge: Any, tmp_path: Path) -> None:
    fake = FakeRelay(forge)
    try:
        hook = Hook(tmp_path, relay_policy(fake.url, wait=5, rules=RULES), "tok-0123456789abcdef")
        answer, _ = hook.run("claude", "git push")
    finally:
        fake.close()
    verdict, reason = claude_verdict(answer)
    assert verdict == "deny" and "hookwise denies" in reason
    assert hook.records()[0]["approval"]["waited_ms"] < 4000


def test_a_relay_failure_never_allows_even_with_ask_fallback_allow(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    policy = relay_policy(url, wait=5, rules=RULES, extra_settings="  ask_fallback: allow\n")
    hook = Hook(tmp_path, policy, "tok-unused-0123456789")
    for host in ("claude", "codex", "gemini"):
        answer, _ = hook.run(host, "git push")
        if host == "gemini":
            assert answer["decision"] == "deny", answer
        else:
            assert claude_verdict(answer)[0] == "deny", (host, answer)


def test_the_request_is_bound_to_the_rewritten_input(sqlite_relay: Relay, tmp_path: Path) -> None:
    rules = """\
  - id: dry-run-push
    match: {command: git push}
    action: rewrite
    rewrite: {replace: [{arg: command, find: "git push", with: "git push --dry-run"}]}
  - id: ask-dry-run
    match: {command: {program: git, flags: [--dry-run]}}
    action: ask
    reason: a rewritten push still needs a person
"""
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=rules), sqlite_relay.agent)
    proc = hook.start("claude", "git push origin")
    (request,) = sqlite_relay.pending()
    assert request["input"] == {"command": "git push --dry-run origin"}
    assert request["rule_id"] == "ask-dry-run"
    assert sqlite_relay.decide(request, "allow").is_success
    answer = finish(proc)
    assert claude_verdict(answer)[0] == "allow"
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "git push --dry-run origin"}


def test_doctor_checks_the_token_and_the_service(sqlite_relay: Relay, tmp_path: Path) -> None:
    hook = Hook(tmp_path, relay_policy(sqlite_relay.url, rules=RULES), sqlite_relay.agent)

    def doctor(**env: str) -> dict[str, Any]:
        done = subprocess.run(
            [HOOKWISE, "doctor", "--project", str(hook.project), "--json", "--host", "claude"],
            capture_output=True,
            text=True,
            env={**hook.env, **env},
            check=False,
        )
        checks = json.loads(done.stdout)["policy"]["checks"]
        (found,) = [c for c in checks if c["name"] == "approvals"]
        return dict(found)

    good = doctor()
    assert good["status"] == "ok" and "accepts the token" in good["detail"]
    refused = doctor(HOOKWISE_AGENT_TOKEN="not-a-token-0123456789")
    assert refused["status"] == "fail" and "401" in refused["detail"]
    missing = doctor(HOOKWISE_AGENT_TOKEN="")
    assert missing["status"] == "fail" and "not set" in missing["detail"]


def test_no_request_where_the_answer_cannot_decide(tmp_path: Path) -> None:
    """Gemini's ToolPermission notification is advisory: an ask there asks nobody."""
    rules = """\
  - id: ask-permission
    events: [permission.request]
    match: {tool: shell}
    action: ask
"""
    url = f"http://127.0.0.1:{free_port()}"
    hook = Hook(tmp_path, relay_policy(url, wait=60, rules=rules), "tok-unused-0123456789")
    payload = build_payload("gemini", "Notification")
    payload.update(
        {
            "notification_type": "ToolPermission",
            "details": {"type": "exec", "command": "git push"},
            "cwd": str(hook.project),
        }
    )
    proc = subprocess.run(
        [HOOKWISE, "hook", "--platform", "gemini"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=hook.env,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    (record,) = hook.records()
    assert record["canonical"] == ["notification", "permission.request"], record
    assert record["rule"] == "ask-permission" and record["decision"] == "ask", record
    assert "approval" not in record


# --------------------------------------------------------------------------- fuzz: fail closed

GARBAGE = st.one_of(
    st.binary(max_size=64),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=8,
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "id": st.sampled_from(["r1", "r2", ""]),
            "status": st.sampled_from(["allowed", "denied", "pending", "expired", "ok"]),
            "nonce": st.text(max_size=4),
            "input_hash": st.text(max_size=4),
            "decision": st.dictionaries(
                st.sampled_from(["decision", "approver", "note"]),
                st.sampled_from(["allow", "deny", "alice", ""]),
            ),
        },
    ),
)


def relay_in_process(forge: Any) -> tuple[Any, Any]:
    """One ask through relay.relay() (in this process) against a FakeRelay answering forge."""
    from hookwise.policy.approvals import relay
    from hookwise.policy.pipeline import decide
    from hookwise.policy.rules.compiler import compile_sources
    from hookwise.policy.trust.store import Trust

    fake = FakeRelay(forge)
    try:
        text = relay_policy(fake.url, wait=0.3, rules=RULES)
        policy = compile_sources([("user", "u.yaml", text.encode())], trust=Trust())
        payload = {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "git push"},
            "session_id": "s",
            "cwd": "/nonexistent-project",
        }
        env = {"HOOKWISE_AGENT_TOKEN": "tok-0123456789"}
        outcome = decide(payload, policy, "claude", env, now=time.time())
        decision = outcome.decision
        assert decision is not None and decision.decision == "ask"
        result = relay.relay(
            decision, outcome.events, "claude", policy["hosts"], policy["settings"], env=env
        )
    finally:
        fake.close()
    return decision, result


def test_the_right_answer_allows_in_process() -> None:
    decision, result = relay_in_process(lambda request: (200, answer_for(request)))
    assert decision.decision == "allow" and result.outcome == "allowed"
    assert result.approver == "mallory"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(status=st.sampled_from([200, 200, 200, 404, 409, 500, 502]), body=GARBAGE)
def test_no_answer_but_the_right_one_allows(status: int, body: Any) -> None:
    """Whatever a (forged, broken) service answers, the hook allows only a verified allow."""
    encoded = body if isinstance(body, bytes) else json.dumps(body).encode()
    decision, result = relay_in_process(lambda request: (status, encoded))
    assert decision.decision == "deny", (status, body, result.as_dict())
    assert result.outcome in ("mismatch", "unreachable", "timeout", "expired", "withdrawn")
