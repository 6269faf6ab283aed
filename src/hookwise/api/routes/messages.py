"""Message blocks and their OpenAI Chat Completions form (no storage, no rate limit)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from hookwise.api.edge.errors import invalid_request
from hookwise.api.processing.blocks import (
    BlockError,
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

router = APIRouter(tags=["message blocks"])


def _dump(blocks: list[Any]) -> list[dict[str, Any]]:
    return [b.model_dump(mode="json", exclude_none=True, by_alias=True) for b in blocks]


@router.post(
    "/internal/message/create-warn-block",
    response_model=BlockResponse,
    response_model_exclude_none=True,
)
async def create_warn_block_route(body: CreateWarnBlockRequest) -> dict[str, Any]:
    return {"block": create_warn_block(body.content)}


@router.post(
    "/internal/message/create-hook-block",
    response_model=BlockResponse,
    response_model_exclude_none=True,
)
async def create_hook_block_route(body: CreateHookBlockRequest) -> dict[str, Any]:
    return {"block": create_hook_block(body.hookEvent, body.content, body.metadata)}


@router.post("/internal/message/convert-hook-blocks", response_model=ConvertHookBlocksResponse)
async def convert_hook_blocks_route(body: ConvertHookBlocksRequest) -> dict[str, Any]:
    """Warn and hook blocks as text content parts the model reads."""
    try:
        return {"contentParts": convert_hook_blocks(_dump(body.blocks))}
    except BlockError as err:
        raise invalid_request(
            [{"field": "blocks", "message": str(err), "code": "INVALID_VALUE"}]
        ) from None


@router.post(
    "/internal/message/convert-message-for-api",
    response_model=ConvertMessageResponse,
    response_model_exclude_none=True,
)
async def convert_message_route(body: ConvertMessageRequest) -> dict[str, Any]:
    """A whole message (any block types) as one ChatCompletionMessageParam."""
    try:
        message = convert_message_for_api(body.message.role, _dump(body.message.blocks))
    except BlockError as err:
        raise invalid_request(
            [{"field": "message.blocks", "message": str(err), "code": "INVALID_VALUE"}]
        ) from None
    return {"apiMessage": message}
