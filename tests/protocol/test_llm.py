"""The Stable Model API translator: the real engine's answers, and the DOCUMENTED profile."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.protocol import llm
from hookwise.protocol.jsvalue import (
    UNDEFINED,
    JSTypeError,
    drop_undefined,
    js_json_parse,
    js_json_stringify,
)
from hookwise.protocol.profiles import Profile

FIXTURES = Path(__file__).parent / "fixtures"
GEMINI = Profile.GEMINI_CLI
DOC = Profile.DOCUMENTED


def _engine_call(fn: str, args: list[Any]) -> Any:
    """Call our translation the way the oracle called the JS method (missing args: undefined)."""
    a = [*args, UNDEFINED, UNDEFINED]
    calls: dict[str, Callable[[], Any]] = {
        "toHookLLMRequest": lambda: llm.to_hook_llm_request(a[0], GEMINI),
        "fromHookLLMRequest": lambda: llm.from_hook_llm_request(a[0], a[1]),
        "toHookLLMResponse": lambda: llm.to_hook_llm_response(a[0], GEMINI),
        "fromHookLLMResponse": lambda: llm.from_hook_llm_response(a[0]),
        "toHookToolConfig": lambda: llm.to_hook_tool_config(a[0]),
        "fromHookToolConfig": lambda: llm.from_hook_tool_config(a[0]),
    }
    return calls[fn]()


def _load_translate() -> list[Any]:
    with open(FIXTURES / "translate.jsonl", encoding="utf-8") as f:
        return [js_json_parse(line) for line in f if line.strip()]


TRANSLATE = _load_translate()


@pytest.mark.parametrize(
    "record", TRANSLATE, ids=[f"{r['fn']}-{i}" for i, r in enumerate(TRANSLATE)]
)
def test_matches_recorded_engine(record: dict[str, Any]) -> None:
    if "error" in record:
        assert record["error"]["type"] == "TypeError"
        with pytest.raises(JSTypeError) as info:
            _engine_call(record["fn"], record["args"])
        assert str(info.value) == record["error"]["message"]
    else:
        got = _engine_call(record["fn"], record["args"])
        # Compared as JSON text: key order is part of the answer.
        assert js_json_stringify(got) == js_json_stringify(record["value"])


def test_fixture_covers_every_function_and_errors() -> None:
    fns = {r["fn"] for r in TRANSLATE}
    assert len(fns) == 6
    assert sum("error" in r for r in TRANSLATE) > 200
    assert sum("value" in r for r in TRANSLATE) > 1500


# --------------------------------------------------------------------------- requests

CALL = {"functionCall": {"name": "ls", "args": {"path": "."}}}
RESULT = {"functionResponse": {"name": "ls", "response": {"output": "a"}}}
SDK_REQUEST: dict[str, Any] = {
    "model": "gemini-2.5-flash",
    "contents": [
        {"role": "user", "parts": [{"text": "list files"}]},
        {"role": "model", "parts": [{"text": "Sure."}, CALL]},
        {"role": "user", "parts": [RESULT]},
        {"role": "model", "parts": [{"text": "Done"}]},
    ],
    "config": {"temperature": 0.5, "topK": 3, "systemInstruction": "be brief"},
}


def test_to_hook_request_engine_drops_non_text() -> None:
    view = llm.to_hook_llm_request(SDK_REQUEST, GEMINI)
    assert drop_undefined(view) == {
        "model": "gemini-2.5-flash",
        "messages": [
            {"role": "user", "content": "list files"},
            {"role": "model", "content": "Sure."},
            {"role": "model", "content": "Done"},
        ],
        "config": {"temperature": 0.5, "topK": 3},
    }
    # config always has the four keys, undefined when unset, in the JS literal's order.
    assert list(view["config"]) == ["temperature", "maxOutputTokens", "topP", "topK"]
    assert view["config"].get("maxOutputTokens") is UNDEFINED  # type: ignore[comparison-overlap]


def test_to_hook_request_documented_shows_non_text_as_json() -> None:
    view = llm.to_hook_llm_request(SDK_REQUEST)  # DOCUMENTED is the default
    assert [m["content"] for m in view["messages"]] == [
        "list files",
        'Sure.{"functionCall":{"name":"ls","args":{"path":"."}}}',
        '{"functionResponse":{"name":"ls","response":{"output":"a"}}}',
        "Done",
    ]


def test_to_hook_request_defaults_and_roles() -> None:
    view = llm.to_hook_llm_request(
        {"contents": ["hi", {"role": "function", "parts": {"text": "x"}}]}, GEMINI
    )
    assert view["model"] == llm.DEFAULT_GEMINI_FLASH_MODEL
    assert view["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "user", "content": "x"},  # unknown role -> user; a lone part -> [part]
    ]


def test_to_hook_request_throws_like_v8() -> None:
    with pytest.raises(JSTypeError, match=r"Cannot read properties of null \(reading 'contents'\)"):
        llm.to_hook_llm_request(None)


@pytest.mark.parametrize("profile", [GEMINI, DOC])
def test_from_hook_request_unchanged_view_keeps_history(profile: Profile) -> None:
    view = drop_undefined(llm.to_hook_llm_request(SDK_REQUEST, profile))
    out = llm.from_hook_llm_request(view, SDK_REQUEST, profile)
    if profile is DOC:
        assert out["contents"] == SDK_REQUEST["contents"]
    else:
        assert out["contents"][1] == {"role": "model", "parts": [{"text": "Sure."}, CALL]}
        assert out["contents"][2] == {"role": "user", "parts": [RESULT]}
    # extractGenerationConfig drops systemInstruction and sets unset keys to undefined.
    assert out["config"] == {
        "temperature": 0.5,
        "maxOutputTokens": UNDEFINED,
        "topP": UNDEFINED,
        "topK": 3,
    }
    assert out["model"] == "gemini-2.5-flash"


def test_from_hook_request_documented_edit_keeps_function_call() -> None:
    view = drop_undefined(llm.to_hook_llm_request(SDK_REQUEST, DOC))
    view["messages"][1]["content"] = view["messages"][1]["content"].replace("Sure.", "OK!")
    view["messages"][2]["content"] = "tampered"
    out = llm.from_hook_llm_request(view, SDK_REQUEST, DOC)
    assert out["contents"][1]["parts"] == [{"text": "OK!"}, CALL]
    # The hook cannot delete a function response; its text comes first, as in the engine.
    assert out["contents"][2]["parts"] == [{"text": "tampered"}, RESULT]


def test_from_hook_request_engine_misaligns_on_empty_text() -> None:
    """The engine's to/from disagree on a content whose text is '': it eats a message."""
    base = {
        "contents": [
            {"role": "user", "parts": [{"text": ""}]},
            {"role": "user", "parts": [{"text": "b"}]},
        ]
    }
    hook = {"messages": [{"role": "user", "content": "B"}]}
    engine = llm.from_hook_llm_request(hook, base, GEMINI)
    assert engine["contents"] == [
        {"role": "user", "parts": [{"text": "B"}]},
        {"role": "user", "parts": [{"text": "b"}]},
    ]
    documented = llm.from_hook_llm_request(hook, base, DOC)
    assert documented["contents"] == [
        {"role": "user", "parts": [{"text": ""}]},
        {"role": "user", "parts": [{"text": "B"}]},
    ]


