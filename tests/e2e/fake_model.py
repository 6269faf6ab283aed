"""A scripted model server for the real agent CLIs (stdlib only, 127.0.0.1 only).

It speaks as much of three wire protocols as Claude Code, Codex and Gemini CLI need in
headless mode:

* Anthropic Messages (``POST /v1/messages``, streamed as server-sent events) - Claude Code;
* OpenAI Responses (``POST /v1/responses``, streamed) - Codex;
* Gemini ``generateContent`` / ``streamGenerateContent?alt=sse`` - Gemini CLI.

The script is one rule for every protocol: while the conversation holds no tool result, the
model asks the agent's shell tool to run ``SHELL_COMMAND``; once a result (or a hook's
refusal in its place) is anywhere in the conversation, it answers ``FINAL_TEXT``. So each
session calls the tool at most once, and a Stop hook that sends the agent back to work gets
a plain answer. With ``HOOKWISE_E2E_SECOND_TOOL=write`` a second call follows the first
result: the agent's file-writing tool (Claude Code ``Write``, Codex ``apply_patch``, Gemini
CLI ``write_file``) creates ``SECOND_FILE``; after two results the model answers
``FINAL_TEXT``. Requests that offer no shell tool (titles, Gemini's model router) get a
plain or schema-shaped answer.

Every request is kept (time, method, path, JSON body) so a test can read what reached the
model after a hook answered.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

SHELL_COMMAND = "echo hi > marker"
# A test can script another command for its session (the child process sets it).
COMMAND_VARIABLE = "HOOKWISE_E2E_SHELL_COMMAND"


def shell_command() -> str:
    return os.environ.get(COMMAND_VARIABLE) or SHELL_COMMAND


# A test can ask for a second tool call (a file write) after the shell call.
SECOND_TOOL_VARIABLE = "HOOKWISE_E2E_SECOND_TOOL"
SECOND_FILE = "second.txt"
SECOND_TEXT = "written by the second tool call\n"


def second_tool() -> bool:
    return os.environ.get(SECOND_TOOL_VARIABLE) == "write"


def _calls_wanted(results: int) -> str | None:
    """Which call the model makes after ``results`` tool results: shell, write or None."""
    if results == 0:
        return "shell"
    if results == 1 and second_tool():
        return "write"
    return None


FINAL_TEXT = "FAKE-MODEL-FINAL: done."
PLAIN_TEXT = "FAKE-MODEL-PLAIN"

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


# --------------------------------------------------------------------------- Anthropic
def anthropic_reply(body: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
    """The Messages API answer to ``body``: the full message and its SSE stream."""
    tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    results = sum(o.get("type") == "tool_result" for o in _walk(body.get("messages")))
    answered = results > 0
    wanted = _calls_wanted(results) if "Bash" in tools else None
    if wanted == "write" and "Write" not in tools:
        wanted = None
    if wanted is not None:
        block: dict[str, Any] = {"type": "tool_use", "id": _ident("toolu_")}
        if wanted == "shell":
            block |= {
                "name": "Bash",
                "input": {"command": shell_command(), "description": "Write the marker file"},
            }
        else:
            block |= {
                "name": "Write",
                "input": {"file_path": _second_path(body), "content": SECOND_TEXT},
            }
        stop = "tool_use"
    else:
        block = {"type": "text", "text": FINAL_TEXT if answered else PLAIN_TEXT}
        stop = "end_turn"
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
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    if block["type"] == "tool_use":
        opening = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        opening = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    events: list[Event] = [
        (
            "message_start",
            {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        ),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": opening},
        ),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
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


def _second_path(body: dict[str, Any]) -> str:
    """An absolute path for Claude Code's Write: the working directory its prompt names."""
    import re

    text = json.dumps(body.get("system") or "") + json.dumps(body.get("messages") or "")
    found = re.search(r"Primary working directory: ([^\\\n\"]+)", text)
    return f"{found.group(1).strip()}/{SECOND_FILE}" if found else SECOND_FILE


# --------------------------------------------------------------------------- OpenAI Responses
_SHELL_TOOLS = ("exec_command", "shell_command", "shell")
_OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


def responses_reply(body: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
    """The Responses API answer to ``body``: the response object and its SSE stream."""
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
        patch = f"*** Begin Patch\n*** Add File: {SECOND_FILE}\n+{SECOND_TEXT.rstrip()}\n*** End Patch\n"
        item: dict[str, Any] = {
            "type": "custom_tool_call",
            "id": _ident("ctc_"),
            "call_id": _ident("call_"),
            "name": "apply_patch",
            "input": patch,
            "status": "completed",
        }
    elif wanted == "shell" and shell:
        args: dict[str, Any] = (
            {"cmd": shell_command()}
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
        item = {
            "type": "message",
            "id": _ident("msg_"),
            "role": "assistant",
            "status": "completed",
            "content": [
                {
                    "type": "output_text",
                    "text": FINAL_TEXT if answered else PLAIN_TEXT,
                    "annotations": [],
                }
            ],
        }
    response = {
        "id": _ident("resp_"),
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": body.get("model", "fake"),
        "output": [item],
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
        ),
        (
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
        (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        ),
        ("response.completed", {"type": "response.completed", "response": response}),
    ]
    return response, events


# --------------------------------------------------------------------------- Gemini
def gemini_reply(body: dict[str, Any]) -> dict[str, Any]:
    """The generateContent answer to ``body`` (also one SSE chunk of the streamed form)."""
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
                "args": {"file_path": SECOND_FILE, "content": SECOND_TEXT},
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
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 6, "totalTokenCount": 18},
        "modelVersion": "fake",
    }


# --------------------------------------------------------------------------- routing
def route(path: str, body: Any) -> tuple[int, Any, list[Event] | None]:
    """(HTTP status, JSON answer, SSE events or None) for a POST to ``path``."""
    parts = urlsplit(path)
    where = parts.path
    if isinstance(body, dict):
        if where.endswith("/messages/count_tokens"):
            return 200, {"input_tokens": 12}, None
        if where.endswith("/messages"):
            message, events = anthropic_reply(body)
            return 200, message, events if body.get("stream") else None
        if where.endswith("/responses"):
            response, events = responses_reply(body)
            return 200, response, events if body.get("stream") else None
        if ":countTokens" in where:
            return 200, {"totalTokens": 12}, None
        if ":streamGenerateContent" in where:
            reply = gemini_reply(body)
            return 200, [reply], [(None, reply)] if "alt=sse" in parts.query else None
        if ":generateContent" in where:
            return 200, gemini_reply(body), None
    return 404, {"error": {"message": f"fake model: no route for POST {where}"}}, None


# --------------------------------------------------------------------------- server
class FakeModel:
    """The server; ``with FakeModel() as fake: ... fake.url ... fake.requests``."""

    def __init__(self) -> None:
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

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        record = self._record

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
                status, value, events = route(self.path, body)
                try:
                    if events is None:
                        self._send_json(value, status)
                    else:
                        self._send_events(events)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler
