"""A scripted model server for the real agent CLIs (stdlib only, 127.0.0.1 only).

It speaks as much of three wire protocols as Claude Code, Codex and Gemini CLI need in
headless mode:

* Anthropic Messages (``POST /v1/messages``, streamed as server-sent events) - Claude Code;
* OpenAI Responses (``POST /v1/responses``, streamed) - Codex;
* Gemini ``generateContent`` / ``streamGenerateContent?alt=sse`` - Gemini CLI;
* OpenAI Chat Completions (``POST /v1/chat/completions``, streamed or not) - the Python
  agent frameworks (issue 16).

Without a :class:`Script`, one rule holds for every protocol: while the conversation holds no tool result, the
model asks the agent's shell tool to run ``SHELL_COMMAND``; once a result (or a hook's
refusal in its place) is anywhere in the conversation, it answers ``FINAL_TEXT``. So each
session calls the tool at most once, and a Stop hook that sends the agent back to work gets
a plain answer. With ``HOOKWISE_E2E_SECOND_TOOL=write`` a second call follows the first
result: the agent's file-writing tool (Claude Code ``Write``, Codex ``apply_patch``, Gemini
CLI ``write_file``) creates ``SECOND_FILE`` (or ``HOOKWISE_E2E_SECOND_PATH``, holding
``HOOKWISE_E2E_SECOND_CONTENT`` when set); after two results the model answers
``FINAL_TEXT``. Requests that offer no shell tool (titles, Gemini's model router) get a
plain or schema-shaped answer.

With a :class:`Script` (``FakeModel(script=Script([call("run_shell", command="ls")]))``),
the model plays the script's steps in order, for any tool of any framework: the step is
chosen by the number of tool results in the conversation (a tool's output, or a gate's
refusal in its place), so a step with two calls is followed by the next step once both
results are back; after the last step it answers the script's final text. A request that
offers no tools gets ``PLAIN_TEXT``. Codex offers an MCP server's tools as members of a
Responses ``namespace`` tool and runs only a call that names both
(:func:`namespaced`; docs/mcp.md, "Codex").

Every request is kept (time, method, path, JSON body) so a test can read what reached the
model after a hook answered (:func:`tool_results` reads the tool results of a request in
any of the four protocols).
"""

from __future__ import annotations

import ast
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

SHELL_COMMAND = "echo hi > marker"
# A test can script another command for its session (the child process sets it).
COMMAND_VARIABLE = "HOOKWISE_E2E_SHELL_COMMAND"


def shell_command() -> str:
    return os.environ.get(COMMAND_VARIABLE) or SHELL_COMMAND


FINAL_TEXT = "FAKE-MODEL-FINAL: done."
PLAIN_TEXT = "FAKE-MODEL-PLAIN"

# A test can ask for a second tool call (a file write) after the shell call, and choose
# the file (relative to the project, or absolute) and its content.
SECOND_TOOL_VARIABLE = "HOOKWISE_E2E_SECOND_TOOL"
SECOND_PATH_VARIABLE = "HOOKWISE_E2E_SECOND_PATH"
SECOND_CONTENT_VARIABLE = "HOOKWISE_E2E_SECOND_CONTENT"
SECOND_FILE = "second.txt"
SECOND_TEXT = "written by the second tool call\n"


def second_tool() -> bool:
    return os.environ.get(SECOND_TOOL_VARIABLE) == "write"


def second_file() -> str:
    return os.environ.get(SECOND_PATH_VARIABLE) or SECOND_FILE


def second_text() -> str:
    return os.environ.get(SECOND_CONTENT_VARIABLE) or SECOND_TEXT


# A test can have the Codex shell call ask to leave the sandbox (``require_escalated``), so
# that Codex asks for approval and fires PermissionRequest.
ESCALATE_VARIABLE = "HOOKWISE_E2E_ESCALATE"


def escalate() -> bool:
    return os.environ.get(ESCALATE_VARIABLE) == "1"


def _calls_wanted(results: int) -> str | None:
    """Which call the model makes after ``results`` tool results: shell, write or None."""
    if results == 0:
        return "shell"
    if results == 1 and second_tool():
        return "write"
    return None


Event = tuple[str | None, Any]  # (SSE event name or None, JSON payload or raw string)


