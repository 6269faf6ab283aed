"""Which hook-trust mode applies: ``warn`` (the engine's behaviour) or ``enforce``.

``enforce`` is chosen with the environment variable ``HOOKWISE_HOOK_TRUST=enforce`` or the
settings key ``"hookwise": {"hookTrust": "enforce"}`` in the user or system settings (never
the project's own file: a project must not be able to switch off the gate on its own hooks).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final

from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string

TRUST_MODE_ENV: Final = "HOOKWISE_HOOK_TRUST"


class HookTrustMode(Enum):
    WARN = "warn"
    """The engine's behaviour: warn once about new project hooks, then trust them."""
    ENFORCE = "enforce"
    """hookwise's opt-in gate: unapproved project hooks do not run."""


def resolve_trust_mode(
    env: Mapping[str, str], hookwise_section: JSON, project_value: JSON = UNDEFINED
) -> tuple[HookTrustMode, list[str]]:
    """``HOOKWISE_HOOK_TRUST`` first, then ``hookwise.hookTrust`` from user/system settings."""
    warnings: list[str] = []
    if project_value is not UNDEFINED:
        warnings.append(
            "hookwise.hookTrust in the project's .gemini/settings.json is ignored: only the "
            "user or system settings (or HOOKWISE_HOOK_TRUST) choose how project hooks are trusted"
        )
    choices = {mode.value: mode for mode in HookTrustMode}
    from_env = env.get(TRUST_MODE_ENV)
    if from_env:
        if from_env.strip().lower() in choices:
            return choices[from_env.strip().lower()], warnings
        warnings.append(f"{TRUST_MODE_ENV}={from_env!r} is not one of warn, enforce; ignored")
    value: JSON = UNDEFINED
    if isinstance(hookwise_section, dict):
        value = hookwise_section.get("hookTrust", UNDEFINED)
    if value is UNDEFINED:
        return HookTrustMode.WARN, warnings
    if isinstance(value, str) and value in choices:
        return choices[value], warnings
    warnings.append(
        f'hookwise.hookTrust must be "warn" or "enforce" (got {js_string(value)}); using warn'
    )
    return HookTrustMode.WARN, warnings


__all__ = ["TRUST_MODE_ENV", "HookTrustMode", "resolve_trust_mode"]
