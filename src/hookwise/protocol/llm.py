"""The Stable Model API (LLMRequest, LLMResponse, HookToolConfig) and its translation.

Model hooks never see the Gemini SDK's objects: the engine translates a
GenerateContentParameters into an ``LLMRequest`` for BeforeModel/BeforeToolSelection/AfterModel
stdin, a GenerateContentResponse into an ``LLMResponse``, and translates the hook's answers back
(hookTranslator.ts in @google/gemini-cli-core 0.61.0). The values come from hooks, so they are
often malformed; every function reproduces the engine on any JSON input, including the
TypeErrors it throws (as ``JSTypeError`` with V8's message), JS ``undefined`` (``UNDEFINED``
values, dropped by ``js_json_stringify``/``drop_undefined``), object key order, and results
that share sub-objects with the input, as the JS does.

Profiles (``to_hook_*``):

- ``GEMINI_CLI``: the engine. Only parts with a string ``text`` reach hooks; a content with
  no text (a function call or response turn) is dropped from ``messages``.
- ``DOCUMENTED`` (default): the seed's rule that non-text parts "will be simplified to their
  string representation". A non-text part is shown as its compact JSON
  (``JSON.stringify(part)``, e.g. ``{"functionCall":{"name":"ls","args":{}}}``), a bare string
  part as itself, a null part not at all; the pieces are joined with ``''`` like text parts.
  Function-call turns therefore stay visible.

The ``from_hook_*`` functions default to the engine. A host that builds hook input with
``DOCUMENTED`` must pass ``DOCUMENTED`` back to them: messages are matched to contents by
position, so both sides must agree on which contents produced a message. With ``DOCUMENTED``, a
message returned unchanged leaves its content's parts untouched; an edited one keeps the
non-text parts (as the engine does) after the new text, with their JSON forms removed from
it. In responses, a part string that is exactly the compact JSON of a function call,
function response, inline/file data or code part becomes that part again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict, cast

from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    get,
    is_object,
    js_json_parse,
    js_json_stringify,
    js_string,
    js_string_strict,
    js_to_number,
    opt_get,
    spread,
    truthy,
)
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile

__all__ = [
    "DEFAULT_GEMINI_FLASH_MODEL",
    "HookToolConfig",
    "LLMCandidate",
    "LLMCandidateContent",
    "LLMConfig",
    "LLMMessage",
    "LLMRequest",
    "LLMResponse",
    "SafetyRating",
    "UsageMetadata",
    "from_hook_llm_request",
    "from_hook_llm_response",
    "from_hook_tool_config",
    "part_string",
    "to_hook_llm_request",
    "to_hook_llm_response",
    "to_hook_tool_config",
]

DEFAULT_GEMINI_FLASH_MODEL = "gemini-3.5-flash"
"""``model`` when the SDK request has none (config/models.ts, before any experiment flag)."""


# --------------------------------------------------------------------------- types


class LLMMessage(TypedDict):
    role: Literal["user", "model", "system"]
    content: str | list[dict[str, JSON]]


class LLMConfig(TypedDict, total=False):
    temperature: float
    maxOutputTokens: int
    topP: float
    topK: int


class HookToolConfig(TypedDict, total=False):
    mode: Literal["AUTO", "ANY", "NONE"]
    allowedFunctionNames: list[str]


class LLMRequest(TypedDict):
    model: str
    messages: list[LLMMessage]
    config: NotRequired[LLMConfig]
    toolConfig: NotRequired[HookToolConfig]


class LLMCandidateContent(TypedDict):
    role: Literal["model"]
    parts: list[str]


class SafetyRating(TypedDict):
    category: str
    probability: str
    blocked: NotRequired[bool]


class LLMCandidate(TypedDict):
    content: LLMCandidateContent
    finishReason: NotRequired[Literal["STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "OTHER"]]
    index: NotRequired[int]
    safetyRatings: NotRequired[list[SafetyRating]]


class UsageMetadata(TypedDict, total=False):
    promptTokenCount: int
    candidatesTokenCount: int
    totalTokenCount: int


class LLMResponse(TypedDict):
    text: NotRequired[str]
    candidates: list[LLMCandidate]
    usageMetadata: NotRequired[UsageMetadata]


# --------------------------------------------------------------------------- JS helpers

_NON_TEXT_PART_KEYS = frozenset(
    {
        "functionCall",
        "functionResponse",
        "inlineData",
        "fileData",
        "executableCode",
        "codeExecutionResult",
    }
)


def _has_text_property(value: JSON) -> bool:
    return isinstance(value, dict) and isinstance(value.get("text"), str)


def _is_content_with_parts(value: JSON) -> bool:
    return isinstance(value, dict) and "role" in value and "parts" in value


def _nullish(value: JSON) -> bool:
    return value is None or value is UNDEFINED


def _array(value: JSON, callee: str) -> list[JSON]:
    """The receiver of an array method call; V8 names the callee when it is not one."""
    if isinstance(value, list):
        return value
    if _nullish(value):
        method = callee.rsplit(".", 1)[-1]
        raise JSTypeError(f"Cannot read properties of {js_string(value)} (reading '{method}')")
    raise JSTypeError(f"{callee} is not a function")


def _text_of(value: JSON) -> str:
    """``typeof v === 'string' ? v : String(v)``."""
    return value if isinstance(value, str) else js_string_strict(value)


def _role_of(message: JSON) -> JSON:
    """``message.role === 'model' ? 'model' : message.role`` (the role as given)."""
    return get(message, "role")


def part_string(part: JSON) -> str | None:
    """A part as the DOCUMENTED profile shows it to hooks; None when it shows nothing."""
    if _has_text_property(part):
        return cast(str, part["text"])
    if _nullish(part):
        return None
    if isinstance(part, str):
        return part
    return js_json_stringify(part)


def _restored_part(text: JSON) -> JSON:
    """DOCUMENTED: the part a string in a hook's response parts stands for."""
    if not isinstance(text, str) or not text.startswith("{"):
        return {"text": text}
    try:
        value = js_json_parse(text)
    except ValueError:
        return {"text": text}
    if (
        isinstance(value, dict)
        and not _has_text_property(value)
        and _NON_TEXT_PART_KEYS.intersection(value)
        and js_json_stringify(value) == text
    ):
        return value
    return {"text": text}


