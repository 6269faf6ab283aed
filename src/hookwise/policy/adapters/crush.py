"""Crush (from its published reference, protocol/reference/crush.py; nothing observed):
Claude Code's PreToolUse payload with Crush's tool names (``bash``, ``view``, ``edit``...).
Its reference names both exit 2 and JSON ``decision: "deny"`` as a deny and calls itself
Claude Code compatible, without settling which JSON spelling wins: a deny is exit 2 with the
reason on stderr and, on stdout, the JSON in both spellings. An ask is ask_fallback (Crush's
ask is not confirmed); a rewrite is a deny (its ``updated_input`` is not confirmed either).
"""

from __future__ import annotations

from hookwise.policy.adapters.exit2_answer import claude_shaped, exit2_answer_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HOST = "crush"


def _deny(reason: str) -> dict[str, Any]:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    return {"decision": "deny", "reason": reason, "hookSpecificOutput": specific}


decode, encode = claude_shaped(HOST, _deny)
answer_problem = exit2_answer_problem
