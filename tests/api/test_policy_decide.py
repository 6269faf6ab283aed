"""POST /api/policy/decide: the answer ``hookwise hook`` gives, over HTTP, from the same code.

Issue 4 item 6: the hook, ``explain``, ``test`` and the service decide with one function.
The proofs: the real ``hookwise hook`` process and the endpoint give byte-identical answers
(exit code, stdout, stderr) on the same payloads and policies for every host; generated
payloads give the endpoint's answer and the in-process ``pipeline.decide``'s alike; and the
route is seen calling ``pipeline.decide`` itself.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.api.app import create_app
from hookwise.api.settings import ServiceSettings, sqlite_url
from hookwise.policy import pipeline
from hookwise.policy.adapters.hosts import host_event_names
from hookwise.policy.cache import load_policy
from hookwise.policy.retry_state import RetryState
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.store import trust_file
from tests.api.conftest import AUTH, TOKEN

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
ROUTE = "/api/policy/decide"
PLATFORMS = ("gemini", "claude", "codex")

POLICY = """\
version: 1
rules:
  - id: no-force-push
    match: {tool: shell, command: git push --force}
    action: deny
    reason: force pushes are not allowed
    priority: 100
  - id: confirm-rm
    match: {tool: shell, command: rm}
    action: ask
    reason: removing files needs a confirmation
  - id: allow-ls
    match: {tool: shell, command: ls}
    action: allow
    reason: listing is harmless
  - id: marker-rewrite
    match: {command: {program: echo, regex: [marker]}}
    action: rewrite
    rewrite: {replace: [{arg: command, find: marker, with: marker-modified}]}
  - id: prompt-context
    match: {prompt: {words: [deploy]}}
    action: context
    context: deployments use the pipeline
  - id: after-shell-context
    events: [tool.after]
    match: {tool: shell}
    action: context
    context: the shell ran
  - id: env-files
    match: {tool: [write, edit], files: [.env]}
    action: deny
    reason: .env holds secrets
