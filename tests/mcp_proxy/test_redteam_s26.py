"""The session-26 red team's attacks on the proxy's decision (docs/redteam/2026-11-28-s26-mcp.md
F10, F4, F1, F7), each through the real proxy in front of the scripted server: a ``file:``
URI under any key is a path, a shell tool's text under a key no reading covers is
unverifiable, an envelope a case-folding server reads otherwise is refused, and a tool the
name table does not know is held to ``tool: write``/``read`` rules."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.mcp_proxy.conftest import Project

FOLD_SERVER = Path(__file__).with_name("fold_server.py")


def _session(wrap: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The answer to each call, in one proxy session."""
    proxy = wrap()
    proxy.initialize()
    answers = []
    for n, (tool, args) in enumerate(calls, 1):
        proxy.call(n, tool, args)
        answers.append(proxy.recv_until(lambda m, n=n: m.get("id") == n)[0])
    proxy.close()
    return answers


def _rule(answer: Any) -> str | None:
    """The rule a blocked call names, or None when the call went through."""
    result = answer.get("result", {})
    if not result.get("isError"):
        return None
    text = json.dumps(result)
    assert "hookwise blocked" in text, answer
    return text.split("[rule ", 1)[1].split("]", 1)[0] if "[rule " in text else ""


def _user_policy(project: Project) -> Path:
    path = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("version: 1\nrules: []\n", "utf-8")
    return path


# ---------------------------------------------------------------- F10: file: URIs are paths
@pytest.mark.parametrize("tool", ["write_file", "save_resource", "upload"])
@pytest.mark.parametrize("key", ["uri", "url", "location"])
def test_a_guard_file_named_by_a_uri_is_protected(
    project: Project, wrap: Any, tool: str, key: str
) -> None:
    """write_file {uri: file://<user policy>} emptied the policy, and the next call of the
    session ran what it denied."""
    user = _user_policy(project)
    targets = [user, project.root / ".hookwise" / "policy.yaml", project.root / ".mcp.json"]
    calls = [(tool, {key: f"file://{t}", "content": "version: 1\nrules: []"}) for t in targets]
    calls.append((tool, {key: "file://localhost" + quote(str(targets[1])), "content": "x"}))
    calls.append((tool, {key: f" FILE:{targets[0]}", "content": "x"}))
    calls.append((tool, {"options": {key: f"file://{targets[2]}"}, "content": "x"}))
    for answer in _session(wrap, calls):
        assert _rule(answer) == "hookwise:self-protection", answer
    assert project.received_calls() == []
    assert user.read_text("utf-8") == "version: 1\nrules: []\n"


def test_the_agent_cannot_empty_its_user_policy_through_a_uri(project: Project, wrap: Any) -> None:
    """a09 end to end: `write_file {uri: file://<user policy>}` emptied the policy, and the
    `rm` it denied ran 1.8 s later in the same session. Against a server that writes what
    a URI names."""
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    rule = "  - {id: no-rm, match: {command: rm}, action: deny, reason: NO-RM}\n"
    user.write_text("version: 1\nrules:\n" + rule, "utf-8")
    (project.root / "victim.txt").write_text("keep")
    project.env["FOLD_SERVER_LOG"] = str(project.root.parent / "fold.jsonl")
    proxy = wrap(server=[sys.executable, str(FOLD_SERVER)])
    proxy.initialize()
    empty = {"content": "version: 1\nrules: []\n"}
    calls = [
        ("write_file", {"path": str(user), **empty}),
        ("write_file", {"uri": f"file://{user}", **empty}),
        ("write_file", {"uri": f"file://{project.root}/notes.txt", **empty}),  # control
        ("run_shell", {"command": "rm victim.txt"}),
    ]
    answers = []
    for n, (tool, args) in enumerate(calls, 1):
        proxy.call(n, tool, args)
        answers.append(proxy.recv_until(lambda m, n=n: m.get("id") == n)[0])
        time.sleep(1.2 if n == 2 else 0)  # past the proxy's policy recheck
    proxy.close()
    rules = [_rule(a) for a in answers]
    assert rules == ["hookwise:self-protection", "hookwise:self-protection", None, "no-rm"]
    assert rule in user.read_text("utf-8") and (project.root / "victim.txt").exists()
    assert (project.root / "notes.txt").exists()


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_text_file", {"uri": "file://{root}/.env"}),
        ("read_file_uri", {"uri": "file://{root}/.env"}),
        ("fetch", {"url": "file://{root}/sub/%2Eenv"}),
        ("get_resource", {"resource": {"href": "file://{root}/.env"}}),
        ("read_text_file", {"path": "README", "also": ["file://{root}/.env"]}),
        ("read_text_file", {"uri": '["file://{root}/.env"]'}),
    ],
)
def test_a_denied_file_named_by_a_uri_is_denied(
    project: Project, wrap: Any, tool: str, args: dict[str, Any]
) -> None:
    """A tool-less ``files:`` rule holds for a URI in a tool call's arguments as it holds
    for resources/read (one reading: paths.uri_paths)."""
    filled = json.loads(json.dumps(args).replace("{root}", str(project.root)))
    (answer,) = _session(wrap, [(tool, filled)])
    assert _rule(answer) == "no-env-files", answer
    assert project.received_calls() == []


