"""What every route needs, built once per process and hung on ``app.state.service``."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from sqlalchemy.engine import Engine

from hookwise.api.config_store import ConfigStore
from hookwise.api.generation import Generation
from hookwise.api.metrics import Metrics
from hookwise.api.ratelimit import RateLimiter
from hookwise.api.settings import ServiceSettings
from hookwise.api.webhooks.subscriber_index import SubscriberIndex


@dataclass
class ServiceState:
    settings: ServiceSettings
    engine: Engine
    metrics: Metrics
    limiter: RateLimiter
    config: ConfigStore
    generation: Generation
    subscribers: SubscriberIndex


def state_of(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.service
    return state


async def service(request: Request) -> ServiceState:
    """The route dependency; async so FastAPI does not send it to its thread pool."""
    return state_of(request)
