"""Request and response bodies of every endpoint, with the contract's field names.

Requests refuse unknown keys (``StrictModel``) and take JSON types strictly: ``"2"`` is
not an exit code, ``"true"`` not a boolean. ``hookEvent`` accepts every name of
hook_events (the OpenAPI schema lists them as an enum). Responses leave out an optional
("?") field when it has no value instead of sending ``null``; nested JSON the hook wrote
(``hookSpecificData``, ``updatedInput``, ...) is passed through untouched, nulls
included. ``continue`` is a Python keyword, so the models call it ``continue_`` and
read and write it as ``continue``.

Message blocks are wave's MessageBlock union, told apart by ``type``. Warn and hook blocks
are hookwise's own and take no extra keys; the other kinds mirror wave's open TypeScript
interfaces: keys they do not list are accepted and dropped (nothing renders them).
Free-form objects (``metadata``, ``originalInput``, ``tool_input``, ...) may nest at most
``MAX_JSON_DEPTH`` levels, so that every answer that echoes them can be serialized.
"""

# Field names are the contract's wire names (camelCase).
# ruff: noqa: N815

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hookwise.api.processing.hook_events import ACCEPTED_EVENTS, HOOK_EVENTS
from hookwise.api.processing.hook_json import value_problem
from hookwise.api.processing.json_validation import MAX_JSON_DEPTH, deeper_than
from hookwise.api.processing.output_config import (
    EXIT_CODE_MAX,
    EXIT_CODE_MIN,
    OutputConfig,
    StrictModel,
)

__all__ = [
    "ApiMessage",
    "AssistantMessageParam",
    "BlockResponse",
    "ChatMessage",
    "ClassifyErrorRequest",
    "ClassifyErrorResponse",
    "ConvertHookBlocksRequest",
    "ConvertHookBlocksResponse",
    "ConvertMessageRequest",
    "ConvertMessageResponse",
    "CreateHookBlockRequest",
    "CreatePermissionRequest",
    "CreatePermissionResponse",
    "CreateWarnBlockRequest",
    "ErrorResponse",
    "ExecuteWithOutputRequest",
    "ExecuteWithOutputResponse",
    "HealthResponse",
    "HookBlock",
    "HookConfig",
    "HookEventName",
    "HookInput",
    "HookMessageBlock",
    "HookOutputResult",
    "InternalErrorResponse",
    "InvalidRequestResponse",
    "MessageBlock",
    "OutputConfig",
    "ParseOutputRequest",
    "ParseOutputResponse",
    "ParsedHookOutput",
    "PendingPermission",
    "PendingPermissionsResponse",
    "PermissionDecision",
    "RateLimitResponse",
    "ResolvePermissionRequest",
    "ResolvePermissionResponse",
    "StrictModel",
    "UpdateConfigResponse",
    "UserMessageParam",
    "ValidateJsonRequest",
    "ValidateJsonResponse",
    "ValidationErrorItem",
    "ValidationWarningItem",
    "WarnBlock",
]


def _known_event(value: str) -> str:
    if value not in HOOK_EVENTS:
        raise PydanticCustomError(
            "enum",
            f"unknown hook event {value!r}; expected one of: {', '.join(ACCEPTED_EVENTS)}",
        )
    return value


HookEventName = Annotated[
    StrictStr,
    AfterValidator(_known_event),
    WithJsonSchema(
        {
            "type": "string",
            "enum": list(ACCEPTED_EVENTS),
            "description": "The contract's four events and every other Claude Code, "
            "Codex and Gemini CLI event hookwise knows",
        }
    ),
]


def _shallow(value: Any) -> Any:
    """Refuse what no answer or database can hold (too deep, lone surrogates, non-finite
    numbers), naming the path inside the object."""
    if deeper_than(value):
        raise PydanticCustomError("too_deep", f"nests more than {MAX_JSON_DEPTH} levels")
    problem = value_problem(value)
    if problem is not None:
        raise PydanticCustomError("value_error", problem)
    return value


JsonObject = Annotated[dict[str, Any], AfterValidator(_shallow)]
ExitCode = Annotated[StrictInt, Field(ge=EXIT_CODE_MIN, le=EXIT_CODE_MAX)]
Milliseconds = Annotated[float, Strict(), Field(ge=0, allow_inf_nan=False)]


