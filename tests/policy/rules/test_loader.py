from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.rules.loader import Problem, load_policy_text


def load(text: str):  # type: ignore[no-untyped-def]
    return load_policy_text(textwrap.dedent(text), "p.yaml", "project")


def errors(text: str) -> list[str]:
    return [str(p) for p in load(text).problems if p.severity == "error"]


def warnings(text: str) -> list[str]:
    return [str(p) for p in load(text).problems if p.severity == "warning"]


def test_a_valid_rule_compiles() -> None:
    result = load(
        """\
        version: 1
        rules:
          - id: no-force-push
            match: {tool: Bash, command: git push --force}
            action: deny
            reason: nope
            priority: 5
            metadata: {owner: sec, ticket: SEC-1, tags: [git]}
        """
    )
    assert result.problems == []
    (rule,) = result.rules
    assert rule["on"] == {"tool.before": None}
    assert rule["m"]["tool"]["names"] == ["Bash", "shell"]
    assert rule["m"]["command"][0]["flags"] == ["--force"]
    assert rule["metadata"]["tags"] == ["git"]
    assert (rule["line"], rule["column"]) == (3, 5)


def test_unknown_key_says_did_you_mean_with_position() -> None:
    assert errors(
        """\
        version: 1
        rules:
          - id: x
            actoin: deny
            match: {tool: shell}
        """
    ) == [
        "p.yaml:4:5: error: rule #1: unknown key 'actoin'; did you mean 'action'? (allowed: "
        "id, description, events, match, when, action, reason, message, context, rewrite, "
        "validator, max_retries, ask_fallback, relay, mode, priority, enabled, metadata)",
    ]  # one typo, one error: not also "has no 'action'"


def test_unknown_match_key() -> None:
    (error,) = errors(
        """\
        version: 1
        rules:
          - id: x
            match: {tool: shell, comand: ls}
            action: deny
        """
    )
    assert "p.yaml:4:26: error: match: unknown key 'comand'; did you mean 'command'?" in error


def test_invalid_regex_points_into_the_string() -> None:
    (error,) = errors(
        """\
        version: 1
        rules:
          - id: x
            match:
              command: {regex: "git (push"}
            action: deny
        """
    )
    assert error.startswith("p.yaml:5:29: error: command.regex: invalid regular expression")


def test_invalid_glob_and_condition_positions() -> None:
    found = errors(
        """\
        version: 1
        rules:
          - id: x
            match: {tool: "[abc", files: "a{b"}
            when: 'env.CI = "1"'
            action: deny
        """
    )
    assert found[0].startswith("p.yaml:4:20: error: tool: invalid glob: unclosed '['")
    assert found[1].startswith("p.yaml:4:36: error: files: invalid glob: unclosed '{'")
    assert found[2].startswith("p.yaml:5:19: error: when: '=' is not an operator")


def test_block_scalar_condition_position() -> None:
    (error,) = errors(
        """\
        version: 1
        rules:
          - id: x
            match: {tool: shell}
            when: >-
              tool == "shell"
              and nope
            action: deny
        """
    )
    assert error.startswith("p.yaml:7:11: error: when: unknown name 'nope'")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("version: 2\nrules: []", "unsupported version '2'"),
        ('version: "1"\n', "unsupported version"),
        ("rules: []", "missing 'version: 1'"),
        ("version: 1\nrules: {}", "rules must be a list"),
        ("version: 1\nrules:\n  - id: a\n    action: deny\n", "say which events"),
        (
            "version: 1\nrules:\n  - id: a\n    events: tool.before\n    action: deny\n",
            "applies to every tool call",
        ),
        (
            "version: 1\nrules:\n  - id: a\n    events: [session.end]\n    action: deny\n",
            "means nothing on session.end",
        ),
        (
            "version: 1\nrules:\n  - id: a\n    match: {tool: x}\n    action: rewrite\n",
            "needs 'rewrite'",
        ),
        (
            "version: 1\nrules:\n  - id: a\n    match: {tool: x}\n    action: deny\n    max_retries: 2\n",
            "'max_retries' applies only to action 'retry'",
        ),
        (
            "version: 1\nrules:\n  - id: a b\n    match: {tool: x}\n    action: deny\n",
            "rule id 'a b'",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x}, action: deny}\n  - {id: a, match: {tool: x}, action: deny}\n",
            "duplicate rule id 'a'",
        ),
        ("version: 1\nversion: 1\n", "duplicate key 'version'"),
        (
            "version: 1\nrules:\n  - {id: a, events: nope, action: message, message: m}\n",
            "unknown event 'nope'",
        ),
        (
            "version: 1\nrules:\n  - {id: a, events: [tool.befor], action: message, message: m}\n",
            "did you mean 'tool.before'",
        ),
        (
            "version: 1\nsettings: {ask_fallback: maybe}\n",
            "ask_fallback must be one of deny, allow",
        ),
        ("version: 1\nsettings: {validator_timeout: -1}\n", "positive number of seconds"),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x}, action: deny, priority: high}\n",
            "priority must be an integer",
        ),
        ("version: 1\n---\nversion: 1\n", "one YAML document"),
        ("version: 1\nrules: [\n", "invalid YAML"),
        (
            "version: 1\nrules:\n  - {id: a, match: {command: 'a && b'}, action: deny}\n",
            "one simple command",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {command: {flags: [x]}}, action: deny}\n",
            "is not a flag",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x, fields: [{path: input.a, op: gt}]}, action: deny}\n",
            "needs a 'value'",
        ),
        (
            "version: 1\nrules:\n  - {id: a, events: tool.before, match: {tool: x}, action: retry, reason: r}\n",
            "means nothing on tool.before",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x}, action: deny, rewrite: {set: {a: 1}}}\n",
            "'rewrite' applies only",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x}, action: rewrite, rewrite: {replace: [{arg: c, with: x}]}}\n",
            "exactly one of 'pattern' and 'find'",
        ),
        (
            "version: 1\nrules:\n  - {id: a, match: {tool: x}, action: rewrite, rewrite: {replace: [{arg: c, pattern: a, with: '\\9'}]}}\n",
            "replace.with",
        ),
        ("version: 1\noverrides:\n  - {id: a}\n", "changes enabled, mode or priority"),
        ("<<: {a: 1}\nversion: 1\n", "merge keys"),
    ],
)
def test_invalid_policies(body: str, fragment: str) -> None:
    found = errors(body)
    assert any(fragment in e for e in found), found


