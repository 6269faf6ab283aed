"""Line numbers of what a loader found: never an exception, whatever the file holds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookwise.scan.locate import json_line


@given(
    st.text(alphabet='{}[]":,0123456789abc \n/*', max_size=200),
    st.lists(st.one_of(st.text(max_size=5), st.integers(0, 5)), max_size=4),
)
def test_json_line_never_raises(text: str, pointer: list[str | int]) -> None:
    line = json_line(text, pointer)
    assert line is None or line >= 1