def _extract_generation_config(request: JSON) -> JSON:
    config = get(request, "config")
    if truthy(config) and is_object(config):
        return {
            "temperature": get(config, "temperature"),
            "maxOutputTokens": get(config, "maxOutputTokens"),
            "topP": get(config, "topP"),
            "topK": get(config, "topK"),
        }
    return UNDEFINED


# --------------------------------------------------------------------------- requests


def to_hook_llm_request(sdk_request: JSON, profile: Profile = DEFAULT_PROFILE) -> LLMRequest:
    """``toHookLLMRequest``: the SDK request as hooks see it (see the module for profiles)."""
    messages: list[JSON] = []
    contents = get(sdk_request, "contents")
    if truthy(contents):
        for content in contents if isinstance(contents, list) else [contents]:
            if isinstance(content, str):
                messages.append({"role": "user", "content": content})
            elif _is_content_with_parts(content):
                role = content["role"]
                if not (isinstance(role, str) and role in ("model", "system")):
                    role = "user"
                raw_parts = content["parts"]
                parts = raw_parts if isinstance(raw_parts, list) else [raw_parts]
                text = _joined_text(parts, profile)
                if text:
                    messages.append({"role": role, "content": text})
    config = _extract_generation_config(sdk_request)
    model = get(sdk_request, "model")
    return cast(
        LLMRequest,
        {
            "model": model if truthy(model) else DEFAULT_GEMINI_FLASH_MODEL,
            "messages": messages,
            "config": {
                "temperature": opt_get(config, "temperature"),
                "maxOutputTokens": opt_get(config, "maxOutputTokens"),
                "topP": opt_get(config, "topP"),
                "topK": opt_get(config, "topK"),
            },
        },
    )


def _joined_text(parts: list[JSON], profile: Profile) -> str:
    if profile is Profile.GEMINI_CLI:
        return "".join(part["text"] for part in parts if _has_text_property(part))
    return "".join(s for s in map(part_string, parts) if s is not None)


