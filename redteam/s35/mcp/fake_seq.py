"""A scripted fake Anthropic model for red team s35: the shared fake_llm.py's server, with
its answer replaced by a sequence of tool calls (RT_STEPS: a JSON list of [tool, input]);
step n is sent once n tool results are in the conversation, then a final text. Anthropic
(Claude Code) and Gemini (Gemini CLI; an MCP tool is found by its tool name and RT_SERVER).
Usage: RT_STEPS='[["mcp__srv__run_shell", {"command": "..."}], ...]' \
       python3 fake_seq.py --port 0 --port-file P --log L --cmd unused"""

import json
import os
import sys
import uuid

sys.path.insert(0, os.environ.get("E2E", "/work/shared/e2e"))
import fake_llm  # noqa: E402

STEPS = json.loads(os.environ["RT_STEPS"])


def anthropic(self, body):
    msgs = body.get("messages", [])
    tools = [t.get("name") for t in body.get("tools", []) or []]
    done = sum(1 for m in msgs for c in (m.get("content") or []) if isinstance(c, dict)
               and c.get("type") == "tool_result") if isinstance(msgs, list) else 0
    if done < len(STEPS) and STEPS[done][0] in tools:
        name, inp = STEPS[done]
        block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": name, "input": inp}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": fake_llm.FINAL_TEXT if done else "ok"}
        stop = "end_turn"
    msg = {"id": "msg_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant",
           "model": body.get("model", "fake"), "content": [block], "stop_reason": stop,
           "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5,
           "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
    if not body.get("stream"):
        return self._json(msg)
    self._sse_start()
    self._sse({"type": "message_start", "message": dict(msg, content=[], stop_reason=None)}, "message_start")
    if block["type"] == "tool_use":
        self._sse({"type": "content_block_start", "index": 0, "content_block": dict(block, input={})}, "content_block_start")
        self._sse({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                   "partial_json": json.dumps(block["input"])}}, "content_block_delta")
    else:
        self._sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}, "content_block_start")
        self._sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}}, "content_block_delta")
    self._sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
    self._sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
               "usage": {"output_tokens": 5}}, "message_delta")
    self._sse({"type": "message_stop"}, "message_stop")


def _pick(tools, want):
    """The offered function named ``want``, or an MCP one ending in it (Gemini names MCP
    tools by server and tool: the one holding RT_SERVER)."""
    if want in tools and "__" in want:
        return want
    srv = os.environ.get("RT_SERVER", "srv")
    for name in tools:
        if srv in name and (name.endswith("__" + want) or name.endswith("_" + want)):
            return name
    return want if want in tools else None


def gemini(self, body, stream, sse):
    contents = body.get("contents", [])
    tools = [fd.get("name") for t in body.get("tools", []) or []
             for fd in t.get("functionDeclarations", []) or []]
    done = sum(1 for c in contents for part in c.get("parts", []) or [] if "functionResponse" in part)
    gc = body.get("generationConfig", {}) or {}
    name = _pick(tools, STEPS[done][0]) if done < len(STEPS) else None
    if gc.get("responseMimeType") == "application/json" and not tools:
        part = {"text": "{}"}
    elif name:
        part = {"functionCall": {"name": name, "args": STEPS[done][1]}}
    else:
        part = {"text": fake_llm.FINAL_TEXT if done else "ok"}
    fake_llm.log({"rt_tools": tools[-12:], "rt_done": done, "rt_sent": part})
    resp = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
            "index": 0}], "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
            "totalTokenCount": 15}, "modelVersion": "fake"}
    if not stream:
        return self._json(resp)
    if sse:
        self._sse_start()
        self._sse(resp)
        return
    return self._json([resp])


def openai_responses(self, body):
    import time
    items = body.get("input", []) or []
    tools = []
    for t in body.get("tools", []) or []:
        tools.append(t.get("name") or (t.get("function") or {}).get("name"))
        for sub in t.get("tools", []) or []:  # a namespace of tools (Codex's MCP servers)
            tools.append(f"{t.get('name')}__{sub.get('name')}")
    done = sum(1 for i in items if isinstance(i, dict) and i.get("type") == "function_call_output")
    name = _pick([n for n in tools if n], STEPS[done][0]) if done < len(STEPS) else None
    fake_llm.log({"rt_tools": [n for n in tools if n and "srv" in n], "rt_done": done, "rt_sent": name})
    if name:
        item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:12],
                "call_id": "call_" + uuid.uuid4().hex[:12], "name": name,
                "arguments": json.dumps(STEPS[done][1]), "status": "completed"}
        if os.environ.get("RT_NAMESPACE") and name.count("__") >= 2:  # Codex: namespace + name
            space, _, short = name.rpartition("__")
            item.update(namespace=space, name=short)
    else:
        item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:12], "role": "assistant",
                "status": "completed", "content": [{"type": "output_text",
                "text": fake_llm.FINAL_TEXT if done else "ok", "annotations": []}]}
    resp = {"id": "resp_" + uuid.uuid4().hex[:16], "object": "response", "created_at": int(time.time()),
            "status": "completed", "model": body.get("model", "fake"), "output": [item],
            "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}}}
    if not body.get("stream"):
        return self._json(resp)
    self._sse_start()
    self._sse({"type": "response.created", "response": dict(resp, status="in_progress", output=[])}, "response.created")
    self._sse({"type": "response.output_item.added", "output_index": 0, "item": item}, "response.output_item.added")
    self._sse({"type": "response.output_item.done", "output_index": 0, "item": item}, "response.output_item.done")
    self._sse({"type": "response.completed", "response": resp}, "response.completed")


fake_llm.Handler.anthropic = anthropic
fake_llm.Handler.gemini = gemini
fake_llm.Handler.openai_responses = openai_responses
if __name__ == "__main__":
    fake_llm.main()
