"""The hook environment: redaction rule by rule, GEMINI_* variables, command expansion."""

from __future__ import annotations

import os
from typing import Any

import pytest

from hookwise.config.environment import (
    RedactionConfig,
    expand_command,
    hook_environment,
    is_strict,
    redaction_reason,
    sanitize_environment,
)
from hookwise.protocol.jsvalue import UNDEFINED

ON = RedactionConfig(enabled=True)


def kept(env: dict[str, str], config: RedactionConfig = ON) -> set[str]:
    return set(sanitize_environment(env, config))


def test_off_by_default_everything_is_kept() -> None:
    env = {"MY_API_TOKEN": "x", "DATABASE_URL": "y", "V": "ghp_" + "a" * 36}
    assert sanitize_environment(env, RedactionConfig()) == env


def test_case_env_redaction_on() -> None:
    # the oracle's case env_redaction_on
    assert kept({"MY_API_TOKEN": "t", "PLAIN_VAR": "p"}) == {"PLAIN_VAR"}


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("GEMINI_CLI_API_KEY", "ghp_" + "a" * 36, None),  # rule 1 beats everything
        ("gemini_cli_x", "AKIAABCDEFGHIJKLMNOP", None),  # names compare upper-cased
        ("PLAIN", "-----BEGIN RSA PRIVATE KEY-----", "value looks like a secret"),
        ("PLAIN", "-----begin certificate-----", "value looks like a secret"),
        ("PLAIN", "https://user:pass@host", "value looks like a secret"),
        ("PLAIN", "smtp://u:p@h", "value looks like a secret"),
        ("PLAIN", "https://host/path@x", None),
        ("PLAIN", "ghp_" + "a" * 36, "value looks like a secret"),
        ("PLAIN", "github_pat_" + "a" * 36, "value looks like a secret"),
        ("PLAIN", "ghp_" + "a" * 35, None),
        ("PLAIN", "AIzaSy" + "-" * 33, "value looks like a secret"),
        ("PLAIN", "AKIA" + "0" * 16, "value looks like a secret"),
        ("PLAIN", "eyJ.x.y", "value looks like a secret"),
        ("PLAIN", "sk_live_" + "a" * 24, "value looks like a secret"),
        ("PLAIN", "rk_test_" + "a" * 24, "value looks like a secret"),
        ("PLAIN", "xoxb-123", "value looks like a secret"),
        ("GIT_CONFIG_KEY_0", "x", None),  # rule 3, before the name patterns
        ("GIT_CONFIG_KEY_0", "xoxb-1", "value looks like a secret"),  # but after values
        ("PATH", "/bin", None),
        ("HOME", "/h", None),
        ("DATABASE_URL", "x", "never-allowed name"),
        ("GOOGLE_CLOUD_PROJECT", "p", "never-allowed name"),
        ("MY_TOKEN", "x", "name contains TOKEN"),
        ("SECRET_THING", "x", "name contains SECRET"),
        ("DB_PASSWD", "x", "name contains PASSWD"),
        ("MONKEY", "x", "name contains KEY"),  # a substring test, as in the engine
        ("AUTHOR", "x", "name contains AUTH"),
        ("SSL_CERT_DIR", "x", "name contains CERT"),
        ("PLAIN_VAR", "", None),
    ],
)
def test_rules_one_by_one(key: str, value: str, reason: str | None) -> None:
    assert redaction_reason(key, value) == reason


def test_allowed_and_blocked_lists_are_case_insensitive() -> None:
    config = RedactionConfig(enabled=True, allowed=("my_token",), blocked=("plain", "path"))
    env = {"MY_TOKEN": "x", "PLAIN": "y", "PATH": "/bin", "OTHER": "z"}
    assert kept(env, config) == {"MY_TOKEN", "OTHER"}
    # allowed beats blocked; neither beats a secret-looking value
    both = RedactionConfig(enabled=True, allowed=("X",), blocked=("X",))
    assert kept({"X": "1"}, both) == {"X"}
    assert kept({"X": "xoxb-1"}, both) == set()


def test_allowed_does_not_rescue_never_allowed_before_it() -> None:
    config = RedactionConfig(enabled=True, allowed=("DATABASE_URL",))
    assert kept({"DATABASE_URL": "x"}, config) == {"DATABASE_URL"}


@pytest.mark.parametrize(
    ("env", "strict"),
    [
        ({"GITHUB_SHA": "abc"}, True),
        ({"GITHUB_SHA": ""}, False),
        ({"SURFACE": "Github"}, True),
        ({"SURFACE": "github"}, False),
        ({}, False),
    ],
)
def test_strict_mode_detection(env: dict[str, str], strict: bool) -> None:
    assert is_strict(env) is strict


