"""The policy file format, version 1: one definition for the loader, the JSON Schema and docs.

The loader (``loader.py``) takes the allowed keys and values from the tables here, so a key
the JSON Schema (``hookwise policy schema``) does not describe cannot be accepted, and the
reverse.
"""

from __future__ import annotations

from typing import Any, Final

from hookwise.policy.rules import actions
from hookwise.policy.rules.condition_syntax import ROOTS, TIME_FIELDS
from hookwise.policy.rules.packs import REFERENCE_RE
from hookwise.protocol.hosts import HOST_NAMES

FORMAT_VERSION: Final = 1
HOSTS: Final = HOST_NAMES
MODES: Final = ("enforce", "warn", "audit")
# The actions are defined once, in actions.py; these names are kept for readers.
ACTIONS: Final = actions.NAMES
BLOCKING_ACTIONS: Final = actions.BLOCKING
ACTION_EVENTS: Final[dict[str, frozenset[str]]] = actions.EVENTS
ACTION_DOCS: Final = actions.DOCS

SETTINGS_DEFAULTS: Final[dict[str, Any]] = {
    "on_error": {"tool_events": "deny", "other_events": "allow"},
    "ask_fallback": "deny",
    "gemini_ask": "auto",
    "retry_budget": 3,
    "validator_timeout": 10,
    "audit": {"enabled": True, "path": None, "max_bytes": 10 * 1024 * 1024, "keep": 5},
    "unparsable": "deny",
    "unverifiable": "ask",
    "self_protection": True,
    "require_confinement": False,
    "trust": {"check": True, "projects": []},
}


def default_settings() -> dict[str, Any]:
    """The settings with every default, flattened (``on_error.tool_events``...). Here, not in
    the compiler: the hook's broken-policy path needs them under ``-I -S``, without YAML."""
    flat: dict[str, Any] = {}
    for key, value in SETTINGS_DEFAULTS.items():
        if isinstance(value, dict):
            for sub, sub_value in value.items():
                flat[f"{key}.{sub}"] = sub_value
        else:
            flat[key] = value
    return flat


# the values of the settings that are one word of a list (the loader's and the schema's)
SETTINGS_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "ask_fallback": ("deny", "allow"),
    "gemini_ask": ("auto", "native", "fallback"),
}
# settings.approvals (the relay to ``hookwise serve``): no default; absent means no relay.
APPROVALS_DEFAULTS: Final[dict[str, Any]] = {
    "wait": 120,
    "on_timeout": "ask",
    "notify": [],
    "remember_minutes": 0,
    "interactive_wait": 15,
}
APPROVALS_MAX_WAIT_S: Final = 540  # the hosts' hook timeout must hold it (install adds margin)
APPROVALS_MAX_REMEMBER_MIN: Final = 1440
APPROVALS_NOTIFY_TYPES: Final = ("ntfy", "slack", "webhook")
APPROVALS_MAX_NOTIFY: Final = 8

FIELD_OPS: Final = {
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "in": "in",
    "not_in": "not in",
    "contains": "contains",
    "startswith": "startswith",
    "endswith": "endswith",
    "matches": "matches",
    "glob": "glob",
    "exists": "exists",
    "missing": "missing",
}

RULE_ID_DOC: Final = "letters, digits, '_', '-', '.'; unique across all scopes"


def _strings(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "oneOf": [
            {"type": "string"},
            {"type": "array", "items": {"type": "string"}, "minItems": 1},
        ],
    }


_TEXT_MATCH: Final = {
    "oneOf": [
        {"type": "string", "description": "a regular expression (searched, case-insensitive)"},
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "regex": _strings("regular expressions (Python syntax), searched"),
                "words": _strings("whole words (no regex)"),
                "contains": _strings("substrings"),
                "mode": {"enum": ["any", "all"], "default": "any"},
                "case_sensitive": {"type": "boolean", "default": False},
            },
        },
    ]
}

