"""Calling the Gate's synchronous decisions from an async framework.

A decision by the policy alone is in-process CPU work (about a millisecond with a large
policy): running it on the event loop is cheaper than a hop to a worker thread and back.
With ``hooks_from`` a decision may run hook processes, which must not block the loop, so
it goes to a worker thread (anyio's, which both asyncio and trio frameworks run under), as
does an approval that waits for a person.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from hookwise.integrations.gate import Gate

T = TypeVar("T")


async def off_loop(gate: Gate, call: Callable[..., T], *args: object, may_wait: bool = False) -> T:
    """``call(*args)``, in a worker thread when ``gate`` may run hook processes or the call
    may wait (``may_wait``: an approval through the relay waits for a person)."""
    if gate.hooks_from is None and not may_wait:
        return call(*args)
    import anyio.to_thread

    return await anyio.to_thread.run_sync(call, *args)