def test_strict_mode_keeps_only_allowed_names_even_when_disabled() -> None:
    env = {
        "GITHUB_SHA": "abc",
        "PATH": "/bin",
        "PLAIN": "x",
        "GIT_CONFIG_A": "1",
        "GEMINI_CLI_B": "2",
    }
    assert kept(env, RedactionConfig()) == {"PATH", "GIT_CONFIG_A", "GEMINI_CLI_B"}
    assert kept(env, RedactionConfig(allowed=("PLAIN",))) == {
        "PATH",
        "GIT_CONFIG_A",
        "GEMINI_CLI_B",
        "PLAIN",
    }


def test_hook_environment_adds_gemini_variables_then_the_hook_env() -> None:
    env = hook_environment(
        {"PATH": "/bin", "GEMINI_CWD": "stale"},
        RedactionConfig(),
        cwd="/work",
        session_id="s1",
        plans_dir="/plans",
        hook_env={
            "GEMINI_PROJECT_DIR": "/override",
            "N": 5,
            "B": True,
            "Z": None,
            "L": [1, None, "a"],
            "O": {},
        },
    )
    assert env == {
        "PATH": "/bin",
        "GEMINI_CWD": "/work",
        "GEMINI_PROJECT_DIR": "/override",
        "GEMINI_PLANS_DIR": "/plans",
        "GEMINI_SESSION_ID": "s1",
        "CLAUDE_PROJECT_DIR": "/work",
        "N": "5",
        "B": "true",
        "Z": "null",
        "L": "1,,a",
        "O": "[object Object]",
    }


def test_hook_environment_drops_undefined_and_redacts_the_base_only() -> None:
    env = hook_environment(
        {"MY_TOKEN": "t"},
        ON,
        cwd=UNDEFINED,
        session_id=UNDEFINED,
        plans_dir="/p",
        hook_env={"MY_TOKEN": "from-hook"},
    )
    assert env == {"GEMINI_PLANS_DIR": "/p", "MY_TOKEN": "from-hook"}


def test_hook_environment_spreads_odd_env_values() -> None:
    env = hook_environment(
        {}, RedactionConfig(), cwd="/", session_id="s", plans_dir="p", hook_env="ab"
    )
    assert env["0"] == "a" and env["1"] == "b"
    env = hook_environment(
        {}, RedactionConfig(), cwd="/", session_id="s", plans_dir="p", hook_env=7
    )
    assert set(env) == {
        "GEMINI_PROJECT_DIR",
        "GEMINI_PLANS_DIR",
        "GEMINI_CWD",
        "GEMINI_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
    }


def test_hook_environment_defaults_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWISE_TEST_MARKER", "1")
    env = hook_environment(None, RedactionConfig(), cwd="/", session_id="s", plans_dir="p")
    assert env["HOOKWISE_TEST_MARKER"] == "1"
    assert os.environ.get("GEMINI_CWD") != "/" or env["GEMINI_CWD"] == "/"


# --------------------------------------------------------------------------- expansion


@pytest.fixture
def quote() -> object:
    """escape_shell_arg, from the sibling protocol module (skips until it exists)."""
    module = pytest.importorskip("hookwise.protocol.shellquote")
    return module.escape_shell_arg


def expand(command: str, cwd: str = "/w d", session: str = "s1", plans: str = "/p") -> str:
    return expand_command(command, cwd=cwd, session_id=session, plans_dir=plans)


def test_expansion_uses_shell_quoted_values(quote: Any) -> None:
    quoted = quote("/w d")
    assert expand("$GEMINI_PROJECT_DIR/x.sh") == f"{quoted}/x.sh"
    assert expand("$GEMINI_CWD $CLAUDE_PROJECT_DIR") == f"{quoted} {quoted}"
    assert expand("$GEMINI_SESSION_ID") == quote("s1")
    assert expand("$GEMINI_PLANS_DIR") == quote("/p")


def test_expansion_is_a_plain_text_replace(quote: Any) -> None:
    quoted = quote("/w d")
    assert expand("${GEMINI_PROJECT_DIR}/x") == "${GEMINI_PROJECT_DIR}/x"
    assert expand("$GEMINI_PROJECT_DIRX") == f"{quoted}X"
    assert expand('"$GEMINI_PROJECT_DIR"') == f'"{quoted}"'
    assert expand("$gemini_cwd") == "$gemini_cwd"
    assert expand("echo hi") == "echo hi"


def test_expansion_of_empty_values(quote: Any) -> None:
    assert expand("[$GEMINI_SESSION_ID]", session="") == f"[{quote('')}]"


def test_expansion_is_sequential_like_the_engine(quote: Any) -> None:
    # the cwd value itself contains a later variable's name: it is replaced too
    cwd = "/a$GEMINI_SESSION_ID"
    first = expand("$GEMINI_CWD", cwd=cwd)
    assert first == quote(cwd).replace("$GEMINI_SESSION_ID", quote("s1"))
