"""The fake model's scripts and Chat Completions, read by the real OpenAI client."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import openai

from tests.e2e.fake_model import FINAL_TEXT, PLAIN_TEXT, FakeModel, Script, call, tool_results

TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "run_shell",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    }
]


def _client(fake: FakeModel) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{fake.url}/v1", api_key="dummy", max_retries=0)


def test_chat_completions_plays_the_script_then_the_final_text() -> None:
    script = Script([call("run_shell", command="ls"), [call("a", x=1), call("b")]], final="bye")
    with FakeModel(script) as fake:
        client = _client(fake)
        messages: list[Any] = [{"role": "user", "content": "go"}]
        first = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
        calls = first.choices[0].message.tool_calls or []
        assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [  # type: ignore[union-attr]
            ("run_shell", {"command": "ls"})
        ]
        messages += [
            first.choices[0].message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": calls[0].id, "content": "REASON-1"},
        ]
        second = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
        names = [c.function.name for c in second.choices[0].message.tool_calls or []]  # type: ignore[union-attr]
        assert names == ["a", "b"]
        assert second.choices[0].finish_reason == "tool_calls"
        messages += [
            second.choices[0].message.model_dump(exclude_none=True),
            *[
                {"role": "tool", "tool_call_id": c.id, "content": f"r-{c.id}"}
                for c in second.choices[0].message.tool_calls or []
            ],
        ]
        third = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
        assert third.choices[0].message.content == "bye"
        assert fake.tool_results()[0] == "REASON-1"
        assert len(fake.tool_results()) == 3
        # no tools offered (a title request): plain text
        plain = client.chat.completions.create(model="m", messages=messages)
        assert plain.choices[0].message.content == PLAIN_TEXT


def test_chat_completions_streamed() -> None:
    with FakeModel(Script([call("run_shell", command="echo hi")])) as fake:
        client = _client(fake)
        stream = client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "go"}],
            tools=TOOLS,
            stream=True,
            stream_options={"include_usage": True},
        )
        name, arguments, finish, usage = "", "", None, None
        for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage.total_tokens
            for choice in chunk.choices:
                for delta in choice.delta.tool_calls or []:
                    name += (delta.function.name or "") if delta.function else ""
                    arguments += (delta.function.arguments or "") if delta.function else ""
                finish = choice.finish_reason or finish
        assert (name, json.loads(arguments), finish, usage) == (
            "run_shell",
            {"command": "echo hi"},
            "tool_calls",
            18,
        )


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_every_protocol_plays_the_same_script() -> None:
    script = Script([call("my_tool", q="x")])
    with FakeModel(script) as fake:
        anthropic = _post(
            f"{fake.url}/v1/messages",
            {"tools": [{"name": "my_tool"}], "messages": [{"role": "user", "content": "go"}]},
        )
        assert anthropic["content"][0]["name"] == "my_tool"
        assert anthropic["content"][0]["input"] == {"q": "x"}
        responses = _post(
            f"{fake.url}/v1/responses",
            {"tools": [{"type": "function", "name": "my_tool"}], "input": "go"},
        )
        assert responses["output"][0]["name"] == "my_tool"
        gemini_body = {
            "tools": [{"functionDeclarations": [{"name": "my_tool"}]}],
            "contents": [{"role": "user", "parts": [{"text": "go"}]}],
        }
        gemini = _post(f"{fake.url}/v1beta/models/m:generateContent", gemini_body)
        part = gemini["candidates"][0]["content"]["parts"][0]
        assert part["functionCall"]["name"] == "my_tool"
        gemini_body["contents"].append(
            {"role": "user", "parts": [{"functionResponse": {"response": {"error": "no"}}}]}
        )
        after = _post(f"{fake.url}/v1beta/models/m:generateContent", gemini_body)
        assert after["candidates"][0]["content"]["parts"][0]["text"] == FINAL_TEXT
        assert tool_results(gemini_body) == ["no"]
        assert len(fake.model_requests()) == 4


def test_responses_plays_a_shell_call_and_reads_its_output() -> None:
    """``shell_call(...)``: the Responses API's own shell tool call (OpenAI Agents'
    ShellTool), read back by the real client; its ``shell_call_output`` counts as the
    step's tool result."""
    from tests.e2e.fake_model import shell_call

    with FakeModel(Script([shell_call("ls", "pwd")], final="bye")) as fake:
        client = _client(fake)
        tools: list[Any] = [{"type": "shell"}]
        first = client.responses.create(model="m", input="go", tools=tools)
        (item,) = first.output
        assert item.type == "shell_call"
        assert item.action.commands == ["ls", "pwd"]  # type: ignore[union-attr]
        answer = {
            "type": "shell_call_output",
            "call_id": item.call_id,  # type: ignore[union-attr]
            "output": [
                {"stdout": "SHELL-OUT", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
            ],
        }
        body = {"model": "m", "input": ["go", answer], "tools": tools}
        assert any("SHELL-OUT" in t for t in tool_results(body))
        second = client.responses.create(
            model="m",
            input=[{"role": "user", "content": "go"}, item.model_dump(exclude_none=True), answer],  # type: ignore[list-item]
            tools=tools,
        )
        assert second.output_text == "bye"
