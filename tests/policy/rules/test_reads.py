"""`command: {reads: true}`: every program but the catalog's non-readers
(shell/commands/operands.py NON_READERS) reads its file operands; with `files`, any reader of them matches."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.rules.loader import load_policy_text
from hookwise.shell.commands.operands import NON_READERS
from tests.policy.conftest import compile_text
from tests.policy.test_unverifiable import verdict

RULE = """\
version: 1
rules:
  - id: r
    match:
      tool: shell
      command: {reads: true}
      files: ["secret.txt"]
    action: deny
"""


@pytest.fixture(scope="module")
def policy() -> dict[str, Any]:
    return compile_text(RULE)


@pytest.mark.parametrize("program", ["fold", "rev", "cat", "iconv", "a-tool-from-tomorrow"])
def test_a_program_the_catalog_does_not_know_reads(policy: dict[str, Any], program: str) -> None:
    assert verdict(f"{program} secret.txt", policy)[0] == "deny"


@pytest.mark.parametrize("program", ["ls", "stat", "chmod", "cp", "git", "ssh-add", "sha256sum"])
def test_the_catalogs_non_readers_do_not(policy: dict[str, Any], program: str) -> None:
    assert verdict(f"{program} secret.txt", policy)[0] == "none"


def test_a_program_known_only_when_it_runs_could_be_a_reader(policy: dict[str, Any]) -> None:
    assert verdict("read p; $p secret.txt", policy)[0] in ("deny", "ask")


def test_reads_with_program_is_both(policy: dict[str, Any]) -> None:
    both = compile_text(RULE.replace("{reads: true}", "{reads: true, program: [ls, fold]}"))
    assert verdict("fold secret.txt", both)[0] == "deny"
    assert verdict("ls secret.txt", both)[0] == "none"
    assert verdict("rev secret.txt", both)[0] == "none"


@pytest.mark.parametrize("value", ['"yes"', "1", "[true]", "null"])
def test_reads_must_be_a_boolean(value: str) -> None:
    text = textwrap.dedent(RULE).replace("{reads: true}", f"{{reads: {value}}}")
    problems = [str(p) for p in load_policy_text(text, "p.yaml", "project").problems]
    assert any("p.yaml" in p and "command.reads must be true or false" in p for p in problems)


def test_reads_false_is_any_program() -> None:
    anyone = compile_text(RULE.replace("{reads: true}", "{reads: false, program: [ls]}"))
    assert verdict("ls secret.txt", anyone)[0] == "deny"


@given(st.sampled_from(sorted(NON_READERS)), st.sampled_from(["fold", "rev", "nl", "x9"]))
def test_non_readers_and_readers_are_told_apart(non_reader: str, reader: str) -> None:
    policy = compile_text(RULE)
    # a link to a file is a read of it (red team s27 P), whatever catalog lists ln as not
    # reading its operands' contents, unless the new name is one the same rule guards
    # (rules/kept.py: ``ln secret.txt`` names the link secret.txt in the working directory)
    if non_reader == "kill":
        # not a read, but a signal to a process named by a word that is no pid: asked as an
        # unknown process (shell/commands/process_targets.py), never the read rule's deny
        assert verdict("kill secret.txt", policy)[0] in ("none", "ask")
    elif non_reader not in (
        "source",
        ".",
        "[",
        "[[",
        "test",
        "cd",
        "pushd",
        "exit",
        "return",
        "ln",
    ):
        assert verdict(f"{non_reader} secret.txt", policy)[0] == "none", non_reader
    if non_reader == "ln":
        assert verdict("ln secret.txt other", policy)[0] == "deny"
        assert verdict("ln secret.txt /tmp/other", policy)[0] == "deny"
    assert verdict(f"{reader} secret.txt", policy)[0] == "deny"
