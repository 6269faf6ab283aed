"""The red team's attacks on ``hookwise mcp wrap`` (issue 28, branch redteam-mcp), each run
through the real proxy and fake_server.py: the call must never reach the server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp_proxy.conftest import Project


def result_text(msg: dict[str, Any]) -> str:
    return "".join(c.get("text", "") for c in msg["result"]["content"])


def refused(project: Project, wrap: Any, tool: str, args: dict[str, Any]) -> tuple[str, str]:
    """(the client's error text, the audit rule) of a call that must not reach the server."""
    proxy = wrap()
    proxy.initialize()
    proxy.call(5, tool, args)
    answer = proxy.recv()
    assert answer["id"] == 5 and answer["result"]["isError"] is True, answer
    proxy.close()
    assert project.received_calls() == []
    return result_text(answer), str(project.audit()[-1].get("rule"))


# F1: an extra benign canonical key hid the alias the server reads
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("run_command", {"command": "true", "cmd": "rm -r build"}),
        ("run_command", {"command": "true", "script": "rm -r build"}),
        ("read_file", {"file_path": "README.md", "filePath": ".env"}),
        ("view_file", {"file_path": "README.md", "file": ".env"}),
        ("read_file", {"file_path": "README.md", "absolute_path": "/x/.env"}),
        ("list_directory", {"path": "docs", "directory": "protected"}),
        ("write_file", {"path": "a.txt", "FilePath": "protected/x", "content": "x"}),
        ("run_command", {"command": "ls", "cwd": "/", "workdir": "/tmp"}),
    ],
)
def test_two_keys_for_one_role_are_unverifiable(
    project: Project, wrap: Any, tool: str, args: dict[str, Any]
) -> None:
    text, rule = refused(project, wrap, tool, args)
    assert rule == "hookwise:unverifiable" and "cannot verify" in text


def test_one_key_per_role_still_passes(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "read_file", {"filePath": "README.md", "encoding": "utf-8"})
    proxy.call(2, "run_command", {"cmd": "ls", "timeout": 5})
    assert {proxy.recv()["id"], proxy.recv()["id"]} == {1, 2}
    proxy.close()
    assert len(project.received_calls()) == 2


# F2: move_file moved the policy away and renamed .env to read it
@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"source": ".hookwise/policy.yaml", "destination": "old.yaml"}, "self-protection"),
        ({"source": "notes.txt", "destination": ".hookwise/policy.yaml"}, "self-protection"),
        ({"source": ".env", "destination": "leak.txt"}, "no-env-files"),
        ({"source": "x.sh", "destination": "protected/x.sh"}, "protected-is-read-only"),
        ({"source": "protected/x.sh", "destination": "x.sh"}, "protected-is-read-only"),
    ],
)
def test_a_move_is_judged_on_both_paths(
    project: Project, wrap: Any, args: dict[str, Any], rule: str
) -> None:
    _, found = refused(project, wrap, "move_file", args)
    assert found.endswith(rule)


def test_a_move_source_is_read(project: Project, wrap: Any) -> None:
    """A rule on reading alone (not writing) stops the copy of the file under a new name."""
    policy = project.root / ".hookwise" / "policy.yaml"
    policy.write_text(
        policy.read_text("utf-8")
        + "  - id: no-read-keys\n    match: {tool: read, files: '*.key'}\n    action: deny\n",
        "utf-8",
    )
    from hookwise.policy.trust.store import trust_file

    trust_file(str(policy), project.env)
    _, rule = refused(project, wrap, "copy_file", {"source": "a.key", "destination": "a.txt"})
    assert rule == "no-read-keys"


# F2 (generally) and F13: path- or code-looking keys no rule reads
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("exec", {"commandLine": "rm -r ~"}),
        ("exec", {"shellCommand": "rm -r ~"}),
        ("evaluate", {"source": "import os; os.system('rm -r ~')"}),
        ("relocate", {"from": ".env", "to": "leak.txt"}),
        ("write_file", {"path": "a.txt", "destination": "protected/a.txt", "content": "x"}),
    ],
)
def test_unread_command_or_path_keys_are_unverifiable(
    project: Project, wrap: Any, tool: str, args: dict[str, Any]
) -> None:
    _, rule = refused(project, wrap, tool, args)
    assert rule == "hookwise:unverifiable"


def test_a_mail_address_under_to_is_no_path(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "send_mail", {"to": "a@example.com", "subject": "hi", "target": "staging"})
    assert "result" in proxy.recv()
    proxy.close()
    assert len(project.received_calls()) == 1
