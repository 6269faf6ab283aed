"""One module per group of routes; each exposes ``router`` (and maybe ``PUBLIC`` / ``LOOPS``).

``PUBLIC = True`` serves the router without the bearer token (the console page);
``LOOPS`` lists coroutines the app runs in the background (webhook delivery, expiry).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

if TYPE_CHECKING:
    from hookwise.api.state import ServiceState

Loop = Callable[["ServiceState"], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class RouteModule:
    name: str
    router: APIRouter
    public: bool
    loops: tuple[Loop, ...]


def route_modules() -> list[RouteModule]:
    found: list[RouteModule] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        router = getattr(module, "router", None)
        if not isinstance(router, APIRouter):
            continue
        found.append(
            RouteModule(
                info.name,
                router,
                bool(getattr(module, "PUBLIC", False)),
                tuple(getattr(module, "LOOPS", ())),
            )
        )
    return found
