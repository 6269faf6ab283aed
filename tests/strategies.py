"""Hypothesis strategies for JSON values as hooks write them."""

from __future__ import annotations

from hypothesis import strategies as st

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
answer_keys = st.sampled_from(
    [
        "decision",
        "reason",
        "systemMessage",
        "continue",
        "stopReason",
        "suppressOutput",
        "hookSpecificOutput",
        "other",
    ]
)
specific_keys = st.sampled_from(
    [
        "additionalContext",
        "tool_input",
        "clearContext",
        "toolConfig",
        "llm_request",
        "llm_response",
        "x",
    ]
)
hook_specific = st.dictionaries(specific_keys, json_values, max_size=4) | json_values
answers = st.dictionaries(answer_keys, json_values, max_size=6).flatmap(
    lambda d: (
        st.builds(lambda hso: {**d, "hookSpecificOutput": hso}, hook_specific)
        if "hookSpecificOutput" in d
        else st.just(d)
    )
) | st.lists(json_values, max_size=3)