def from_hook_llm_request(
    hook_request: JSON, base_request: JSON = UNDEFINED, profile: Profile = Profile.GEMINI_CLI
) -> dict[str, JSON]:
    """``fromHookLLMRequest``: the hook's LLMRequest merged back into the SDK request.

    Messages replace the text of the contents that produced them, in order; contents that
    produced none are kept, extra messages become new contents. Pass the profile used for
    ``to_hook_llm_request`` (see the module).
    """
    messages = get(hook_request, "messages")
    base_contents_value = opt_get(base_request, "contents")
    contents: JSON
    if not truthy(messages):
        contents = [] if _nullish(base_contents_value) else base_contents_value
    elif truthy(base_contents_value):
        contents = _merge_messages(messages, get(base_request, "contents"), profile)
    else:
        contents = [_message_to_content(m) for m in _array(messages, "hookRequest.messages.map")]
    hook_model = get(hook_request, "model")
    model = hook_model if not _nullish(hook_model) else opt_get(base_request, "model")
    result: dict[str, JSON] = {
        **spread(base_request),
        "model": "" if _nullish(model) else model,
        "contents": contents,
    }
    hook_config = get(hook_request, "config")
    if truthy(hook_config):
        base_config = _extract_generation_config(base_request) if truthy(base_request) else None
        result["config"] = {
            **spread(base_config),
            "temperature": get(hook_config, "temperature"),
            "maxOutputTokens": get(hook_config, "maxOutputTokens"),
            "topP": get(hook_config, "topP"),
            "topK": get(hook_config, "topK"),
        }
    return result


def _message_to_content(message: JSON) -> dict[str, JSON]:
    role = _role_of(message)
    return {"role": role, "parts": [{"text": _text_of(get(message, "content"))}]}


class _Messages:
    """``hookRequest.messages`` read as JS does: any array-like, ``length`` re-read each time."""

    def __init__(self, messages: JSON) -> None:
        self.messages = messages
        self.index = 0

    def has_next(self) -> bool:
        length = js_to_number(get(self.messages, "length"))
        return bool(self.index < length)

    def next(self) -> JSON:
        message = get(self.messages, str(self.index))
        self.index += 1
        return message


def _merge_messages(messages: JSON, base_contents: JSON, profile: Profile) -> list[JSON]:
    base = base_contents if isinstance(base_contents, list) else [base_contents]
    cursor = _Messages(messages)
    merged: list[JSON] = []
    for content in base:
        if isinstance(content, str):
            if cursor.has_next():
                merged.append(_message_to_content(cursor.next()))
            else:
                merged.append({"role": "user", "parts": [{"text": content}]})
            continue
        if not _is_content_with_parts(content):
            merged.append({"role": "user", "parts": [content]})
            continue
        raw_parts = content["parts"]
        parts = [] if raw_parts is None else raw_parts
        base_content = {**content, "parts": parts}
        if profile is Profile.GEMINI_CLI:
            produced_message = any(map(_has_text_property, _array(parts, "parts.some")))
        else:
            listed = parts if isinstance(parts, list) else [parts]
            produced_message = bool(_joined_text(listed, profile))
        if not produced_message or not cursor.has_next():
            merged.append(base_content)
            continue
        message = cursor.next()
        new_text = _text_of(get(message, "content"))
        if profile is Profile.GEMINI_CLI:
            non_text = [p for p in _array(parts, "parts.filter") if not _has_text_property(p)]
            new_parts: JSON = [{"text": new_text}, *non_text]
        else:
            new_parts = _documented_parts(parts, new_text)
        merged.append({**base_content, "role": _role_of(message), "parts": new_parts})
    while cursor.has_next():
        merged.append(_message_to_content(cursor.next()))
    return merged


def _documented_parts(parts: JSON, new_text: str) -> JSON:
    """DOCUMENTED: a content's parts after its message came back as ``new_text``."""
    listed = parts if isinstance(parts, list) else [parts]
    if new_text == _joined_text(listed, Profile.DOCUMENTED):
        return parts
    non_text = [p for p in listed if not _has_text_property(p) and not isinstance(p, str)]
    text = new_text
    cursor = 0
    for part in non_text:
        shown = part_string(part)
        if not shown:
            continue
        at = text.find(shown, cursor)
        if at >= 0:
            text = text[:at] + text[at + len(shown) :]
            cursor = at
    if text or not non_text:
        return [{"text": text}, *non_text]
    return non_text


# --------------------------------------------------------------------------- responses


def _response_text(response: JSON) -> JSON:
    """partUtils ``getResponseText``: text of the first candidate's non-thought parts, or None."""
    candidates = get(response, "candidates")
    if not (truthy(candidates) and js_to_number(get(candidates, "length")) > 0):
        return None
    content = get(get(candidates, "0"), "content")
    if not truthy(content):
        return None
    parts = get(content, "parts")
    if not (truthy(parts) and js_to_number(get(parts, "length")) > 0):
        return None
    texts = [
        text
        for part in _array(parts, "candidate.content.parts.filter")
        if truthy(text := get(part, "text")) and not truthy(get(part, "thought"))
    ]
    return "".join(js_string_strict(text) for text in texts)


