"""Augment's Auggie (from its published reference, protocol/reference/augment.py; nothing
observed): Claude Code's payloads with Auggie's tool names (``launch-process``,
``save-file``...); ``PreToolUse`` blocks by exit 2 with the reason on stderr; ``Stop``
sends the agent back with ``decision: "block"``. No ask, rewrite or context: ask_fallback,
and a rewrite is a deny.
"""

from __future__ import annotations

from hookwise.policy.adapters.exit2_answer import claude_shaped, exit2_answer_problem

HOST = "augment"
decode, encode = claude_shaped(HOST)
answer_problem = exit2_answer_problem