def _ident(prefix: str) -> str:
    return prefix + uuid.uuid4().hex[:20]


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object nested in ``value``, depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _schema_value(schema: Any) -> Any:
    """The smallest value that fits a Gemini/OpenAPI-style response schema."""
    if not isinstance(schema, dict):
        return "x"
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        return {k: _schema_value(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return "x"


# --------------------------------------------------------------------------- scripts
@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asks for: the tool's name and its JSON arguments."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""  # generated per reply when empty
    # "function", or "shell": the Responses API's own shell tool (a ``shell_call`` item
    # whose action is ``args["commands"]``; Chat Completions has no such tool)
    kind: str = "function"
    # a member of a Responses ``namespace`` tool (Codex offers an MCP server's tools as the
    # namespace ``mcp__<server>``): the ``function_call`` names it in ``namespace``, the
    # member in ``name``. The other protocols have no namespaces and send ``name`` alone.
    namespace: str = ""

    def call_id(self, prefix: str) -> str:
        return self.id or _ident(prefix)


def call(name: str, args: Mapping[str, Any] | None = None, **kwargs: Any) -> ToolCall:
    """``call("run_shell", command="ls")`` or ``call("t", {"class": 1})``."""
    return ToolCall(name, {**(args or {}), **kwargs})


def namespaced(namespace: str, name: str, args: Mapping[str, Any]) -> ToolCall:
    """A call of ``name`` in the Responses namespace ``namespace`` (Codex's MCP tools)."""
    return ToolCall(name, dict(args), namespace=namespace)


def shell_call(*commands: str) -> ToolCall:
    """A Responses ``shell_call`` of the hosted-style shell tool (OpenAI Agents' ShellTool)."""
    return ToolCall("shell", {"commands": list(commands)}, kind="shell")


@dataclass(frozen=True)
class Step:
    """One model turn: tool calls (made together), or a text answer when there are none."""

    calls: tuple[ToolCall, ...] = ()
    text: str = ""
    # the text is an action whose result comes back (a smolagents CodeAgent's code), so the
    # run goes on after it, as after tool calls
    acts: bool = False


def code(source: str, thought: str = "I will run this.") -> Step:
    """A smolagents ``CodeAgent`` turn: a thought and a ``<code>`` block the agent runs
    (its tools are functions in that code; a request offers no tools)."""
    return Step((), f"Thought: {thought}\n<code>\n{source}\n</code>", acts=True)


class Script:
    """The model's turns, for any framework: each item is a :class:`ToolCall` (a step of
    one call), a list of them (parallel calls in one step), a string (a text answer that
    ends the run) or a :class:`Step`; ``final`` answers once the steps are used up."""

    def __init__(
        self,
        steps: Sequence[ToolCall | Step | str | Sequence[ToolCall]] = (),
        final: str = FINAL_TEXT,
        subagent: Script | None = None,
    ) -> None:
        # what a subagent's own requests play (Claude Code marks them SUBAGENT_MARK): its
        # conversation starts empty, so the parent's first step would start it again
        self.subagent = subagent
        self.steps: list[Step] = []
        for item in steps:
            if isinstance(item, Step):
                self.steps.append(item)
            elif isinstance(item, ToolCall):
                self.steps.append(Step((item,)))
            elif isinstance(item, str):
                self.steps.append(Step((), item))
            else:
                self.steps.append(Step(tuple(item)))
        self.final = final

    def step(self, results: int) -> Step:
        """The step after ``results`` tool results (the calls of earlier steps answered)."""
        done = 0
        for step in self.steps:
            if not step.calls and not step.acts:
                if done >= results:
                    return step
                continue
            done += len(step.calls) or 1
            if done > results:
                return step
        return Step((), self.final)

    @property
    def plays_code(self) -> bool:
        """The script plays a code agent: it answers requests that offer no tools."""
        return any(step.acts for step in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "steps": [
                {
                    "calls": [
                        {"name": c.name, "args": dict(c.args), "namespace": c.namespace}
                        for c in s.calls
                    ],
                    "text": s.text,
                    "acts": s.acts,
                }
                for s in self.steps
            ],
            "final": self.final,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Script:
        steps = [
            Step(
                tuple(
                    ToolCall(c["name"], c.get("args") or {}, namespace=c.get("namespace") or "")
                    for c in s.get("calls") or []
                ),
                s.get("text") or "",
                bool(s.get("acts")),
            )
            for s in data.get("steps") or []
        ]
        return cls(steps, data.get("final") or FINAL_TEXT)


def _text_of(value: Any) -> str:
    """The text of a tool result's content (a string, or a list of text parts)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(v) for v in value)
    if isinstance(value, dict):
        for key in ("text", "output", "content", "result", "error"):
            if key in value:
                return _text_of(value[key])
        return json.dumps(value)
    return "" if value is None else json.dumps(value)


# smolagents replays its tool calls as text, not as the protocol's tool messages: an
# assistant "Calling tools:\n[{...}, ...]" (a CodeAgent's code is one call), answered by a
# user "Observation:\n..." or "Call id: ...\nError:\n..."
_SMOL_CALLS = "Calling tools:\n"


def _smolagents_results(messages: list[Any]) -> list[str]:
    out: list[str] = []
    pending = 0
    for message in messages:
        if not isinstance(message, dict):
            continue
        text = _text_of(message.get("content"))
        if message.get("role") == "assistant" and _SMOL_CALLS in text:
            listed = text.split(_SMOL_CALLS, 1)[1]
            try:
                calls = ast.literal_eval(listed.strip())
            except (ValueError, SyntaxError):
                calls = [listed]
            pending = len(calls) if isinstance(calls, list) and calls else 1
        elif (
            pending
            and message.get("role") == "user"
            and text.startswith(("Observation:", "Call id:"))
        ):
            out.extend([text] * pending)
            pending = 0
    return out


def tool_results(body: Any) -> list[str]:
    """The tool results in a model request of any protocol, in order, as text."""
    if not isinstance(body, dict):
        return []
    out: list[str] = _smolagents_results(body.get("messages") or [])
    for message in body.get("messages") or []:  # Chat Completions and Anthropic
        if not isinstance(message, dict):
            continue
        if message.get("role") in ("tool", "function"):
            out.append(_text_of(message.get("content")))
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out.append(_text_of(block.get("content")))
    for item in body.get("input") or [] if isinstance(body.get("input"), list) else []:
        if isinstance(item, dict) and item.get("type") in _OUTPUT_ITEMS:
            out.append(_text_of(item.get("output")))
    for node in _walk(body.get("contents")):  # Gemini
        response = node.get("functionResponse")
        if isinstance(response, dict):
            out.append(_text_of(response.get("response")))
    return out


def _offered(body: dict[str, Any]) -> set[str]:
    """The names of the tools a request offers (every protocol's shape)."""
    names: set[str] = set()
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "shell":  # the Responses API's shell tool has no name
            names.add("shell")
        for name in (tool.get("name"), (tool.get("function") or {}).get("name")):
            if isinstance(name, str):
                names.add(name)
        for fd in tool.get("functionDeclarations") or tool.get("function_declarations") or []:
            if isinstance(fd, dict) and isinstance(fd.get("name"), str):
                names.add(fd["name"])
    return names


# Claude Code's billing header in the system prompt of a subagent's requests (2.1.330)
SUBAGENT_MARK = "cc_is_subagent=true"


def is_subagent(body: dict[str, Any]) -> bool:
    """The request is a Claude Code subagent's (its system prompt says so)."""
    return SUBAGENT_MARK in json.dumps(body.get("system") or "")


def scripted_step(script: Script, body: dict[str, Any]) -> Step:
    """The script's step for a request: by its tool results; plain text without tools
    (unless the script plays a code agent, whose requests offer none); a subagent's
    request plays the script's ``subagent`` one when it has one."""
    if script.subagent is not None and is_subagent(body):
        script = script.subagent
    if not _offered(body) and not script.plays_code:
        return Step((), PLAIN_TEXT)
    return script.step(len(tool_results(body)))


# --------------------------------------------------------------------------- Anthropic
def _second_path(body: dict[str, Any]) -> str:
    """An absolute path for Claude Code's Write: the working directory its prompt names."""
    import re

    text = json.dumps(body.get("system") or "") + json.dumps(body.get("messages") or "")
    name = second_file()
    if name.startswith("/"):
        return name
    found = re.search(r"Primary working directory: ([^\\\n\"]+)", text)
    return f"{found.group(1).strip()}/{name}" if found else name


# Claude Code's prompt and agent hooks ask the model too; their system prompt says so.
# With HOOKWISE_E2E_HOOK_VERDICT set (a JSON object such as {"ok": false, "reason": "..."}),
# such a request is answered with it: as text (a prompt hook), or as a call of the
# StructuredOutput tool when that tool is offered (an agent hook).
HOOK_VERDICT_VARIABLE = "HOOKWISE_E2E_HOOK_VERDICT"
HOOK_EVALUATOR_MARK = "You are evaluating a"


def hook_verdict_blocks(body: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The answer to a hook's own model request, or None when ``body`` is not one (or no
    verdict is set)."""
    verdict = os.environ.get(HOOK_VERDICT_VARIABLE)
    if not verdict or HOOK_EVALUATOR_MARK not in json.dumps(body.get("system") or ""):
        return None
    tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    if "StructuredOutput" in tools:
        return [
            {
                "type": "tool_use",
                "id": _ident("toolu_"),
                "name": "StructuredOutput",
                "input": json.loads(verdict),
            }
        ]
    return [{"type": "text", "text": verdict}]


def anthropic_reply(
    body: dict[str, Any], script: Script | None = None
) -> tuple[dict[str, Any], list[Event]]:
    """The Messages API answer to ``body``: the full message and its SSE stream."""
    blocks: list[dict[str, Any]]
    judged = hook_verdict_blocks(body)
    if judged is not None:
        blocks = judged
    elif script is not None:
        step = scripted_step(script, body)
        blocks = [
            {"type": "tool_use", "id": c.call_id("toolu_"), "name": c.name, "input": dict(c.args)}
            for c in step.calls
        ] or [{"type": "text", "text": step.text}]
    else:
        tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        results = sum(o.get("type") == "tool_result" for o in _walk(body.get("messages")))
        answered = results > 0
        wanted = _calls_wanted(results) if "Bash" in tools else None
        if wanted == "write" and "Write" not in tools:
            wanted = None
        if wanted == "shell":
            blocks = [
                {
                    "type": "tool_use",
                    "id": _ident("toolu_"),
                    "name": "Bash",
                    "input": {"command": shell_command(), "description": "Write the marker file"},
                }
            ]
        elif wanted == "write":
            blocks = [
                {
                    "type": "tool_use",
                    "id": _ident("toolu_"),
                    "name": "Write",
                    "input": {"file_path": _second_path(body), "content": second_text()},
                }
            ]
        else:
            blocks = [{"type": "text", "text": FINAL_TEXT if answered else PLAIN_TEXT}]
    stop = "tool_use" if blocks[0]["type"] == "tool_use" else "end_turn"
    usage = {
        "input_tokens": 12,
        "output_tokens": 6,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }
    message = {
        "id": _ident("msg_"),
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake"),
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    events: list[Event] = [
        (
            "message_start",
            {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        )
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 6},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return message, events


# --------------------------------------------------------------------------- OpenAI Responses
_SHELL_TOOLS = ("exec_command", "shell_command", "shell")
_OUTPUT_ITEMS = (
    "function_call_output",
    "custom_tool_call_output",
    "local_shell_call_output",
    "shell_call_output",
)


def _responses_message(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": _ident("msg_"),
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def _responses_items(body: dict[str, Any], script: Script | None) -> list[dict[str, Any]]:
    if script is None:
        return [_responses_default(body)]
    step = scripted_step(script, body)
    items = [
        {
            "type": "shell_call",
            "id": _ident("sh_"),
            "call_id": c.call_id("call_"),
            "action": {"commands": list(c.args.get("commands") or [])},
            "status": "completed",
        }
        if c.kind == "shell"
        else {
            "type": "function_call",
            "id": _ident("fc_"),
            "call_id": c.call_id("call_"),
            **({"namespace": c.namespace} if c.namespace else {}),
            "name": c.name,
            "arguments": json.dumps(dict(c.args)),
            "status": "completed",
        }
        for c in step.calls
    ]
    return items or [_responses_message(step.text)]


def responses_reply(
    body: dict[str, Any], script: Script | None = None
) -> tuple[dict[str, Any], list[Event]]:
    """The Responses API answer to ``body``: the response object and its SSE stream."""
    items = _responses_items(body, script)
    response = {
        "id": _ident("resp_"),
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": body.get("model", "fake"),
        "output": items,
        "usage": {
            "input_tokens": 12,
            "output_tokens": 6,
            "total_tokens": 18,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    events: list[Event] = [
        (
            "response.created",
            {
                "type": "response.created",
                "response": {**response, "status": "in_progress", "output": []},
            },
        )
    ]
    for index, item in enumerate(items):
        events += [
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": index, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": index, "item": item},
            ),
        ]
    events.append(("response.completed", {"type": "response.completed", "response": response}))
    return response, events


def _responses_default(body: dict[str, Any]) -> dict[str, Any]:
    """The unscripted rule's item: the shell tool once, then the final text."""
    names = set()
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            names.add(tool.get("name") or (tool.get("function") or {}).get("name"))
    items = [i for i in body.get("input") or [] if isinstance(i, dict)]
    results = sum(i.get("type") in _OUTPUT_ITEMS for i in items)
    answered = results > 0
    shell = next((n for n in _SHELL_TOOLS if n in names), None)
    wanted = _calls_wanted(results) if shell else None
    if wanted == "write" and "apply_patch" in names:
        added = "".join(f"+{line}\n" for line in second_text().rstrip("\n").split("\n"))
        patch = f"*** Begin Patch\n*** Add File: {second_file()}\n{added}*** End Patch\n"
        item: dict[str, Any] = {
            "type": "custom_tool_call",
            "id": _ident("ctc_"),
            "call_id": _ident("call_"),
            "name": "apply_patch",
            "input": patch,
            "status": "completed",
        }
    elif wanted == "shell" and shell:
        escalation = (
            {"sandbox_permissions": "require_escalated", "justification": "write the marker"}
            if escalate()
            else {}
        )
        args: dict[str, Any] = (
            {"cmd": shell_command(), **escalation}
            if shell == "exec_command"
            else {"command": shell_command()}
            if shell == "shell_command"
            else {"command": ["bash", "-lc", shell_command()]}
        )
        item = {
            "type": "function_call",
            "id": _ident("fc_"),
            "call_id": _ident("call_"),
            "name": shell,
            "arguments": json.dumps(args),
            "status": "completed",
        }
    else:
        item = _responses_message(FINAL_TEXT if answered else PLAIN_TEXT)
    return item


# --------------------------------------------------------------------------- Gemini
def gemini_reply(body: dict[str, Any], script: Script | None = None) -> dict[str, Any]:
    """The generateContent answer to ``body`` (also one SSE chunk of the streamed form)."""
    if script is not None:
        step = scripted_step(script, body)
        parts: list[dict[str, Any]] = [
            {"functionCall": {"id": c.call_id("fc-"), "name": c.name, "args": dict(c.args)}}
            for c in step.calls
        ] or [{"text": step.text}]
        return _gemini_answer(parts)
    names = {
        fd.get("name")
        for tool in body.get("tools") or []
        if isinstance(tool, dict)
        for fd in tool.get("functionDeclarations") or []
        if isinstance(fd, dict)
    }
    results = sum("functionResponse" in o for o in _walk(body.get("contents")))
    answered = results > 0
    wanted = _calls_wanted(results) if "run_shell_command" in names else None
    config = body.get("generationConfig") or {}
    part: dict[str, Any]
    if not names and config.get("responseMimeType") == "application/json":
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        part = {"text": json.dumps(_schema_value(schema) if schema else {})}
    elif wanted == "write" and "write_file" in names:
        part = {
            "functionCall": {
                "name": "write_file",
                "args": {"file_path": second_file(), "content": second_text()},
            }
        }
    elif wanted == "shell":
        part = {
            "functionCall": {
                "name": "run_shell_command",
                "args": {"command": shell_command(), "description": "Write the marker file"},
            }
        }
    else:
        part = {"text": FINAL_TEXT if answered else PLAIN_TEXT}
    return _gemini_answer([part])


def _gemini_answer(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 6, "totalTokenCount": 18},
        "modelVersion": "fake",
    }


# --------------------------------------------------------------------------- Chat Completions
# The shell and file-writing tools of the CLIs that speak Chat Completions, with the
# arguments each one's schema asks for: GitHub Copilot CLI 1.0.102, Qwen Code 0.24.4.
_CHAT_SHELL_TOOLS: dict[str, dict[str, Any]] = {
    "bash": {"description": "Write the marker file"},
    "run_shell_command": {"description": "Write the marker file", "is_background": False},
}
_CHAT_WRITE_TOOLS = {"create": ("path", "file_text"), "write_file": ("file_path", "content")}


def _chat_default(body: dict[str, Any]) -> Step:
    """The unscripted rule in Chat Completions; a request without the shell tool (a title,
    a background agent, a framework's) gets the final text, as before these CLIs."""
    names = _offered(body)
    shell = next((n for n in _CHAT_SHELL_TOOLS if n in names), None)
    results = len(tool_results(body))
    wanted = _calls_wanted(results) if shell else None
    if wanted == "shell" and shell:
        return Step((call(shell, {"command": shell_command(), **_CHAT_SHELL_TOOLS[shell]}),))
    writer = next((n for n in _CHAT_WRITE_TOOLS if n in names), None)
    if wanted == "write" and writer:
        path_key, text_key = _CHAT_WRITE_TOOLS[writer]
        return Step((call(writer, {path_key: _chat_path(body), text_key: second_text()}),))
    return Step((), FINAL_TEXT)


def _chat_path(body: dict[str, Any]) -> str:
    """An absolute path for the file tool (both CLIs ask for one): under the working
    directory the system prompt names, when the test gave a relative one."""
    import re

    name = second_file()
    if name.startswith("/"):
        return name
    text = json.dumps(body.get("messages") or "")
    found = re.search(r"(?:[Cc]urrent working directory|cwd)[^/]*(/[^\\\n\"' ]+)", text)
    return f"{found.group(1).rstrip('.')}/{name}" if found else name


def chat_reply(
    body: dict[str, Any], script: Script | None = None
) -> tuple[dict[str, Any], list[Event]]:
    """The Chat Completions answer to ``body``: the completion and its SSE chunks.

    Without a script the unscripted rule holds for the CLIs that speak this protocol
    (GitHub Copilot CLI's ``bash``, Qwen Code's ``run_shell_command``): the shell tool once,
    the file tool after it when asked, then the final text.
    """
    step = scripted_step(script, body) if script is not None else _chat_default(body)
    ident = _ident("chatcmpl-")
    created = int(time.time())
    model = body.get("model", "fake")
    calls = [
        {
            "id": c.call_id("call_"),
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(dict(c.args))},
        }
        for c in step.calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else step.text}
    if calls:
        message["tool_calls"] = calls
    finish = "tool_calls" if calls else "stop"
    usage = {"prompt_tokens": 12, "completion_tokens": 6, "total_tokens": 18}
    completion = {
        "id": ident,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": usage,
    }

    def chunk(delta: dict[str, Any], reason: str | None = None) -> Event:
        choice = {"index": 0, "delta": delta, "finish_reason": reason, "logprobs": None}
        return (
            None,
            {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [choice],
            },
        )

    events: list[Event] = [chunk({"role": "assistant", "content": ""})]
    for index, item in enumerate(calls):
        opening = {**item, "function": {"name": item["function"]["name"], "arguments": ""}}
        events.append(chunk({"tool_calls": [{"index": index, **opening}]}))
        arguments = item["function"]["arguments"]
        events.append(
            chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]})
        )
    if not calls:
        events.append(chunk({"content": step.text}))
    events.append(chunk({}, finish))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append(
            (
                None,
                {
                    "id": ident,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [],
                    "usage": usage,
                },
            )
        )
    events.append((None, "[DONE]"))
    return completion, events