def test_from_hook_request_without_messages_keeps_base_contents() -> None:
    out = llm.from_hook_llm_request({"model": "m2"}, SDK_REQUEST)
    assert out["contents"] is SDK_REQUEST["contents"]
    assert out["model"] == "m2"
    assert "config" in out and out["config"] is SDK_REQUEST["config"]  # from the spread


def test_from_hook_request_array_like_messages() -> None:
    hook = {"messages": {"length": "1", "0": {"role": "model", "content": 5}}}
    out = llm.from_hook_llm_request(hook, {"contents": ["a"]})
    assert out["contents"] == [{"role": "model", "parts": [{"text": "5"}]}]
    with pytest.raises(JSTypeError, match=r"hookRequest\.messages\.map is not a function"):
        llm.from_hook_llm_request(hook)


def test_from_hook_request_string_of_object_with_to_string_throws() -> None:
    hook = {"messages": [{"role": "user", "content": {"toString": 1}}]}
    with pytest.raises(JSTypeError, match="Cannot convert object to primitive value"):
        llm.from_hook_llm_request(hook)


# --------------------------------------------------------------------------- responses

SDK_RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"text": "thinking", "thought": True}, {"text": "Hi"}, CALL],
            },
            "finishReason": "STOP",
            "index": 0,
            "safetyRatings": [{"category": "HARM", "probability": "LOW", "blocked": False}],
        }
    ],
    "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 5, "thoughtsTokenCount": 1},
}


