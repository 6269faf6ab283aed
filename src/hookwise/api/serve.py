"""Running the service under uvicorn: one process, or several workers on one database.

The socket is bound here, before anything is printed: the console address (with a token
this start generated; never one from the environment) names the address actually bound,
and a start that cannot bind prints none. A non-loopback bind is logged as a warning, and
with execute-with-output enabled it must be asked for (``--allow-remote-execution``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from hookwise.api import logs
from hookwise.api.app import create_app
from hookwise.api.edge.limits import MAX_HEAD_BYTES
from hookwise.api.secret_env import restore, withdraw_for_workers
from hookwise.api.settings import ServiceSettings, SettingsError
from hookwise.api.storage.db import make_engine, migrate
from hookwise.host.reaper import become_subreaper

log = logging.getLogger("hookwise.api")


class HandingConfig(uvicorn.Config):
    """uvicorn's configuration carrying the handed-over variables to each worker: it is
    pickled through the spawn pipe, and ``load`` (in the worker) restores them first."""

    def __init__(self, *args: Any, handed: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handed = handed

    def load(self) -> None:
        if not self.loaded:
            restore(self.handed)
        super().load()


def protocol_options() -> dict[str, Any]:
    """uvicorn.Config keyword arguments that bound the request head."""
    options: dict[str, Any] = {"h11_max_incomplete_event_size": MAX_HEAD_BYTES}
    try:
        from hookwise.api.edge.limited_httptools import LimitedHttptools
    except ImportError:  # no httptools: h11 with the bound above
        options["http"] = "h11"
    else:
        options["http"] = LimitedHttptools
    return options


def console_url(host: str, port: int, token: str | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"#token={token}" if token else "")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_exposure(settings: ServiceSettings, allow_remote_execution: bool) -> None:
    """Refuse execution on a non-loopback address unless asked; warn about the bind."""
    if is_loopback(settings.host):
        return
    if settings.execute.enabled and not allow_remote_execution:
        raise SettingsError(
            f"--host {settings.host}: execute-with-output is enabled and the address is not "
            "loopback; pass --allow-remote-execution to run hooks for remote clients"
        )
    log.warning(
        "binding %s: the API is reachable from other machines (token-protected%s)",
        settings.host,
        ", hook execution enabled" if settings.execute.enabled else "",
    )


def public_base(settings: ServiceSettings, sock: socket.socket) -> str:
    """The base of approval page links: --public-url, else the address actually bound."""
    if settings.public_url:
        return settings.public_url
    host, port = sock.getsockname()[:2]
    return console_url(str(host), int(port), None).rstrip("/")


def _announce(settings: ServiceSettings, sock: socket.socket) -> None:
    """Every start says how to open the console and where its data is: a user who missed
    the first start's output must not have to hunt for the token or the database."""
    host, port = sock.getsockname()[:2]
    token = settings.api_token if settings.token_generated else None
    where = console_url(str(host), int(port), token)
    print(f"hookwise serve: listening, console at {where}", file=sys.stderr, flush=True)
    for line in announcement(settings):
        print(f"  {line}", file=sys.stderr, flush=True)


def announcement(settings: ServiceSettings) -> list[str]:
    """Where the console's token and the database are, as the start prints it."""
    from hookwise.api.settings import TOKEN_FILE

    token_file = settings.data_dir / TOKEN_FILE
    if settings.token_generated:
        token = f"token: generated now, in the address above and in {token_file}"
    elif _stored_token(token_file) == settings.api_token:
        token = f"token: sign in with the one in {token_file}"
    else:
        token = "token: sign in with $HOOKWISE_API_TOKEN (the one this service was given)"
    database = settings.database_url
    if database.startswith("sqlite:///"):
        database = database.removeprefix("sqlite:///")
    elif "@" in database:  # never print a password
        scheme, _, rest = database.partition("://")
        database = f"{scheme}://…@{rest.rpartition('@')[2]}"
    return [token, f"database: {database}", f"data directory: {settings.data_dir}"]


def _register(data_dir: Path) -> None:
    """Name this server's data directory where ``hookwise run`` looks for it (its token and
    database are hidden in every session started while it runs; its own environment, which
    may hold ``HOOKWISE_DATA_DIR``, is out of a session's reach); removed at a normal exit
    (uvicorn re-raises SIGTERM after its shutdown: then the reader passes over a file whose
    pid is gone). A server that cannot write it still serves, and says so."""
    import atexit

    from hookwise.policy.trust.scopes import services_dir

    directory = services_dir(dict(os.environ))
    path = os.path.join(directory, str(os.getpid()))
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(str(data_dir.resolve()) + "\n")
    except OSError as exc:
        print(f"hookwise serve: cannot record {path} ({exc.strerror}): `hookwise run` "
              "sessions will not hide this server's token unless its data directory is "
              "hookwise's own", file=sys.stderr)  # fmt: skip
        return

    def forget() -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)

    atexit.register(forget)


def _stored_token(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def serve(
    settings: ServiceSettings,
    log_level: str = "info",
    *,
    log_format: str = "text",
    access_log: bool = False,
    allow_remote_execution: bool = False,
) -> None:
    log_config = logs.configure(log_level, log_format)
    check_exposure(settings, allow_remote_execution)
    app = create_app(settings) if settings.workers <= 1 else None
    config = HandingConfig(
        app if app is not None else "hookwise.api.app:app_from_env",
        factory=settings.workers > 1,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=log_level,
        log_config=log_config,
        access_log=access_log,
        timeout_graceful_shutdown=5,
        **protocol_options(),  # the request head is bounded while it arrives
        handed={},
    )
    _register(settings.data_dir)
    if app is not None:
        become_subreaper()  # this process runs the hooks: their orphans come back to it
        sock = config.bind_socket()
        _announce(settings, sock)
        state = app.state.service  # approval links name the port actually bound
        state.settings = replace(settings, public_url=public_base(settings, sock))
        uvicorn.Server(config).run(sockets=[sock])
        return
    # the operator's variables reach the workers through the pickled configuration, not
    # their environment (which a hook can read in /proc/<worker>/environ)
    config.handed = withdraw_for_workers()
    # Migrate once here so the workers start on a ready schema.
    engine = make_engine(settings.database_url)
    migrate(engine, settings.data_dir)
    engine.dispose()
    os.environ["HOOKWISE_DATA_DIR"] = str(settings.data_dir)
    os.environ["HOOKWISE_WORKERS"] = str(settings.workers)
    os.environ["HOOKWISE_LOG"] = json.dumps([log_level, log_format])
    os.environ.update(settings.webhook_targets.env())  # --webhook-allow-* likewise
    if settings.execute.enabled:  # --allow-command reaches the workers this way
        os.environ["HOOKWISE_EXECUTE_ALLOW"] = json.dumps(list(settings.execute.allow.sources))
        os.environ["HOOKWISE_PROJECT_ROOTS"] = os.pathsep.join(map(str, settings.execute.roots))
    config.handed.update(HOOKWISE_API_TOKEN=settings.api_token)  # (a generated one too)
    config.handed.update(HOOKWISE_DATABASE_URL=settings.database_url)
    sock = config.bind_socket()
    _announce(settings, sock)
    os.environ["HOOKWISE_PUBLIC_URL"] = public_base(settings, sock)
    Multiprocess(config, sockets=[sock]).run()