# With HOOKWISE_E2E_API_ERROR=<status> every Messages request that already holds a tool
# result fails with that HTTP status (an Anthropic error body naming API_ERROR_TEXT): the
# turn ends in an API error after the tool ran (Claude Code's StopFailure).
API_ERROR_VARIABLE = "HOOKWISE_E2E_API_ERROR"
API_ERROR_TEXT = "FAKE-API-ERROR"


def api_error(body: dict[str, Any]) -> tuple[int, Any, None] | None:
    status = os.environ.get(API_ERROR_VARIABLE)
    if not status or not any(o.get("type") == "tool_result" for o in _walk(body.get("messages"))):
        return None
    kind = "invalid_request_error" if status.startswith("4") else "api_error"
    return int(status), {"type": "error", "error": {"type": kind, "message": API_ERROR_TEXT}}, None


# --------------------------------------------------------------------------- routing
def route(
    path: str, body: Any, script: Script | None = None
) -> tuple[int, Any, list[Event] | None]:
    """(HTTP status, JSON answer, SSE events or None) for a POST to ``path``."""
    parts = urlsplit(path)
    where = parts.path
    if isinstance(body, dict):
        if where.endswith("/messages/count_tokens"):
            return 200, {"input_tokens": 12}, None
        failing = api_error(body)
        if where.endswith("/messages") and failing is not None:
            return failing
        if where.endswith("/messages"):
            message, events = anthropic_reply(body, script)
            return 200, message, events if body.get("stream") else None
        if where.endswith("/chat/completions"):
            completion, events = chat_reply(body, script)
            return 200, completion, events if body.get("stream") else None
        if where.endswith("/responses"):
            response, events = responses_reply(body, script)
            return 200, response, events if body.get("stream") else None
        if ":countTokens" in where:
            return 200, {"totalTokens": 12}, None
        if ":streamGenerateContent" in where:
            reply = gemini_reply(body, script)
            return 200, [reply], [(None, reply)] if "alt=sse" in parts.query else None
        if ":generateContent" in where:
            return 200, gemini_reply(body, script), None
    return 404, {"error": {"message": f"fake model: no route for POST {where}"}}, None


