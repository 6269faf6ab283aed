"""The candidate index only skips rules that cannot match.

A hook call looks only at the rules the index lists for its event (engine.candidates):
by program, and by ``(program, word)`` when a rule needs one of a few literal arguments
(``git push --force`` is looked at only for commands running ``git`` with ``push``). Here
every generated policy and command line is decided twice, through the index and through
every rule, and the matched rules must be the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.pipeline import decide
from hookwise.policy.rules import engine
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text

RULES = [
    "{match: {command: git push --force}, action: deny}",
    "{match: {command: git push}, action: ask}",
    "{match: {command: {program: git, args: ['{push,pull}', origin]}}, action: deny}",
    "{match: {command: {program: git, args: ['re*']}}, action: ask}",
    "{match: {command: {program: [git, hub], args: [reset], flags: [--hard]}}, action: deny}",
    "{match: {command: rm -r}, action: deny}",
    "{match: {command: {program: rm, args: [/]}}, action: deny}",
    "{match: {command: {program: docker, args: [rm, '-f']}}, action: ask}",
    "{match: {command: kubectl delete namespace}, action: deny}",
    "{match: {command: [git clean, 'rm -f']}, action: deny}",
    "{match: {command: {program: 'git*', args: [push]}}, action: ask}",
    "{match: {command: {line_regex: 'push.*main'}}, action: ask}",
]
WORDS = ["push", "pull", "reset", "origin", "main", "/", "-f", "--force", "-r", "--hard", "x"]
PROGRAMS = ["git", "hub", "rm", "docker", "kubectl", "ls", "$P", "sudo git", "env X=1 rm"]


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    def simple() -> str:
        program = draw(st.sampled_from(PROGRAMS))
        words = draw(st.lists(st.sampled_from([*WORDS, "$W", "'push'", "p\\ush"]), max_size=4))
        return " ".join([program, *words])

    parts = [simple() for _ in range(draw(st.integers(1, 3)))]
    line = parts[0]
    for part in parts[1:]:
        joiner = draw(st.sampled_from([" && ", " | ", "; ", " $( ", " `"]))
        line += joiner + part + {" $( ": " )", " `": "`"}.get(joiner, "")
    if draw(st.booleans()):
        line = f"bash -c {line!r}" if "'" not in line else line
    return line


def _every_rule(bucket: dict[str, Any] | None, ev: Any) -> list[int]:
    if bucket is None:
        return []
    found = set(bucket["any"]) | set(bucket["shell"]) | set(bucket["mcp"])
    for table in ("tool", "prog", "lit"):
        for positions in bucket[table].values():
            found.update(positions)
    for words in bucket["arg"].values():
        for positions in words.values():
            found.update(positions)
    return sorted(found)


def _matched(policy: dict[str, Any], command: str) -> list[str]:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd="/w"
    )
    outcome = decide(payload, policy, None, {"HOME": "/h"}, now=0.0)
    assert outcome.decision is not None
    return sorted(r["id"] for r in outcome.decision.records if r["scope"] != "builtin")


@pytest.fixture(scope="module")
def policy() -> dict[str, Any]:
    lines = ["version: 1", "settings: {unverifiable: allow}", "rules:"]
    lines += [f"  - {{id: r{i}, {rule[1:]}" for i, rule in enumerate(RULES)]
    compiled = compile_text("\n".join(lines) + "\n")
    assert not compiled["errors"], compiled["errors"]
    return compiled


def test_literal_arguments_are_indexed_with_their_program(policy: dict[str, Any]) -> None:
    arguments = policy["index"]["tool.before"]["arg"]
    # {push,pull} origin: keyed by its most selective word
    assert set(arguments["git"]) >= {"push", "origin", "reset"}
    assert set(arguments["hub"]) == {"reset"}
    assert "re*" not in arguments["git"]  # a glob is not a literal word


@settings(max_examples=300, deadline=None)
@given(command_lines())
def test_the_index_skips_only_rules_that_cannot_match(policy: dict[str, Any], command: str) -> None:
    indexed = _matched(policy, command)
    original = engine.candidates
    engine.candidates = _every_rule  # type: ignore[assignment]
    try:
        everything = _matched(policy, command)
    finally:
        engine.candidates = original
    assert indexed == everything, command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push --force origin main", {"r0", "r1", "r2", "r10", "r11"}),
        ("git fetch && git status", set()),
        ("git $SUB --force", set()),  # a variable argument is a word of its own
        ("$GIT push --force", None),  # an unknown program could be any of them
        ("sudo git reset --hard", {"r3", "r4"}),
        ("hub reset --hard", {"r4"}),
    ],
)
def test_commands_meet_the_rules_of_their_words(
    policy: dict[str, Any], command: str, expected: set[str] | None
) -> None:
    matched = set(_matched(policy, command))
    if expected is None:
        assert len(matched) > 5
    else:
        assert matched == expected
