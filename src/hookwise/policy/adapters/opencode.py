"""OpenCode: payload -> canonical events, decision -> the answer hookwise's plugin obeys.

OpenCode has no command hooks; hookwise's plugin (policy/install/plugin/hookwise.js) runs
``hookwise hook --platform opencode`` on ``tool.execute.before`` and throws on a deny. The
answer rules are the plugin's, shared with the other plugin host (plugin_host.py).
"""

from __future__ import annotations

from hookwise.policy.adapters import plugin_host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.adapters.base import Answer
    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "opencode"


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return plugin_host.decode(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    return plugin_host.encode(HOST, decision, events, tables, settings)
