"""The service's secrets leave its environment before anything runs.

A process's initial environment stays readable in ``/proc/<pid>/environ`` for its whole
life (``del os.environ[...]`` does not erase it), and every hook can read its parent's.
So ``hookwise serve`` started with ``HOOKWISE_API_TOKEN`` or ``HOOKWISE_DATABASE_URL``
re-executes itself at once without them, handing them over through an inherited pipe;
its workers get them from a 0600 file in the 0700 data directory, removed at exit.
Neither a hook nor ``/proc`` of the server or of a worker ever shows them.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

SECRET_VARS = ("HOOKWISE_API_TOKEN", "HOOKWISE_DATABASE_URL")
_FD_VAR = "HOOKWISE_SECRETS_FD"
_FILE_VAR = "HOOKWISE_SECRETS_FILE"


def reexec_without_secrets() -> None:
    """If a secret is in our environment, exec ourselves again without it (no return)."""
    found = {k: os.environ[k] for k in SECRET_VARS if os.environ.get(k)}
    if not found or _FD_VAR in os.environ:
        return
    read, write = os.pipe()
    os.write(write, json.dumps(found).encode())  # far below the pipe's buffer
    os.close(write)
    os.set_inheritable(read, True)
    env = {k: v for k, v in os.environ.items() if k not in SECRET_VARS}
    env[_FD_VAR] = str(read)
    argv = [sys.executable, "-m", "hookwise.cli.entry", *sys.argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)


def received_secrets() -> dict[str, str]:
    """The secrets handed over by ``reexec_without_secrets`` or by the parent's file."""
    fd_text = os.environ.pop(_FD_VAR, "")
    if fd_text.isdigit():
        fd = int(fd_text)
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        os.close(fd)
        return dict(json.loads(b"".join(chunks)))
    path = os.environ.get(_FILE_VAR)
    if path:
        return dict(json.loads(Path(path).read_text(encoding="utf-8")))
    return {}


def environment() -> dict[str, str]:
    """Our environment with the secrets back in (for settings, never for a child)."""
    return {**os.environ, **received_secrets()}


def share_with_workers(data_dir: Path, secrets: Mapping[str, str]) -> Path:
    """Write ``secrets`` to a 0600 file the workers read; the caller removes it."""
    path = data_dir / f".serve-secrets-{os.getpid()}.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(dict(secrets), out)
    os.environ[_FILE_VAR] = str(path)
    return path
