"""Session 35, issue 28 findings 2 and 3, through the real proxy over pipes.

F2: a hostile server (written to the test's directory) answers late, after the client
cancelled or the proxy timed out, and twice. The client gets exactly one answer per id it
awaits, in the order the server gave them; a cancelled call's late answer is dropped, and
its id is not taken by a new request while the server may still answer it (the late answer
would be taken for the new one's).

F3: while a call waits for the user's answer, the policy changes; once the user accepts,
the call is decided again against the policy as it is now: a deny is a deny, a rewrite
applies.
"""

from __future__ import annotations

import json
import queue
import sys
import time
from pathlib import Path
from typing import Any

from tests.mcp_proxy.conftest import Project

HOSTILE = r"""
import json, sys, threading, time
lock = threading.Lock()
log = open(sys.argv[1], "a", encoding="utf-8")

def send(value):
    with lock:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()

def later(rid, args):
    time.sleep(float(args.get("delay", 0)))
    for _ in range(int(args.get("times", 1))):  # a hostile server answers twice
        send({"jsonrpc": "2.0", "id": rid,
              "result": {"content": [{"type": "text", "text": "answer " + json.dumps(rid)}]}})

for line in sys.stdin:
    log.write(line); log.flush()
    msg = json.loads(line)
    if "id" not in msg:
        continue  # notifications (a cancellation too: ignored, as a busy server does)
    if msg["method"] == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18",
              "capabilities": {"tools": {}, "tasks": {"list": {}, "requests": {"tools": {"call": {}}}}},
              "serverInfo": {"name": "hostile", "version": "1"}}})
    elif msg["method"] == "tools/call":
        threading.Thread(target=later, args=(msg["id"], msg["params"].get("arguments") or {}),
                         daemon=True).start()
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
"""


def _hostile(project: Project, wrap: Any, *options: str) -> Any:
    server = project.root.parent / "hostile_server.py"
    server.write_text(HOSTILE, "utf-8")
    log = project.root.parent / "hostile.log"
    proxy = wrap("", *options, server=[sys.executable, str(server), str(log)])
    proxy.answer = proxy.initialize()
    return proxy


def _read(project: Project, args: dict[str, Any]) -> dict[str, Any]:
    """A read (a call that changes nothing: later calls are not held behind it)."""
    return {"path": str(project.root / "notes.txt"), **args}


def _all(proxy: Any, wait: float) -> list[Any]:
    """Every message the proxy writes within ``wait`` seconds, in order."""
    out: list[Any] = []
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            line = proxy.lines.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            break
        assert line is not None
        out.append(json.loads(line))
    return out


def _answers(messages: list[Any]) -> list[Any]:
    return [m for m in messages if "id" in m and "method" not in m]


def test_a_cancelled_calls_late_answers_are_dropped_and_its_id_is_not_taken(
    project: Project, wrap: Any
) -> None:
    proxy = _hostile(project, wrap)
    proxy.call(1, "read_file", _read(project, {"delay": 1.5, "times": 2}))
    proxy.call(2, "read_file", _read(project, {"delay": 0.2}))
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    proxy.call(1, "read_file", _read(project, {}))  # the id again, while 1 may still answer
    proxy.call(3, "read_file", _read(project, {"delay": 0.5}))
    got = _answers(_all(proxy, 3.0))  # the late answers (twice) come within it
    by_id = {m["id"]: m for m in got}
    assert sorted(m["id"] for m in got) == [1, 2, 3], got  # one answer each
    assert [m["id"] for m in got if m["id"] != 1] == [2, 3]  # in the server's order
    assert "cancelled or timed out" in by_id[1]["error"]["message"]
    assert by_id[2]["result"]["content"][0]["text"] == "answer 2"
    assert by_id[3]["result"]["content"][0]["text"] == "answer 3"
    # the late answers were dropped: id 1 is free again, and answered as the new call's
    proxy.call(1, "read_file", _read(project, {}))
    again = _answers(_all(proxy, 1.0))
    assert [(m["id"], m["result"]["content"][0]["text"]) for m in again] == [(1, "answer 1")]
    proxy.close()


def test_a_timed_out_calls_late_answer_is_dropped_and_others_keep_their_order(
    project: Project, wrap: Any
) -> None:
    proxy = _hostile(project, wrap, "--timeout", "1")
    proxy.call(7, "read_file", _read(project, {"delay": 3, "times": 2}))
    proxy.call(8, "read_file", _read(project, {"delay": 0.2}))
    proxy.call(9, "read_file", _read(project, {"delay": 0.4}))
    timed_out, before = proxy.recv_until(lambda m: m.get("id") == 7)
    assert [(m["id"], m["result"]["content"][0]["text"]) for m in _answers(before)] == [
        (8, "answer 8"),
        (9, "answer 9"),
    ]
    assert "--timeout" in timed_out["error"]["message"], timed_out
    proxy.call(7, "read_file", _read(project, {}))  # its id while its answer may come
    got = _answers(_all(proxy, 3.0))  # the late answers (twice) come within it
    assert [m["id"] for m in got] == [7], got
    assert "cancelled or timed out" in got[0]["error"]["message"], got
    proxy.close()
    received = [json.loads(x) for x in (project.root.parent / "hostile.log").open()]
    cancelled = [m["params"]["requestId"] for m in received if m.get("method") == (
        "notifications/cancelled")]  # fmt: skip
    assert cancelled == [7]  # the server was told; the reused id never reached it
    assert [m["id"] for m in received if m.get("method") == "tools/call"] == [7, 8, 9]


