"""A hook's timeout in milliseconds, in each host's own unit and defaults.

* Gemini CLI: ``timeout`` is milliseconds (default 60 000), passed to Node's ``setTimeout``
  with its quirks (a value below 1 or above 2^31-1 fires after 1 ms).
* Claude Code: seconds. Defaults per event from the dialect table: 600 s, 30 s for
  ``UserPromptSubmit``. A value that is not a positive number falls back to the default.
* Codex: seconds, an integer; the loader already applied Codex's ``max(1)`` to what was
  written (``codex/settings.py``), so a missing value means the table default (600 s).
* GitHub Copilot CLI: seconds (``timeoutSec``, read as ``timeout`` by config/host_hooks.py);
  Qwen Code: milliseconds (default 60 000); both take the event's default otherwise.

A hook whose ``timeout`` is 30 means 30 000 ms for Claude Code and Codex, and 30 ms for
Gemini CLI: every unit conversion goes through here (and through ``migrate``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from hookwise.protocol.claude import MODEL_HANDLER_TIMEOUT_S
from hookwise.protocol.dialect import DialectEvent
from hookwise.protocol.gemini import DEFAULT_TIMEOUT_MS
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string

__all__ = [
    "SESSION_END_BUDGET_CAP_MS",
    "SESSION_END_BUDGET_MS",
    "claude_session_end_budget_ms",
    "seconds_or_default",
    "seconds_value",
    "timeout_ms",
    "timer_delay_ms",
]

MAX_TIMER_MS = 2**31 - 1  # Node's setTimeout ceiling


SESSION_END_BUDGET_MS = 1_500.0
"""Claude Code's shared budget for all SessionEnd hooks."""
SESSION_END_BUDGET_CAP_MS = 60_000.0
"""...raised to the largest configured SessionEnd timeout, at most this."""
SESSION_END_ENV = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"


def seconds_value(value: JSON) -> float | None:
    """A timeout in seconds as Claude Code and Codex accept it: a positive finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        return None
    return number


def timeout_ms(dialect_event: DialectEvent | str, hook_config: Mapping[str, JSON]) -> float:
    """The hook's timeout in milliseconds.

    ``dialect_event`` is the Claude Code or Codex event from its dialect table, or a Gemini
    CLI event name (a string), whose hooks give milliseconds.
    """
    if isinstance(dialect_event, str):
        return timer_delay_ms(hook_config.get("timeout"))[0]
    return seconds_or_default(dialect_event, hook_config) * 1000.0


def seconds_or_default(
    dialect_event: DialectEvent, hook_config: Mapping[str, JSON], unit: str = "s"
) -> float:
    """A table-driven host's timeout in seconds: the hook's, else the event's default.
    ``unit`` is the host's (``HostInfo.timeout_unit``): Qwen Code writes milliseconds."""
    value = seconds_value(hook_config.get("timeout"))
    if value is None:
        model_default = MODEL_HANDLER_TIMEOUT_S.get(js_string(hook_config.get("type")))
        return dialect_event.default_timeout_s if model_default is None else model_default
    return value / 1000.0 if unit == "ms" else value


def timer_delay_ms(timeout: JSON) -> tuple[float, str]:
    """Node's setTimeout delay for a hook's ``timeout`` and the text the engine prints."""
    value: JSON = DEFAULT_TIMEOUT_MS if timeout is None or timeout is UNDEFINED else timeout
    label = js_string(value)
    try:
        number = float(value) if not isinstance(value, bool) else float(int(value))
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, str) and not value.strip():
        number = 0.0
    if math.isnan(number) or number < 1 or number > MAX_TIMER_MS:
        number = 1.0
    return number, label


def claude_session_end_budget_ms(
    hook_configs: Iterable[Mapping[str, JSON]], env: Mapping[str, str] | None = None
) -> float:
    """The time all of Claude Code's SessionEnd hooks share together.

    1.5 s, raised to the largest ``timeout`` a SessionEnd hook sets (at most 60 s);
    ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`` replaces it when it is a positive number.
    """
    if env is not None:
        text = env.get(SESSION_END_ENV, "").strip()
        try:
            override = float(text) if text else math.nan
        except ValueError:
            override = math.nan
        if math.isfinite(override) and override > 0:
            return override
    budget = SESSION_END_BUDGET_MS
    for config in hook_configs:
        seconds = seconds_value(config.get("timeout"))
        if seconds is not None:
            budget = max(budget, min(seconds * 1000.0, SESSION_END_BUDGET_CAP_MS))
    return budget
