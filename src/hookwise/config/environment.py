"""The environment a hook process gets, and the text expansion of its command.

A port of Gemini CLI's ``sanitizeEnvironment`` (services/environmentSanitization.ts) and of
the env block and ``expandCommand`` of hookRunner.ts. Hook scripts written for Gemini read
``GEMINI_PROJECT_DIR`` and friends, and may rely on a secret *not* being visible, so both the
variables and the redaction rules must be the engine's, rule for rule and in the same order.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string, spread

# ECMAScript ``\s`` (WhiteSpace + LineTerminator), for the value patterns below.
_JS_WS: Final = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)


@dataclass(frozen=True)
class RedactionConfig:
    """``security.environmentVariableRedaction``: off unless enabled (or forced by CI)."""

    enabled: bool = False
    allowed: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()


ALWAYS_ALLOWED: Final = frozenset(
    {
        "PATH",
        "SYSTEMROOT",
        "COMSPEC",
        "PATHEXT",
        "WINDIR",
        "TEMP",
        "TMP",
        "USERPROFILE",
        "SYSTEMDRIVE",
        "HOME",
        "LANG",
        "SHELL",
        "TMPDIR",
        "USER",
        "LOGNAME",
        "TERM",
        "COLORTERM",
        "ADDITIONAL_CONTEXT",
        "AVAILABLE_LABELS",
        "BRANCH_NAME",
        "DESCRIPTION",
        "EVENT_NAME",
        "GITHUB_ENV",
        "IS_PULL_REQUEST",
        "ISSUES_TO_TRIAGE",
        "ISSUE_BODY",
        "ISSUE_NUMBER",
        "ISSUE_TITLE",
        "PULL_REQUEST_NUMBER",
        "REPOSITORY",
        "TITLE",
        "TRIGGERING_ACTOR",
    }
)

NEVER_ALLOWED: Final = frozenset(
    {
        "CLIENT_ID",
        "DB_URI",
        "CONNECTION_STRING",
        "AWS_DEFAULT_REGION",
        "AZURE_CLIENT_ID",
        "AZURE_TENANT_ID",
        "SLACK_WEBHOOK_URL",
        "TWILIO_ACCOUNT_SID",
        "DATABASE_URL",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_ACCOUNT",
        "FIREBASE_PROJECT_ID",
    }
)

# The engine tests /TOKEN/i etc. against the upper-cased name: a substring test.
NEVER_ALLOWED_NAME_PARTS: Final = (
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "KEY",
    "AUTH",
    "CREDENTIAL",
    "CREDS",
    "PRIVATE",
    "CERT",
)

# The engine upper-cases the value, then tests case-insensitive regexes. On an upper-cased
# string that is the same as these upper-case patterns without a flag (JS ``/i`` never folds
# a non-ASCII character onto ASCII), and it avoids Python's wider Unicode case folding.
NEVER_ALLOWED_VALUE_PATTERNS: Final = tuple(
    re.compile(p)
    for p in (
        r"-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----",
        r"-----BEGIN CERTIFICATE-----",
        rf"(HTTPS?|FTP|SMTP)://[^:{_JS_WS}]{{1,1024}}:[^@{_JS_WS}]{{1,1024}}@",
        r"(GHP|GHO|GHU|GHS|GHR|GITHUB_PAT)_[A-Z0-9_]{36,}",
        r"AIZASY[A-Z0-9_\\\-]{33}",
        r"AKIA[A-Z0-9]{16}",
        r"EYJ[A-Z0-9_-]{0,10240}\.[A-Z0-9_-]{0,10240}\.[A-Z0-9_-]{0,10240}",
        r"(S|R)K_(LIVE|TEST)_[0-9A-Z]{24}",
        r"XOX[ABPR]-[A-Z0-9-]+",
    )
)


def is_strict(env: Mapping[str, str]) -> bool:
    """Strict redaction is forced on GitHub runners (``GITHUB_SHA`` set or ``SURFACE=Github``)."""
    return bool(env.get("GITHUB_SHA")) or env.get("SURFACE") == "Github"


def redaction_reason(
    key: str,
    value: str | None,
    allowed: frozenset[str] = frozenset(),
    blocked: frozenset[str] = frozenset(),
    strict: bool = False,
) -> str | None:
    """Why the engine would drop this variable (None: kept). The rules run in this order.

    ``allowed``/``blocked`` must already be upper-cased, as the engine does.
    """
    key = key.upper()
    upper_value = value.upper() if value else value
    if key.startswith("GEMINI_CLI_"):
        return None
    if upper_value:
        for pattern in NEVER_ALLOWED_VALUE_PATTERNS:
            if pattern.search(upper_value):
                return "value looks like a secret"
    if key.startswith("GIT_CONFIG_"):
        return None
    if key in allowed:
        return None
    if key in blocked:
        return "in the blocked list"
    if key in ALWAYS_ALLOWED:
        return None
    if key in NEVER_ALLOWED:
        return "never-allowed name"
    if strict:
        return "strict mode keeps only allowed names"
    for part in NEVER_ALLOWED_NAME_PARTS:
        if part in key:
            return f"name contains {part}"
    return None


def sanitize_environment(env: Mapping[str, str], config: RedactionConfig) -> dict[str, str]:
    """The engine's ``sanitizeEnvironment``: a copy, redacted only when enabled or strict."""
    strict = is_strict(env)
    if not config.enabled and not strict:
        return dict(env)
    allowed = frozenset(k.upper() for k in config.allowed)
    blocked = frozenset(k.upper() for k in config.blocked)
    return {
        key: value
        for key, value in env.items()
        if redaction_reason(key, value, allowed, blocked, strict) is None
    }


