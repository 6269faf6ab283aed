"""Commands that change the guard refuse inside ``hookwise run``'s confinement.

The files they write are read-only there anyway; refusing first says why, instead of a
"Read-only file system" halfway through (an install that wrote one file of two), and makes
it plain that the agent cannot re-trust or rewrite its own guard through hookwise itself.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

_F = TypeVar("_F", bound=Callable[..., Any])

EXIT_REFUSED = 1


class ConfinedError(click.ClickException):
    """A guardrail change asked for from inside a confined session."""

    exit_code = EXIT_REFUSED


def refuse_when_confined(command: str) -> None:
    """Raise :class:`ConfinedError` when this process runs inside `hookwise run`."""
    from hookwise.policy import confinement

    env = dict(os.environ)
    if confinement.confined(env):
        session = env.get(confinement.SESSION_VARIABLE, "")
        raise ConfinedError(
            f"`hookwise {command}` changes the guardrails and refuses inside `hookwise run` "
            f"(session {session}): the agent must not rewrite or re-trust its own guard. "
            "Run it in a terminal outside the session."
        )


def changes_guardrails(command: str) -> Callable[[_F], _F]:
    """Decorate a click command callback that writes policy, trust or host settings."""

    def decorate(func: _F) -> _F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            refuse_when_confined(command)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