def _is_none(value: object) -> bool:
    return value is None


def _never_null(schema: dict[str, Any]) -> None:
    """The schema of a field that is left out rather than sent as null."""
    schema.pop("default", None)
    options = schema.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            del schema["anyOf"]
            schema.update(kept[0])
        else:
            schema["anyOf"] = kept


def _optional(**kwargs: Any) -> Any:
    """An optional ("?") response field: left out of the JSON when it is None."""
    return Field(default=None, exclude_if=_is_none, json_schema_extra=_never_null, **kwargs)


class ResponseModel(BaseModel):
    """A response body: built by name or alias, written with the contract's names."""

    model_config = ConfigDict(
        validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )


class _OpenBlock(BaseModel):
    """A wave block kind hookwise only renders: unlisted keys are accepted and dropped."""

    model_config = ConfigDict(extra="ignore")


# --------------------------------------------------------------------------- message blocks


class WarnBlock(StrictModel):
    type: Literal["warn"]
    content: StrictStr


class HookBlock(StrictModel):
    type: Literal["hook"]
    hookEvent: HookEventName
    content: StrictStr
    metadata: JsonObject | None = _optional()


HookMessageBlock = Annotated[WarnBlock | HookBlock, Field(discriminator="type")]


class TextBlock(_OpenBlock):
    type: Literal["text"]
    content: StrictStr
    customCommandContent: StrictStr | None = None


class ErrorBlock(_OpenBlock):
    type: Literal["error"]
    content: StrictStr


class ToolImage(_OpenBlock):
    data: StrictStr = Field(description="base64 image data")
    mediaType: StrictStr | None = None


class ToolBlock(_OpenBlock):
    type: Literal["tool"]
    id: StrictStr | None = None
    name: StrictStr | None = None
    parameters: StrictStr | None = Field(default=None, description="the arguments, as JSON text")
    result: StrictStr | None = None
    shortResult: StrictStr | None = None
    images: list[ToolImage] | None = None
    isRunning: StrictBool | None = None
    success: StrictBool | None = None
    error: StrictStr | JsonObject | None = None
    compactParams: StrictStr | None = None


class ImageBlock(_OpenBlock):
    type: Literal["image"]
    imageUrls: list[StrictStr] | None = None


class DiffPart(_OpenBlock):
    value: StrictStr
    added: StrictBool | None = None
    removed: StrictBool | None = None


class DiffBlock(_OpenBlock):
    type: Literal["diff"]
    path: StrictStr
    diffResult: list[DiffPart]


class CommandOutputBlock(_OpenBlock):
    type: Literal["command_output"]
    command: StrictStr
    output: StrictStr
    isRunning: StrictBool
    exitCode: StrictInt | None


class CompressBlock(_OpenBlock):
    type: Literal["compress"]
    content: StrictStr


class MemoryBlock(_OpenBlock):
    type: Literal["memory"]
    content: StrictStr
    isSuccess: StrictBool
    memoryType: Literal["project", "user"] | None = None
    storagePath: StrictStr | None = None


class CustomCommandBlock(_OpenBlock):
    type: Literal["custom_command"]
    commandName: StrictStr
    content: StrictStr
    originalInput: StrictStr | None = None


class SubagentBlock(_OpenBlock):
    type: Literal["subagent"]
    subagentId: StrictStr
    subagentName: StrictStr
    status: Literal["active", "completed", "error", "aborted"]
    messages: list[ChatMessage] = Field(default_factory=list)


MessageBlock = Annotated[
    TextBlock
    | ErrorBlock
    | ToolBlock
    | ImageBlock
    | DiffBlock
    | CommandOutputBlock
    | CompressBlock
    | MemoryBlock
    | CustomCommandBlock
    | SubagentBlock
    | WarnBlock
    | HookBlock,
    Field(discriminator="type"),
]


class ChatMessage(StrictModel):
    role: Literal["user", "assistant"]
    blocks: list[MessageBlock]


SubagentBlock.model_rebuild()


# --------------------------------------------------------------------------- Chat Completions


class TextPart(ResponseModel):
    type: Literal["text"]
    text: str


class ImageUrl(ResponseModel):
    url: str