"""
BROKEN = "version: 1\nrules:\n  - id: typo\n    actoin: deny\n"

SHELL = {"gemini": "run_shell_command", "claude": "Bash", "codex": "Bash"}
PRE = {"gemini": "BeforeTool", "claude": "PreToolUse", "codex": "PreToolUse"}
POST = {"gemini": "AfterTool", "claude": "PostToolUse", "codex": "PostToolUse"}
PROMPT = {"gemini": "BeforeAgent", "claude": "UserPromptSubmit", "codex": "UserPromptSubmit"}


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Only this test's files count: no managed, user or audit file of the machine, and
    no variable that would tell the platform detection which host runs."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".state"))
    monkeypatch.setenv("HOOKWISE_MANAGED_POLICY", str(tmp_path / "no-managed.yaml"))
    monkeypatch.setenv("HOOKWISE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HOOKWISE_AUDIT", "0")
    for name in list(os.environ):
        if name.startswith("CODEX_") or name in (
            "GEMINI_SESSION_ID",
            "HOOKWISE_POLICY",
            "HOOKWISE_USER_POLICY",
            "HOOKWISE_PROJECT_DIR",
            "HOOKWISE_AUDIT_LOG",
            "HOOKWISE_ON_ERROR",
        ):
            monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path, home: Path) -> Callable[[str, str], Path]:
    def make(name: str, policy: str) -> Path:
        directory = tmp_path / name
        (directory / ".hookwise").mkdir(parents=True)
        (directory / ".hookwise" / "policy.yaml").write_text(policy)
        trust_file(str(directory / ".hookwise" / "policy.yaml"), dict(os.environ))
        return directory

    return make


@pytest.fixture
def api(tmp_path: Path, home: Path) -> Iterator[TestClient]:
    """A service on SQLite: the decision does not touch the database (the rate limit
    does; ``client`` runs that on both databases)."""
    data = tmp_path / "service"
    data.mkdir()
    settings_ = ServiceSettings(data_dir=data, database_url=sqlite_url(data), api_token=TOKEN)
    with TestClient(create_app(settings_, run_background=False), headers=AUTH) as client:
        yield client


def decide(client: TestClient, payload: Any, platform: str | None = None, **extra: Any) -> Any:
    body: dict[str, Any] = {"payload": payload, **extra}
    if platform is not None:
        body["platform"] = platform
    response = client.post(ROUTE, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def run_hook(payload: Any, platform: str | None) -> dict[str, Any]:
    """The real hook process, in this test's environment (the service reads the same)."""
    args = ["--platform", platform] if platform else []
    done = subprocess.run(
        [HOOKWISE, "hook", *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    return {"exitCode": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def shell(host: str, command: str, cwd: Path, event: str | None = None) -> dict[str, Any]:
    return build_payload(
        host,
        event or PRE[host],
        tool=SHELL[host],
        tool_input={"command": command},
        cwd=str(cwd),
        extra={"tool_response": {"exit_code": 0}} if event == POST[host] else None,
    )


# --------------------------------------------------------------------------- the real hook


CASES: dict[str, tuple[Callable[[str, Path], dict[str, Any]], str, str | None]] = {
    # name: (payload maker, the policy's verdict, the deciding rule)
    "deny": (lambda h, d: shell(h, "git push --force origin main", d), "deny", "no-force-push"),
    "ask": (lambda h, d: shell(h, "rm -r build", d), "ask", "confirm-rm"),
    "allow": (lambda h, d: shell(h, "ls -la", d), "allow", None),
    "rewrite": (lambda h, d: shell(h, "echo hi > marker", d), "allow", "marker-rewrite"),
    "no match": (lambda h, d: shell(h, "pwd", d), "none", None),
    "prompt context": (
        lambda h, d: build_payload(h, PROMPT[h], prompt="please deploy", cwd=str(d)),
        "none",
        None,
    ),
    "after-tool context": (lambda h, d: shell(h, "make", d, POST[h]), "none", None),
    "unknown event": (
        lambda h, d: build_payload(h, "NoSuchEvent", cwd=str(d)),
        "none",
        None,
    ),
}


@pytest.mark.parametrize("host", PLATFORMS)
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("named", [True, False], ids=["--platform", "detected"])
def test_the_endpoint_answers_as_the_hook_process(
    api: TestClient,
    project: Callable[[str, str], Path],
    host: str,
    case: str,
    named: bool,
) -> None:
    make, verdict, rule = CASES[case]
    payload = make(host, project("repo", POLICY))
    platform = host if named else None
    got = decide(api, payload, platform)
    assert got["answer"] == run_hook(payload, platform)
    assert (got["decision"], got.get("rule")) == (verdict, rule)
    # an event no host has: Claude Code unless named, as the hook detects it
    assert got["platform"] == (host if named or case != "unknown event" else "claude")
    if case == "unknown event":
        assert got["error"].startswith("unknown ")
        assert got["canonicalEvents"] == []
    else:
        assert "error" not in got
        assert got["answer"]["exitCode"] == 0


@pytest.mark.parametrize("host", PLATFORMS)
@pytest.mark.parametrize("event", ["tool", "prompt"])
def test_a_broken_policy_fails_as_the_hook_does(
    api: TestClient, project: Callable[[str, str], Path], host: str, event: str
) -> None:
    """Closed on a tool event, open on an advisory one; the reason names file:line:col."""
    directory = project("broken", BROKEN)
    if event == "tool":
        payload = shell(host, "ls", directory)
    else:
        payload = build_payload(host, PROMPT[host], prompt="hello", cwd=str(directory))
    got = decide(api, payload, host)
    assert got["answer"] == run_hook(payload, host)
    assert "policy.yaml:4:5" in got["error"]
    assert "did you mean 'action'" in got["error"]
    assert got["decision"] == ("deny" if event == "tool" else "none")


def test_an_unreadable_policy_fails_closed_as_the_hook_does(
    api: TestClient, project: Callable[[str, str], Path]
) -> None:
    directory = project("odd", POLICY)
    (directory / ".hookwise" / "policy.local.yaml").mkdir()  # a directory: OSError
    payload = shell("claude", "ls", directory)
    got = decide(api, payload)
    assert got["answer"] == run_hook(payload, None)
    assert got["decision"] == "deny"
    assert "cannot read the policy" in got["error"]


def test_on_error_settings_and_the_override_apply_as_in_the_hook(
    api: TestClient, project: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = shell("codex", "ls", project("broken", BROKEN))
    monkeypatch.setenv("HOOKWISE_ON_ERROR", "allow")
    got = decide(api, payload)
    assert got["answer"] == run_hook(payload, None)
    assert got["decision"] == "none"


def test_retry_counters_are_read_but_never_written(
    api: TestClient, project: Callable[[str, str], Path]
) -> None:
    """Asking the service does not spend a retry; the hook's own retries are seen."""
    policy = (
        "version: 1\nrules:\n  - {id: todo, match: {response: {contains: [TODO]}}, "
        "action: retry, reason: finish the TODOs, max_retries: 1}\n"
    )
    payload = build_payload(
        "claude", "Stop", response="TODO left", cwd=str(project("loop", policy))
    )

    def verdict() -> str | None:
        got = decide(api, payload)
        return json.loads(got["answer"]["stdout"] or "{}").get("decision")

    assert [verdict(), verdict()] == ["block", "block"]
    hook = run_hook(payload, None)  # spends the one retry
    assert json.loads(hook["stdout"])["decision"] == "block"
    assert verdict() is None  # what the hook answers next: let the agent stop
    assert json.loads(run_hook(payload, None)["stdout"] or "{}").get("decision") is None


# --------------------------------------------------------------------------- in-process


def _payloads(cwd: str) -> st.SearchStrategy[tuple[dict[str, Any], str | None]]:
    names = host_event_names()
    commands = st.lists(
        st.sampled_from(
            ["git push --force", "git push", "rm -rf x", "ls", "echo marker", "cat .env", "make"]
        ),
        min_size=1,
        max_size=3,
    ).map(" && ".join)

    @st.composite
    def build(draw: st.DrawFn) -> tuple[dict[str, Any], str | None]:
        host = draw(st.sampled_from(PLATFORMS))
        kind = draw(st.sampled_from(["pre", "pre", "pre", "post", "prompt", "any", "unknown"]))
        event = {"pre": PRE[host], "post": POST[host], "prompt": PROMPT[host]}.get(kind)
        if event is None:
            event = draw(st.sampled_from(names[host])) if kind == "any" else "NoSuchEvent"
        tool = draw(
            st.sampled_from([SHELL[host], SHELL[host], "Write", "write_file", "Edit", None])
        )
        tool_input: dict[str, Any] = {"command": draw(commands)}
        if draw(st.booleans()):
            tool_input["file_path"] = draw(st.sampled_from([".env", "src/app.py", "/etc/x"]))
        payload = build_payload(
            host,
            event,
            tool=tool,
            tool_input=tool_input,
            prompt=draw(st.none() | st.sampled_from(["deploy it", "hello"])),
            response=draw(st.none() | st.sampled_from(["done", "TODO"])),
            cwd=cwd,
            extra=draw(
                st.dictionaries(
                    st.sampled_from(["tool_response", "stop_hook_active", "source", "x"]),
                    st.none() | st.booleans() | st.text(max_size=5) | st.just({"error": "e"}),
                    max_size=2,
                )
            ),
        )
        if draw(st.sampled_from(["keep"] * 9 + ["drop"])) == "drop":
            del payload["hook_event_name"]
        platform = draw(st.sampled_from([None, host, host, *PLATFORMS]))
        return payload, platform

    return build()


def _expected(outcome: pipeline.Outcome) -> dict[str, Any]:
    decision = outcome.decision
    answer = outcome.answer
    out: dict[str, Any] = {
        "platform": outcome.host,
        "event": outcome.host_event,
        "canonicalEvents": [e.name for e in outcome.events],
        "decision": (decision.decision if decision else None) or "none",
        "rule": decision.rule if decision else None,
        "reason": (decision.reason if decision else "") or None,
        "rulesMatched": decision.records if decision else [],
        "answer": {
            "exitCode": answer.exit_code,
            "stdout": f"{answer.stdout}\n" if answer.stdout else "",
            "stderr": answer.stderr,
        },
        "notes": answer.notes,
        "error": outcome.error,
    }
    return {k: v for k, v in out.items() if v is not None}


def test_generated_payloads_get_the_in_process_decision(
    api: TestClient, project: Callable[[str, str], Path]
) -> None:
    directory = str(project("repo", POLICY))
    env = dict(os.environ)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_payloads(directory))
    def check(case: tuple[dict[str, Any], str | None]) -> None:
        payload, platform = case
        policy = load_policy(directory, env).policy
        outcome = pipeline.decide(
            copy.deepcopy(payload),
            policy,
            platform,
            env,
            now=time.time(),
            state=RetryState(),
            run_validators=False,
        )
        assert decide(api, payload, platform) == _expected(outcome)

    check()


def test_the_route_calls_pipeline_decide(
    api: TestClient, project: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []
    original = pipeline.decide

    def spy(*args: Any, **kwargs: Any) -> pipeline.Outcome:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(pipeline, "decide", spy)
    payload = shell("gemini", "git push --force", project("repo", POLICY))
    assert decide(api, payload, "gemini")["decision"] == "deny"
    assert len(calls) == 1
    assert calls[0][0] == payload
    assert calls[0][2] == "gemini"


def test_an_internal_error_answers_like_the_hook_not_500(
    api: TestClient, project: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> pipeline.Outcome:
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline, "decide", broken)
    got = decide(api, shell("claude", "ls", project("repo", POLICY)))
    assert got["answer"]["exitCode"] == 2
    assert got["decision"] == "deny"
    assert got["error"] == "internal error: RuntimeError: boom"
    assert "fails closed" in got["answer"]["stderr"]


# --------------------------------------------------------------------------- explain


def test_explain_gives_every_rule_as_hookwise_explain_does(
    api: TestClient, project: Callable[[str, str], Path]
) -> None:
    directory = project("repo", POLICY)
    payload = shell("claude", "git push --force origin main", directory)
    got = decide(api, payload, explain=True)
    done = subprocess.run(
        [HOOKWISE, "explain", "--json", "-"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=True,
    )
    assert got["explanation"] == json.loads(done.stdout)["rules"]
    by_id = {rule["id"]: rule for rule in got["explanation"]}
    assert by_id["no-force-push"]["outcome"] == "deny"
    assert by_id["no-force-push"]["results"][0]["status"] == "matched"
    assert by_id["allow-ls"]["results"][0]["status"] == "not matched"
    assert "explanation" not in decide(api, payload)


def test_explain_on_a_broken_policy_explains_nothing(
    api: TestClient, project: Callable[[str, str], Path]
) -> None:
    got = decide(api, shell("gemini", "ls", project("broken", BROKEN)), explain=True)
    assert got["explanation"] == []
    assert got["decision"] == "deny"


# --------------------------------------------------------------------------- differences


def test_validators_do_not_run_in_the_service(
    api: TestClient, project: Callable[[str, str], Path], tmp_path: Path
) -> None:
    marker = tmp_path / "validator-ran"
    policy = (
        "version: 1\nrules:\n  - id: check\n    match: {command: make}\n    action: validate\n"
        f"    validator: {{command: 'touch {marker}; exit 1'}}\n"
    )
    got = decide(api, shell("claude", "make", project("v", policy)))
    assert not marker.exists()
    assert got["decision"] == "none"
    assert got["rulesMatched"][0]["outcome"] == "not run"


def test_the_services_secrets_are_not_in_the_conditions_environment(
    api: TestClient, project: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKWISE_API_TOKEN", "s3cret")
    monkeypatch.setenv("HOOKWISE_TEST_VISIBLE", "yes")
    policy = (
        "version: 1\nrules:\n"
        "  - {id: token, match: {command: make}, when: 'env.HOOKWISE_API_TOKEN == \"s3cret\"',"
        " action: deny, reason: leaked}\n"
        "  - {id: visible, match: {command: make}, when: 'env.HOOKWISE_TEST_VISIBLE == \"yes\"',"
        " action: ask, reason: seen}\n"
    )
    got = decide(api, shell("claude", "make", project("env", policy)))
    assert (got["decision"], got["rule"]) == ("ask", "visible")


# --------------------------------------------------------------------------- requests


@pytest.mark.parametrize(
    ("payload", "code", "words"),
    [
        ({"hook_event_name": "PreToolUse"}, "REQUIRED_FIELD", "required"),
        ({"cwd": 7}, "INVALID_TYPE", "string"),
        ({"cwd": "relative/dir"}, "INVALID_VALUE", "absolute"),
        ({"cwd": "/tmp\u0000x"}, "INVALID_VALUE", "absolute"),
    ],
)
def test_the_payloads_cwd_must_be_an_absolute_path(
    api: TestClient, payload: dict[str, Any], code: str, words: str
) -> None:
    response = api.post(ROUTE, json={"payload": payload})
    assert response.status_code == 400
    (detail,) = response.json()["details"]
    assert (detail["field"], detail["code"]) == ("payload.cwd", code)
    assert words in detail["message"]


def test_no_existence_oracle(api: TestClient, tmp_path: Path) -> None:
    """An existing directory, a missing one and a file answer alike: 200, no policy."""
    answers = []
    for cwd in [str(tmp_path), "/no/such/directory/here", "/etc/hostname", "/proc/self/root"]:
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": cwd}
        payload["tool_input"] = {"command": "ls"}
        response = api.post(ROUTE, json={"payload": payload, "platform": "claude"})
        assert response.status_code == 200, (cwd, response.text)
        body = response.json()
        answers.append((body["decision"], body.get("error"), body["answer"]))
    assert len(set(map(repr, answers))) == 1, answers


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"payload": {"cwd": "/"}, "platfrom": "claude"}, "platfrom", "UNKNOWN_FIELD"),
        ({"payload": {"cwd": "/"}, "platform": "vim"}, "platform", "INVALID_VALUE"),  # (no host)
        ({"payload": {"cwd": "/"}, "explain": "true"}, "explain", "INVALID_TYPE"),
        ({"payload": [1]}, "payload", "INVALID_TYPE"),
        ({}, "payload", "REQUIRED_FIELD"),
    ],
)
def test_the_request_is_strict(
    api: TestClient, body: dict[str, Any], field: str, code: str
) -> None:
    response = api.post(ROUTE, json=body)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert {(d["field"], d["code"]) for d in response.json()["details"]} == {(field, code)}


def test_the_token_is_required(api: TestClient, tmp_path: Path) -> None:
    response = api.post(
        ROUTE, json={"payload": {"cwd": str(tmp_path)}}, headers={"Authorization": ""}
    )
    assert response.status_code == 401


@pytest.mark.usefixtures("one_window")
def test_rate_group_validation(client: TestClient, tmp_path: Path) -> None:
    """The "validation" group, per X-Session-Id, on both databases."""
    client.app.state.service.limiter.limits["validation"] = 2  # type: ignore[attr-defined]
    body = {"payload": {"cwd": str(tmp_path), "hook_event_name": "SessionEnd"}}
    headers = {"X-Session-Id": "decider"}
    codes = [client.post(ROUTE, json=body, headers=headers).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    other = client.post(ROUTE, json=body, headers={"X-Session-Id": "someone-else"})
    assert other.status_code == 200


def test_openapi_documents_the_route(api: TestClient) -> None:
    spec = api.get("/openapi.json").json()
    operation = spec["paths"][ROUTE]["post"]
    schemas = spec["components"]["schemas"]
    request = schemas["PolicyDecideRequest"]
    assert request["additionalProperties"] is False
    assert request["required"] == ["payload"]
    assert set(request["properties"]) == {"payload", "platform", "explain"}
    assert request["properties"]["payload"]["type"] == "object"
    assert set(operation["responses"]) == {"200", "400", "401", "413", "429", "500"}
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/PolicyDecideResponse"}
    response = schemas["PolicyDecideResponse"]
    assert set(response["required"]) == {
        "canonicalEvents",
        "decision",
        "rulesMatched",
        "answer",
        "notes",
    }
    assert set(schemas["PolicyAnswer"]["properties"]) == {"exitCode", "stdout", "stderr"}
    assert "x-session-id" in {p["name"] for p in operation["parameters"]}