def to_hook_llm_response(sdk_response: JSON, profile: Profile = DEFAULT_PROFILE) -> LLMResponse:
    """``toHookLLMResponse``: the SDK response (or stream chunk) as hooks see it."""
    text = _response_text(sdk_response)
    candidates_value = get(sdk_response, "candidates")
    candidates = _array(
        candidates_value if truthy(candidates_value) else [],
        "(sdkResponse.candidates || []).map",
    )
    out: list[JSON] = []
    for candidate in candidates:
        parts = opt_get(get(candidate, "content"), "parts")
        text_parts: list[JSON] = []
        if not _nullish(parts):
            listed = _array(parts, "candidate.content?.parts?.filter")
            if profile is Profile.GEMINI_CLI:
                text_parts = [p["text"] for p in listed if _has_text_property(p)]
            else:
                text_parts = [s for s in map(part_string, listed) if s is not None]
        finish_reason = get(candidate, "finishReason")
        index = get(candidate, "index")
        ratings = opt_get(candidate, "safetyRatings")
        out.append(
            {
                "content": {"role": "model", "parts": text_parts},
                "finishReason": finish_reason,
                "index": index,
                "safetyRatings": UNDEFINED
                if _nullish(ratings)
                else [_rating(r) for r in _array(ratings, "candidate.safetyRatings?.map")],
            }
        )
    usage = get(sdk_response, "usageMetadata")
    return cast(
        LLMResponse,
        {
            "text": UNDEFINED if text is None else text,
            "candidates": out,
            "usageMetadata": {
                "promptTokenCount": get(usage, "promptTokenCount"),
                "candidatesTokenCount": get(usage, "candidatesTokenCount"),
                "totalTokenCount": get(usage, "totalTokenCount"),
            }
            if truthy(usage)
            else UNDEFINED,
        },
    )


def _rating(rating: JSON) -> dict[str, JSON]:
    category = get(rating, "category")
    category_text = js_string_strict(category if truthy(category) else "")
    probability = get(rating, "probability")
    return {
        "category": category_text,
        "probability": js_string_strict(probability if truthy(probability) else ""),
    }


def from_hook_llm_response(
    hook_response: JSON, profile: Profile = Profile.GEMINI_CLI
) -> dict[str, JSON]:
    """``fromHookLLMResponse``: a hook's LLMResponse as an SDK GenerateContentResponse.

    Throws (JSTypeError) like the engine when ``candidates`` or a candidate's
    ``content.parts`` is missing or not an array.
    """
    text = get(hook_response, "text")
    restore: Callable[[JSON], JSON] = (
        _restored_part if profile is Profile.DOCUMENTED else (lambda part: {"text": part})
    )
    candidates: list[JSON] = []
    for candidate in _array(get(hook_response, "candidates"), "hookResponse.candidates.map"):
        parts = _array(get(get(candidate, "content"), "parts"), "candidate.content.parts.map")
        candidates.append(
            {
                "content": {"role": "model", "parts": [restore(part) for part in parts]},
                "finishReason": get(candidate, "finishReason"),
                "index": get(candidate, "index"),
                "safetyRatings": get(candidate, "safetyRatings"),
            }
        )
    return {
        "text": text,
        "candidates": candidates,
        "usageMetadata": get(hook_response, "usageMetadata"),
    }


# --------------------------------------------------------------------------- tool config


def to_hook_tool_config(sdk_tool_config: JSON) -> HookToolConfig:
    """``toHookToolConfig``: ``functionCallingConfig``'s mode and names (undefined if absent)."""
    calling = get(sdk_tool_config, "functionCallingConfig")
    return cast(
        HookToolConfig,
        {
            "mode": opt_get(calling, "mode"),
            "allowedFunctionNames": opt_get(calling, "allowedFunctionNames"),
        },
    )


def from_hook_tool_config(hook_tool_config: JSON) -> dict[str, JSON]:
    """``fromHookToolConfig``: undefined ``functionCallingConfig`` when both fields are falsy."""
    mode = get(hook_tool_config, "mode")
    names = get(hook_tool_config, "allowedFunctionNames")
    calling = (
        {"mode": mode, "allowedFunctionNames": names}
        if truthy(mode) or truthy(names)
        else UNDEFINED
    )
    return {"functionCallingConfig": calling}
