"""``config.toml_spans``: every value it locates reads, on its own, as tomllib reads it in
the whole document, whatever form the key is written in."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.toml_spans import TomlSpans

texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x7f"), max_size=8
)
bare = st.from_regex(r"[A-Za-z0-9_-]{1,6}", fullmatch=True)
names = st.one_of(bare, texts)
comments = st.sampled_from(["", '  # c ] [ "', " #x = { y }"])


def _key(name: str, quote: int) -> str:
    if quote == 0 and name and all(c.isascii() and (c.isalnum() or c in "_-") for c in name):
        return name
    if quote == 1 and "'" not in name and all(ord(c) >= 32 for c in name):
        return f"'{name}'"
    return json.dumps(name, ensure_ascii=False)  # a basic string: escapes decoded too


def _string(value: str, kind: int) -> str:
    if kind == 1 and "'" not in value and all(ord(c) >= 32 or c == "\t" for c in value):
        return f"'{value}'"
    if (
        kind == 2
        and '"' not in value
        and "\\" not in value
        and all(ord(c) >= 32 or c in "\t\n" for c in value)
    ):
        return f'"""{value}"""'
    return json.dumps(value, ensure_ascii=False)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[tuple[str, ...]]]:
    """A document whose servers are written in the forms Codex reads, with decoys."""
    lines = [f'decoy = """\n[mcp_servers.x]\ncommand = "no"\n"""{draw(comments)}']
    paths: list[tuple[str, ...]] = []
    form = draw(st.sampled_from(["tables", "dotted", "inline", "root-inline", "root-dotted"]))
    servers = draw(st.dictionaries(names, st.lists(texts, max_size=3), min_size=1, max_size=3))
    quote = draw(st.integers(0, 2))
    kind = draw(st.integers(0, 2))
    inline_items = []
    if form == "dotted":
        lines.append("[mcp_servers]")
    for name, args in servers.items():
        key = _key(name, quote)
        command = _string(draw(texts), kind)
        array = "[" + ", ".join(_string(a, kind) for a in args) + "]"
        paths += [("mcp_servers", name, "command"), ("mcp_servers", name, "args")]
        if form == "tables":
            lines += [f"[mcp_servers.{key}]", f"command = {command}{draw(comments)}"]
            lines.append(f"args = {array}{draw(comments)}")
        elif form == "dotted":
            lines.append(f"{key}.command = {command}{draw(comments)}")
            lines.append(f"  {key}.args = {array}")
        elif form == "root-dotted":
            lines.append(f"mcp_servers.{key}.command = {command}")
            lines.append(f"mcp_servers.{key}.args = {array}")
        else:
            inline_items.append(f"{key} = {{ command = {command} , args = {array}, n = 1 }}")
    if form == "inline":
        lines.append("[mcp_servers]")
        lines += inline_items
    elif form == "root-inline":
        lines.append("mcp_servers = { " + ", ".join(inline_items) + " }")
    lines.append("[after]\nk = 1")
    return "\n".join(lines) + "\n", paths


def _get(doc: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


@given(documents())
def test_every_located_value_reads_as_tomllib_reads_it(
    case: tuple[str, list[tuple[str, ...]]],
) -> None:
    text, paths = case
    doc = tomllib.loads(text)
    spans = TomlSpans(text)
    assert spans.complete
    for path in paths:
        pair = spans.value(path)
        assert pair is not None, (path, text)
        alone = tomllib.loads(f"v = {text[pair.value_start : pair.value_end]}\n")["v"]
        assert alone == _get(doc, path)
        assert tomllib.loads(text[pair.last_part : pair.value_start] + "0") == {path[-1]: 0}
    assert spans.value(("decoy",)) is not None and spans.value(("mcp_servers", "x")) is None


def test_a_path_set_twice_is_not_picked() -> None:
    """An array of tables sets the same path once per element: no value is chosen."""
    text = '[[a]]\nk = "1"\n[[a]]\nk = "2"\n'
    spans = TomlSpans(text)
    assert spans.complete and spans.value(("a", "k")) is None and spans.find(("a", "k")) == 2


def test_a_text_it_cannot_follow_locates_nothing() -> None:
    """A scan that stops early (not TOML it knows) answers no value, only lines found."""
    spans = TomlSpans('[a]\nk = "1"\nk2 = \n')
    assert not spans.complete and spans.value(("a", "k")) is None
    assert spans.find(("a", "k")) == 2