# ------------------------------------------------------------------ F3: decided again


def _user_policy(project: Project, rules: str) -> None:
    path = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"version: 1\nrules:\n{rules}", "utf-8")


def _asked(project: Project, wrap: Any) -> tuple[Any, Any]:
    _user_policy(project, "  []\n")
    proxy = wrap()
    proxy.initialize({"elicitation": {}})
    proxy.call(1, "delete_file", {"path": "a.txt"})
    ask = proxy.recv()
    assert ask["method"] == "elicitation/create"
    return proxy, ask


def _accept(proxy: Any, ask: Any) -> Any:
    time.sleep(1.3)  # the proxy reads a changed policy within a second (decide.RECHECK_SECONDS)
    proxy.send({"jsonrpc": "2.0", "id": ask["id"],
                "result": {"action": "accept", "content": {"allow": True}}})  # fmt: skip
    answer, _ = proxy.recv_until(lambda m: m.get("id") == 1)
    return answer


def test_a_call_denied_while_the_user_was_asked_is_denied_after_the_yes(
    project: Project, wrap: Any
) -> None:
    proxy, ask = _asked(project, wrap)
    _user_policy(
        project,
        "  - {id: no-deletes-now, match: {mcp: {tool: delete_file}}, action: deny,\n"
        "     reason: 'S35-DENY: deleting is off'}\n",
    )
    answer = _accept(proxy, ask)
    proxy.close()
    text = json.dumps(answer)
    assert answer["result"]["isError"] is True and "S35-DENY" in text, answer
    assert "decided again after the approval" in text
    assert project.received_calls() == []


def test_a_rewrite_added_while_the_user_was_asked_applies(project: Project, wrap: Any) -> None:
    proxy, ask = _asked(project, wrap)
    _user_policy(
        project,
        "  - {id: trash-instead, match: {mcp: {tool: delete_file}}, action: rewrite,\n"
        "     rewrite: {replace: [{arg: path, find: a.txt, with: a.txt.trash}]}}\n",
    )
    answer = _accept(proxy, ask)
    proxy.close()
    assert "isError" not in answer["result"], answer
    paths = [c["params"]["arguments"]["path"] for c in project.received_calls()]
    assert paths == [str(project.root / "a.txt.trash")]


def test_friction_an_unchanged_policy_lets_the_approved_call_through(
    project: Project, wrap: Any
) -> None:
    proxy, ask = _asked(project, wrap)
    answer = _accept(proxy, ask)
    proxy.close()
    assert "isError" not in answer["result"], answer
    paths = [c["params"]["arguments"]["path"] for c in project.received_calls()]
    assert paths == [str(project.root / "a.txt")]


# ------------------------------------------------------------------ F2: still running


def _cancel(proxy: Any, request_id: int) -> None:
    proxy.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}
    )


def test_a_cancelled_call_that_may_change_files_holds_the_next_until_it_is_over(
    project: Project, wrap: Any
) -> None:
    """The red team's race (report F1): ``run_shell "sleep; ln -s ~/.config cfg"``,
    cancelled at once, then ``write_file cfg/hookwise/policy.yaml``. The server runs the
    shell call on (a cancellation may be ignored); the write was decided before the link
    existed and emptied the user policy. Now the cancellation is not passed on, and the
    write waits for the shell call's answer: decided on the link, refused."""
    from tests.mcp_proxy.test_redteam_s29 import USER_RULES, _blocked, _proxy, _user_policy

    user = _user_policy(project)
    proxy = _proxy(project, wrap)
    config = user.parent.parent
    link = {"command": f"sleep 1; ln -s {config} {project.root}/cfg"}
    proxy.call(101, "run_shell", link)
    _cancel(proxy, 101)
    write = {"path": f"{project.root}/cfg/hookwise/policy.yaml", "content": "version: 1\n"}
    proxy.call(102, "write_file", write)
    answer, before = proxy.recv_until(lambda m: m.get("id") == 102)
    proxy.nothing(0.5)  # the cancelled call's answer is dropped
    proxy.close()
    assert all(m.get("id") != 101 for m in before), before
    assert _blocked(answer) == "hookwise:self-protection", answer
    assert user.read_text("utf-8") == USER_RULES
    received = [m for m in project.received() if isinstance(m, dict)]
    assert "notifications/cancelled" not in [m.get("method") for m in received]


