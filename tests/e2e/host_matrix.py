"""The answer matrix of GitHub Copilot CLI and Qwen Code: every form hookwise may answer in,
and every way a hook can fail, on the pre-tool event (and Copilot's permissionRequest).

Not a product of dimensions like matrix.py (these hosts read fewer fields): one cell per
form a policy hook answers in (deny, ask, allow, rewrite, context, each in the host's own
fields), per exit-code form (exit 2 with stderr, exit 2 with the JSON on stdout, a crash),
per malformed answer (plain text, truncated JSON, nothing) and a hook that outlives its
timeout. GitHub Copilot CLI reads a different payload and answer form depending on how the
event key is spelled, so its pre-tool cells run on both keys: ``PreToolUse`` (what
``hookwise install`` registers; Claude Code's ``hookSpecificOutput``) and ``preToolUse``
(Copilot's own top-level fields).

Each text carries its audience's token (observe.py). The fake model asks for
``echo hi > marker``; a rewrite asks for ``echo hi > marker-modified``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.matrix import Cell, out
from tests.e2e.observe import CONTEXT, REASON

HOST_CLIS = ("copilot", "qwen")

R = f"{REASON}: marker files are forbidden"
C = f"{CONTEXT}: the marker directory is scratch space"
REWRITTEN = {"command": "echo hi > marker-modified", "description": "Write the marker file"}
# a hook past its timeout: the timeout (s) and how long the hook sleeps before it denies
TIMEOUT_S, SLEEP_S = 3, 9
# the run's limit when the hook sleeps (the host may wait for it)
SLOW_LIMIT_S = 60.0


def _specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def _claude_forms(event: str) -> list[tuple[str, dict[str, Any], str]]:
    """Claude Code's answer forms on a PreToolUse key (Qwen Code, Copilot's PascalCase)."""
    deny = _specific(event, permissionDecision="deny", permissionDecisionReason=R)
    return [
        ("deny", out(0, deny), "permissionDecision deny + reason"),
        (
            "ask",
            out(0, _specific(event, permissionDecision="ask", permissionDecisionReason=R)),
            "permissionDecision ask + reason (headless: nobody to ask)",
        ),
        ("allow", out(0, _specific(event, permissionDecision="allow")), "permissionDecision allow"),
        (
            "rewrite",
            out(0, _specific(event, permissionDecision="allow", updatedInput=REWRITTEN)),
            "allow + updatedInput",
        ),
        ("context", out(0, _specific(event, additionalContext=C)), "additionalContext"),
        ("top_block", out(0, {"decision": "block", "reason": R}), "top-level decision block"),
        (
            "top_deny",
            out(0, {"permissionDecision": "deny", "permissionDecisionReason": R}),
            "Copilot's top-level permissionDecision deny",
        ),
        ("exit2_json", out(2, deny), "exit 2, the deny JSON on stdout, stderr empty"),
    ]


def _top_forms() -> list[tuple[str, dict[str, Any], str]]:
    """Copilot's own top-level forms (camelCase preToolUse)."""
    return [
        ("deny", out(0, {"permissionDecision": "deny", "permissionDecisionReason": R}), "deny"),
        ("ask", out(0, {"permissionDecision": "ask", "permissionDecisionReason": R}), "ask"),
        ("allow", out(0, {"permissionDecision": "allow"}), "allow"),
        (
            "rewrite",
            out(0, {"permissionDecision": "allow", "modifiedArgs": REWRITTEN}),
            "allow + modifiedArgs",
        ),
        ("context", out(0, {"additionalContext": C}), "additionalContext"),
        (
            "claude_deny",
            out(0, _specific("PreToolUse", permissionDecision="deny", permissionDecisionReason=R)),
            "Claude Code's hookSpecificOutput deny",
        ),
        ("top_block", out(0, {"decision": "block", "reason": R}), "top-level decision block"),
        (
            "exit2_json",
            out(2, {"permissionDecision": "deny", "permissionDecisionReason": R}),
            "exit 2, the deny JSON on stdout, stderr empty",
        ),
    ]


def _failures(no: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """Exit codes and malformed answers; ``no`` is the event's deny answer (JSON)."""
    slow = out(0, no, sleep=SLEEP_S, hook_timeout_s=TIMEOUT_S)
    return [
        ("exit2_stderr", out(2, stderr=R), "exit 2, the reason on stderr"),
        ("exit2_empty", out(2), "exit 2, nothing printed"),
        ("crash", out(1, stderr=R), "exit 1 (a crash), text on stderr"),
        ("text", out(0, f"{C}\n"), "exit 0, plain text on stdout"),
        ("truncated", out(0, json.dumps(no)[:-8]), "exit 0, truncated JSON"),
        ("empty", out(0), "exit 0, nothing printed"),
        ("timeout", slow, f"denies after {SLEEP_S} s, its timeout {TIMEOUT_S} s"),
    ]


def _cells(prefix: str, event: str, forms: list[tuple[str, dict[str, Any], str]]) -> list[Cell]:
    return [
        Cell(
            f"{prefix}-{name}",
            event,
            answer,
            note,
            limit_s=SLOW_LIMIT_S if "sleep" in answer else None,
        )
        for name, answer, note in forms
    ]


def cells(cli: str) -> list[Cell]:
    """Every cell of ``cli``'s matrix."""
    if cli == "qwen":
        deny = _specific("PreToolUse", permissionDecision="deny", permissionDecisionReason=R)
        return _cells("pre", "PreToolUse", _claude_forms("PreToolUse") + _failures(deny))
    pascal_deny = _specific("PreToolUse", permissionDecision="deny", permissionDecisionReason=R)
    top_deny = {"permissionDecision": "deny", "permissionDecisionReason": R}
    perm_deny = {"behavior": "deny", "message": R}
    permission = [
        ("deny", out(0, perm_deny), "behavior deny + message"),
        ("allow", out(0, {"behavior": "allow"}), "behavior allow"),
        ("exit2_stderr", out(2, stderr=R), "exit 2, the reason on stderr"),
        ("crash", out(1, stderr=R), "exit 1 (a crash)"),
        ("empty", out(0), "exit 0, nothing printed"),
    ]
    return (
        _cells("pascal", "PreToolUse", _claude_forms("PreToolUse") + _failures(pascal_deny))
        + _cells("camel", "preToolUse", _top_forms() + _failures(top_deny))
        + _cells("perm", "permissionRequest", permission)
    )


# The cells `make test` runs live (the rest replay from the fixtures): hookwise's forms
# and the failure semantics its failure answers depend on.
SAMPLE: dict[str, tuple[str, ...]] = {
    "copilot": ("pascal-deny", "pascal-exit2_stderr", "pascal-crash", "camel-deny"),
    "qwen": ("pre-deny", "pre-exit2_empty", "pre-crash", "pre-rewrite"),
}


def sample(cli: str) -> list[Cell]:
    wanted = SAMPLE[cli]
    return [cell for cell in cells(cli) if cell.id in wanted]
