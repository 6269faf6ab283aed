"""Readers of code given as data (red team s25): gdb command lines, the ref names git is
asked to create, vim options naming a program. Each fails closed: what it does not know
to be harmless is a command or unverifiable, never nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell.commands.plus_refs import plus_names
from hookwise.shell.tool_scripts import _GDB_INSPECT, tool_items

_GDB_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_!|", min_size=1, max_size=8)
_REST = st.text(alphabet="abcxyz0123 ./-$()\"'=", max_size=20)


@given(_GDB_WORD, _REST)
def test_a_gdb_command_not_known_to_inspect_is_never_nothing(word: str, rest: str) -> None:
    line = f"{word} {rest}".strip()
    found = tool_items("gdb", line)
    known = word in _GDB_INSPECT or word in ("set", "run", "r", "start", "starti")
    if not known:
        assert found, line  # a script to read, or unverifiable


@pytest.mark.parametrize(
    "line",
    ["she rm -rf d", "shel rm -rf d", "sh rm -rf d", "shell rm -rf d", "!rm -rf d",
     "pipe bt | rm -rf d", "| bt | rm -rf d", "thread apply all shell rm -rf d"],
)  # fmt: skip
def test_gdb_shell_spellings_are_read_as_the_command(line: str) -> None:
    assert ("script", "rm -rf d") in tool_items("gdb", line)


@pytest.mark.parametrize(
    "line",
    ["alias zz = shell", "p system(\"rm\")", "print  system (\"rm\")", "call unlink(\"x\")",
     "python import os", "source cmds.gdb", "define x", "set logging file out",
     "set exec-wrapper rm -rf d", "target remote | nc h 1", "dump memory f 0 1"],
)  # fmt: skip
def test_gdb_commands_that_may_run_code_are_unverifiable(line: str) -> None:
    assert any(kind == "unverifiable" for kind, _ in tool_items("gdb", line)), line


@pytest.mark.parametrize(
    "line", ["bt", "bt full", "info registers", "x/4x $sp", "p/x var", "thread apply all bt",
             "set pagination off", "run", "frame 2", "list main"],
)  # fmt: skip
def test_gdb_inspection_is_read_as_harmless(line: str) -> None:
    assert tool_items("gdb", line) == []


def test_gdb_run_arguments_are_a_shell_line() -> None:
    assert tool_items("gdb", "run > .hookwise/policy.yaml") == [
        ("script", "true > .hookwise/policy.yaml")
    ]
    assert tool_items("gdb", "set args $(rm -rf d)") == [("script", "true $(rm -rf d)")]


_NAME = st.text(alphabet="+abc/-_.", min_size=1, max_size=10).filter(lambda n: n[0] != "-")


@given(_NAME, st.sampled_from([["checkout", "-b"], ["switch", "-c"], ["branch"],
                               ["branch", "-m"], ["update-ref"], ["worktree", "add", "-b"]]))  # fmt: skip
def test_a_ref_named_with_a_leading_plus_is_found(name: str, sub: list[str]) -> None:
    found = plus_names(["git", *sub, name])
    short = name.rsplit("refs/heads/", 1)[-1]
    assert found == ([short] if short.startswith("+") else [])


@pytest.mark.parametrize(
    ("line", "unverifiable"),
    [("set makeprg=rm\\ -rf\\ d", True), ("se sh=/bin/cat shcf=", True),
     ("setlocal equalprg=x", True), ("let &grepprg='x'", True), ("set ts=4 sw=4", False),
     ("set nu", False), ("set shiftwidth=2", False), ("set shell=/bin/sh", True)],
)  # fmt: skip
def test_vim_options_naming_a_program(line: str, unverifiable: bool) -> None:
    found = tool_items("ex", line)
    assert any(kind == "unverifiable" for kind, _ in found) == unverifiable, found
