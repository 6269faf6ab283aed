"""Kiro CLI (from its published reference, protocol/reference/kiro.py; nothing observed):
Claude-shaped payloads (``hook_event_name``, ``tool_name``, ``tool_input``) with Kiro's tool
names; only ``preToolUse`` blocks, by exit 2 with the reason on stderr (returned to the
model). No ask, rewrite or context: ask_fallback, and a rewrite is a deny.
"""

from __future__ import annotations

from hookwise.policy.adapters.exit2_answer import claude_shaped, exit2_answer_problem

HOST = "kiro"
decode, encode = claude_shaped(HOST)
answer_problem = exit2_answer_problem