def test_events_from_host_names_and_defaults() -> None:
    result = load(
        """\
        version: 1
        rules:
          - {id: a, events: [PreToolUse], match: {tool: shell}, action: deny}
          - {id: b, events: [BeforeAgent], action: context, context: c}
          - {id: c, events: ["claude:Stop"], action: retry, reason: again}
          - {id: d, match: {prompt: deploy}, action: context, context: c}
          - {id: e, match: {response: {contains: [TODO]}}, action: retry, reason: r}
          - {id: f, events: [tool.before, PreToolUse], match: {tool: shell}, action: deny}
        """
    )
    assert result.problems == []
    on = {r["id"]: r["on"] for r in result.rules}
    # every host with an event of that name
    assert on["a"] == {
        "tool.before": [
            f"{h}:PreToolUse"
            for h in ("augment", "claude", "cline", "codex", "copilot", "crush", "droid", "qwen")
        ]
    }
    assert on["b"] == {"agent.start": ["gemini:BeforeAgent"], "prompt": ["gemini:BeforeAgent"]}
    assert on["c"] == {"agent.stop": ["claude:Stop"]}
    assert on["d"] == {"prompt": None}
    assert on["e"] == {"agent.stop": None}
    assert on["f"] == {"tool.before": None}


def test_unknown_tool_is_a_warning_with_suggestion() -> None:
    found = warnings(
        """\
        version: 1
        rules:
          - {id: a, match: {tool: Bsh}, action: deny}
        """
    )
    assert found == [
        "p.yaml:3:27: warning: tool 'Bsh' is not a known tool; did you mean 'Bash'? "
        "(it matches only a tool of exactly that name)"
    ]


def test_empty_file_is_a_warning() -> None:
    assert [p.severity for p in load("# nothing\n").problems] == ["warning"]


def test_problem_str() -> None:
    assert str(Problem("f", 1, 2, "m")) == "f:1:2: error: m"


_YAMLISH = st.text(
    alphabet=st.sampled_from(list("version: 1\nrules-id:action deny match{}[],'\"tool*&!|>#")),
    max_size=120,
)


@given(_YAMLISH)
def test_any_text_loads_to_rules_or_problems(text: str) -> None:
    result = load_policy_text(text, "f.yaml", "project")
    for problem in result.problems:
        assert problem.line >= 1 and problem.column >= 1
        assert problem.message


@given(st.text(max_size=200))
def test_arbitrary_unicode_never_crashes(text: str) -> None:
    load_policy_text(text, "f.yaml", "project")


_KEYS = st.sampled_from(
    [
        "id",
        "action",
        "match",
        "events",
        "when",
        "tool",
        "command",
        "files",
        "reason",
        "mode",
        "priority",
        "enabled",
        "rewrite",
        "set",
        "validator",
        "prompt",
        "x",
    ]
)
_VALUES = st.sampled_from(
    [
        "deny",
        "shell",
        "[a, b]",
        "{tool: shell}",
        "1",
        "true",
        "'[x'",
        "'a && b'",
        "null",
        "tool.before",
        '"env.CI == 1"',
        "{regex: '('}",
        "-1",
        "[]",
        "{}",
    ]
)


@given(st.lists(st.tuples(_KEYS, _VALUES), max_size=8))
def test_random_rules_load_to_rules_or_problems(pairs: list[tuple[str, str]]) -> None:
    body = "\n".join(f"    {k}: {v}" for k, v in pairs)
    text = f"version: 1\nrules:\n  - id: r\n{body}\n" if pairs else "version: 1\n"
    result = load_policy_text(text, "f.yaml", "project")
    assert result.rules or result.problems or not pairs
