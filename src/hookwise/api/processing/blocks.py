"""Message blocks (wave's MessageBlock union) and their OpenAI Chat Completions form.

Hook blocks become text the model can read: ``[Warning] …`` for a warn block and
``[Hook:<event>] …`` for a hook block, one content part each. A whole message becomes one
``ChatCompletionMessageParam``:

* role ``user``: ``content`` is a list of parts, one per block: images (an image block's
  URLs, a tool block's base64 images) as ``image_url`` parts, everything else as ``text``
  parts; a message with nothing to say has ``content: ""``.
* role ``assistant``: ``content`` is one string, the blocks' texts joined by ``"\\n"``
  (assistants cannot send images; a string is what every Chat Completions client accepts);
  a tool block carrying ``id`` and ``name`` becomes a ``tool_calls`` entry (its
  ``parameters`` are the arguments). Tool *results* belong in a ``tool`` message, which a
  single converted message cannot hold, so they are not repeated here. When there are
  tool calls and no text, ``content`` is left out.

Other blocks are rendered as text: ``[Error] …``, a unified-diff-like listing for a diff,
``$ command`` and its output, ``[Memory] …`` and so on. An unknown ``type`` is an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

BLOCK_TYPES: Final = (
    "text",
    "error",
    "tool",
    "image",
    "diff",
    "command_output",
    "compress",
    "memory",
    "custom_command",
    "subagent",
    "warn",
    "hook",
)
HOOK_BLOCK_TYPES: Final = ("warn", "hook")

Block = Mapping[str, Any]


class BlockError(ValueError):
    """A block the converters cannot handle (an unknown or misplaced ``type``)."""


def create_warn_block(content: str) -> dict[str, Any]:
    """WarnBlock: a notice for the user (a hook's systemMessage, a non-blocking error)."""
    return {"type": "warn", "content": content}


def create_hook_block(
    hook_event: str, content: str, metadata: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """HookBlock: what a hook decided, with its metadata (left out when there is none)."""
    block: dict[str, Any] = {"type": "hook", "hookEvent": hook_event, "content": content}
    if metadata is not None:
        block["metadata"] = dict(metadata)
    return block


def _s(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _diff(block: Block) -> str:
    lines = [f"[Diff] {_s(block.get('path'))}"]
    for part in block.get("diffResult") or ():
        if not isinstance(part, Mapping):
            continue
        mark = "+" if part.get("added") else "-" if part.get("removed") else " "
        lines.extend(mark + line for line in _s(part.get("value")).splitlines())
    return "\n".join(lines)


def _command_output(block: Block) -> str:
    text = f"$ {_s(block.get('command'))}\n{_s(block.get('output'))}".rstrip("\n")
    code = block.get("exitCode")
    if block.get("isRunning"):
        text += "\n(still running)"
    elif code is not None:
        text += f"\n(exit code {_s(code)})"
    return text


def _tool(block: Block) -> str:
    text = f"[Tool {_s(block.get('name')) or 'call'}] {_s(block.get('parameters'))}".rstrip()
    if block.get("result"):
        text += f"\nResult: {_s(block.get('result'))}"
    if block.get("error"):
        text += f"\nError: {_s(block.get('error'))}"
    return text


def _subagent(block: Block) -> str:
    name = _s(block.get("subagentName")) or _s(block.get("subagentId"))
    messages = block.get("messages")
    count = len(messages) if isinstance(messages, list) else 0
    return f"[Subagent {name} ({_s(block.get('status'))}), {count} messages]"


_RENDER: Final[dict[str, Callable[[Block], str]]] = {
    "text": lambda b: _s(b.get("content")),
    "custom_command": lambda b: _s(b.get("content")),
    "error": lambda b: f"[Error] {_s(b.get('content'))}",
    "compress": lambda b: f"[Compressed conversation] {_s(b.get('content'))}",
    "memory": lambda b: f"[Memory] {_s(b.get('content'))}",
    "warn": lambda b: f"[Warning] {_s(b.get('content'))}",
    "hook": lambda b: f"[Hook:{_s(b.get('hookEvent'))}] {_s(b.get('content'))}",
    "image": lambda b: "[Image] " + " ".join(_s(u) for u in b.get("imageUrls") or ()),
    "diff": _diff,
    "command_output": _command_output,
    "tool": _tool,
    "subagent": _subagent,
}


def _type(block: Block, allowed: Sequence[str]) -> str:
    kind = block.get("type")
    if kind not in allowed:
        raise BlockError(f"unknown block type {kind!r}; expected one of: {', '.join(allowed)}")
    return str(kind)


def block_text(block: Block) -> str:
    """A block as the text the model reads."""
    return _RENDER[_type(block, BLOCK_TYPES)](block)


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def convert_hook_blocks(blocks: Iterable[Block]) -> list[dict[str, Any]]:
    """Warn and hook blocks -> ChatCompletionContentPartText, one per block."""
    return [_text_part(_RENDER[_type(b, HOOK_BLOCK_TYPES)](b)) for b in blocks]


def _image_url(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def _user_parts(block: Block) -> list[dict[str, Any]]:
    kind = _type(block, BLOCK_TYPES)
    if kind == "image":
        return [_image_url(_s(u)) for u in block.get("imageUrls") or () if u]
    parts = []
    text = _RENDER[kind](block)
    if text:
        parts.append(_text_part(text))
    if kind == "tool":
        for image in block.get("images") or ():
            if isinstance(image, Mapping) and image.get("data"):
                media = _s(image.get("mediaType")) or "image/png"
                parts.append(_image_url(f"data:{media};base64,{_s(image['data'])}"))
    return parts


def _tool_call(block: Block) -> dict[str, Any] | None:
    call_id, name = block.get("id"), block.get("name")
    if not (isinstance(call_id, str) and call_id and isinstance(name, str) and name):
        return None
    arguments = block.get("parameters")
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": _s(arguments) or "{}"},
    }


def convert_message_for_api(role: str, blocks: Sequence[Block]) -> dict[str, Any]:
    """One message's blocks -> a Chat Completions message param (see the module doc)."""
    if role == "user":
        parts = [p for b in blocks for p in _user_parts(b)]
        return {"role": "user", "content": parts or ""}
    if role != "assistant":
        raise BlockError(f"unknown role {role!r}; expected 'user' or 'assistant'")
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for block in blocks:
        call = _tool_call(block) if _type(block, BLOCK_TYPES) == "tool" else None
        if call is not None:
            calls.append(call)
            continue
        text = _RENDER[str(block["type"])](block)
        if text:
            texts.append(text)
    message: dict[str, Any] = {"role": "assistant"}
    if texts or not calls:
        message["content"] = "\n".join(texts)
    if calls:
        message["tool_calls"] = calls
    return message
