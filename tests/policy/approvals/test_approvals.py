"""settings.approvals and the relay's parsers (issue 15): the settings block, the trust
model, the token, the canonical input hash and the verification of the service's answer.

The relay against a real ``hookwise serve`` is in tests/policy/approvals/test_relay_service.py; the
real CLIs in tests/e2e/test_approvals_e2e.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.policy.approvals import wire as approvals
from hookwise.policy.approvals.wire import ApprovalsError, Expected, MismatchError, verify_answer
from hookwise.policy.install.registrations import timeout_seconds
from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.trust.store import Trust
from tests.policy.conftest import compile_text

RELAY = """\
version: 1
settings:
  approvals:
    url: https://approvals.example.com/
    token_env: HOOKWISE_AGENT_TOKEN
    wait: 30
    on_timeout: deny
    notify:
      - {type: ntfy, url: "https://ntfy.example.com/topic"}
    remember_minutes: 10
    interactive_wait: 5
rules:
  - id: ask-push
    match: {command: git push}
    action: ask
    reason: pushing needs a person
  - id: ask-quiet
    match: {command: git tag}
    action: ask
    relay: false
"""


def messages(policy: dict[str, Any], kind: str = "errors") -> list[str]:
    return [f"{p['file']}:{p['line']}:{p['column']}: {p['message']}" for p in policy[kind]]


def test_the_settings_block_compiles_whole() -> None:
    policy = compile_text(RELAY, scope="user")
    assert policy["errors"] == []
    assert policy["settings"]["approvals"] == {
        "url": "https://approvals.example.com",
        "token_env": "HOOKWISE_AGENT_TOKEN",
        "wait": 30,
        "on_timeout": "deny",
        "notify": [{"type": "ntfy", "url": "https://ntfy.example.com/topic"}],
        "remember_minutes": 10,
        "interactive_wait": 5,
    }
    rules = {r["id"]: r for r in policy["rules"]}
    assert "relay" not in rules["ask-push"] and rules["ask-quiet"]["relay"] is False


def test_defaults_fill_the_block() -> None:
    policy = compile_text(
        "version: 1\nsettings:\n  approvals: {url: 'http://127.0.0.1:8765', token_file: "
        "~/.config/hookwise/agent-token}\n",
        scope="user",
    )
    config = policy["settings"]["approvals"]
    assert config["wait"] == 120 and config["on_timeout"] == "ask"
    assert config["interactive_wait"] == 15 and config["remember_minutes"] == 0
    assert config["token_file"] == os.path.expanduser("~/.config/hookwise/agent-token")


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ("{token_env: T}", "approvals needs 'url'"),
        ("{url: 'https://x.example'}", "exactly one of token_env and token_file"),
        (
            "{url: 'https://x.example', token_env: T, token_file: /t}",
            "not token_env and token_file",
        ),
        ("{url: 'http://x.example', token_env: T}", "plain http:// is allowed only to a loopback"),
        ("{url: 'ftp://x.example', token_env: T}", "expected an https:// URL"),
        ("{url: 'https://u:p@x.example', token_env: T}", "credentials do not go in the URL"),
        ("{url: 'https://x.example/?a=1', token_env: T}", "no query or fragment"),
        ("{url: 'https://x.example', token_env: 'A B'}", "not an environment variable name"),
        ("{url: 'https://x.example', token_file: rel/token}", "must be an absolute path"),
        ("{url: 'https://x.example', token_env: T, wait: 0}", "approvals.wait must be more than 0"),
        ("{url: 'https://x.example', token_env: T, wait: 9000}", "at most 540 seconds"),
        ("{url: 'https://x.example', token_env: T, wait: '30'}", "number of seconds"),
        ("{url: 'https://x.example', token_env: T, on_timeout: allow}", "one of ask, deny"),
        ("{url: 'https://x.example', token_env: T, remember_minutes: 5000}", "at most 1440"),
        (
            "{url: 'https://x.example', token_env: T, notify: [{type: sms, url: 'https://a'}]}",
            "type",
        ),
        (
            "{url: 'https://x.example', token_env: T, notify: [{type: ntfy}]}",
            "needs 'type' and 'url'",
        ),
        ("{url: 'https://x.example', token_env: T, waitt: 3}", "did you mean 'wait'"),
        ("[1, 2]", "approvals must be a mapping"),
    ],
)
def test_a_bad_block_is_an_error_naming_the_field(block: str, expected: str) -> None:
    policy = compile_text(f"version: 1\nsettings:\n  approvals: {block}\n", scope="user")
    found = messages(policy)
    assert found and any(expected in m for m in found), found
    assert all(m.startswith("policy.yaml:") for m in found)
    assert "approvals" not in policy["settings"]


def test_relay_is_a_key_of_ask_rules_only() -> None:
    policy = compile_text(
        "version: 1\nrules:\n  - {id: d, match: {command: rm}, action: deny, relay: false}\n"
    )
    assert any("'relay' applies only to action 'ask'" in m for m in messages(policy))


@pytest.mark.parametrize("trusted", [True, False])
def test_a_project_cannot_set_or_redirect_the_relay(trusted: bool) -> None:
    user = b"version: 1\nsettings:\n  approvals: {url: 'https://mine.example', token_env: T}\n"
    project = b"version: 1\nsettings:\n  approvals: {url: 'https://evil.example', token_env: T}\n"
    trust = Trust.everything_trusted() if trusted else Trust()
    policy = compile_sources(
        [("user", "user.yaml", user), ("project", "proj.yaml", project)], trust=trust
    )
    assert policy["settings"]["approvals"]["url"] == "https://mine.example"
    warnings = messages(policy, "warnings")
    assert any(
        "proj.yaml" in w and "'approvals' is read from the user and managed policies" in w
        for w in warnings
    ), warnings
    alone = compile_sources([("project", "proj.yaml", project)], trust=trust)
    assert "approvals" not in alone["settings"]


def test_a_managed_relay_cannot_be_changed_by_the_user() -> None:
    managed = b"version: 1\nsettings:\n  approvals: {url: 'https://corp.example', token_env: T}\n"
    user = b"version: 1\nsettings:\n  approvals: {url: 'https://mine.example', token_env: T}\n"
    policy = compile_sources([("managed", "m.yaml", managed), ("user", "u.yaml", user)])
    assert policy["settings"]["approvals"]["url"] == "https://corp.example"
    assert any("set by the managed policy" in m for m in messages(policy))


def test_install_writes_a_timeout_that_holds_the_wait() -> None:
    plain = compile_text("version: 1\nrules: []\n", scope="user")
    relayed = compile_text(RELAY, scope="user")
    assert timeout_seconds(plain) == 10
    assert timeout_seconds(relayed) == 10 + 30 + 5  # base + wait + margin
    from hookwise.policy.install.registrations import registrations

    seconds = timeout_seconds(relayed)
    (gemini,) = registrations("gemini", ["BeforeTool"], "hookwise hook", seconds)
    (claude,) = registrations("claude", ["PreToolUse"], "hookwise hook", seconds)
    assert (gemini.handler["timeout"], claude.handler["timeout"]) == (45_000, 45)


# --------------------------------------------------------------------------- parsers


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8765", "http://localhost/", "http://[::1]:9/", "https://a.example/base"],
)
def test_relay_urls_accepted(url: str) -> None:
    assert approvals.check_url(url) == url.rstrip("/")


@given(st.text(max_size=60))
def test_check_url_never_crashes_and_never_accepts_remote_plain_http(text: str) -> None:
    try:
        out = approvals.check_url(text)
    except ApprovalsError:
        return
    assert out.startswith(("https://", "http://"))
    if out.startswith("http://"):
        from urllib.parse import urlsplit

        assert approvals.is_loopback(urlsplit(out).hostname or "")


def test_the_input_hash_is_the_contract_formula() -> None:
    value = {"command": "echo hé > marker", "b": [1, 2.5, None, True], "a": {"z": 1, "y": "☃"}}
    formula = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert approvals.input_hash(value) == "sha256:" + hashlib.sha256(formula.encode()).hexdigest()
    with pytest.raises(ValueError, match="valid Unicode"):
        approvals.input_hash({"command": "\ud800"})
    with pytest.raises(ValueError):
        approvals.input_hash({"n": float("nan")})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_the_hash_depends_on_content_not_key_order(value: Any) -> None:
    try:
        digest = approvals.input_hash({"v": value, "a": 1})
    except ValueError:
        return  # lone surrogates in generated text
    assert digest == approvals.input_hash({"a": 1, "v": value})
    assert digest != approvals.input_hash({"v": value, "a": 2})


# --------------------------------------------------------------------------- the token


def test_token_from_the_environment() -> None:
    config = {"token_env": "AGENT"}
    assert approvals.read_token(config, {"AGENT": " tok-123\n"}, None) == "tok-123"
    with pytest.raises(ApprovalsError, match=r"\$AGENT, which is not set"):
        approvals.read_token(config, {}, None)
    with pytest.raises(ApprovalsError, match="printable ASCII"):
        approvals.read_token(config, {"AGENT": "a\r\nX-Evil: 1"}, None)


def test_token_file_rules(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "sub").mkdir()
    good = home / "agent-token"
    good.write_text("tok-abc\n")
    good.chmod(0o600)
    assert approvals.read_token({"token_file": str(good)}, {}, str(project / "sub")) == "tok-abc"

    good.chmod(0o644)
    with pytest.raises(ApprovalsError, match=r"can be read by other users \(mode 644\)"):
        approvals.read_token({"token_file": str(good)}, {}, str(project))
    good.chmod(0o600)

    inside = project / "token"
    inside.write_text("tok\n")
    inside.chmod(0o600)
    with pytest.raises(ApprovalsError, match="inside the project"):
        approvals.read_token({"token_file": str(inside)}, {}, str(project / "sub"))
    link = home / "link-token"
    link.symlink_to(inside)
    with pytest.raises(ApprovalsError, match="inside the project"):
        approvals.read_token({"token_file": str(link)}, {}, str(project / "sub"))

    with pytest.raises(ApprovalsError, match="cannot read"):
        approvals.read_token({"token_file": str(home / "missing")}, {}, str(project))
    with pytest.raises(ApprovalsError, match="not a regular file"):
        approvals.read_token({"token_file": str(home)}, {}, str(project))
    empty = home / "empty"
    empty.write_text("\n")
    empty.chmod(0o600)
    with pytest.raises(ApprovalsError, match="is empty"):
        approvals.read_token({"token_file": str(empty)}, {}, str(project))
    assert stat.S_IMODE(good.stat().st_mode) == 0o600


# --------------------------------------------------------------------------- the answer

NOW = 1_800_000_000_000
EXPECTED = Expected("req-1", "ab" * 16, "sha256:" + "0" * 64, NOW + 30_000, remember_minutes=10)


def answer(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "req-1",
        "status": "allowed",
        "nonce": "ab" * 16,
        "input_hash": "sha256:" + "0" * 64,
        "expires_at": NOW + 30_000,
        "decision": {
            "decision": "allow",
            "note": "ok from the phone",
            "approver": "alice",
            "decided_at": NOW + 1000,
            "remember_minutes": 0,
            "remembered_from": None,
        },
    }
    if "decision" in changes:
        decision = changes.pop("decision")
        if isinstance(decision, dict):
            base["decision"].update(decision)
        else:
            base["decision"] = decision
    base.update(changes)
    return base


def test_a_matching_answer_verifies() -> None:
    verdict = verify_answer(answer(), EXPECTED, NOW + 2000)
    assert (verdict.status, verdict.decision, verdict.approver) == ("allowed", "allow", "alice")
    assert verdict.note == "ok from the phone"
    denied = verify_answer(
        answer(status="denied", decision={"decision": "deny", "note": "no"}), EXPECTED, NOW
    )
    assert (denied.decision, denied.note) == ("deny", "no")
    pending = verify_answer(answer(status="pending", decision=None), EXPECTED, NOW)
    assert pending.status == "pending" and pending.decision is None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"id": "req-2"}, "id is 'req-2'"),
        ({"nonce": "cd" * 16}, "nonce is"),
        ({"input_hash": "sha256:" + "1" * 64}, "input_hash is"),
        ({"status": "approved"}, "unknown status"),
        ({"status": "allowed", "decision": {"decision": "deny"}}, "status 'allowed' with decision"),
        ({"status": "denied"}, "status 'denied' with decision 'allow'"),
        ({"expires_at": NOW + 99_000_000}, "later than the requested"),
        ({"decision": {"approver": ""}}, "names no approver"),
        ({"decision": {"approver": "al\nice"}}, "control characters"),
        ({"decision": {"note": "x" * 2001}}, "at most 2000"),
        ({"decision": {"remember_minutes": 60}}, "more than the 10"),
        ({"decision": {"remember_minutes": True}}, "remember_minutes is True"),
    ],
)
def test_a_mismatch_is_named(change: dict[str, Any], named: str) -> None:
    with pytest.raises(MismatchError, match=named.replace("(", r"\(").replace(")", r"\)")):
        verify_answer(answer(**change), EXPECTED, NOW + 2000)


def test_an_answer_after_the_expiry_is_refused() -> None:
    with pytest.raises(MismatchError, match="expired"):
        verify_answer(answer(), EXPECTED, NOW + 30_000)
    with pytest.raises(MismatchError, match="without a decision"):
        verify_answer(answer(decision=None), EXPECTED, NOW)


ANSWER_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=8),
    st.sampled_from(["req-1", "ab" * 16, "allowed", "denied", "allow", "deny", "alice"]),
)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(
    st.dictionaries(
        st.sampled_from(["id", "status", "nonce", "input_hash", "expires_at", "decision", "x"]),
        ANSWER_VALUES
        | st.dictionaries(
            st.sampled_from(["decision", "approver", "note", "remember_minutes"]), ANSWER_VALUES
        ),
    )
)
def test_garbage_never_verifies_as_a_decision(garbage: dict[str, Any]) -> None:
    """Random answers: either a MismatchError, or (only with the exact identity) a verdict."""
    try:
        verdict = verify_answer(garbage, EXPECTED, NOW)
    except MismatchError:
        return
    assert garbage["id"] == "req-1" and garbage["nonce"] == "ab" * 16
    assert garbage["input_hash"] == EXPECTED.input_hash
    if verdict.decision is not None:
        assert approvals.DECIDED[garbage["status"]] == verdict.decision
        assert verdict.decision == garbage["decision"]["decision"]


@given(st.sampled_from(["id", "nonce", "input_hash"]), st.text(max_size=70))
def test_any_other_identity_is_a_mismatch(key: str, value: str) -> None:
    original = answer()[key]
    if value == original:
        return
    with pytest.raises(MismatchError, match=key):
        verify_answer(answer(**{key: value}), EXPECTED, NOW)


@given(st.binary(max_size=200))
def test_non_objects_are_mismatches(data: bytes) -> None:
    try:
        value = json.loads(data)
    except ValueError:
        value = data
    if isinstance(value, dict):
        return
    with pytest.raises(MismatchError, match="not a JSON object"):
        verify_answer(value, EXPECTED, NOW)


# --------------------------------------------------------------------------- settings fuzz

BLOCK_KEYS = st.sampled_from(
    [
        "url",
        "token_env",
        "token_file",
        "wait",
        "on_timeout",
        "notify",
        "remember_minutes",
        "interactive_wait",
        "other",
    ]
)
BLOCK_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        ["https://a.example", "http://127.0.0.1:1", "http://a.example", "T", "/abs", "ask", "deny"]
    ),
    st.lists(
        st.dictionaries(
            st.sampled_from(["type", "url"]),
            st.sampled_from(
                ["ntfy", "slack", "webhook", "sms", "https://n.example/t", "javascript:x"]
            ),
        ),
        max_size=3,
    ),
)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150, deadline=None)
@given(st.dictionaries(BLOCK_KEYS, BLOCK_VALUES, max_size=8))
def test_the_settings_block_is_valid_or_an_error(block: dict[str, Any]) -> None:
    text = textwrap.dedent(
        f"""\
        version: 1
        settings:
          approvals: {json.dumps(block)}
        """
    )
    policy = compile_text(text, scope="user")
    config = policy["settings"].get("approvals")
    if policy["errors"]:
        assert config is None
        assert all(p["line"] >= 1 for p in policy["errors"])
        return
    assert config is not None
    assert approvals.check_url(config["url"]) == config["url"]
    assert ("token_env" in config) != ("token_file" in config)
    assert 0 < config["wait"] <= 540 and 0 <= config["interactive_wait"] <= 540
    assert config["on_timeout"] in ("ask", "deny")
    assert 0 <= config["remember_minutes"] <= 1440
    for target in config["notify"]:
        assert target["type"] in ("ntfy", "slack", "webhook")


# --------------------------------------------------------------------------- attended


def fake_proc(root: Path, chain: list[tuple[int, int, list[str], str]]) -> str:
    """/proc entries: (pid, ppid, argv, what fd 0 points at)."""
    for pid, ppid, argv, stdin in chain:
        entry = root / str(pid)
        (entry / "fd").mkdir(parents=True)
        (entry / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
        (entry / "stat").write_text(f"{pid} (some (odd) name) S {ppid} 1 1 0\n")
        (entry / "fd" / "0").symlink_to(stdin)
    return str(root)


@pytest.mark.parametrize(
    ("argv", "stdin", "expected"),
    [
        (["node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"], "/dev/pts/3", True),
        (["node", "/home/u/.bin/gemini", "-m", "x"], "/dev/pts/0", True),
        (["node", "/home/u/.bin/gemini", "-p", "do it"], "/dev/pts/0", False),
        (["node", "/home/u/.bin/gemini", "--prompt=do it"], "/dev/pts/0", False),
        (["node", "/home/u/.bin/gemini"], "/dev/null", False),
        (["node", "/home/u/.bin/gemini"], "pipe:[123]", False),
        (["node", "/srv/other-tool.js"], "/dev/pts/0", False),
    ],
)
def test_gemini_attended_is_read_from_its_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str, expected: bool
) -> None:
    from hookwise.policy.approvals import relay

    proc = fake_proc(
        tmp_path,
        [
            (200, 100, ["/bin/bash", "-c", "hookwise hook"], "pipe:[1]"),
            (100, 1, argv, stdin),
        ],
    )
    monkeypatch.setattr(relay.os, "getppid", lambda: 200)
    assert relay._ancestor_attended("gemini", ("-p", "--prompt"), proc) is expected


def test_claude_attended_is_its_environment_variable() -> None:
    from hookwise.policy.adapters.hosts import host_tables
    from hookwise.policy.approvals import relay

    tables = host_tables()
    assert relay.attended("claude", tables["claude"], {"CLAUDE_CODE_SESSION_ATTENDED": "1"})
    assert not relay.attended("claude", tables["claude"], {"CLAUDE_CODE_SESSION_ATTENDED": "0"})
    assert not relay.attended("claude", tables["claude"], {})
    assert tables["codex"]["attended"] is None
    assert not relay.attended("codex", tables["codex"], {"CLAUDE_CODE_SESSION_ATTENDED": "1"})
    assert (tables["gemini"]["timeout_unit"], tables["claude"]["timeout_unit"]) == ("ms", "s")


def test_explain_says_where_the_ask_goes() -> None:
    from hookwise.policy.tools.explain import explain
    from hookwise.policy.tools.payloads import build_payload

    policy = compile_text(RELAY, scope="user")
    payload = build_payload("claude", "PreToolUse")
    payload.update({"tool_name": "Bash", "tool_input": {"command": "git push"}, "cwd": "/tmp"})
    report = explain(policy, payload, "claude", {}, now=0.0)
    assert report["relay"] == {
        "url": "https://approvals.example.com",
        "wait": 30,
        "interactive_wait": 5,
        "on_timeout": "deny",
        "hand_over": False,
    }
    payload["tool_input"] = {"command": "git tag v1"}  # relay: false
    assert explain(policy, payload, "claude", {}, now=0.0)["relay"] is None