class ImagePart(ResponseModel):
    type: Literal["image_url"]
    image_url: ImageUrl


ContentPart = Annotated[TextPart | ImagePart, Field(discriminator="type")]


class ToolCallFunction(ResponseModel):
    name: str
    arguments: str


class ToolCall(ResponseModel):
    id: str
    type: Literal["function"]
    function: ToolCallFunction


class UserMessageParam(ResponseModel):
    role: Literal["user"]
    content: str | list[ContentPart]


class AssistantMessageParam(ResponseModel):
    role: Literal["assistant"]
    content: str | None = _optional()
    tool_calls: list[ToolCall] | None = _optional()


ApiMessage = Annotated[UserMessageParam | AssistantMessageParam, Field(discriminator="role")]


# --------------------------------------------------------------------------- permissions


class CreatePermissionRequest(StrictModel):
    toolName: Annotated[StrictStr, Field(min_length=1, max_length=512)]
    reason: StrictStr
    originalInput: JsonObject
    updatedInput: JsonObject | None = None


class PendingPermission(ResponseModel):
    id: str
    toolName: str
    reason: str
    originalInput: dict[str, Any]
    updatedInput: dict[str, Any] | None = _optional()
    timestamp: int = Field(description="creation time, ms since the epoch")
    sessionId: str
    expiresAt: int = Field(description="ms since the epoch")
    status: Literal["pending", "allowed", "denied", "expired"] = "pending"


class CreatePermissionResponse(ResponseModel):
    permissionId: str
    request: PendingPermission


class ResolvePermissionRequest(StrictModel):
    decision: Literal["allow", "deny"]
    reason: StrictStr | None = None


class PermissionDecision(ResponseModel):
    decision: Literal["allow", "deny"]
    shouldContinueRecursion: bool
    reason: str | None = _optional()
    timestamp: int


class ResolvePermissionResponse(ResponseModel):
    resolved: Literal[True]
    decision: PermissionDecision
    shouldProceed: bool


class PendingPermissionsResponse(ResponseModel):
    permissions: list[PendingPermission]


# --------------------------------------------------------------------------- parse / validate


class ParseOutputRequest(StrictModel):
    exitCode: ExitCode
    stdout: StrictStr
    stderr: StrictStr
    hookEvent: HookEventName
    executionTime: Milliseconds
    # hookwise's extension: the tool call the hook judged, for the permission request an
    # "ask" opens and for the output-processed webhook (the contract's parse-output has
    # no way to name it).
    toolName: Annotated[StrictStr, Field(min_length=1, max_length=512)] | None = Field(
        default=None, description="hookwise extension: the tool the hook judged"
    )
    toolInput: JsonObject | None = Field(
        default=None, description="hookwise extension: that tool call's input"
    )


class ParseOutputResponse(ResponseModel):
    source: Literal["json", "exitcode"]
    continue_: bool = Field(alias="continue")
    stopReason: str | None = _optional()
    systemMessage: str | None = _optional()
    hookSpecificData: dict[str, Any] | None = _optional()
    messageBlocks: list[HookMessageBlock]
    requiresUserInteraction: bool
    permissionRequest: PendingPermission | None = _optional()
    errors: list[str]


class ValidateJsonRequest(StrictModel):
    jsonString: StrictStr
    hookEvent: HookEventName


class ValidationErrorItem(ResponseModel):
    field: str
    message: str
    code: str


class ValidationWarningItem(ResponseModel):
    field: str
    message: str
    suggestion: str | None = _optional()


class ValidateJsonResponse(ResponseModel):
    valid: bool
    parsed: dict[str, Any] | None = _optional()
    errors: list[ValidationErrorItem]
    warnings: list[ValidationWarningItem]


# --------------------------------------------------------------------------- blocks


class CreateWarnBlockRequest(StrictModel):
    content: StrictStr
    hookEvent: HookEventName | None = None


class CreateHookBlockRequest(StrictModel):
    hookEvent: HookEventName
    content: StrictStr
    metadata: JsonObject | None = None


class BlockResponse(ResponseModel):
    block: HookMessageBlock


class ConvertHookBlocksRequest(StrictModel):
    blocks: list[HookMessageBlock]


class ConvertHookBlocksResponse(ResponseModel):
    contentParts: list[TextPart]


