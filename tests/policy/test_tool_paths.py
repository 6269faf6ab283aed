"""``canonical.tool_paths``: a file tool's path read as the hosts and MCP servers read it,
literal text with ``..`` normalised (s24 red team F8: ``$x/../.aws/credentials`` was an
unknown path no rule could match)."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.canonical import tool_paths

CWD, HOME = "/proj", "/home/u"
_PARTS = st.sampled_from(["$x", "${x}", "`x`", "..", ".", "a", ".env", "~nosuchuser", "$HOME", "~"])
RAW = st.lists(_PARTS, min_size=1, max_size=6).map("/".join) | st.text(
    alphabet="ab$`~/.{}", min_size=1, max_size=20
)


@given(RAW, st.booleans())
def test_every_reading_is_absolute_and_normalised(raw: str, rooted: bool) -> None:
    raw = "/" + raw if rooted else raw
    refs = tool_paths(raw, CWD, HOME)
    assert refs and all(r.raw == raw for r in refs)
    for ref in refs:
        assert ref.absolute is not None and ref.absolute.startswith("/")
        assert ".." not in ref.absolute.split("/")[1:] or ref.absolute == "/"
        assert ref.absolute == posixpath.normpath(ref.absolute)


@given(RAW)
def test_a_path_nothing_expands_is_its_literal_text(raw: str) -> None:
    """The reading a server without shell expansion (Node's path.resolve) takes is always
    among those decided."""
    literal = posixpath.normpath(posixpath.join(CWD, raw))
    if literal.startswith("//"):
        literal = "/" + literal.lstrip("/")
    expands = raw in ("~", "$HOME", "${HOME}") or raw.startswith(("~/", "$HOME/", "${HOME}/"))
    absolutes = [r.absolute for r in tool_paths(raw, CWD, HOME)]
    if not expands and not raw.startswith("~"):
        assert absolutes == [literal]
    if not expands or ".." in raw.split("/"):  # (~a, ~b: no such users here)
        assert literal in absolutes


def test_the_red_teams_spellings() -> None:
    def first(raw: str) -> str | None:
        return tool_paths(raw, CWD, HOME)[0].absolute

    assert first("$x/../.aws/credentials") == "/proj/.aws/credentials"
    assert (
        first("/home/u/$x/../.config/hookwise/policy.yaml")
        == "/home/u/.config/hookwise/policy.yaml"
    )
    assert first("`x`/../private/key.txt") == "/proj/private/key.txt"
    assert first("~nosuchuser/../private/key.txt") == "/proj/private/key.txt"
    assert [r.absolute for r in tool_paths("~/../proj/p", CWD, HOME)] == [
        "/home/proj/p",
        "/proj/proj/p",
    ]
    assert [r.absolute for r in tool_paths("~/notes.md", CWD, HOME)] == ["/home/u/notes.md"]