def test_a_timed_out_call_that_may_change_files_holds_the_next_until_it_is_over(
    project: Project, wrap: Any
) -> None:
    """The write times out for the client but runs on at the server: the read behind it is
    never passed on before the write's answer comes. Waiting counts against the read's own
    --timeout (a server that never finishes would hold it for ever), so it is answered as
    timed out, unsent; a read sent once the write's late answer came goes through."""
    proxy = _hostile(project, wrap, "--timeout", "1")
    proxy.call(1, "write_file", {"path": "notes.txt", "content": "x", "delay": 2.5})
    proxy.call(2, "read_file", _read(project, {}))
    timed_out, _ = proxy.recv_until(lambda m: "id" in m)
    assert timed_out["id"] == 1 and "--timeout" in timed_out["error"]["message"], timed_out
    second, _ = proxy.recv_until(lambda m: "id" in m)
    assert second["id"] == 2 and "not passed on" in second["error"]["message"], second
    time.sleep(2.5)  # the write's late answer has come (and is dropped)
    proxy.call(3, "read_file", _read(project, {}))
    third, _ = proxy.recv_until(lambda m: "id" in m)
    assert third["id"] == 3 and third["result"]["content"][0]["text"] == "answer 3", third
    proxy.close()
    received = [json.loads(x) for x in (project.root.parent / "hostile.log").open()]
    assert "notifications/cancelled" not in [m.get("method") for m in received]
    assert [m.get("id") for m in received if m.get("method") == "tools/call"] == [1, 3]


def test_friction_cancelling_a_read_is_passed_on_and_holds_nothing(
    project: Project, wrap: Any
) -> None:
    proxy = _hostile(project, wrap)
    proxy.call(1, "read_file", _read(project, {"delay": 3}))
    _cancel(proxy, 1)
    proxy.call(2, "read_file", _read(project, {}))
    answer, _ = proxy.recv_until(lambda m: "id" in m)
    assert answer["id"] == 2, answer  # at once, not after the cancelled read
    proxy.close()
    received = [json.loads(x) for x in (project.root.parent / "hostile.log").open()]
    cancelled = [m for m in received if m.get("method") == "notifications/cancelled"]
    assert [m["params"]["requestId"] for m in cancelled] == [1]


def test_a_task_augmented_call_that_may_change_files_is_refused(
    project: Project, wrap: Any
) -> None:
    """Report F2: a ``tools/call`` with ``params.task`` is answered at once (a
    CreateTaskResult) while the server runs it on, so the next call was decided before its
    change. The server's initialize answer reaches the client without tools/call tasks;
    a task-augmented call of a tool that may change files is refused; a read may be one."""
    proxy = _hostile(project, wrap)
    tasks = proxy.answer["result"]["capabilities"]["tasks"]
    assert tasks == {"list": {}, "requests": {}}, tasks
    task = {"ttl": 60000}
    proxy.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "write_file",
                "arguments": {"path": "notes.txt", "content": "x"},
                "task": task,
            },
        }
    )
    refused, _ = proxy.recv_until(lambda m: m.get("id") == 1)
    assert refused["error"]["code"] == -32602 and "params.task" in refused["error"]["message"]
    proxy.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "read_file", "arguments": _read(project, {}), "task": task}})  # fmt: skip
    read, _ = proxy.recv_until(lambda m: m.get("id") == 2)
    assert read["result"]["content"][0]["text"] == "answer 2", read
    proxy.close()
    received = [json.loads(x) for x in (project.root.parent / "hostile.log").open()]
    assert [m["id"] for m in received if m.get("method") == "tools/call"] == [2]


def test_a_resource_read_or_prompt_without_an_id_is_refused_and_audited(
    project: Project, wrap: Any
) -> None:
    """Report F9: ``resources/read`` and ``prompts/get`` sent as notifications reached the
    server undecided and unaudited."""
    proxy = _hostile(project, wrap)
    env_file = f"file://{project.root}/.env"
    proxy.send({"jsonrpc": "2.0", "method": "resources/read", "params": {"uri": env_file}})
    proxy.send({"jsonrpc": "2.0", "method": "prompts/get",
                "params": {"name": "p", "arguments": {"path": f"{project.root}/.env"}}})  # fmt: skip
    proxy.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})  # friction: others go on
    pong, notes = proxy.recv_until(lambda m: m.get("id") == 3)
    assert pong["result"] == {}
    assert sum("without an id" in json.dumps(n) for n in notes) == 2, notes
    proxy.close()
    received = [json.loads(x) for x in (project.root.parent / "hostile.log").open()]
    assert [m.get("method") for m in received][-1] == "ping", received
    assert not [m for m in received if m.get("method") in ("resources/read", "prompts/get")]
    refused = [r for r in project.audit() if "without an id" in json.dumps(r)]
    assert len(refused) == 2, project.audit()