def test_to_hook_response_engine() -> None:
    view = llm.to_hook_llm_response(SDK_RESPONSE, GEMINI)
    assert js_json_stringify(view) == json.dumps(
        {
            "text": "Hi",
            "candidates": [
                {
                    "content": {"role": "model", "parts": ["thinking", "Hi"]},
                    "finishReason": "STOP",
                    "index": 0,
                    "safetyRatings": [{"category": "HARM", "probability": "LOW"}],
                }
            ],
            "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 5},
        },
        separators=(",", ":"),
    )


def test_to_hook_response_documented_and_back() -> None:
    view = drop_undefined(llm.to_hook_llm_response(SDK_RESPONSE))
    parts = view["candidates"][0]["content"]["parts"]
    assert parts == ["thinking", "Hi", '{"functionCall":{"name":"ls","args":{"path":"."}}}']
    back = llm.from_hook_llm_response(view, DOC)
    assert back["candidates"][0]["content"]["parts"] == [{"text": "thinking"}, {"text": "Hi"}, CALL]
    # The engine profile takes every string as text.
    engine = llm.from_hook_llm_response(view)
    assert engine["candidates"][0]["content"]["parts"][2] == {"text": parts[2]}


def test_documented_restores_only_exact_compact_part_json() -> None:
    texts = ['{"functionCall": {"name": "ls"}}', '{"a":1}', '{"text":"x","functionCall":{}}', "{"]
    out = llm.from_hook_llm_response({"candidates": [{"content": {"parts": texts}}]}, DOC)
    assert out["candidates"][0]["content"]["parts"] == [{"text": t} for t in texts]


def test_from_hook_response_errors() -> None:
    with pytest.raises(
        JSTypeError, match=r"^Cannot read properties of undefined \(reading 'map'\)$"
    ):
        llm.from_hook_llm_response({"text": "hi"})
    with pytest.raises(JSTypeError, match=r"^candidate\.content\.parts\.map is not a function$"):
        llm.from_hook_llm_response({"candidates": [{"content": {"parts": "x"}}]})
    with pytest.raises(JSTypeError, match=r"reading 'parts'"):
        llm.from_hook_llm_response({"candidates": [{}]})


def test_from_hook_response_key_order_and_undefined() -> None:
    out = llm.from_hook_llm_response({"candidates": [{"content": {"parts": ["a"]}}]})
    assert list(out) == ["text", "candidates", "usageMetadata"]
    assert out["text"] is UNDEFINED
    assert (
        js_json_stringify(out)
        == '{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]}}]}'
    )


# --------------------------------------------------------------------------- tool config


def test_tool_config_both_ways() -> None:
    sdk = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["ls"]}}
    hook = llm.to_hook_tool_config(sdk)
    assert hook == {"mode": "ANY", "allowedFunctionNames": ["ls"]}
    assert llm.from_hook_tool_config(hook) == sdk
    assert llm.from_hook_tool_config({"mode": "", "allowedFunctionNames": None}) == {
        "functionCallingConfig": UNDEFINED
    }
    assert drop_undefined(llm.to_hook_tool_config({})) == {}


# --------------------------------------------------------------------------- properties

KEYS = st.sampled_from(
    [
        "contents", "parts", "role", "text", "model", "config", "messages", "content",
        "candidates", "thought", "length", "0", "1", "toString", "functionCall",
        "functionCallingConfig", "mode", "allowedFunctionNames", "safetyRatings", "category",
        "usageMetadata", "temperature",
    ]
) | st.text(max_size=3)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["model", "user", "system", "", "AUTO"])
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)

ALL_CALLS: list[Callable[[Any, Any], Any]] = [
    lambda a, b: llm.to_hook_llm_request(a, GEMINI),
    lambda a, b: llm.to_hook_llm_request(a, DOC),
    lambda a, b: llm.from_hook_llm_request(a, b, GEMINI),
    lambda a, b: llm.from_hook_llm_request(a, b, DOC),
    lambda a, b: llm.to_hook_llm_response(a, GEMINI),
    lambda a, b: llm.to_hook_llm_response(a, DOC),
    lambda a, b: llm.from_hook_llm_response(a, GEMINI),
    lambda a, b: llm.from_hook_llm_response(a, DOC),
    lambda a, b: llm.to_hook_tool_config(a),
    lambda a, b: llm.from_hook_tool_config(a),
]