def hook_environment(
    base_env: Mapping[str, str] | None,
    redaction: RedactionConfig,
    *,
    cwd: JSON,
    session_id: JSON,
    plans_dir: JSON,
    hook_env: JSON = UNDEFINED,
) -> dict[str, str]:
    """The child env: sanitized base, then the GEMINI_* variables, then the hook's ``env``.

    The hook's own ``env`` comes last, so it can override GEMINI_PROJECT_DIR and the rest,
    as in the engine. Values are turned into strings the way Node's ``spawn`` does
    (``String(value)``); ``undefined`` ones (a missing cwd or session id) are left out.
    """
    env: dict[str, JSON] = dict(
        sanitize_environment(os.environ if base_env is None else base_env, redaction)
    )
    env["GEMINI_PROJECT_DIR"] = cwd
    env["GEMINI_PLANS_DIR"] = plans_dir
    env["GEMINI_CWD"] = cwd
    env["GEMINI_SESSION_ID"] = session_id
    env["CLAUDE_PROJECT_DIR"] = cwd  # "for compatibility", says the engine
    env.update(spread(hook_env))
    return {key: js_string(value) for key, value in env.items() if value is not UNDEFINED}


# The variables expandCommand replaces, in the engine's order; the value is the source.
EXPANDED_VARIABLES: Final = (
    ("$GEMINI_PROJECT_DIR", "cwd"),
    ("$GEMINI_CWD", "cwd"),
    ("$GEMINI_PLANS_DIR", "plans_dir"),
    ("$GEMINI_SESSION_ID", "session_id"),
    ("$CLAUDE_PROJECT_DIR", "cwd"),
)


def expand_command(command: str, *, cwd: str, session_id: str, plans_dir: str) -> str:
    """The engine's ``expandCommand``: ``$GEMINI_PROJECT_DIR`` etc. become shell-quoted text.

    A plain, global, sequential text replacement: ``${GEMINI_PROJECT_DIR}`` is left for bash
    to expand from the environment, and ``$GEMINI_PROJECT_DIRX`` gets its prefix replaced.
    """
    if "$" not in command:
        return command
    from hookwise.protocol.shellquote import escape_shell_arg

    values = {
        "cwd": escape_shell_arg(cwd),
        "plans_dir": escape_shell_arg(plans_dir),
        "session_id": escape_shell_arg(session_id),
    }
    for needle, source in EXPANDED_VARIABLES:
        command = command.replace(needle, values[source])
    return command