# --------------------------------------------------------------------------- server
MODEL_ROUTES = ("/messages", "/chat/completions", "/responses", "generateContent")


class FakeModel:
    """The server; ``with FakeModel() as fake: ... fake.url ... fake.requests``.

    ``script`` (settable later: ``fake.script = Script(...)``) makes it play that script
    for every protocol; None keeps the CLIs' one-shell-call rule.
    """

    def __init__(self, script: Script | None = None) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append({"t": time.time(), "method": method, "path": path, "body": body})

    def model_requests(self) -> list[dict[str, Any]]:
        """The bodies of the model calls (Messages, Chat Completions, Responses, Gemini),
        in order; token counts and side requests without tools are left out."""
        with self._lock:
            kept = list(self.requests)
        return [
            r["body"]
            for r in kept
            if r["method"] == "POST"
            and isinstance(r["body"], dict)
            and any(route in urlsplit(r["path"]).path for route in MODEL_ROUTES)
            and not urlsplit(r["path"]).path.endswith("count_tokens")
            and (_offered(r["body"]) or (self.script is not None and self.script.plays_code))
        ]

    def tool_results(self) -> list[str]:
        """Every tool result the model was sent, in order (each once)."""
        seen: list[str] = []
        for body in self.model_requests():
            results = tool_results(body)
            seen.extend(results[len(seen) :] if results[: len(seen)] == seen else results)
        return seen

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        record = self._record
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send_json(self, value: Any, status: int = 200) -> None:
                data = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _send_events(self, events: list[Event]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True
                for name, data in events:
                    text = data if isinstance(data, str) else json.dumps(data)
                    chunk = (f"event: {name}\n" if name else "") + f"data: {text}\n\n"
                    self.wfile.write(chunk.encode())
                    self.wfile.flush()

            def _read_body(self) -> Any:
                size = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(size) if size else b""
                if self.headers.get("content-encoding") == "gzip":
                    import gzip

                    raw = gzip.decompress(raw)
                try:
                    return json.loads(raw or b"{}")
                except ValueError:
                    return {"_unparsed": raw.decode("utf-8", "replace")}

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                record("GET", self.path, None)
                if "/models" in urlsplit(self.path).path:
                    self._send_json({"object": "list", "data": [], "models": []})
                else:
                    self._send_json({})

            def do_POST(self) -> None:
                body = self._read_body()
                record("POST", self.path, body)
                status, value, events = route(self.path, body, server.script)
                try:
                    if events is None:
                        self._send_json(value, status)
                    else:
                        self._send_events(events)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler
