"""execute-with-output runs real hook scripts through the host runtime, on both databases."""

from __future__ import annotations

import json
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import yaml
from fastapi.testclient import TestClient

from hookwise.api.state import ServiceState
from hookwise.api.storage.tables import executions, webhook_outbox, webhook_subscribers
from tests.api.conftest import LiveServer, allow_commands

EXECUTE = "/internal/hook/execute-with-output"

ALLOW_JSON = json.dumps(
    {
        "systemMessage": "checked by the test hook",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "ls is harmless",
        },
    }
)
ASK_JSON = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "rm needs a human",
            "updatedInput": {"command": "rm -ri build"},
        }
    }
)


def script(directory: Path, name: str, body: str) -> str:
    """An executable shell script; its path is the allow-listed command."""
    path = directory / name
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def request(
    command: str,
    cwd: Path,
    event: str = "PreToolUse",
    matcher: str = "*",
    timeout: float = 5,
    **fields: Any,
) -> dict[str, Any]:
    hook_input: dict[str, Any] = {
        "session_id": "sess-exec",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "hook_event_name": event,
    }
    if event in ("PreToolUse", "PostToolUse"):
        hook_input.update(tool_name="Bash", tool_input={"command": "ls -la"})
    hook_input.update(fields)
    return {
        "hookConfig": {"command": command, "event": event, "matcher": matcher, "timeout": timeout},
        "input": hook_input,
    }


def state_of(client: TestClient) -> ServiceState:
    state: ServiceState = client.app.state.service  # type: ignore[attr-defined]
    return state


def execution_rows(client: TestClient) -> list[Any]:
    with state_of(client).engine.connect() as conn:
        return list(conn.execute(sa.select(executions).order_by(executions.c.created_at)).all())


@pytest.fixture
def hooks(tmp_path: Path) -> Path:
    directory = tmp_path / "hooks"
    directory.mkdir()
    return directory


@pytest.fixture
def project(tmp_path: Path) -> Path:
    directory = tmp_path / "project"
    directory.mkdir()
    return directory