@settings(max_examples=400, deadline=None)
@given(ANY_JSON, ANY_JSON, st.integers(0, len(ALL_CALLS) - 1))
def test_any_json_gives_a_value_or_a_js_type_error(a: Any, b: Any, which: int) -> None:
    try:
        result = ALL_CALLS[which](a, b)
    except JSTypeError as exc:
        assert str(exc)
        return
    text = js_json_stringify(result)
    assert js_json_parse(text) == drop_undefined(result)


TEXT = st.text(min_size=1, max_size=8)
NON_TEXT_PART = st.sampled_from(
    [CALL, RESULT, {"inlineData": {"mimeType": "image/png", "data": "AA=="}}]
)
PART = st.builds(lambda t: {"text": t}, TEXT) | NON_TEXT_PART
CONTENT = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "model", "system"]), "parts": st.lists(PART, max_size=4)}
)
REQUEST = st.fixed_dictionaries(
    {"model": st.sampled_from(["m1", "m2"]), "contents": st.lists(CONTENT, max_size=6)}
)


@settings(max_examples=300, deadline=None)
@given(REQUEST)
def test_documented_request_round_trip_is_lossless(request: dict[str, Any]) -> None:
    view = drop_undefined(llm.to_hook_llm_request(request, DOC))
    out = llm.from_hook_llm_request(view, request, DOC)
    assert out["contents"] == request["contents"]
    assert out["model"] == request["model"]


@settings(max_examples=300, deadline=None)
@given(REQUEST)
def test_engine_round_trip_keeps_non_text_parts(request: dict[str, Any]) -> None:
    view = drop_undefined(llm.to_hook_llm_request(request, GEMINI))
    out = llm.from_hook_llm_request(view, request, GEMINI)
    assert len(out["contents"]) == len(request["contents"])
    for before, after in zip(request["contents"], out["contents"], strict=True):
        texts = [p for p in before["parts"] if "text" in p]
        others = [p for p in before["parts"] if "text" not in p]
        if texts:
            assert after["parts"] == [{"text": "".join(p["text"] for p in texts)}, *others]
        else:
            assert after == before


@settings(max_examples=300, deadline=None)
@given(REQUEST, st.text(max_size=5))
def test_documented_text_edit_keeps_non_text_parts(request: dict[str, Any], extra: str) -> None:
    view = drop_undefined(llm.to_hook_llm_request(request, DOC))
    for message in view["messages"]:
        message["content"] = extra + message["content"]
    out = llm.from_hook_llm_request(view, request, DOC)
    for before, after in zip(request["contents"], out["contents"], strict=True):
        others = [p for p in before["parts"] if "text" not in p]
        assert [p for p in after["parts"] if "text" not in p] == others


RESPONSE = st.fixed_dictionaries(
    {
        "candidates": st.lists(
            st.fixed_dictionaries(
                {"content": st.fixed_dictionaries({"parts": st.lists(PART, max_size=4)})}
            ),
            max_size=3,
        )
    }
)


@settings(max_examples=300, deadline=None)
@given(RESPONSE)
def test_documented_response_round_trip(response: dict[str, Any]) -> None:
    view = drop_undefined(llm.to_hook_llm_response(response, DOC))
    back = llm.from_hook_llm_response(view, DOC)
    for before, after in zip(response["candidates"], back["candidates"], strict=True):
        assert after["content"]["parts"] == before["content"]["parts"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["AUTO", "ANY", "NONE"]),
    st.lists(st.text(min_size=1, max_size=5), max_size=3),
)
def test_tool_config_round_trip(mode: str, names: list[str]) -> None:
    sdk = {"functionCallingConfig": {"mode": mode, "allowedFunctionNames": names}}
    assert llm.from_hook_tool_config(llm.to_hook_tool_config(sdk)) == sdk


@settings(max_examples=200, deadline=None)
@given(REQUEST)
def test_engine_view_is_documented_view_without_non_text(request: dict[str, Any]) -> None:
    engine = llm.to_hook_llm_request(request, GEMINI)["messages"]
    documented = llm.to_hook_llm_request(request, DOC)["messages"]
    assert len(engine) <= len(documented)
    text_only = [c for c in request["contents"] if any("text" in p for p in c["parts"])]
    assert len(engine) == len(text_only)