class ConvertMessageRequest(StrictModel):
    message: ChatMessage


class ConvertMessageResponse(ResponseModel):
    apiMessage: ApiMessage


# --------------------------------------------------------------------------- errors


class ClassifyErrorRequest(StrictModel):
    exitCode: ExitCode
    stderr: StrictStr
    hookEvent: HookEventName
    hookCommand: StrictStr


class Recovery(ResponseModel):
    suggestion: str
    autoRetry: bool
    fallbackBehavior: Literal["continue", "block", "ask_user"]


class ClassifyErrorResponse(ResponseModel):
    errorType: Literal[
        "timeout", "permission_denied", "malformed_json", "validation_failed", "execution_failed"
    ]
    severity: Literal["warning", "error", "fatal"]
    message: str
    recovery: Recovery


# --------------------------------------------------------------------------- execution


class HookConfig(StrictModel):
    command: Annotated[StrictStr, Field(min_length=1)]
    event: HookEventName
    matcher: StrictStr
    timeout: Annotated[
        float,
        Strict(),
        Field(ge=0, le=86_400, allow_inf_nan=False, description="seconds; 0: the default"),
    ]


class HookInput(BaseModel):
    """The hook's stdin object: the listed fields typed, any other field passed on."""

    model_config = ConfigDict(extra="allow")

    session_id: StrictStr
    transcript_path: StrictStr
    cwd: StrictStr
    hook_event_name: StrictStr
    tool_name: StrictStr | None = None
    tool_input: JsonObject | None = None
    tool_response: JsonObject | None = None
    prompt: StrictStr | None = None

    @model_validator(mode="after")
    def _shallow_extras(self) -> Self:
        for key, value in (self.model_extra or {}).items():
            if deeper_than(value):
                raise PydanticCustomError(
                    "too_deep", f"{key} nests more than {MAX_JSON_DEPTH} levels"
                )
        return self


class ExecuteWithOutputRequest(StrictModel):
    hookConfig: HookConfig
    input: HookInput


class HookOutputResult(ResponseModel):
    exitCode: int
    stdout: str
    stderr: str
    executionTime: float = Field(description="milliseconds")
    hookEvent: str


class ParsedHookOutput(ResponseModel):
    source: Literal["json", "exitcode"]
    continue_: bool = Field(alias="continue")
    stopReason: str | None = _optional()
    systemMessage: str | None = _optional()
    hookSpecificData: dict[str, Any] | None = _optional()
    errorMessages: list[str]


class ExecuteWithOutputResponse(ResponseModel):
    raw: HookOutputResult
    parsed: ParsedHookOutput
    messageBlocks: list[HookMessageBlock]
    requiresUserInteraction: bool
    permissionRequest: PendingPermission | None = _optional()
    shouldContinue: bool
    executionTime: float = Field(description="milliseconds")


# --------------------------------------------------------------------------- config, health


class UpdateConfigResponse(ResponseModel):
    updated: Literal[True]
    config: OutputConfig


ComponentState = Literal["healthy", "error"]


class HealthComponents(ResponseModel):
    parser: ComponentState
    validation: ComponentState
    messageBlocks: ComponentState
    permissions: ComponentState


class HealthMetrics(ResponseModel):
    avgParsingTime: float = Field(description="milliseconds")
    avgValidationTime: float = Field(description="milliseconds")
    pendingPermissions: int
    errorRate: float


class HealthResponse(ResponseModel):
    status: Literal["healthy", "degraded", "error"]
    components: HealthComponents
    metrics: HealthMetrics
    timestamp: int


# --------------------------------------------------------------------------- error bodies


class InvalidRequestResponse(ResponseModel):
    error: Literal["invalid_request"]
    message: str
    details: list[ValidationErrorItem]


class RateLimitResponse(ResponseModel):
    error: Literal["rate_limit_exceeded"]
    message: str
    retryAfter: int = Field(description="seconds")
    limit: int
    remaining: int


class InternalErrorResponse(ResponseModel):
    error: Literal["internal_error"]
    message: str
    requestId: str
    timestamp: int


class ErrorResponse(ResponseModel):
    """404, 409, 403, 413 and the other short answers: ``error`` and ``message``."""

    model_config = ConfigDict(extra="allow")

    error: str
    message: str
