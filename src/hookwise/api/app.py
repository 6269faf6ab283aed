"""The FastAPI application: settings -> database -> state -> routes, plus background loops.

``create_app`` serves one process; ``app_from_env`` is the factory uvicorn calls in each
worker when ``hookwise serve --workers N`` runs several.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import Depends, FastAPI

from hookwise import __version__
from hookwise.api.auth import require_token
from hookwise.api.edge.errors import install_error_handlers
from hookwise.api.edge.fastpath import FastPaths
from hookwise.api.edge.middleware import ServiceMiddleware
from hookwise.api.edge.ratelimit import RateLimiter
from hookwise.api.edge.strict_body import StrictJsonBodies
from hookwise.api.metrics import Metrics
from hookwise.api.openapi import document_router, without_422
from hookwise.api.routes import Loop, route_modules
from hookwise.api.settings import ServiceSettings, load_settings
from hookwise.api.state import HookSlots, ServiceState
from hookwise.api.storage.config_store import ConfigStore
from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.storage.generation import Generation
from hookwise.api.webhooks.subscriber_index import SubscriberIndex

log = logging.getLogger("hookwise.api")

SHUTDOWN_GRACE_S = 5.0


async def _housekeeping(state: ServiceState) -> None:
    """Flush metrics and parse-output rows each second; prune old rate windows, samples
    and parse-output rows each minute."""
    ticks = 0
    while True:
        await asyncio.sleep(1.0)
        ticks += 1
        try:
            await asyncio.to_thread(state.metrics.flush, state.engine)
            await asyncio.to_thread(state.calls.flush, state.engine)
            if ticks % 60 == 0:
                await asyncio.to_thread(state.limiter.prune)
                await asyncio.to_thread(state.metrics.prune, state.engine)
                await asyncio.to_thread(state.calls.prune, state.engine)
        except Exception:  # the database may be briefly away; try again next tick
            log.exception("housekeeping failed")


def build_state(settings: ServiceSettings) -> ServiceState:
    engine = make_engine(settings.database_url)
    migrate(engine, settings.data_dir)
    generation = Generation(settings.data_dir, engine)
    return ServiceState(
        settings=settings,
        engine=engine,
        metrics=Metrics(),
        limiter=RateLimiter(engine),
        config=ConfigStore(engine, generation),
        generation=generation,
        subscribers=SubscriberIndex(engine, generation),
        hook_slots=HookSlots(settings.max_running_hooks),
    )


def create_app(
    settings: ServiceSettings, run_background: bool = True, fast_paths: bool = True
) -> FastAPI:
    state = build_state(settings)
    modules = route_modules()
    loops: list[Loop] = [_housekeeping]
    for module in modules:
        loops.extend(module.loops)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(loop(state)) for loop in loops] if run_background else []
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if tasks:
                # A deadline, so that a loop which fails to stop cannot hang the shutdown.
                done, stuck = await asyncio.wait(tasks, timeout=SHUTDOWN_GRACE_S)
                for task in done:
                    if not task.cancelled() and task.exception() is not None:
                        log.error("background loop failed", exc_info=task.exception())
                for task in stuck:
                    log.error("background loop %s did not stop in time", task.get_coro())
            with contextlib.suppress(Exception):
                state.metrics.flush(state.engine)
            with contextlib.suppress(Exception):
                state.calls.flush(state.engine)
            state.generation.close()
            state.engine.dispose()

    app = FastAPI(
        title="hookwise Hook Output Processing API",
        version=__version__,
        description="Parses, validates and acts on the output of AI-agent hooks "
        "(Claude Code, Codex and Gemini CLI event names).",
        lifespan=lifespan,
        # Swagger UI and ReDoc load scripts from a CDN on the console's origin: off.
        # /openapi.json stays; render it with any local tool.
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = state
    install_error_handlers(app)
    for module in modules:
        document_router(module.router, protected=not module.public)
        if module.public:
            app.include_router(module.router)
        else:
            app.include_router(module.router, dependencies=[Depends(require_token)])
    without_422(app)
    if fast_paths:
        app.add_middleware(FastPaths, state=state)
    app.add_middleware(StrictJsonBodies)  # outside the fast path: one rule for every route
    app.add_middleware(ServiceMiddleware, max_body=settings.max_body_bytes, metrics=state.metrics)
    return app


def app_from_env() -> FastAPI:
    """uvicorn's factory in each worker; the parent passed its choices through the env
    and its secrets through a private file (api/secret_env.py)."""
    import json
    import os

    from hookwise.api import logs
    from hookwise.api.secret_env import environment
    from hookwise.host.reaper import become_subreaper

    level, fmt = json.loads(os.environ.get("HOOKWISE_LOG", '["info", "text"]'))
    logs.configure(level, fmt)
    become_subreaper()  # each worker runs its own hooks: their orphans come back to it
    env = environment()
    data_dir = env.get("HOOKWISE_DATA_DIR")
    workers = int(env.get("HOOKWISE_WORKERS", "1"))
    settings = load_settings(Path(data_dir) if data_dir else None, env=env, workers=workers)
    return create_app(settings)
