"""Hypothesis tests of what the proxy reads from a call besides its arguments as given:
JSON strings decoded as the Python SDK decodes them (F2), a ``file://`` URI's host part
percent-decoded as a URI template decodes it (F3)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hookwise.mcp_proxy.decide import resource_args
from hookwise.policy.arg_readings import json_decoded as json_readings

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=10,
)


@given(st.dictionaries(st.text(max_size=8), JSON, max_size=5), st.text(min_size=1, max_size=8))
def test_a_json_array_or_object_given_as_a_string_is_read_decoded(
    args: dict[str, Any], key: str
) -> None:
    value = args.pop(key, None)
    packed = [1, value] if not isinstance(value, list | dict) else value
    given_args = {**args, key: " " + json.dumps(packed)}
    decoded = json_readings(given_args)
    assert decoded is not None and decoded[key] == packed


@given(
    st.dictionaries(
        st.text(max_size=8),
        st.text(max_size=12).filter(lambda t: t.lstrip()[:1] not in "[{"),
        max_size=5,
    )
)
def test_strings_that_are_no_array_or_object_leave_no_second_reading(args: dict[str, str]) -> None:
    assert json_readings(args) is None


@given(
    st.text(alphabet="abcdefgh.-_~", min_size=1, max_size=12),
    st.text(alphabet="abc/.", max_size=10),
)
def test_a_resource_host_is_decided_as_written_and_decoded(name: str, rest: str) -> None:
    path = "/" + rest if rest else ""
    encoded = "".join(f"%{ord(c):02X}" for c in name)  # every character escaped
    args = resource_args(f"file://{encoded}{path}")
    if name.lower() == "localhost":
        return
    assert name + (path or "/") in args["paths"]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_a_file_uri_reads_as_the_path_it_encodes(text: str) -> None:
    """uri_paths (one reading for resources/read and tool arguments) gives back the path a
    client percent-encoded, and says None of anything that is no file: URI."""
    from urllib.parse import quote

    from hookwise.integrations.file_uri import uri_paths

    path = "/" + text
    # urllib's reading first; the WHATWG and naive ones (s27 F1, F16) after it
    for uri in ("file://" + quote(path), "file://localhost" + quote(path)):
        found = uri_paths(uri)
        assert found is not None and found[0] == path
    # as a WHATWG parser reads it: blanks and controls around it, tabs and breaks within
    found = uri_paths(" " * 70 + "\x01Fi\tLE:\n//" + quote(path) + "\x00 ")
    assert found is not None and found[0] == path
    if not text.strip("\x00\t\n\f\r ").lower().startswith("file:"):
        assert uri_paths(text) is None


@given(st.text(alphabet=st.sampled_from(list("ab./\\#?%2eE:l ")), max_size=30))
def test_every_uri_reading_is_given_and_none_raises(text: str) -> None:
    """s27 F1/F16: the WHATWG reading has no backslash (a separator there) and no query or
    fragment; the naive one keeps the text after ``file://`` as it is."""
    from hookwise.integrations.file_uri import uri_paths

    uri = "file://" + text
    found = uri_paths(uri)
    assert found is not None and all(found)
    assert any("\\" not in p and "#" not in p and "?" not in p for p in found)
    naive = text if text.startswith("/") else "/" + text
    assert naive in found or naive.strip() in found
