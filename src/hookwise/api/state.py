"""What every route needs, built once per process and hung on ``app.state.service``."""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request
from sqlalchemy.engine import Engine

from hookwise.api.approvals.waiters import Waiters
from hookwise.api.edge.ratelimit import RateLimiter
from hookwise.api.metrics import Metrics
from hookwise.api.settings import ServiceSettings
from hookwise.api.storage.call_log import CallLog
from hookwise.api.storage.config_store import ConfigStore
from hookwise.api.storage.generation import Generation
from hookwise.api.webhooks.subscriber_index import SubscriberIndex


class HookSlots:
    """How many execute-with-output hooks may run at once in this process.

    Sessions are named by the client, so the per-session rate limit alone cannot stop a
    flood of slow hooks from forking without bound; past the cap the answer is a 503.
    Taken and given back on the event loop only, so a plain counter is enough."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.running = 0

    def take(self) -> bool:
        if self.running >= self.capacity:
            return False
        self.running += 1
        return True

    def give(self) -> None:
        self.running -= 1


@dataclass
class ServiceState:
    settings: ServiceSettings
    engine: Engine
    metrics: Metrics
    limiter: RateLimiter
    config: ConfigStore
    generation: Generation
    subscribers: SubscriberIndex
    hook_slots: HookSlots
    approval_waiters: Waiters = field(default_factory=Waiters)
    calls: CallLog = field(default_factory=CallLog)  # parse-output rows for the console


def state_of(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.service
    return state


async def service(request: Request) -> ServiceState:
    """The route dependency; async so FastAPI does not send it to its thread pool."""
    return state_of(request)
