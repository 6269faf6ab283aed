"""``hookwise mcp wrap`` between the test (the client) and fake_server.py (a real process):
the policy's decisions, the protocol's edge cases, and servers that fail."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.mcp_proxy.conftest import ASK_TOKEN, DENY_TOKEN, Project


def result_text(msg: dict[str, Any]) -> str:
    return "".join(c.get("text", "") for c in msg["result"]["content"])


# ------------------------------------------------------------------ the policy's decisions
@pytest.mark.parametrize(
    ("tool", "args", "rule"),
    [
        ("run_command", {"command": "rm -rf build"}, "no-recursive-delete"),
        ("write_file", {"path": "protected/x.txt", "content": "x"}, "protected-is-read-only"),
        ("read_whatever", {"path": ".env"}, "no-env-files"),
        ("write_file", {"file": "sub/.env", "content": "x"}, "no-env-files"),
    ],
)
def test_a_denied_call_never_reaches_the_server_and_the_reason_reaches_the_client(
    project: Project, wrap: Any, tool: str, args: dict[str, Any], rule: str
) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(7, tool, args)
    answer = proxy.recv()
    assert answer["id"] == 7
    assert answer["result"]["isError"] is True
    text = result_text(answer)
    assert DENY_TOKEN in text and rule in text and "'fake'" in text
    proxy.send({"jsonrpc": "2.0", "id": 8, "method": "ping"})
    assert proxy.recv()["id"] == 8  # the server had everything before the ping
    assert proxy.close() == 0
    assert project.received_calls() == []
    record = project.audit()[-1]
    assert (record["decision"], record["rule"], record["framework"], record["agent"]) == (
        "deny",
        rule,
        "mcp",
        "fake",
    )
    assert record["host_tool"] == f"mcp__fake__{tool}"


def test_an_allowed_call_passes_unchanged_and_is_audited(project: Project, wrap: Any) -> None:
    proxy = wrap()
    init = proxy.initialize()
    assert init["result"]["serverInfo"]["name"] == "fake"  # initialize passed through
    # (text under a key no reading covers is unverifiable on a shell tool: a note to people)
    args = {"command": "ls -la", "n": 12345678901234567890, "f": 0.1, "description": "é\u2028"}
    proxy.call("call-1", "run_command", args)
    answer = proxy.recv()
    assert answer["id"] == "call-1"
    assert json.loads(result_text(answer)) == args
    proxy.close()
    (call,) = project.received_calls()
    assert call["params"]["arguments"] == args
    record = project.audit()[-1]
    assert record["tool"] == "shell" and record["command"] == "ls -la"
    assert record["call_id"] == "call-1"


def test_a_rewrite_changes_what_the_server_gets(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "greet", {"name": "bob", "loud": True})
    assert json.loads(result_text(proxy.recv())) == {"name": "alice", "loud": True}
    proxy.close()
    assert project.received_calls()[0]["params"]["arguments"]["name"] == "alice"


# ------------------------------------------------------------------ ask
def test_ask_with_elicitation_accepted_then_declined(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize({"elicitation": {}})
    proxy.call(1, "delete_file", {"path": "a.txt"})
    ask = proxy.recv()
    assert ask["method"] == "elicitation/create"
    assert ASK_TOKEN in ask["params"]["message"] and "delete_file" in ask["params"]["message"]
    assert ask["params"]["requestedSchema"]["properties"]["allow"]["type"] == "boolean"
    time.sleep(0.3)
    assert project.received_calls() == []  # held while the user decides
    proxy.send({"jsonrpc": "2.0", "id": ask["id"],
                "result": {"action": "accept", "content": {"allow": True}}})  # fmt: skip
    answer = proxy.recv()
    assert answer["id"] == 1 and "isError" not in answer["result"]

    proxy.call(2, "delete_file", {"path": "b.txt"})
    ask = proxy.recv()
    proxy.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}})
    denied = proxy.recv()
    assert denied["id"] == 2 and denied["result"]["isError"] is True
    assert ASK_TOKEN in result_text(denied) and "decline" in result_text(denied)
    proxy.close()
    # the path as it was decided on: absolute (test_redteam: relative paths)
    received = [c["params"]["arguments"]["path"] for c in project.received_calls()]
    assert received == [str(project.root / "a.txt")]
    resolved = [r["ask_resolved"] for r in project.audit() if r.get("ask_resolved")]
    assert resolved == [
        "elicitation: accepted in the client",
        "elicitation: the user chose 'decline'",
    ]


def test_accept_without_the_box_ticked_is_no_allow(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize({"elicitation": {"form": {}}})
    proxy.call(1, "delete_file", {"path": "a.txt"})
    ask = proxy.recv()
    proxy.send({"jsonrpc": "2.0", "id": ask["id"],
                "result": {"action": "accept", "content": {"allow": "yes"}}})  # fmt: skip
    assert proxy.recv()["result"]["isError"] is True
    proxy.close()
    assert project.received_calls() == []


@pytest.mark.parametrize("caps", [{}, {"elicitation": {"url": {}}}])
def test_ask_without_form_elicitation_is_the_ask_fallback(
    project: Project, wrap: Any, caps: dict[str, Any]
) -> None:
    proxy = wrap()
    proxy.initialize(caps)
    proxy.call(1, "delete_file", {"path": "a.txt"})
    answer = proxy.recv()
    assert answer["result"]["isError"] is True and ASK_TOKEN in result_text(answer)
    proxy.close()
    assert project.received_calls() == []
    assert project.audit()[-1]["ask_resolved"] == "ask_fallback: deny"


def test_ask_fallback_allow_lets_the_call_through(project: Project, wrap: Any) -> None:
    policy = project.root / ".hookwise" / "policy.yaml"
    policy.write_text(
        policy.read_text("utf-8").replace(
            "version: 1\n", "version: 1\nsettings:\n  ask_fallback: allow\n"
        ),
        encoding="utf-8",
    )
    from hookwise.policy.trust.store import trust_file

    trust_file(str(policy), project.env)
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, "delete_file", {"path": "a.txt"})
    assert "isError" not in proxy.recv()["result"]
    proxy.close()
    assert len(project.received_calls()) == 1


def test_a_held_call_cancelled_by_the_client_never_reaches_the_server(
    project: Project, wrap: Any
) -> None:
    proxy = wrap()
    proxy.initialize({"elicitation": {}})
    proxy.call(5, "delete_file", {"path": "a.txt"})
    ask = proxy.recv()
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 5, "reason": "user pressed Esc"}})  # fmt: skip
    withdrawn = proxy.recv()
    assert withdrawn["method"] == "notifications/cancelled"
    assert withdrawn["params"]["requestId"] == ask["id"]
    # a late answer to the withdrawn question lets nothing through
    proxy.send({"jsonrpc": "2.0", "id": ask["id"],
                "result": {"action": "accept", "content": {"allow": True}}})  # fmt: skip
    proxy.send({"jsonrpc": "2.0", "id": 6, "method": "ping"})
    assert proxy.recv()["id"] == 6
    proxy.close()
    assert project.received_calls() == []
    methods = [m.get("method") for m in project.received() if isinstance(m, dict)]
    assert "notifications/cancelled" not in methods  # the server never knew of it


def test_cancelling_a_forwarded_call_is_passed_on(project: Project, wrap: Any) -> None:
    """A call that only reads (one that may change files is not cancelled at the server:
    test_redteam_s35_order)."""
    proxy = wrap("hang")
    proxy.initialize()
    proxy.call(3, "read_file", {"path": str(project.root / "a.txt")})
    time.sleep(0.3)
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
    time.sleep(0.3)
    proxy.close()
    cancelled = [m for m in project.received() if isinstance(m, dict)
                 and m.get("method") == "notifications/cancelled"]  # fmt: skip
    assert cancelled[0]["params"]["requestId"] == 3


# ------------------------------------------------------------------ the protocol
@pytest.mark.parametrize("request_id", [0, -1, 2**53 - 1, "", "ünï", "1", 1.5, None])
def test_ids_of_any_type_come_back_as_sent(project: Project, wrap: Any, request_id: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.call(request_id, "greet", {"name": "x"})
    first = proxy.recv()
    proxy.call(request_id, "read_it", {"path": ".env"})  # once answered, an id is free again
    second = proxy.recv()
    answers = sorted([first, second], key=lambda m: "isError" in m["result"])
    assert [a["id"] for a in answers] == [request_id, request_id]
    assert type(answers[0]["id"]) is type(request_id)
    assert answers[1]["result"]["isError"] is True
    proxy.close()


def test_a_batch_keeps_its_allowed_items_together(project: Project, wrap: Any) -> None:
    proxy = wrap("batch")
    proxy.initialize()
    proxy.send(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "greet", "arguments": {"name": "a"}}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "run_command", "arguments": {"command": "rm -r /"}}},
            {"jsonrpc": "2.0", "id": 3, "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/progress",
             "params": {"progressToken": 1, "progress": 1}},
        ]
    )  # fmt: skip
    replies = [proxy.recv(), proxy.recv()]
    proxy.close()
    # greet is no tool the table maps (it may change files): the call after it is decided
    # once greet has answered (red team s29 F1), and answered on its own
    denied = next(r for r in replies if isinstance(r, dict) and r["id"] == 2)
    assert denied["result"]["isError"] is True
    served = next(r for r in replies if r is not denied)
    assert sorted(x["id"] for x in served) == [1, 3]
    batch = next(m for m in project.received() if isinstance(m, list))
    assert [m.get("id") for m in batch] == [1, 3, None]


def test_progress_and_notifications_pass_in_order(project: Project, wrap: Any) -> None:
    proxy = wrap("progress", "--timeout", "0.5")
    proxy.initialize()
    proxy.send({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                "params": {"name": "greet", "arguments": {}, "_meta": {"progressToken": "p"}}})  # fmt: skip
    answer, before = proxy.recv_until(lambda m: m.get("id") == 9)
    assert [m["params"]["progress"] for m in before] == [1, 2]
    # 0.6 s in all, past the 0.5 s timeout: each progress notification restarted the clock
    assert "result" in answer
    proxy.close()


def test_large_binary_content_arrives_whole(project: Project, wrap: Any) -> None:
    proxy = wrap()
    proxy.initialize()
    size = 8 * 1024 * 1024
    proxy.call(1, "image", {"size": size})
    answer = proxy.recv(timeout=30)
    (image,) = answer["result"]["content"]
    assert len(image["data"]) == size and image["type"] == "image"
    proxy.close()


def test_an_oversized_message_is_refused_not_split(project: Project, wrap: Any) -> None:
    proxy = wrap("echo", "--max-message", "4096")
    proxy.initialize()
    proxy.call(1, "greet", {"name": "x" * 5000})
    answer = proxy.recv()
    assert answer["error"]["code"] == -32600 and "over the limit" in answer["error"]["message"]
    assert answer["id"] == 1  # F10 (s24): the request is answered, not left waiting
    proxy.call(2, "image", {"size": 8000})  # the server's answer is too large
    late = proxy.recv()
    assert late["id"] == 2 and late["error"]["code"] == -32002
    assert "over the limit" in late["error"]["message"]
    proxy.close()
    assert [c["id"] for c in project.received_calls()] == [2]


@pytest.mark.parametrize(
    "line",
    [
        b"not json",
        b'{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"run_command","arguments":{"command":"rm -rf /"}}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"n":NaN}}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":["rm -rf /"]}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"\xff"}}}',
        b"[]",
    ],
)
def test_hostile_client_lines_are_answered_and_never_passed_on(
    project: Project, wrap: Any, line: bytes
) -> None:
    proxy = wrap()
    proxy.initialize()
    proxy.send_raw(line)
    answer = proxy.recv()
    assert answer["error"]["code"] in (-32700, -32600, -32602)
    assert "'fake'" in answer["error"]["message"]
    proxy.close()
    assert project.received_calls() == []
    assert len(project.received()) == 2  # initialize and initialized only


# ------------------------------------------------------------------ servers that fail
def test_a_crashing_server_gives_an_error_naming_it(project: Project, wrap: Any) -> None:
    proxy = wrap("crash")
    proxy.initialize()
    proxy.call(4, "greet", {"name": "x"})
    answer, _ = proxy.recv_until(lambda m: m.get("id") == 4)
    assert answer["error"]["code"] == -32000
    assert "'fake'" in answer["error"]["message"] and "status 3" in answer["error"]["message"]
    assert "cannot go on" in answer["error"]["data"]["stderr"]
    proxy.call(5, "greet", {"name": "y"})  # later requests: the same clear error at once
    later, _ = proxy.recv_until(lambda m: m.get("id") == 5)
    assert "exited with status 3" in later["error"]["message"]
    assert proxy.close() == 0


def test_a_server_that_cannot_start_is_named(project: Project, wrap: Any) -> None:
    proxy = wrap(server=["/nonexistent/mcp-server", "x"])
    proxy.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
    answer, _ = proxy.recv_until(lambda m: m.get("id") == 0)
    assert answer["error"]["code"] == -32000
    assert "could not be started" in answer["error"]["message"]
    proxy.close()


def test_a_hanging_server_times_out_with_an_error_naming_it(project: Project, wrap: Any) -> None:
    proxy = wrap("hang", "--timeout", "0.5")
    proxy.initialize()
    proxy.call(1, "read_file", {"path": str(project.root / "a.txt")})  # (a read: cancelled)
    answer = proxy.recv(timeout=5)
    assert answer["error"]["code"] == -32001 and "'fake'" in answer["error"]["message"]
    proxy.close()
    methods = [m.get("method") for m in project.received() if isinstance(m, dict)]
    assert methods[-1] == "notifications/cancelled"  # the server is told to stop


def test_garbage_naming_a_request_answers_it(project: Project, wrap: Any) -> None:
    proxy = wrap("garbage")
    proxy.initialize()
    proxy.call(12, "greet", {"name": "x"})
    answer = proxy.recv()
    assert answer["id"] == 12 and answer["error"]["code"] == -32002
    assert "'fake'" in answer["error"]["message"]
    proxy.close()


def test_stray_stdout_text_is_reported_and_answers_still_arrive(
    project: Project, wrap: Any
) -> None:
    proxy = wrap("stdout-noise")
    proxy.initialize()
    proxy.call(1, "greet", {"name": "x"})
    answer, before = proxy.recv_until(lambda m: m.get("id") == 1)
    assert "result" in answer
    assert any("server log: working" in m["params"]["data"] for m in before)
    proxy.close()


def test_a_server_cannot_answer_a_call_it_was_never_given(project: Project, wrap: Any) -> None:
    proxy = wrap("spoof")
    proxy.initialize({"elicitation": {}})
    proxy.call(99, "delete_file", {"path": "a"})  # held: the server has not seen id 99
    ask = proxy.recv()
    assert ask["method"] == "elicitation/create"
    proxy.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})  # the server now spoofs id 99
    answer, before = proxy.recv_until(lambda m: m.get("id") == 1)
    assert answer["result"] == {}
    assert all(m.get("id") != 99 for m in before)
    assert any("was not given" in m.get("params", {}).get("data", "") for m in before)
    proxy.close()
