"""The session-29 MCP red team's attacks (docs/redteam/2026-11-28-s29-mcp.md), each through
the real proxy in front of a real server whose tools do what their names say
(``s29_server.py``): a call decided before an earlier one made a link under its path (F1)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tests.mcp_proxy.conftest import Project

SERVER = Path(__file__).with_name("s29_server.py")
USER_RULES = "version: 1\nrules:\n  - {id: no-rm, match: {command: rm}, action: deny}\n"
EMPTY = "version: 1\nrules: []\n"


def _user_policy(project: Project) -> Path:
    path = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_RULES, "utf-8")
    return path


def _proxy(project: Project, wrap: Any) -> Any:
    project.env["S28_LOG"] = str(project.root.parent / "s28.log")
    proxy = wrap(server=[sys.executable, str(SERVER)])
    proxy.initialize()
    return proxy


def _answers(proxy: Any, ids: list[int]) -> dict[int, Any]:
    got: dict[int, Any] = {}
    while len(got) < len(ids):
        msg = proxy.recv()
        for item in msg if isinstance(msg, list) else [msg]:
            if item.get("id") in ids:
                got[item["id"]] = item
    return got


def _blocked(answer: Any) -> str | None:
    result = answer.get("result", {})
    if "error" not in answer and not result.get("isError"):
        return None
    text = json.dumps(answer)
    assert "hookwise" in text, answer
    return text.split("[rule ", 1)[1].split("]", 1)[0] if "[rule " in text else text


def _request(request_id: int, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    params = {"name": tool, "arguments": args}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _race(project: Project, user: Path) -> list[dict[str, Any]]:
    config = user.parent.parent
    link = {"command": f"sleep 0.4; ln -s {config} {project.root}/cfg"}
    write = {"path": f"{project.root}/cfg/hookwise/policy.yaml", "content": EMPTY}
    return [_request(101, "run_shell", link), _request(102, "write_file", write)]


def test_f1_a_call_is_decided_after_an_earlier_changing_call_has_answered(
    project: Project, wrap: Any
) -> None:
    """Two calls sent before either is answered: ``run_shell "sleep; ln -s ~/.config cfg"``
    and ``write_file cfg/hookwise/policy.yaml``. The write was decided before the link
    existed and overwrote the user policy; it now waits for the shell call's answer and is
    decided on the link (self-protection)."""
    user = _user_policy(project)
    proxy = _proxy(project, wrap)
    for message in _race(project, user):
        proxy.send(message)
    got = _answers(proxy, [101, 102])
    proxy.close()
    assert _blocked(got[101]) is None, got[101]
    assert _blocked(got[102]) == "hookwise:self-protection", got[102]
    assert user.read_text("utf-8") == USER_RULES


def test_f1_a_batch_is_decided_in_turn_too(project: Project, wrap: Any) -> None:
    """The same two calls in one JSON-RPC batch: the write is decided after the link."""
    user = _user_policy(project)
    proxy = _proxy(project, wrap)
    proxy.send(_race(project, user))
    got = _answers(proxy, [101, 102])
    proxy.close()
    assert _blocked(got[102]) == "hookwise:self-protection", got[102]
    assert user.read_text("utf-8") == USER_RULES


def test_f1_waiting_calls_keep_their_order_and_can_be_cancelled(
    project: Project, wrap: Any
) -> None:
    """Calls behind a running shell call go on in the order they came, once it answered;
    one cancelled while it waits is never passed on (the server never sees it)."""
    out = project.root / "order.txt"
    proxy = _proxy(project, wrap)
    proxy.send(_request(1, "run_shell", {"command": "sleep 0.5"}))
    proxy.send(_request(2, "run_shell", {"command": f"echo two >> {out}"}))
    proxy.send(_request(3, "run_shell", {"command": f"echo three >> {out}"}))
    proxy.send(_request(4, "run_shell", {"command": f"echo four >> {out}"}))
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
    got = _answers(proxy, [1, 2, 4])
    time.sleep(0.3)
    proxy.nothing(0.3)  # no answer for the cancelled call
    proxy.close()
    assert all(_blocked(a) is None for a in got.values()), got
    assert out.read_text("utf-8").split() == ["two", "four"]
    ran = (project.root.parent / "s28.log").read_text("utf-8")
    assert "three" not in ran
