"""One adapter per host: ``decode`` a payload into canonical events, ``encode`` a decision.

``detect_platform`` tells the hosts apart from the payload when ``--platform`` is omitted:
an event name only one host uses decides; otherwise Codex's ``turn_id``/``model`` fields,
Gemini's ``timestamp``, and last the environment the host gives its hooks
(``GEMINI_SESSION_ID``, ``CODEX_*``); Claude Code is the default.
"""

from __future__ import annotations

from hookwise.policy.adapters.base import Answer, DecodeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

PLATFORMS = ("gemini", "claude", "codex", "opencode", "kilo")

__all__ = ["PLATFORMS", "Answer", "DecodeError", "adapter", "detect_platform"]


def adapter(platform: str) -> ModuleType:
    """The adapter module of a platform."""
    if platform == "gemini":
        from hookwise.policy.adapters import gemini

        return gemini
    if platform == "claude":
        from hookwise.policy.adapters import claude

        return claude
    if platform == "codex":
        from hookwise.policy.adapters import codex

        return codex
    if platform in ("opencode", "kilo"):  # the two plugin hosts (plugin_host.py)
        import importlib

        module: ModuleType = importlib.import_module(f"hookwise.policy.adapters.{platform}")
        return module
    raise ValueError(f"unknown platform {platform!r}; expected one of: {', '.join(PLATFORMS)}")


def detect_platform(payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str]) -> str:
    """The host that sent ``payload`` (raises DecodeError when there is no event name)."""
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise DecodeError("the payload has no hook_event_name, so its host is unknown")
    hosts = [h for h in PLATFORMS if name in tables[h]["events"]]
    if len(hosts) == 1:
        return hosts[0]
    codex_like = "turn_id" in payload or ("model" in payload and name != "SessionStart")
    if "codex" in hosts and codex_like:
        return "codex"
    if "gemini" in hosts and "timestamp" in payload:
        return "gemini"
    if "gemini" in hosts and env.get("GEMINI_SESSION_ID"):
        return "gemini"
    if "codex" in hosts and any(key.startswith("CODEX_") for key in env):
        return "codex"
    if "claude" in hosts or not hosts:
        return "claude"
    return hosts[0]
