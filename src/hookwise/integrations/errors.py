"""What a bridge raises when hookwise ends a run the framework itself cannot end politely.

A denied tool call never raises: the model gets the reason in place of the result, through the
framework's own mechanism. These two are for the caller of the agent: a prompt that must not
reach the model at all, and a ``stop`` rule that ends the whole run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookwise.integrations.verdict import Verdict


class HookwiseRunError(RuntimeError):
    """Base class: hookwise ended a framework run; ``verdict`` says which rule and why."""

    def __init__(self, reason: str, verdict: Verdict | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.verdict = verdict


class PromptBlockedError(HookwiseRunError):
    """The user prompt was denied: it never reached the model."""


class RunStoppedError(HookwiseRunError):
    """A ``stop`` rule (or a hook's ``continue: false``) ended the run."""
