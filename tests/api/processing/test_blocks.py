"""Block factories and the Chat Completions conversions, with their request/response models."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from hookwise.api.processing.blocks import (
    BLOCK_TYPES,
    BlockError,
    block_text,
    convert_hook_blocks,
    convert_message_for_api,
    create_hook_block,
    create_warn_block,
)
from hookwise.api.schemas import (
    BlockResponse,
    ConvertHookBlocksRequest,
    ConvertHookBlocksResponse,
    ConvertMessageRequest,
    ConvertMessageResponse,
    CreateHookBlockRequest,
    CreateWarnBlockRequest,
)

SAMPLES: dict[str, dict[str, Any]] = {
    "text": {"type": "text", "content": "hello"},
    "error": {"type": "error", "content": "boom"},
    "tool": {
        "type": "tool",
        "id": "call_1",
        "name": "Bash",
        "parameters": '{"command": "ls"}',
        "result": "a b",
    },
    "image": {"type": "image", "imageUrls": ["https://x/y.png"]},
    "diff": {
        "type": "diff",
        "path": "a.py",
        "diffResult": [
            {"value": "same\n"},
            {"value": "old\n", "removed": True},
            {"value": "new\n", "added": True},
        ],
    },
    "command_output": {
        "type": "command_output",
        "command": "make",
        "output": "ok\n",
        "isRunning": False,
        "exitCode": 0,
    },
    "compress": {"type": "compress", "content": "summary"},
    "memory": {"type": "memory", "content": "likes tabs", "isSuccess": True},
    "custom_command": {"type": "custom_command", "commandName": "fix", "content": "Fix issue 1"},
    "subagent": {
        "type": "subagent",
        "subagentId": "s1",
        "subagentName": "reviewer",
        "status": "completed",
        "messages": [{"role": "assistant", "blocks": [{"type": "text", "content": "done"}]}],
    },
    "warn": {"type": "warn", "content": "careful"},
    "hook": {"type": "hook", "hookEvent": "PreToolUse", "content": "Permission: deny - no"},
}
TEXTS = {
    "text": "hello",
    "error": "[Error] boom",
    "tool": '[Tool Bash] {"command": "ls"}\nResult: a b',
    "image": "[Image] https://x/y.png",
    "diff": "[Diff] a.py\n same\n-old\n+new",
    "command_output": "$ make\nok\n(exit code 0)",
    "compress": "[Compressed conversation] summary",
    "memory": "[Memory] likes tabs",
    "custom_command": "Fix issue 1",
    "subagent": "[Subagent reviewer (completed), 1 messages]",
    "warn": "[Warning] careful",
    "hook": "[Hook:PreToolUse] Permission: deny - no",
}


def api_message(role: str, blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """Through the request model, the converter and the response model, as the route does."""
    request = ConvertMessageRequest.model_validate({"message": {"role": role, "blocks": blocks}})
    dumped = [b.model_dump(exclude_none=True) for b in request.message.blocks]
    message = convert_message_for_api(request.message.role, dumped)
    response = ConvertMessageResponse.model_validate({"apiMessage": message})
    assert response.model_dump(mode="json")["apiMessage"] == message
    return message


def test_samples_cover_every_block_type() -> None:
    assert set(SAMPLES) == set(BLOCK_TYPES) == set(TEXTS)


def test_factories() -> None:
    assert create_warn_block("x") == {"type": "warn", "content": "x"}
    assert create_hook_block("Stop", "Blocked stop: y") == {
        "type": "hook",
        "hookEvent": "Stop",
        "content": "Blocked stop: y",
    }
    block = create_hook_block("Stop", "c", {"exitCode": 2})
    assert block["metadata"] == {"exitCode": 2}
    assert BlockResponse.model_validate({"block": block}).model_dump(mode="json") == {
        "block": block
    }
    plain = BlockResponse.model_validate({"block": create_hook_block("Stop", "c")})
    assert "metadata" not in plain.model_dump(mode="json")["block"]


def test_block_request_models() -> None:
    assert CreateWarnBlockRequest.model_validate({"content": "x", "hookEvent": "Stop"})
    assert CreateHookBlockRequest.model_validate({"hookEvent": "BeforeTool", "content": "x"})
    for bad in ({"content": 1}, {"content": "x", "hookEvent": "Nope"}, {"content": "x", "y": 1}):
        with pytest.raises(ValidationError):
            CreateWarnBlockRequest.model_validate(bad)
    with pytest.raises(ValidationError):
        CreateHookBlockRequest.model_validate({"content": "x"})


@pytest.mark.parametrize("kind", BLOCK_TYPES)
def test_every_block_renders_as_text(kind: str) -> None:
    assert block_text(SAMPLES[kind]) == TEXTS[kind]


def test_convert_hook_blocks() -> None:
    parts = convert_hook_blocks([SAMPLES["warn"], SAMPLES["hook"]])
    assert parts == [
        {"type": "text", "text": "[Warning] careful"},
        {"type": "text", "text": "[Hook:PreToolUse] Permission: deny - no"},
    ]
    request = ConvertHookBlocksRequest.model_validate(
        {"blocks": [SAMPLES["warn"], SAMPLES["hook"]]}
    )
    assert ConvertHookBlocksResponse.model_validate({"contentParts": parts})
    assert len(request.blocks) == 2
    with pytest.raises(BlockError, match="expected one of: warn, hook"):
        convert_hook_blocks([SAMPLES["text"]])
    with pytest.raises(ValidationError):
        ConvertHookBlocksRequest.model_validate({"blocks": [SAMPLES["text"]]})


def test_user_message_is_a_list_of_parts() -> None:
    message = api_message("user", [SAMPLES["text"], SAMPLES["image"], SAMPLES["warn"]])
    assert message == {
        "role": "user",
        "content": [
            {"type": "text", "text": "hello"},
            {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
            {"type": "text", "text": "[Warning] careful"},
        ],
    }


def test_user_tool_images_become_data_urls() -> None:
    tool = {
        **SAMPLES["tool"],
        "images": [{"data": "AAAA", "mediaType": "image/jpeg"}, {"data": "BB"}],
    }
    parts = api_message("user", [tool])["content"]
    assert parts[1:] == [
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAAA"}},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,BB"}},
    ]


def test_empty_user_message() -> None:
    assert api_message("user", []) == {"role": "user", "content": ""}
    assert api_message("user", [{"type": "text", "content": ""}]) == {"role": "user", "content": ""}


def test_assistant_message_is_one_string_and_tool_calls() -> None:
    message = api_message("assistant", [SAMPLES["text"], SAMPLES["tool"], SAMPLES["hook"]])
    assert message == {
        "role": "assistant",
        "content": "hello\n[Hook:PreToolUse] Permission: deny - no",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "Bash", "arguments": '{"command": "ls"}'},
            }
        ],
    }


def test_assistant_tool_calls_only_leave_content_out() -> None:
    bare_tool = {"type": "tool", "id": "c", "name": "Read"}
    message = api_message("assistant", [bare_tool])
    assert message == {
        "role": "assistant",
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "Read", "arguments": "{}"}}
        ],
    }


def test_assistant_tool_without_id_is_text_and_images_are_described() -> None:
    message = api_message("assistant", [{"type": "tool", "name": "Bash"}, SAMPLES["image"]])
    assert message == {"role": "assistant", "content": "[Tool Bash]\n[Image] https://x/y.png"}
    assert api_message("assistant", []) == {"role": "assistant", "content": ""}


@pytest.mark.parametrize("role", ["user", "assistant"])
def test_every_block_type_converts(role: str) -> None:
    message = api_message(role, list(SAMPLES.values()))
    assert message["role"] == role


def test_unknown_block_types_are_refused() -> None:
    with pytest.raises(ValidationError) as raised:
        ConvertMessageRequest.model_validate(
            {"message": {"role": "user", "blocks": [{"type": "video"}]}}
        )
    assert "'video'" in str(raised.value)
    with pytest.raises(BlockError, match="unknown block type 'video'"):
        convert_message_for_api("user", [{"type": "video"}])
    with pytest.raises(BlockError, match="unknown block type"):
        convert_message_for_api("assistant", [{"content": "no type"}])
    with pytest.raises(BlockError, match="unknown role"):
        convert_message_for_api("system", [])
    with pytest.raises(ValidationError):
        ConvertMessageRequest.model_validate({"message": {"role": "system", "blocks": []}})


def test_open_block_kinds_drop_unlisted_keys_hook_blocks_refuse_them() -> None:
    request = ConvertMessageRequest.model_validate(
        {"message": {"role": "user", "blocks": [{"type": "text", "content": "x", "extra": 1}]}}
    )
    assert "extra" not in request.message.blocks[0].model_dump()
    with pytest.raises(ValidationError):
        ConvertMessageRequest.model_validate(
            {"message": {"role": "user", "blocks": [{"type": "warn", "content": "x", "extra": 1}]}}
        )


def test_free_form_objects_have_a_depth_limit() -> None:
    deep: dict[str, Any] = {}
    for _ in range(80):
        deep = {"a": deep}
    with pytest.raises(ValidationError, match="nests more than 64 levels"):
        CreateHookBlockRequest.model_validate(
            {"hookEvent": "Stop", "content": "x", "metadata": deep}
        )
    shallow = {"a": {"b": [1, {"c": None}]}}
    request = CreateHookBlockRequest.model_validate(
        {"hookEvent": "Stop", "content": "x", "metadata": shallow}
    )
    assert request.metadata == shallow


block_lists = st.lists(st.sampled_from(list(SAMPLES.values())), max_size=6)
texts = st.text(max_size=30)
random_blocks = st.lists(
    st.one_of(
        st.builds(lambda c: {"type": "text", "content": c}, texts),
        st.builds(lambda c: {"type": "warn", "content": c}, texts),
        st.builds(
            lambda c, e: {"type": "hook", "hookEvent": e, "content": c},
            texts,
            st.sampled_from(["Stop", "BeforeTool"]),
        ),
        st.builds(lambda u: {"type": "image", "imageUrls": u}, st.lists(texts, max_size=2)),
        st.builds(
            lambda i, n, p: {"type": "tool", "id": i, "name": n, "parameters": p},
            texts,
            texts,
            texts,
        ),
    ),
    max_size=6,
)


@given(random_blocks | block_lists, st.sampled_from(["user", "assistant"]))
def test_conversion_never_fails_on_valid_blocks(blocks: list[dict[str, Any]], role: str) -> None:
    api_message(role, blocks)
