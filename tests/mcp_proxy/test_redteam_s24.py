"""The session-24 red team's attacks on ``hookwise mcp wrap`` (rt-mcp-findings F1-F10), each
run through the real proxy against a real server: the reference filesystem server
(``make e2e-install``) or the Python MCP SDK server in sdk_server.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.clis import mcp_server
from tests.mcp_proxy.conftest import Project

FS = mcp_server("mcp-server-filesystem")
needs_fs = pytest.mark.skipif(
    FS is None, reason="the filesystem MCP server is not installed (make e2e-install)"
)
SDK_SERVER = Path(__file__).with_name("sdk_server.py")


def _text(msg: dict[str, Any]) -> str:
    return "".join(c.get("text", "") for c in msg["result"]["content"])


def _add_rules(project: Project, text: str) -> None:
    from hookwise.policy.trust.store import trust_file

    policy = project.root / ".hookwise" / "policy.yaml"
    policy.write_text(policy.read_text("utf-8") + text, "utf-8")
    trust_file(str(policy), project.env)


def _ran(project: Project) -> list[dict[str, Any]]:
    log = Path(project.env["SDK_SERVER_LOG"])
    if not log.exists():
        return []
    return [json.loads(x) for x in log.read_text("utf-8").splitlines() if x]


@pytest.fixture
def sdk(project: Project, wrap: Any) -> Any:
    """``sdk()``: the proxy in front of the Python SDK server, initialised."""
    project.env["SDK_SERVER_LOG"] = str(project.root.parent / "sdk-ran.jsonl")

    def start(*options: str) -> Any:
        proxy = wrap("", *options, server=[sys.executable, str(SDK_SERVER)])
        proxy.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
            }
        )
        proxy.recv_until(lambda m: m.get("id") == 0, timeout=120)  # the SDK imports slowly
        proxy.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return proxy

    return start


# ---------------------------------------------------------------- F8, F8b: `$`, ` and ~user
SECRETS = "  - id: no-aws\n    match: {files: '~/.aws/credentials'}\n    action: deny\n"
DOLLAR_PATHS = [
    "$x/../{rel}",
    "{root}/$x/../{rel}",
    "`x`/../{rel}",
    "${{x}}/../{rel}",
    "~nosuchuser/../{rel}",
]


@needs_fs
@pytest.mark.parametrize("spelling", DOLLAR_PATHS)
def test_a_dollar_path_is_decided_as_the_filesystem_server_reads_it(
    project: Project, wrap: Any, spelling: str
) -> None:
    root = project.root
    (root / "protected").mkdir()
    (root / "protected" / "key.txt").write_text("original\n", "utf-8")
    (root / ".env").write_text("API_KEY=do-not-leak\n", "utf-8")
    proxy = wrap(server=[str(FS), str(root)])
    proxy.initialize()
    proxy.call(1, "read_text_file", {"path": spelling.format(root=root, rel=".env")})
    proxy.call(
        2,
        "write_file",
        {"path": spelling.format(root=root, rel="protected/key.txt"), "content": "overwritten"},
    )
    answers = {m["id"]: m for m in (proxy.recv(), proxy.recv())}
    proxy.close()
    assert answers[1]["result"]["isError"] and "no-env-files" in _text(answers[1])
    assert "do-not-leak" not in _text(answers[1])
    assert answers[2]["result"]["isError"] and "protected-is-read-only" in _text(answers[2])
    assert (root / "protected" / "key.txt").read_text("utf-8") == "original\n"


@needs_fs
def test_a_dollar_path_under_home_meets_home_rules_and_self_protection(
    project: Project, wrap: Any
) -> None:
    """The server rooted at the home (its README's ``~``): `$x/..` reached the secrets and
    replaced the user policy and the audit log."""
    _add_rules(project, SECRETS)
    home = Path(project.env["HOME"])
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIAFAKE\n", "utf-8")
    user_policy = home / ".config" / "hookwise" / "policy.yaml"
    user_policy.parent.mkdir(parents=True, exist_ok=True)
    user_policy.write_text("version: 1\nrules: []\n", "utf-8")
    state = Path(project.env["XDG_STATE_HOME"]) / "hookwise"
    state.mkdir(parents=True, exist_ok=True)
    (state / "mcp-install.json").write_text("{}", "utf-8")
    proxy = wrap(server=[str(FS), str(home)])
    proxy.initialize()
    proxy.call(1, "read_text_file", {"path": f"{home}/$x/../.aws/credentials"})
    targets = [user_policy, state / "mcp-install.json", Path(project.env["HOOKWISE_AUDIT_LOG"])]
    for n, target in enumerate(targets, start=2):
        rel = target.relative_to(home) if target.is_relative_to(home) else target
        spelled = (
            f"{home}/$x/../{rel}" if rel is not target else f"{target.parent}/$x/../{rel.name}"
        )
        proxy.call(n, "write_file", {"path": spelled, "content": "version: 1\nrules: []\n"})
    answers = {}
    for _ in range(1 + len(targets)):
        msg = proxy.recv()
        answers[msg["id"]] = msg
    proxy.close()
    assert answers[1]["result"]["isError"] and "no-aws" in _text(answers[1])
    assert "AKIAFAKE" not in _text(answers[1])
    for n in range(2, 2 + len(targets)):
        assert answers[n]["result"]["isError"], answers[n]
        assert "protects its own guardrails" in _text(answers[n])
    assert (state / "mcp-install.json").read_text("utf-8") == "{}"
    assert json.loads(Path(project.env["HOOKWISE_AUDIT_LOG"]).read_text().splitlines()[0])


def test_the_server_gets_a_dollar_path_as_the_absolute_path_decided_on(
    project: Project, wrap: Any
) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "write_file", {"path": "$x/../notes/a.txt", "content": "x"})
    proxy.call(2, "read_multiple_files", {"paths": ["`x`/../a.txt", "b/$y"]})
    proxy.recv()
    proxy.recv()
    proxy.close()
    root = str(project.root)
    got = {c["id"]: c["params"]["arguments"] for c in project.received_calls()}
    assert got[1]["path"] == f"{root}/notes/a.txt"
    assert got[2]["paths"] == [f"{root}/a.txt", f"{root}/b/$y"]


def _hook(project: Project, tool: str, tool_input: dict[str, Any]) -> tuple[int, str]:
    """``hookwise hook --host claude`` run on one PreToolUse payload."""
    payload = {
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": str(project.root),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
    }
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "--host", "claude"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
        cwd=project.root,
        env=project.env,
        timeout=60,
    )
    return done.returncode, done.stdout.decode() + done.stderr.decode()


@pytest.mark.parametrize(
    ("tool", "path", "rule"),
    [
        ("Read", "{root}/$x/../.env", "no-env-files"),
        ("Write", "$x/../protected/a.txt", "protected-is-read-only"),
        ("Edit", "`x`/../protected/a.txt", "protected-is-read-only"),
        ("Read", "{home}/$x/../.aws/credentials", "no-aws"),
        ("Write", "{home}/$x/../.config/hookwise/policy.yaml", "hookwise:self-protection"),
        ("Write", "{state}/$x/../hookwise/audit.jsonl", "hookwise:self-protection"),
        ("Write", "~nosuchuser/../.hookwise/policy.yaml", "hookwise:self-protection"),
    ],
)
def test_the_hook_decides_a_file_tool_path_literally(
    project: Project, tool: str, path: str, rule: str
) -> None:
    """Claude Code's file tools do not expand `$` either (Node's path.resolve)."""
    _add_rules(project, SECRETS)
    spelled = path.format(
        root=project.root, home=project.env["HOME"], state=project.env["XDG_STATE_HOME"]
    )
    _, out = _hook(project, tool, {"file_path": spelled, "content": "x", "old_string": "a"})
    assert '"permissionDecision":"deny"' in out, out
    assert str(project.audit()[-1]["rule"]).endswith(rule)


# ---------------------------------------------------------------- F1: a bare \r
NO_DANGER = "  - id: no-danger\n    match: {mcp: {tool: danger}}\n    action: deny\n"
SMUGGLED = (
    b'{"jsonrpc":"2.0","id":9,"method":"tools/call",'
    b'"params":{"name":"danger","arguments":{"x":"via-CR"}}}'
)


@pytest.mark.parametrize(
    "carrier",
    [
        b'{"jsonrpc":"2.0","method":"notifications/x","params":{"a":\r' + SMUGGLED + b"\r}}",
        b'{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":\r' + SMUGGLED + b"\r}}",
    ],
)
def test_a_bare_cr_cannot_smuggle_a_call_to_a_python_sdk_server(
    project: Project, sdk: Any, carrier: bytes
) -> None:
    _add_rules(project, NO_DANGER)
    proxy = sdk()
    proxy.send_raw(carrier)
    proxy.call(10, "danger", {"x": "plain"})  # the same call sent plainly: denied
    denied, before = proxy.recv_until(lambda m: m.get("id") == 10)
    assert denied["result"]["isError"] and "no-danger" in _text(denied)
    for msg in before:  # the ping's own answer, never the smuggled call's result
        assert "DANGER RAN" not in json.dumps(msg)
    proxy.close()
    assert [r for r in _ran(project) if r["tool"] == "danger"] == []


# ---------------------------------------------------------------- F2: a list as a JSON string
NO_SECRET = (
    "  - id: no-secret-read\n    match: {tool: read, files: ['secret*']}\n    action: deny\n"
)


def test_a_command_list_given_as_a_json_string_is_decided_as_the_list(
    project: Project, sdk: Any
) -> None:
    """The SDK json-decodes a string given for a ``list[str]`` parameter."""
    proxy = sdk()
    proxy.call(1, "run_command", {"command": '["rm", "-r", "build"]'})
    answer = proxy.recv()
    proxy.close()
    assert answer["result"]["isError"] and "no-recursive-delete" in _text(answer)
    assert _ran(project) == []


def test_a_path_list_given_as_a_json_string_never_reads_the_secret(
    project: Project, sdk: Any
) -> None:
    _add_rules(project, NO_SECRET)
    proxy = sdk()
    proxy.call(1, "read_multiple_files", {"paths": ["secret.txt"]})
    proxy.call(2, "read_multiple_files", {"paths": '["secret.txt", "$x"]'})
    proxy.call(3, "read_multiple_files", {"paths": ' ["secret.txt"]'})
    answers = {m["id"]: m for m in (proxy.recv(), proxy.recv(), proxy.recv())}
    proxy.close()
    assert "no-secret-read" in _text(answers[1])
    # the server reads no secret: the path is decided (and passed on) as the absolute
    # spelling of the string, which no longer decodes, or denied as the list it decodes to
    assert all("secret" not in json.dumps(r.get("paths")) for r in _ran(project))


# ---------------------------------------------------------------- F3: percent-encoded host
def test_a_percent_encoded_resource_host_is_decided_decoded(project: Project, sdk: Any) -> None:
    _add_rules(project, NO_SECRET)
    proxy = sdk()
    for n, uri in enumerate(["file://secret.txt", "file://%73ecret.txt", "file://%73ecret%2Etxt"]):
        proxy.send({"jsonrpc": "2.0", "id": n, "method": "resources/read", "params": {"uri": uri}})
    answers = {m["id"]: m for m in (proxy.recv(), proxy.recv(), proxy.recv())}
    proxy.close()
    for answer in answers.values():
        assert answer["error"]["code"] == -32003 and "no-secret-read" in answer["error"]["message"]
    assert _ran(project) == []


# ---------------------------------------------------------------- F9: unlisted path keys
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("copy_file", {"src": "notes.txt", "dst": "protected/x.txt"}),
        ("save_file", {"output_path": "protected/x.txt", "content": "x"}),
        ("save_file", {"out": "protected/x.txt", "content": "x"}),
        ("write_file", {"path": "a.txt", "dest_file": "protected/x.txt", "content": "x"}),
        ("write_file", {"path": "a.txt", "target_location": "/etc/x", "content": "x"}),
    ],
)
def test_a_path_under_a_key_no_rule_names_is_decided_or_unverifiable(
    project: Project, sdk: Any, tool: str, args: dict[str, Any]
) -> None:
    proxy = sdk()
    proxy.call(1, tool, args)
    answer = proxy.recv()
    proxy.close()
    assert answer["result"]["isError"], answer
    rule = str(project.audit()[-1]["rule"])
    assert rule in ("protected-is-read-only", "hookwise:unverifiable"), rule
    assert _ran(project) == []


# ---------------------------------------------------------------- F4: a server that reads nothing
def test_the_queue_to_a_server_that_reads_nothing_is_bounded(project: Project, wrap: Any) -> None:
    """At most twice --max-message waits for the server; past it a request gets -32004
    at once and a notification is dropped with a notice, instead of growing the proxy."""
    proxy = wrap("noread", "--max-message", "100000")
    proxy.initialize()
    proxy.call(1, "greet", {"name": "a"})  # the server stops reading here
    for n in range(2, 14):  # 12 x 90 kB: past a pipe's 64 kB and the 200 kB queue
        proxy.send({"jsonrpc": "2.0", "id": n, "method": "ping", "params": {"p": "x" * 90_000}})
    proxy.send({"jsonrpc": "2.0", "method": "notifications/x", "params": {"p": "x" * 90_000}})
    busy = [proxy.recv(timeout=30) for _ in range(5)]
    errors = [m for m in busy if m.get("error", {}).get("code") == -32004]
    assert errors and all("not reading its input" in m["error"]["message"] for m in errors)
    assert all(m["error"]["data"] == {"server": "fake"} for m in errors)
    assert {m["id"] for m in errors} <= set(range(3, 14))  # the first were queued
    assert proxy.close() == 0


# ---------------------------------------------------------------- low: ids a server reads otherwise
@pytest.mark.parametrize("request_id", [2**53 + 1, -(2**53) - 1, [1], {"a": 1}, True])
def test_an_id_a_server_would_read_otherwise_is_refused_at_once(
    project: Project, wrap: Any, request_id: Any
) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(request_id, "greet", {"name": "a"})
    answer = proxy.recv()
    proxy.close()
    assert answer["id"] is None and answer["error"]["code"] == -32600
    assert "request id" in answer["error"]["message"]
    assert project.received_calls() == []


# ---------------------------------------------------------------- F5: a bare name, unmapped tool
NO_KEYS = "  - id: no-ssh-keys\n    match: {files: [id_rsa, authorized_keys]}\n    action: deny\n"


@pytest.mark.parametrize("key", ["target", "to", "dest", "source", "pathname"])
def test_a_bare_file_name_under_a_path_key_of_an_unmapped_tool_is_decided(
    project: Project, sdk: Any, key: str
) -> None:
    _add_rules(project, NO_KEYS)
    proxy = sdk()
    proxy.call(1, "remove_entry", {key: "authorized_keys"})
    answer = proxy.recv()
    proxy.close()
    assert answer["result"]["isError"], answer
    assert str(project.audit()[-1]["rule"]) in ("no-ssh-keys", "hookwise:unverifiable")
    assert _ran(project) == []


def test_a_deploy_stage_under_target_still_passes(project: Project, wrap: Any) -> None:
    _add_rules(project, NO_KEYS)
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "deploy", {"target": "staging"})
    answer = proxy.recv()
    proxy.close()
    assert not answer["result"].get("isError"), answer
    assert len(project.received_calls()) == 1


# ---------------------------------------------------------------- low: nesting a server cannot read
def test_arguments_nested_past_the_limit_are_answered_at_once(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    deep = '{"a":' * 300 + "1" + "}" * 300
    proxy.send_raw(
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":'
        + deep.encode()
        + b"}}"
    )
    answer = proxy.recv()
    proxy.close()
    assert answer["id"] == 7 and answer["error"]["code"] == -32700
    assert "nested deeper" in answer["error"]["message"]
    assert project.received_calls() == []