def test_exit_0_json_allow(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(
        hooks,
        "allow.sh",
        'cat > stdin.json; printf %s "$CLAUDE_PROJECT_DIR" > env.txt; pwd > pwd.txt; '
        f"printf '%s' '{ALLOW_JSON}'",
    )
    client = make_client(execute=allow_commands(command))
    body = request(command, project)
    response = client.post(EXECUTE, json=body, headers={"X-Session-Id": "header-sess"})
    assert response.status_code == 200, response.text
    answer = response.json()

    assert json.loads((project / "stdin.json").read_text()) == body["input"]
    assert (project / "env.txt").read_text() == str(project)
    assert (project / "pwd.txt").read_text().strip() == str(project)
    raw = answer["raw"]
    assert raw["exitCode"] == 0
    assert json.loads(raw["stdout"]) == json.loads(ALLOW_JSON)
    assert raw["stderr"] == ""
    assert raw["hookEvent"] == "PreToolUse"
    assert 0 < raw["executionTime"] < 5000
    parsed = answer["parsed"]
    assert parsed["source"] == "json"
    assert parsed["continue"] is True
    assert parsed["systemMessage"] == "checked by the test hook"
    assert parsed["hookSpecificData"]["permissionDecision"] == "allow"
    assert parsed["errorMessages"] == []
    assert answer["shouldContinue"] is True
    assert answer["requiresUserInteraction"] is False
    assert "permissionRequest" not in answer
    assert answer["executionTime"] >= raw["executionTime"]
    types = [b["type"] for b in answer["messageBlocks"]]
    assert types == ["warn", "hook"]
    assert answer["messageBlocks"][1]["content"] == "Permission: allow - ls is harmless"

    (row,) = execution_rows(client)
    assert row.session_id == "header-sess"
    assert (row.hook_event, row.tool_name, row.command) == ("PreToolUse", "Bash", command)
    assert (row.exit_code, row.should_continue, row.source) == (0, True, "json")
    assert row.execution_time == raw["executionTime"]
    assert row.message_blocks == answer["messageBlocks"]
    assert row.permission_id is None
    assert row.id.startswith("exec_")


def test_exit_2_blocks_with_the_stderr_text(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "block.sh", "echo 'rm -rf is not allowed here' >&2; exit 2")
    client = make_client(execute=allow_commands(command))
    answer = client.post(EXECUTE, json=request(command, project)).json()
    assert answer["raw"]["exitCode"] == 2
    assert answer["raw"]["stderr"] == "rm -rf is not allowed here\n"
    data = answer["parsed"]["hookSpecificData"]
    blocked = answer["parsed"]["continue"] is False or data["permissionDecision"] == "deny"
    assert blocked
    assert data["permissionDecisionReason"] == "rm -rf is not allowed here"
    assert answer["shouldContinue"] is False
    assert any("rm -rf is not allowed here" in b["content"] for b in answer["messageBlocks"])
    (row,) = execution_rows(client)
    assert (row.exit_code, row.should_continue) == (2, False)


def test_exit_1_continues_with_a_warn_block(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "warn.sh", "echo 'lint found 3 problems' >&2; exit 1")
    client = make_client(execute=allow_commands(command))
    answer = client.post(EXECUTE, json=request(command, project, "PostToolUse")).json()
    assert answer["raw"]["exitCode"] == 1
    assert answer["parsed"]["continue"] is True
    assert answer["shouldContinue"] is True
    assert {"type": "warn", "content": "lint found 3 problems"} in answer["messageBlocks"]


def test_timeout_kills_the_hook_and_says_so(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "slow.sh", "echo started; sleep 30; touch finished")
    client = make_client(execute=allow_commands(command))
    started = time.monotonic()
    answer = client.post(EXECUTE, json=request(command, project, timeout=0.5)).json()
    elapsed = time.monotonic() - started
    assert elapsed < 4
    raw = answer["raw"]
    assert raw["exitCode"] == 124
    assert raw["stdout"] == "started\n"
    assert 450 <= raw["executionTime"] < 2500
    assert "timed out after 500 ms" in answer["parsed"]["errorMessages"][0]
    assert answer["parsed"]["source"] == "exitcode"
    assert answer["shouldContinue"] is True  # Claude Code: a timed-out hook decides nothing
    assert answer["messageBlocks"][0]["content"].startswith("Hook Error: Hook timed out")
    time.sleep(0.3)
    assert not (project / "finished").exists()  # the whole process group was killed
    (row,) = execution_rows(client)
    assert row.exit_code is None


def test_the_configured_hook_execution_bound_wins(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "slow.sh", "sleep 30")
    client = make_client(execute=allow_commands(command))
    update = {"timeoutMs": {"hookExecution": 400}}
    assert client.put("/api/hook/output-config", json=update).status_code == 200
    for timeout in (60, 0):  # 60 s is bounded; 0 means the bound itself
        answer = client.post(EXECUTE, json=request(command, project, timeout=timeout)).json()
        assert answer["raw"]["exitCode"] == 124
        assert 350 <= answer["raw"]["executionTime"] < 2000
        assert "timed out after 400 ms" in answer["parsed"]["errorMessages"][0]


def test_ask_creates_a_pending_permission(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "ask.sh", f"printf '%s' '{ASK_JSON}'")
    client = make_client(execute=allow_commands(command))
    answer = client.post(EXECUTE, json=request(command, project)).json()
    assert answer["requiresUserInteraction"] is True
    assert answer["shouldContinue"] is False
    permission = answer["permissionRequest"]
    assert permission["toolName"] == "Bash"
    assert permission["reason"] == "rm needs a human"
    assert permission["originalInput"] == {"command": "ls -la"}
    assert permission["updatedInput"] == {"command": "rm -ri build"}
    assert permission["sessionId"] == "sess-exec"  # no header: input.session_id

    pending = client.get("/internal/hook/pending-permissions").json()["permissions"]
    assert [p["id"] for p in pending] == [permission["id"]]
    (row,) = execution_rows(client)
    assert row.permission_id == permission["id"]

    resolved = client.post(
        f"/internal/hook/resolve-permission/{permission['id']}", json={"decision": "allow"}
    ).json()
    assert resolved["shouldProceed"] is True


def test_not_allow_listed_is_403_and_nothing_runs(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    marker = project / "ran"
    allowed = script(hooks, "allowed.sh", "exit 0")
    other = script(hooks, "other.sh", f"touch {marker}")
    client = make_client(execute=allow_commands(allowed))
    for command in (other, f"{allowed}; touch {marker}", f"touch {marker}"):
        response = client.post(EXECUTE, json=request(command, project))
        assert response.status_code == 403
        body = response.json()
        assert body["error"] == "command_not_allowed"
        assert body["message"]
    assert not marker.exists()
    assert execution_rows(client) == []


def test_disabled_is_403_and_nothing_runs(client: TestClient, hooks: Path, project: Path) -> None:
    marker = project / "ran"
    command = script(hooks, "touch.sh", f"touch {marker}")
    response = client.post(EXECUTE, json=request(command, project))
    assert response.status_code == 403
    assert response.json()["error"] == "execution_disabled"
    assert "disabled" in response.json()["message"]
    assert not marker.exists()


def test_cwd_must_be_an_existing_directory(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    marker = project / "ran"
    command = script(hooks, "touch.sh", f"touch {marker}")
    client = make_client(execute=allow_commands(command))
    response = client.post(EXECUTE, json=request(command, project / "missing"))
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    assert [d["field"] for d in body["details"]] == ["input.cwd"]
    assert not marker.exists()


def test_bad_body_names_each_field(make_client: Callable[..., TestClient], project: Path) -> None:
    client = make_client(execute=allow_commands("true"))
    body = request("true", project, timeout=-1)
    body["hookConfig"]["event"] = "NoSuchEvent"
    del body["input"]["cwd"]
    response = client.post(EXECUTE, json=body)
    assert response.status_code == 400
    fields = sorted(d["field"] for d in response.json()["details"])
    assert fields == ["hookConfig.event", "hookConfig.timeout", "input.cwd"]


def test_matcher_that_does_not_match_skips_the_hook(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    marker = project / "ran"
    command = script(hooks, "touch.sh", f"touch {marker}; exit 2")
    client = make_client(execute=allow_commands(command))
    answer = client.post(EXECUTE, json=request(command, project, matcher="Edit|Write")).json()
    assert not marker.exists()
    assert answer["shouldContinue"] is True
    assert answer["raw"] == {
        "exitCode": 0,
        "stdout": "",
        "stderr": "",
        "executionTime": 0.0,
        "hookEvent": "PreToolUse",
    }
    (block,) = answer["messageBlocks"]
    assert block["metadata"]["skipped"] is True
    assert "does not match" in block["content"]
    assert execution_rows(client) == []

    for matcher in ("Bash", "Edit|Bash", "^Ba", "*", ""):  # these do match: the hook runs
        answer = client.post(EXECUTE, json=request(command, project, matcher=matcher)).json()
        assert answer["raw"]["exitCode"] == 2, matcher
        marker.unlink()
    # an event that has no matcher field ignores the matcher, as Claude Code does
    answer = client.post(
        EXECUTE, json=request(command, project, "UserPromptSubmit", "Edit", prompt="hi")
    ).json()
    assert answer["raw"]["exitCode"] == 2


def test_hook_output_processed_in_the_outbox(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    command = script(hooks, "allow.sh", f"printf '%s' '{ALLOW_JSON}'")
    client = make_client(execute=allow_commands(command))
    with state_of(client).engine.begin() as conn:
        conn.execute(
            webhook_subscribers.insert().values(
                id="sub_exec",
                url="http://127.0.0.1:9/never",
                events=["hook_output_processed"],
                secret="s",
                active=True,
                created_at=0,
            )
        )
    before = int(time.time() * 1000)
    client.post(EXECUTE, json=request(command, project), headers={"X-Session-Id": "wh"})
    with state_of(client).engine.connect() as conn:
        (payload,) = conn.execute(
            sa.select(webhook_outbox.c.payload).where(
                webhook_outbox.c.event_type == "hook_output_processed"
            )
        ).scalars()
    assert payload.pop("timestamp") >= before
    assert payload == {
        "eventType": "hook_output_processed",
        "hookEvent": "PreToolUse",
        "toolName": "Bash",
        "result": {"source": "json", "continue": True, "requiresUserInteraction": False},
        "sessionId": "wh",
    }


@pytest.mark.usefixtures("one_window")
def test_execution_rate_limit_counts_the_input_session(
    make_client: Callable[..., TestClient], project: Path
) -> None:
    client = make_client(execute=allow_commands("true"))
    body = request("not-allowed", project)
    for _ in range(100):  # refused requests count too; nothing is run
        assert client.post(EXECUTE, json=body).status_code == 403
    refused = client.post(EXECUTE, json=body)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["limit"] == 100
    other = request("true", project, session_id="another-session")
    assert client.post(EXECUTE, json=other).status_code == 200
    header = client.post(EXECUTE, json=body, headers={"X-Session-Id": "header-wins"})
    assert header.status_code == 403


def test_a_slow_hook_does_not_slow_other_requests(
    live_server: Callable[..., LiveServer], tmp_path: Path, hooks: Path, project: Path
) -> None:
    """A real server: while one hook sleeps 3 s, other requests answer at once."""
    command = script(hooks, "slow.sh", "sleep 3")
    data_dir = tmp_path / "server"
    data_dir.mkdir()
    (data_dir / "service.yaml").write_text(
        yaml.safe_dump(
            {"execute": {"enabled": True, "allow": [command], "project_roots": [str(tmp_path)]}}
        ),
        encoding="utf-8",
    )
    server = live_server(data_dir=data_dir)
    results: list[httpx.Response] = []

    def slow() -> None:
        with server.client(timeout=30.0) as api:
            results.append(api.post(EXECUTE, json=request(command, project, timeout=10)))

    runner = threading.Thread(target=slow)
    with server.client(timeout=30.0) as api:
        api.get("/internal/hook/pending-permissions").raise_for_status()
        runner.start()
        time.sleep(0.5)  # the hook is running now
        latencies = []
        for _ in range(5):
            started = time.monotonic()
            api.get("/internal/hook/pending-permissions").raise_for_status()
            latencies.append(time.monotonic() - started)
        assert runner.is_alive()
    runner.join(30)
    assert max(latencies) < 0.5, latencies
    (response,) = results
    assert response.status_code == 200, response.text
    assert response.json()["raw"]["executionTime"] >= 2900


def test_hook_text_the_database_cannot_store_is_replaced(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    """A hook's own output is reported, never refused: NUL in its reason is replaced."""
    answer_json = ASK_JSON.replace("rm needs a human", "rm\\u0000needs a human")
    command = script(hooks, "ask.sh", f"printf '%s' '{answer_json}'")
    client = make_client(execute=allow_commands(command))
    response = client.post(EXECUTE, json=request(command, project))
    assert response.status_code == 200, response.text
    assert response.json()["permissionRequest"]["reason"] == "rm\ufffdneeds a human"


def test_request_text_the_database_cannot_store_is_400(
    make_client: Callable[..., TestClient], hooks: Path, project: Path
) -> None:
    marker = project / "ran"
    command = script(hooks, "touch.sh", f"touch {marker}")
    client = make_client(execute=allow_commands(command))
    body = request(command, project, session_id="s\x00", tool_name="Ba\x00sh")
    response = client.post(EXECUTE, json=body)
    assert response.status_code == 400
    fields = sorted(d["field"] for d in response.json()["details"])
    assert fields == ["input.session_id", "input.tool_name"]
    assert not marker.exists()


def test_running_hooks_are_capped_per_process(
    live_server: Callable[..., LiveServer], tmp_path: Path, hooks: Path, project: Path
) -> None:
    """Past HOOKWISE_MAX_RUNNING_HOOKS the answer is 503 with Retry-After, nothing runs,
    and a slot freed by a finished hook is usable again."""
    started_dir = tmp_path / "started"
    started_dir.mkdir()
    command = script(hooks, "slow.sh", f'touch "{started_dir}/$$"; sleep 2')
    data_dir = tmp_path / "server"
    data_dir.mkdir()
    (data_dir / "service.yaml").write_text(
        yaml.safe_dump(
            {"execute": {"enabled": True, "allow": [command], "project_roots": [str(tmp_path)]}}
        ),
        encoding="utf-8",
    )
    server = live_server(data_dir=data_dir, extra_env={"HOOKWISE_MAX_RUNNING_HOOKS": "2"})
    results: list[httpx.Response] = []

    def run(session: str) -> None:
        with server.client(timeout=30.0) as api:
            results.append(
                api.post(
                    EXECUTE,
                    json=request(command, project, timeout=10),
                    headers={"X-Session-Id": session},
                )
            )

    runners = [threading.Thread(target=run, args=(f"s{i}",)) for i in range(2)]
    for runner in runners:
        runner.start()
    deadline = time.monotonic() + 10
    while len(list(started_dir.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    with server.client(timeout=30.0) as api:
        refused = api.post(
            EXECUTE, json=request(command, project, timeout=10), headers={"X-Session-Id": "s3"}
        )
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"] == "busy"
    assert refused.headers["retry-after"] == "1"
    for runner in runners:
        runner.join(30)
    assert [r.status_code for r in results] == [200, 200]
    assert len(list(started_dir.iterdir())) == 2  # the refused one never ran
    with server.client(timeout=30.0) as api:
        again = api.post(
            EXECUTE, json=request(command, project, timeout=10), headers={"X-Session-Id": "s4"}
        )
    assert again.status_code == 200
