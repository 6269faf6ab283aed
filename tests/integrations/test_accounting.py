"""arg_roles.unaccounted: a call it lets through has every path-looking value in front of
the rules (the property the red team's F1/F2 broke), whatever keys the model sends."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.arg_roles import role, unaccounted
from hookwise.policy.canonical import Event
from hookwise.policy.tool_input import canonical_input

KEYS = [
    "file_path", "filePath", "FilePath", "file-path", "file", "filename", "absolute_path",
    "notebook_path", "path", "dir_path", "directory", "Directory", "cwd", "workdir",
    "paths", "file_paths", "files", "source", "destination", "src", "to", "from",
    "content", "encoding", "command", "cmd", "script", "commandLine", "edits",
]  # fmt: skip
TOOLS = ["read", "write", "edit", "ls", "grep", "shell"]


def _event(tool: str, args: dict[str, Any], moves: bool) -> Event:
    mapped = canonical_input(tool, args, moves=moves)
    payload = {"hook_event_name": "tool.before", "cwd": "/w", "tool_input": mapped.args}
    return Event(
        "tool.before", "mcp", "tool.before", payload, host_tool="t", raw_input=mapped.args,
        tool=tool,
    )  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    tool=st.sampled_from(TOOLS),
    moves=st.booleans(),
    args=st.dictionaries(
        st.sampled_from(KEYS),
        st.one_of(st.sampled_from([".env", "a/b.txt", "x"]), st.integers(), st.lists(st.just("p"))),
        max_size=5,
    ),
)
def test_accepted_arguments_put_every_path_before_the_rules(
    tool: str, moves: bool, args: dict[str, Any]
) -> None:
    moves = moves and tool == "write"
    if unaccounted(tool, args, moves=moves) is not None:
        return
    if tool == "shell" and not canonical_input(tool, args).complete:
        return  # no command found: the Gate denies the call (unmapped-shell)
    ev = _event(tool, args, moves)
    seen = {ref.raw for ref in ev.paths}
    for key, value in args.items():
        found = role(key, tool)
        if found in ("file", "directory", "move") and isinstance(value, str):
            if tool == "shell" and found == "directory":
                assert ev.shell_cwd  # the one working directory is read
                continue
            assert value in seen, (key, args)


def test_one_spelling_per_role_is_accepted() -> None:
    assert unaccounted("read", {"filePath": "a", "encoding": "utf-8"}) is None
    assert unaccounted("shell", {"cmd": "ls", "cwd": "/"}) is None
    assert unaccounted("write", {"source": "a", "destination": "b"}, moves=True) is None


def test_an_unmapped_tool_counts_path_keys_only_when_they_hold_paths() -> None:
    assert unaccounted("send_mail", {"to": "a@b.c"}, mapped=False) is None
    assert unaccounted("frob", {"target": "../x"}, mapped=False) is not None