def test_a_uri_through_a_link_is_decided_as_it_resolves(project: Project, wrap: Any) -> None:
    (project.root / "innocent.txt").symlink_to(project.root / ".env")
    (answer,) = _session(wrap, [("read_thing", {"uri": f"file://{project.root}/innocent.txt"})])
    assert _rule(answer) == "no-env-files", answer


def test_other_uris_and_allowed_files_pass(project: Project, wrap: Any) -> None:
    calls = [
        ("read_text_file", {"uri": f"file://{project.root}/README"}),
        ("fetch", {"url": "https://example.com/file:///.env"}),
        ("write_file", {"path": "notes.txt", "content": "see file:///etc/hosts"}),
    ]
    answers = _session(wrap, calls)
    assert [_rule(a) for a in answers] == [None, None, None], answers
    assert len(project.received_calls()) == 3


# ---------------------------------------------------------------- F4: text no reading covers
@pytest.mark.parametrize(
    "args",
    [
        {"command": "rm", "flags": "-rf victim"},
        {"command": "rm", "options": "-r victim"},
        {"command": "rm", "arg": "-r victim"},
        {"command": "rm", "argument": "-r victim"},
        {"command": "git", "subcommand": "push --force"},
        {"command": "rm", "shell_args": "-r victim"},
        {"command": "rm", "extra": "victim"},
        {"command": "python3", "language": "sh"},
    ],
)
def test_a_shell_tools_text_under_an_unread_key_is_unverifiable(
    project: Project, wrap: Any, args: dict[str, Any]
) -> None:
    """run_command {command: rm, flags: -rf victim} ran past deny ``rm -r``: the guard
    cannot account for the key, so it is no allow (ask; no client to ask: ask_fallback)."""
    (answer,) = _session(wrap, [("run_command", args)])
    assert _rule(answer) == "hookwise:unverifiable", answer
    assert project.received_calls() == []


def test_a_shell_tools_notes_to_people_pass(project: Project, wrap: Any) -> None:
    calls = [
        ("run_command", {"command": "ls", "description": "List the files", "timeout": "30"}),
        ("run_command", {"command": "ls", "justification": "look around"}),
    ]
    assert [_rule(a) for a in _session(wrap, calls)] == [None, None]


@pytest.mark.parametrize(
    "args", [{"document": "{root}/.env"}, {"p": "{root}/.env"}, {"name": ".env"}, {"key": ".env"}]
)
def test_a_file_tool_whose_file_no_rule_reads_is_unverifiable(
    project: Project, wrap: Any, args: dict[str, Any]
) -> None:
    filled = json.loads(json.dumps(args).replace("{root}", str(project.root)))
    (answer,) = _session(wrap, [("read_text_file", filled)])
    assert _rule(answer) == "hookwise:unverifiable", answer
    assert project.received_calls() == []


# ---------------------------------------------------------------- F1: the envelope, folded
RUN = {"name": "run_shell", "arguments": {"command": "rm -rf victim"}}


def _envelopes(env: Path) -> list[dict[str, Any]]:
    """Messages a case-folding server reads as a call the proxy never decided (a01, a06)."""
    benign = {"name": "echo", "arguments": {}}
    return [
        {"id": 1, "method": "tools/call",
         "params": {"name": "run_shell", "arguments": {"command": "true"},
                    "Arguments": {"command": "rm -rf victim"}}},
        {"id": 2, "method": "tools/call",
         "params": {"name": "run_shell", "arguments": {"command": "true"},
                    "argument\u017f": {"command": "rm -rf victim"}}},
        {"id": 3, "method": "ping", "Method": "tools/call", "params": RUN},
        {"id": 4, "method": "tools/call", "params": benign, "PARAMS": RUN},
        {"id": 5, "method": "tools/call", "params": benign,
         "Params": {"name": "read_text_file", "arguments": {"path": str(env)}}},
        {"id": 6, "result": {}, "Method": "tools/call", "params": RUN},
        {"id": 7, "method": "tools/call", "params": {**RUN, "name": "echo", "NAME": "run_shell"}},
        {"id": 8, "method": "resources/read",
         "params": {"uri": f"file://{env.parent}/README", "URI": f"file://{env}"}},
        {"method": "notifications/initialized", "\u212aind": 1, "Method": "tools/call",
         "params": RUN},
        {"id": 10, "ID": 11, "method": "tools/call", "params": benign},
    ]  # fmt: skip


