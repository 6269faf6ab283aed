"""The Verdict: what a framework bridge must do with one event, as the Gate decided it.

Built by the Gate from the policy's decision and by ``hooks.HookBridge`` from a project
hook's answer (the Gate keeps the stricter); every bridge applies it with its framework's
own mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["ALLOW", "Action", "Verdict"]

Action = Literal["allow", "deny", "ask"]


@dataclass(frozen=True)
class Verdict:
    """What the framework must do with one event."""

    action: Action  # "allow" when nothing matched
    reason: str = ""  # deny/ask: what the model (or the approver) is told
    args: dict[str, Any] | None = None  # rewrite: the arguments to run with instead
    context: str = ""  # extra context for the model (context rules)
    stop: str | None = None  # stop the whole run, with this reason
    rule_id: str = ""
    message: str = ""  # for the user, not the model

    @property
    def denied(self) -> bool:
        return self.action == "deny"


ALLOW = Verdict("allow")
