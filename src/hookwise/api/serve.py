"""Running the service under uvicorn: one process, or several workers on one database."""

from __future__ import annotations

import json
import os
import sys

import uvicorn

from hookwise.api.app import create_app
from hookwise.api.db import make_engine, migrate
from hookwise.api.settings import ServiceSettings


def console_url(settings: ServiceSettings) -> str:
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"http://{host}:{settings.port}/#token={settings.api_token}"


def serve(settings: ServiceSettings, log_level: str = "info") -> None:
    print(f"hookwise serve: console at {console_url(settings)}", file=sys.stderr, flush=True)
    common = {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        "access_log": False,
        "timeout_graceful_shutdown": 5,
    }
    if settings.workers <= 1:
        uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
        return
    # Migrate once here so the workers start on a ready schema.
    engine = make_engine(settings.database_url)
    migrate(engine, settings.data_dir)
    engine.dispose()
    os.environ["HOOKWISE_DATA_DIR"] = str(settings.data_dir)
    os.environ["HOOKWISE_WORKERS"] = str(settings.workers)
    if settings.execute.enabled:  # --allow-command reaches the workers this way
        os.environ["HOOKWISE_EXECUTE_ALLOW"] = json.dumps(list(settings.execute.allow.sources))
        os.environ["HOOKWISE_PROJECT_ROOTS"] = os.pathsep.join(map(str, settings.execute.roots))
    os.environ.setdefault("HOOKWISE_API_TOKEN", settings.api_token)
    if settings.database_url:
        os.environ["HOOKWISE_DATABASE_URL"] = settings.database_url
    uvicorn.run(
        "hookwise.api.app:app_from_env",
        factory=True,
        workers=settings.workers,
        **common,  # type: ignore[arg-type]
    )