def test_an_envelope_a_folding_server_reads_otherwise_is_refused_and_audited(
    project: Project, wrap: Any
) -> None:
    """Each message ran `rm -rf victim` (or read .env) on a server matching keys without
    case while the proxy decided a harmless call, or nothing at all; now each is answered
    with an error, audited, and never reaches the server (the control does)."""
    root = project.root
    (root / "victim").mkdir()
    (root / ".env").write_text("SECRET=hunter2\n")
    (root / "README").write_text("readme\n")
    log = root.parent / "fold.jsonl"
    project.env["FOLD_SERVER_LOG"] = str(log)
    proxy = wrap(server=[sys.executable, str(FOLD_SERVER)])
    proxy.initialize()
    messages = _envelopes(root / ".env")
    for message in messages:
        proxy.send({"jsonrpc": "2.0", **message})
        answer = proxy.recv()
        assert answer["error"]["code"] == -32600, (message, answer)
        assert "without case" in answer["error"]["message"]
        expected = message.get("id") if "ID" not in message else None
        assert answer["id"] == expected
    proxy.call(99, "run_shell", {"command": "mkdir ran"})  # control: the server runs calls
    assert proxy.recv()["id"] == 99
    proxy.close()
    assert (root / "victim").is_dir() and (root / "ran").is_dir()
    assert [json.loads(x)["name"] for x in log.read_text().split("\n") if x] == ["run_shell"]
    refused = [r for r in project.audit() if r.get("rule") == "hookwise:envelope"]
    assert len(refused) == len(messages)
    assert {r["decision"] for r in refused} == {"deny"}
    assert refused[0]["host_tool"] == "mcp__fake__tools/call"


def test_an_envelope_in_its_own_spelling_passes(project: Project, wrap: Any) -> None:
    """The check refuses only what folds: `_meta`, other members of params, and argument
    keys (accounting's) are left as they are."""
    proxy = wrap()
    proxy.initialize()
    params = {"name": "greet", "arguments": {"name": "x", "Name2": "y"}, "_meta": {"a": 1}}
    proxy.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    assert "result" in proxy.recv()
    proxy.close()
    assert len(project.received_calls()) == 1


# ---------------------------------------------------------------- F7: tools the table does not name
SECRET_READS = """\
  - id: no-secret-reads
    match: {tool: read, files: "**/secret.txt"}
    action: deny
    reason: "secret.txt is not read"
"""


def _add_rules(project: Project, text: str) -> None:
    from hookwise.policy.trust.store import trust_file

    policy = project.root / ".hookwise" / "policy.yaml"
    policy.write_text(policy.read_text("utf-8") + text, "utf-8")
    trust_file(str(policy), project.env)


@pytest.mark.parametrize(
    ("tool", "args", "rule"),
    [
        # camelCase names are the table's names
        ("writeFile", {"path": "protected/a.txt", "content": "x"}, "protected-is-read-only"),
        ("WriteFile", {"path": "protected/a.txt", "content": "x"}, "protected-is-read-only"),
        ("editFile", {"path": "protected/a.txt", "edits": []}, "protected-is-read-only"),
        ("readFile", {"path": "secret.txt"}, "no-secret-reads"),
        ("readTextFile", {"path": "secret.txt"}, "no-secret-reads"),
        # a path and content: the tool writes, whatever its name
        ("writeTextFile", {"path": "protected/a.txt", "text": "x"}, "protected-is-read-only"),
        ("put_file", {"path": "protected/a.txt", "content": "x"}, "protected-is-read-only"),
        ("append_file", {"target": "protected/a.txt", "data": "x"}, "protected-is-read-only"),
        ("overwrite_file", {"file": "protected/a.txt", "body": "x"}, "protected-is-read-only"),
        ("patch_file", {"path": "protected/a.txt", "patch": "@@"}, "protected-is-read-only"),
        ("store", {"uri": "file:///{root}/protected/a", "content": "x"}, "protected-is-read-only"),
        # a path alone: it may read or write; a rule for either holds it as unverifiable
        ("get_file", {"path": "secret.txt"}, "hookwise:unverifiable"),
        ("cat_file", {"path": "secret.txt"}, "hookwise:unverifiable"),
        ("file_read", {"path": "./secret.txt"}, "hookwise:unverifiable"),
        ("open", {"path": "secret.txt"}, "hookwise:unverifiable"),
        ("touch_file", {"path": "protected/a.txt"}, "hookwise:unverifiable"),
    ],
)
def test_a_tool_the_table_does_not_name_is_held_to_file_tool_rules(
    project: Project, wrap: Any, tool: str, args: dict[str, Any], rule: str
) -> None:
    """writeFile/readFile/put_file... passed `tool: write`/`read` rules (a04)."""
    _add_rules(project, SECRET_READS)
    filled = json.loads(json.dumps(args).replace("/{root}", str(project.root)))
    (answer,) = _session(wrap, [(tool, filled)])
    assert _rule(answer) == rule, answer
    assert project.received_calls() == []


def test_unmapped_file_tools_on_other_files_pass(project: Project, wrap: Any) -> None:
    _add_rules(project, SECRET_READS)
    calls = [
        ("get_file", {"path": "notes.txt"}),
        ("put_file", {"path": "notes.txt", "content": "x"}),
        ("writeTextFile", {"path": "notes.txt", "text": "x"}),
        ("deploy", {"target": "staging", "content": "x"}),
    ]
    assert [_rule(a) for a in _session(wrap, calls)] == [None, None, None, None]