_COMMAND_OBJECT: Final = {
    "type": "object",
    "additionalProperties": False,
    "description": "all given keys must hold for one simple command of the line",
    "properties": {
        "program": _strings("globs on the program's name (wrappers like sudo skipped)"),
        "args": _strings("globs that positional arguments must match, in this order"),
        "flags": _strings("flags that must all be present (-f matches -rf; --force exact)"),
        "any_flags": _strings("flags of which one must be present"),
        "regex": _strings("regular expressions searched in the simple command's text"),
        "line_regex": _strings("regular expressions searched in the whole command line"),
        "reads": {
            "type": "boolean",
            "description": "true: a program that reads its file operands' contents, which is "
            "every program but those the catalog knows not to (ls, stat, chmod, cp, ssh-add, "
            "git, grep...: shell/commands/operands.py NON_READERS); with files, any reader of them",
        },
        "writes": _strings(
            "globs one of the files the simple command writes must match (redirect "
            "targets >, >>, >|, &>, find -fprint, sed w, awk print >, open(..., 'w')), as written"
        ),
    },
}

SCHEMA: Final[dict[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://hookwise.dev/schema/policy-v1.json",
    "title": "hookwise policy",
    "description": "Rules that `hookwise hook` enforces for Gemini CLI, Claude Code and Codex.",
    "type": "object",
    "additionalProperties": False,
    "required": ["version"],
    "properties": {
        "version": {"const": FORMAT_VERSION, "description": "format version"},
        "settings": {"$ref": "#/$defs/settings"},
        "extends": {
            "type": "array",
            "description": "built-in rule packs whose rules join this file's: hookwise/NAME "
            "(newest version) or hookwise/NAME@VERSION; ids become hookwise/NAME:RULE",
            "items": {"type": "string", "pattern": REFERENCE_RE.pattern},
        },
        "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
        "overrides": {
            "type": "array",
            "description": "change rules of lower scopes by id (never managed ones)",
            "items": {"$ref": "#/$defs/override"},
        },
    },
    "$defs": {
        "settings": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "on_error": {
                    "type": "object",
                    "additionalProperties": False,
                    "description": "what an error (broken policy, bad input) answers",
                    "properties": {
                        "tool_events": {"enum": ["deny", "allow"], "default": "deny"},
                        "other_events": {"enum": ["allow", "deny"], "default": "allow"},
                    },
                },
                "ask_fallback": {
                    "enum": ["deny", "allow"],
                    "default": "deny",
                    "description": "what `ask` becomes where the host cannot ask (Codex)",
                },
                "gemini_ask": {
                    "enum": ["auto", "native", "fallback"],
                    "default": "auto",
                    "description": "auto: Gemini asks the user in an interactive session and "
                    "ask_fallback applies in a headless one (`gemini -p`, no terminal), which "
                    "would otherwise wait forever; native: always Gemini's own prompt; "
                    "fallback: always ask_fallback",
                },
                "retry_budget": {
                    "type": "integer",
                    "minimum": 0,
                    "default": 3,
                    "description": "consecutive retries a retry rule may cause per session",
                },
                "validator_timeout": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "default": 10,
                    "description": "seconds",
                },
                "audit": {
                    "type": "object",
                    "additionalProperties": False,
                    "description": "path, max_bytes and keep are read from the user and "
                    "managed policies only",
                    "properties": {
                        "enabled": {"type": "boolean", "default": True},
                        "path": {"type": "string", "description": "JSONL file"},
                        "max_bytes": {"type": "integer", "minimum": 1024},
                        "keep": {"type": "integer", "minimum": 0},
                    },
                },
                "unparsable": {
                    "enum": ["deny", "ask"],
                    "default": "deny",
                    "description": "a shell command the parser could not finish (a nesting "
                    "or size limit, an unclosed quote): deny, or ask where the host can",
                },
                "unverifiable": {
                    "enum": ["deny", "ask", "allow"],
                    "default": "ask",
                    "description": "a command whose program or words are known only when it "
                    "runs ($a, $(printf rm), a script piped into sh): deny, ask (deny where "
                    "the host cannot ask) or allow (the rules still match it as if it were "
                    "any program)",
                },
                "self_protection": {
                    "type": "boolean",
                    "default": True,
                    "description": "deny tool calls that change policy files, the trust "
                    "store, the audit log or the hosts' hook settings (user and managed "
                    "policies only)",
                },
                "require_confinement": {
                    "type": "boolean",
                    "default": False,
                    "description": "deny every tool call of an agent not started under "
                    "`hookwise run` (whose guardrail files are read-only at the OS level), "
                    "with a reason that says how to start it (user and managed policies only)",
                },
                "approvals": {"$ref": "#/$defs/approvals"},
                "trust": {
                    "type": "object",
                    "additionalProperties": False,
                    "description": "which project policies apply in full (user and managed "
                    "policies only); the others apply only their deny, ask, context, message "
                    "and stop rules",
                    "properties": {
                        "check": {
                            "type": "boolean",
                            "default": True,
                            "description": "false: trust every project policy",
                        },
                        "projects": _strings(
                            "directory trees whose project policies are trusted as they are"
                        ),
                    },
                },
            },
        },
        "approvals": {
            "type": "object",
            "additionalProperties": False,
            "description": "send `ask` decisions to a person through `hookwise serve` (user "
            "and managed policies only): the hook opens an approval request and waits for "
            "an approver's answer; no answer or no service: on_timeout, never an allow",
            "required": ["url"],
            "oneOf": [{"required": ["token_env"]}, {"required": ["token_file"]}],
            "properties": {
                "url": {
                    "type": "string",
                    "description": "the service's base URL: https://..., or http:// to a "
                    "loopback address",
                },
                "token_env": {
                    "type": "string",
                    "description": "environment variable holding an agent-role token",
                },
                "token_file": {
                    "type": "string",
                    "description": "file holding an agent-role token (outside the project, "
                    "not readable by other users)",
                },
                "wait": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": APPROVALS_MAX_WAIT_S,
                    "default": APPROVALS_DEFAULTS["wait"],
                    "description": "seconds to wait for a decision",
                },
                "on_timeout": {
                    "enum": ["ask", "deny"],
                    "default": APPROVALS_DEFAULTS["on_timeout"],
                    "description": "no decision in time or no service: ask (the host's own "
                    "prompt where a person can answer it, else deny) or deny",
                },
                "notify": {
                    "type": "array",
                    "maxItems": APPROVALS_MAX_NOTIFY,
                    "description": "where the service announces each request",
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["type", "url"],
                        "properties": {
                            "type": {"enum": list(APPROVALS_NOTIFY_TYPES)},
                            "url": {"type": "string", "description": "http(s) URL"},
                        },
                    },
                },
                "remember_minutes": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": APPROVALS_MAX_REMEMBER_MIN,
                    "default": 0,
                    "description": "the longest 'same command again in this session' window "
                    "an approver may grant (0: every call asks)",
                },
                "interactive_wait": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": APPROVALS_MAX_WAIT_S,
                    "default": APPROVALS_DEFAULTS["interactive_wait"],
                    "description": "in a session a person watches: seconds to wait for a "
                    "remote answer before withdrawing the request and letting the host ask",
                },
            },
        },
        "rule": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "action"],
            "properties": {
                "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$"},
                "description": {"type": "string"},
                "events": {
                    "description": "canonical events or host event names; default: "
                    "tool.before for tool matchers, prompt for prompt, agent.stop for retry",
                    "oneOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    ],
                },
                "match": {"$ref": "#/$defs/match"},
                "when": {
                    "type": "string",
                    "description": "a condition (see `hookwise policy docs`)",
                },
                "action": {"enum": list(ACTIONS)},
                "reason": {"type": "string"},
                "message": {"type": "string", "description": "shown to the user"},
                "context": {"type": "string", "description": "added for the model"},
                "rewrite": {"$ref": "#/$defs/rewrite"},
                "validator": {"$ref": "#/$defs/validator"},
                "max_retries": {"type": "integer", "minimum": 0},
                "ask_fallback": {"enum": ["deny", "allow"]},
                "relay": {
                    "type": "boolean",
                    "default": True,
                    "description": "ask rules: false keeps this ask off settings.approvals "
                    "(the host's prompt or ask_fallback decides)",
                },
                "mode": {"enum": list(MODES), "default": "enforce"},
                "priority": {"type": "integer", "default": 0},
                "enabled": {"type": "boolean", "default": True},
                "metadata": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "owner": {"type": "string"},
                        "ticket": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "url": {"type": "string"},
                        "notes": {"type": "string"},
                    },
                },
            },
        },
        "match": {
            "type": "object",
            "additionalProperties": False,
            "description": "all given matchers must hold",
            "properties": {
                "tool": _strings("globs on the canonical tool name (a host's name works too)"),
                "tool_regex": _strings("regular expressions on the canonical or host tool name"),
                "host_tool": _strings("globs on the host's own tool name only"),
                "host": {
                    "oneOf": [
                        {"enum": list(HOSTS)},
                        {"type": "array", "items": {"enum": list(HOSTS)}},
                    ]
                },
                "command": {
                    "description": "shell-aware: a command pattern like 'git push --force', "
                    "an object, or a list of them (any)",
                    "oneOf": [
                        {"type": "string"},
                        _COMMAND_OBJECT,
                        {
                            "type": "array",
                            "items": {"oneOf": [{"type": "string"}, _COMMAND_OBJECT]},
                        },
                    ],
                },
                "files": {
                    "description": "path arguments (relative to the event's cwd)",
                    "oneOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string"}},
                        {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "globs": _strings("globs; without '/', on any path component"),
                                "extensions": _strings("file extensions, e.g. .py"),
                                "outside_workspace": {"type": "boolean"},
                                "known_paths_only": {"type": "boolean"},
                                "operands_only": {"type": "boolean"},
                                "exclude": _strings("globs of paths to ignore"),
                            },
                        },
                    ],
                },
                "prompt": _TEXT_MATCH,
                "response": _TEXT_MATCH,
                "mcp": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"server": _strings("globs"), "tool": _strings("globs")},
                },
                "fields": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["path", "op"],
                        "properties": {
                            "path": {"type": "string", "description": "e.g. input.timeout"},
                            "op": {"enum": list(FIELD_OPS)},
                            "value": {},
                        },
                    },
                },
            },
        },
        "rewrite": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "set": {"type": "object", "description": "argument -> new value"},
                "replace": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["arg", "with"],
                        "properties": {
                            "arg": {"type": "string"},
                            "pattern": {"type": "string", "description": "regular expression"},
                            "find": {"type": "string", "description": "literal text"},
                            "with": {"type": "string"},
                        },
                    },
                },
            },
        },
        "validator": {
            "type": "object",
            "additionalProperties": False,
            "required": ["command"],
            "properties": {
                "command": {"type": "string", "description": "run with sh -c; event on stdin"},
                "timeout": {"type": "number", "exclusiveMinimum": 0, "description": "seconds"},
                "on_error": {"enum": ["deny", "allow"], "default": "deny"},
            },
        },
        "override": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "enabled": {"type": "boolean"},
                "mode": {"enum": list(MODES)},
                "priority": {"type": "integer"},
            },
        },
    },
}


def keys_of(definition: str) -> tuple[str, ...]:
    """The keys a section of the format allows (``rule``, ``match``, ...)."""
    if definition == "policy":
        return tuple(SCHEMA["properties"])
    node = SCHEMA["$defs"][definition]
    return tuple(node["properties"])


def sub_keys(definition: str, key: str) -> tuple[str, ...]:
    """The keys of an inline object inside a section (``settings.on_error``...)."""
    node = SCHEMA["$defs"][definition]["properties"][key]
    if "properties" in node:
        return tuple(node["properties"])
    for option in node.get("oneOf", ()):
        if option.get("type") == "object":
            return tuple(option["properties"])
    raise KeyError(f"{definition}.{key} has no object form")


def condition_roots() -> dict[str, str]:
    return dict(ROOTS)


__all__ = [
    "ACTIONS",
    "ACTION_DOCS",
    "ACTION_EVENTS",
    "FIELD_OPS",
    "FORMAT_VERSION",
    "HOSTS",
    "MODES",
    "SCHEMA",
    "SETTINGS_DEFAULTS",
    "TIME_FIELDS",
    "default_settings",
    "keys_of",
    "sub_keys",
]
