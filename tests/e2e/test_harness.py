"""The harness itself, without the real CLIs: fake model, hook program, observation, matching."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis, matrix
from tests.e2e.compare import disagreements, texts_agree, unwrap
from tests.e2e.fake_model import FINAL_TEXT, SHELL_COMMAND, FakeModel
from tests.e2e.matrix import Cell, cells
from tests.e2e.observe import CONTEXT, REASON, new_items, observe, segment


def post(url: str, body: dict[str, Any]) -> tuple[int, str]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def sse_data(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_fake_model_anthropic_asks_for_bash_once_then_answers() -> None:
    with FakeModel() as fake:
        tools = [{"name": "Bash"}]
        first = {"stream": True, "tools": tools, "messages": [{"role": "user", "content": "go"}]}
        status, text = post(fake.url + "/v1/messages?beta=true", first)
        assert status == 200
        events = sse_data(text)
        assert events[0]["type"] == "message_start"
        assert events[1]["content_block"]["name"] == "Bash"
        assert json.loads(events[2]["delta"]["partial_json"])["command"] == SHELL_COMMAND
        assert events[-2]["delta"]["stop_reason"] == "tool_use"
        result = {"type": "tool_result", "tool_use_id": "t", "content": "blocked"}
        second = {**first, "messages": [*first["messages"], {"role": "user", "content": [result]}]}
        events = sse_data(post(fake.url + "/v1/messages", second)[1])
        assert events[2]["delta"]["text"] == FINAL_TEXT
        assert [r["path"] for r in fake.requests] == ["/v1/messages?beta=true", "/v1/messages"]


def test_fake_model_responses_api_calls_exec_command() -> None:
    with FakeModel() as fake:
        body = {
            "stream": True,
            "tools": [{"type": "function", "name": "exec_command"}],
            "input": [],
        }
        events = sse_data(post(fake.url + "/v1/responses", body)[1])
        item = events[1]["item"]
        assert item["type"] == "function_call" and item["name"] == "exec_command"
        assert json.loads(item["arguments"]) == {"cmd": SHELL_COMMAND}
        assert events[-1]["type"] == "response.completed"
        output = {"type": "function_call_output", "call_id": item["call_id"], "output": "x"}
        events = sse_data(post(fake.url + "/v1/responses", {**body, "input": [item, output]})[1])
        assert events[1]["item"]["content"][0]["text"] == FINAL_TEXT


def test_fake_model_names_a_namespaced_call_in_responses_only() -> None:
    """Codex runs an MCP tool only from a call naming its namespace and member apart."""
    from tests.e2e import fake_model as fm

    script = fm.Script([fm.namespaced("mcp__fs", "write_file", {"path": "/p", "content": "c"})])
    body = {"tools": [{"type": "namespace", "name": "mcp__fs", "tools": []}], "input": []}
    item = fm.responses_reply(body, script)[0]["output"][0]
    assert (item["type"], item["namespace"], item["name"]) == (
        "function_call", "mcp__fs", "write_file"
    )  # fmt: skip
    assert json.loads(item["arguments"]) == {"path": "/p", "content": "c"}
    plain = fm.responses_reply(body, fm.Script([fm.call("write_file", path="/p")]))[0]
    assert "namespace" not in plain["output"][0]
    # a script sent to a fake model in another process keeps the namespace
    again = fm.Script.from_json(script.to_json()).steps[0].calls[0]
    assert (again.namespace, again.name) == ("mcp__fs", "write_file")
    claude = fm.anthropic_reply({"tools": [{"name": "write_file"}], "messages": []}, script)[0]
    assert claude["content"][0]["name"] == "write_file"


def test_fake_model_gemini_router_and_unknown_routes() -> None:
    with FakeModel() as fake:
        schema = {"type": "OBJECT", "properties": {"model_choice": {"enum": ["flash", "pro"]}}}
        config = {"responseMimeType": "application/json", "responseJsonSchema": schema}
        status, text = post(
            fake.url + "/v1beta/models/m:generateContent", {"generationConfig": config}
        )
        part = json.loads(text)["candidates"][0]["content"]["parts"][0]
        assert status == 200 and json.loads(part["text"]) == {"model_choice": "flash"}
        tools = [{"functionDeclarations": [{"name": "run_shell_command"}]}]
        url = fake.url + "/v1beta/models/m:streamGenerateContent?alt=sse"
        chunk = sse_data(post(url, {"tools": tools, "contents": []})[1])[0]
        assert chunk["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] == {
            "command": SHELL_COMMAND,
            "description": "Write the marker file",
        }
        assert post(fake.url + "/v2/nothing", {})[0] == 404


def run_hook(answer: dict[str, Any], stdin: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(clis.ANSWER_HOOK), json.dumps(answer)],
        input=json.dumps(stdin),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_answer_hook_gives_its_literal_answer_and_the_stop_loop_guard() -> None:
    answer = {"exit": 3, "stdout": '{"a": 1}', "stderr": "why\n", "quiet_if_stop_hook_active": True}
    proc = run_hook(answer, {"stop_hook_active": False})
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, '{"a": 1}', "why\n")
    proc = run_hook(answer, {"stop_hook_active": True})
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_matrix_ids_are_unique_and_answers_carry_their_tokens() -> None:
    ids = [cell.id for cell in cells()]
    assert len(ids) == len(set(ids))
    events = {cell.event for cell in cells()}
    assert events == {"PreToolUse", "UserPromptSubmit", "Stop", "PermissionRequest"}
    for cell in cells():
        json.dumps(cell.answer)
        assert set(cell.answer) <= {"exit", "stdout", "stderr", "quiet_if_stop_hook_active"}
        assert (cell.answer.get("quiet_if_stop_hook_active") is True) == (cell.event == "Stop")


def test_matrix_is_the_product_of_its_dimensions() -> None:
    by_event: dict[str, set[str]] = {}
    for cell in cells():
        by_event.setdefault(cell.event, set()).add(cell.id.split("-", 1)[1])
    for event, ids in by_event.items():
        # exit code x stdout x stderr, on every event
        exits = {i for i in ids if i.startswith("exit")}
        assert len(exits) == 4 * 4 * 2, event
        # continue false/true x none/go/no
        assert len({i for i in ids if i.startswith("continue_")}) == 6, event
        # every top-level decision against every own-field value
        assert {f"fields-top_{top}-own_none" for top in matrix.TOP_DECISIONS} <= ids
        for own in matrix.SPECIFIC_DECISIONS[event]:
            assert {f"fields-top_{t}-own_{own}" for t in ("none", *matrix.TOP_DECISIONS)} <= ids
        assert {"enc-bom", "enc-crlf", "enc-leading_ws", "enc-trailing_garbage"} <= ids
        assert {"enc-two_objects", "enc-array", "enc-null"} <= ids
    # the one exclusion, with its reason
    for cell in cells():
        assert set(cell.not_on) == ({"gemini"} if cell.event == "PermissionRequest" else set())
    gemini = {cell.id for _, cell in matrix.runs(("gemini",))}
    assert not any(i.startswith("perm-") for i in gemini)
    # the live sample names real cells on every event
    ids = {cell.id for cell in cells()}
    assert ids >= matrix.SAMPLE
    assert {i.split("-")[0] for i in matrix.SAMPLE} == {"pre", "prompt", "stop", "perm"}


def test_a_cell_that_may_wait_for_a_confirmation_has_a_short_limit() -> None:
    asking = [c for c in cells() if c.limit_s is not None]
    assert asking and all('"ask"' in c.answer["stdout"] for c in asking)
    assert all(c.limit_s == matrix.ASK_LIMIT_SECONDS for c in asking)
    cell = asking[0]
    assert matrix.Cell.from_json(json.loads(json.dumps(cell.as_json()))) == Cell(
        cell.id, cell.event, cell.answer, cell.note, limit_s=cell.limit_s
    )


def test_hook_configuration_per_cli(tmp_path: Path) -> None:
    command = clis.hook_command({"exit": 0})
    clis.write_project_hooks("claude", tmp_path, "PreToolUse", command)
    clis.write_project_hooks("codex", tmp_path, "Stop", command)
    clis.write_project_hooks("gemini", tmp_path, "UserPromptSubmit", command)
    claude = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert claude["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    assert claude["hooks"]["PreToolUse"][0]["hooks"][0] == {
        "type": "command",
        "command": command,
        "timeout": 30,
    }
    codex = json.loads((tmp_path / ".codex" / "hooks.json").read_text())
    assert "matcher" not in codex["hooks"]["Stop"][0]
    gemini = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
    assert gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["timeout"] == 30000
    # a PermissionRequest cell: Bash is not allowed, so Claude Code asks (and the hook answers)
    clis.write_project_hooks("claude", tmp_path / "p", "PermissionRequest", command)
    asking = json.loads((tmp_path / "p" / ".claude" / "settings.json").read_text())
    assert "permissions" not in asking
    assert asking["hooks"]["PermissionRequest"][0]["matcher"] == "Bash"


def test_frames_of_the_real_clis_unwrap_to_the_hook_text() -> None:
    reason = f"{REASON}: no (stderr)"
    framed = [
        f"PreToolUse:Bash hook error: [$HOOK_COMMAND]: {reason}\n",
        f"PreToolUse:Bash hook error: {reason}",
        f"Command blocked by PreToolUse hook: {reason}. Command: echo hi > marker",
        f'<hook_prompt hook_run_id="stop:0:$RUN/proj/.codex/hooks.json">{reason}</hook_prompt>',
        f"Stop hook feedback:\n[$HOOK_COMMAND]: {reason}\n",
        f"Tool execution blocked: {reason}",
        reason + "\n",
    ]
    assert {unwrap(text) for text in framed} == {reason}
    context = f"{CONTEXT}: scratch"
    assert unwrap(f"<system-reminder>\nStop hook additional context: {context}\n</system-reminder>")
    assert texts_agree(f"UserPromptSubmit hook additional context: {context}", context)
    assert texts_agree(None, None)
    assert not texts_agree(None, "x")
    assert not texts_agree(f"PreToolUse:Bash hook error: {reason}", "other")


def test_segment_cuts_the_paragraph_out_of_a_system_prompt() -> None:
    prompt = f"# Environment\nlots\n\nUserPromptSubmit hook success: {CONTEXT}: x\n\nToday's date"
    assert segment(prompt, CONTEXT) == f"UserPromptSubmit hook success: {CONTEXT}: x"


def test_new_items_reads_what_follows_the_model_turn() -> None:
    claude = {
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use"}]},
            {"role": "user", "content": [{"type": "tool_result", "content": "denied"}]},
        ]
    }
    assert new_items("claude", claude) == [("result", "denied")]
    codex = {
        "input": [
            {"type": "message", "role": "user", "content": [{"text": "go"}]},
            {"type": "function_call"},
            {"type": "function_call_output", "output": "blocked"},
        ]
    }
    assert new_items("codex", codex) == [("result", "blocked")]


def fake_run(
    tmp_path: Path,
    *,
    ran: bool,
    follow_up: str | None,
    event: str = "PreToolUse",
    timed_out: bool = False,
) -> dict[str, Any]:
    if ran:
        (tmp_path / "marker").write_text("hi\n")
    tools = [{"name": "Bash"}]
    requests = [{"t": 1.0, "method": "POST", "path": "/v1/messages", "body": {"tools": tools}}]
    if follow_up is not None:
        result = {"type": "tool_result", "content": follow_up}
        body = {
            "tools": tools,
            "messages": [
                {"role": "assistant", "content": []},
                {"role": "user", "content": [result]},
            ],
        }
        requests.append({"t": 3.0, "method": "POST", "path": "/v1/messages", "body": body})
    return observe(
        cli="claude",
        event=event,
        requests=requests,
        hook_calls=[{"t": 2.0, "input": {}}],
        proj=tmp_path,
        stdout="{}",
        stderr="",
        replacements={"/x/cmd": "$HOOK_COMMAND"},
        timed_out=timed_out,
    )


def test_observe_a_block_without_a_token_takes_the_tool_result(tmp_path: Path) -> None:
    seen = fake_run(tmp_path, ran=False, follow_up="PreToolUse:Bash hook error: [/x/cmd]: No")
    assert seen["proceeded"] is False and seen["session_stopped"] is False
    assert seen["reason_reached_model"] == "PreToolUse:Bash hook error: [$HOOK_COMMAND]: No"
    assert seen["model_requests_after_hook"] == 1


def test_observe_a_run_that_waits_has_not_stopped(tmp_path: Path) -> None:
    seen = fake_run(tmp_path, ran=False, follow_up=None, timed_out=True)
    assert seen["waiting"] is True and seen["session_stopped"] is None
    assert seen["proceeded"] is False
    stop = fake_run(tmp_path, ran=False, follow_up=None, event="Stop", timed_out=True)
    assert stop["waiting"] is True and stop["proceeded"] is None
    # a time limit reached after the model was asked again is no wait for a person
    late = fake_run(tmp_path, ran=False, follow_up="x", timed_out=True)
    assert late["waiting"] is False


def test_observe_a_permission_request_keeps_the_host_s_own_text_out(tmp_path: Path) -> None:
    # the host's auto-denial is its own text, not the hook's reason
    seen = fake_run(tmp_path, ran=False, follow_up="needs approval", event="PermissionRequest")
    assert seen["proceeded"] is False and seen["reason_reached_model"] is None


def test_a_waiting_run_must_be_predicted_as_asking(tmp_path: Path) -> None:
    record = {"event": "PreToolUse", "observed": fake_run(tmp_path, ran=False, follow_up=None)}
    record["observed"] |= {"waiting": True, "session_stopped": None}
    asking = {"proceed": False, "asks_user": True, "stop_session": False}
    assert disagreements(record, asking) == []
    assert disagreements(record, {**asking, "asks_user": False})
    both = disagreements(record, {**asking, "proceed": True})
    assert any("asks_user and proceed" in p for p in both)


def test_codex_declined_approval_frame_unwraps() -> None:
    framed = 'exec_command failed: CreateProcess { message: "Rejected(\\"R: no\\")" }'
    assert unwrap(framed) == "R: no"


def test_observe_a_stop_after_the_tool(tmp_path: Path) -> None:
    seen = fake_run(tmp_path, ran=True, follow_up=None)
    assert seen["proceeded"] is True and seen["session_stopped"] is True
    assert seen["reason_reached_model"] is None


@pytest.mark.parametrize(
    ("outcome", "problems"),
    [
        ({"proceed": False, "stop_session": False, "reason_for_model": "R: x"}, []),
        ({"proceed": True, "stop_session": False, "reason_for_model": "R: x"}, ["proceed"]),
        ({"proceed": False, "stop_session": True, "reason_for_model": "R: x"}, ["stop_session"]),
        ({"proceed": False, "stop_session": False, "reason_for_model": None}, ["reason_for_model"]),
    ],
)
def test_disagreements_name_the_differing_keys(
    outcome: dict[str, Any], problems: list[str]
) -> None:
    record = {
        "event": "PreToolUse",
        "observed": {
            "proceeded": False,
            "session_stopped": False,
            "reason_reached_model": "PreToolUse:Bash hook error: R: x",
            "context_reached_model": None,
            "tool_ran": False,
            "input_rewritten": False,
            "model_requests_after_hook": 1,
        },
    }
    found = [p.split(":")[0] for p in disagreements(record, outcome)]
    assert found == problems


def test_fake_model_second_tool_is_each_cli_s_file_write(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.e2e import fake_model as fm

    monkeypatch.setenv(fm.SECOND_TOOL_VARIABLE, "write")
    one_result = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}]
    system = "Primary working directory: /w/proj\nmore"
    message, _ = fm.anthropic_reply(
        {"tools": [{"name": "Bash"}, {"name": "Write"}], "system": system, "messages": one_result}
    )
    block = message["content"][0]
    assert (block["name"], block["input"]["file_path"]) == ("Write", "/w/proj/second.txt")
    two = one_result * 2
    final, _ = fm.anthropic_reply({"tools": [{"name": "Bash"}, {"name": "Write"}], "messages": two})
    assert final["content"][0]["text"] == FINAL_TEXT
    tools = [
        {"type": "function", "name": "exec_command"},
        {"type": "custom", "name": "apply_patch"},
    ]
    response, _ = fm.responses_reply({"tools": tools, "input": [{"type": "function_call_output"}]})
    item = response["output"][0]
    assert item["type"] == "custom_tool_call" and "*** Add File: second.txt" in item["input"]
    declarations = [
        {"functionDeclarations": [{"name": "run_shell_command"}, {"name": "write_file"}]}
    ]
    answered = [{"parts": [{"functionResponse": {"name": "run_shell_command"}}]}]
    reply = fm.gemini_reply({"tools": declarations, "contents": answered})
    assert reply["candidates"][0]["content"]["parts"][0]["functionCall"]["name"] == "write_file"
    monkeypatch.delenv(fm.SECOND_TOOL_VARIABLE)
    plain = fm.gemini_reply({"tools": declarations, "contents": answered})
    assert plain["candidates"][0]["content"]["parts"][0]["text"] == FINAL_TEXT


def test_fake_model_second_write_goes_where_the_test_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.e2e import fake_model as fm

    monkeypatch.setenv(fm.SECOND_TOOL_VARIABLE, "write")
    monkeypatch.setenv(fm.SECOND_PATH_VARIABLE, ".hookwise/policy.yaml")
    monkeypatch.setenv(fm.SECOND_CONTENT_VARIABLE, "version: 1\nrules: []\n")
    one_result = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}]
    system = "Primary working directory: /w/proj\nmore"
    tools = [{"name": "Bash"}, {"name": "Write"}]
    message, _ = fm.anthropic_reply({"tools": tools, "system": system, "messages": one_result})
    assert message["content"][0]["input"] == {
        "file_path": "/w/proj/.hookwise/policy.yaml",
        "content": "version: 1\nrules: []\n",
    }
    monkeypatch.setenv(fm.SECOND_PATH_VARIABLE, "/abs/file.txt")
    message, _ = fm.anthropic_reply({"tools": tools, "system": system, "messages": one_result})
    assert message["content"][0]["input"]["file_path"] == "/abs/file.txt"
    monkeypatch.setenv(fm.SECOND_PATH_VARIABLE, ".hookwise/policy.yaml")
    codex_tools = [
        {"type": "function", "name": "exec_command"},
        {"type": "custom", "name": "apply_patch"},
    ]
    body = {"tools": codex_tools, "input": [{"type": "function_call_output"}]}
    patch = fm.responses_reply(body)[0]["output"][0]["input"]
    assert patch == (
        "*** Begin Patch\n*** Add File: .hookwise/policy.yaml\n"
        "+version: 1\n+rules: []\n*** End Patch\n"
    )
    declarations = [
        {"functionDeclarations": [{"name": "run_shell_command"}, {"name": "write_file"}]}
    ]
    answered = [{"parts": [{"functionResponse": {"name": "run_shell_command"}}]}]
    reply = fm.gemini_reply({"tools": declarations, "contents": answered})
    assert reply["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] == {
        "file_path": ".hookwise/policy.yaml",
        "content": "version: 1\nrules: []\n",
    }
