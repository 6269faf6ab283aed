"""The service's secrets leave its environment before anything runs, and no hook can read
the server's memory or files through ``/proc``.

A process's initial environment stays readable in ``/proc/<pid>/environ`` for its whole
life (``del os.environ[...]`` does not erase it), and every hook can read its parent's:
the server's, or a worker's. Which of the operator's variables are secrets the service
cannot know (``GITHUB_TOKEN``, cloud keys, ``HOOKWISE_API_TOKEN``...), so ``hookwise
serve`` re-executes itself at once with only what the interpreter needs to start
(:data:`KEPT`), handing everything else over through an inherited pipe; it is set again
inside the process (``putenv`` after the start is not in ``/proc/<pid>/environ``). The
workers get it through the pickled uvicorn configuration their start reads from a pipe
(``serve.HandingConfig``), never through their environment or a file a hook could open.
The server and each worker are also undumpable (``PR_SET_DUMPABLE`` 0): ``/proc/<pid>``
of theirs (environ, fd, mem) belongs to root, out of reach of a hook of the same user.
A hook running as root with ``CAP_SYS_PTRACE`` passes that second check, not the first.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys

SECRET_VARS = ("HOOKWISE_API_TOKEN", "HOOKWISE_DATABASE_URL")
_FD_VAR = "HOOKWISE_SECRETS_FD"
# what the interpreter reads before our code runs: kept in the new environment
KEPT = ("PATH", "HOME", "LANG", "LC_", "TZ", "TMPDIR", "USER", "LOGNAME", "TERM",
        "PYTHON", "VIRTUAL_ENV", "COV_CORE_", "COVERAGE_")  # fmt: skip
_PR_SET_DUMPABLE = 4
_held: dict[str, str] = {}  # what the pipe (or the configuration) handed over


def _kept(name: str) -> bool:
    return name.startswith(KEPT) and name not in SECRET_VARS


def reexec_without_secrets() -> None:
    """Exec ourselves again with only :data:`KEPT` in the environment (no return), unless
    that is all there is; the rest comes back through a pipe (:func:`received_secrets`)."""
    moved = {k: v for k, v in os.environ.items() if not _kept(k)}
    if not moved or _FD_VAR in os.environ:
        return
    read, write = os.pipe()
    data = json.dumps(moved).encode()
    os.set_inheritable(read, True)
    if len(data) > 60_000:  # past a pipe's buffer: a writer child feeds it
        if os.fork() == 0:
            os.close(read)
            os.write(write, data)
            os._exit(0)
    else:
        os.write(write, data)
    os.close(write)
    env = {k: v for k, v in os.environ.items() if _kept(k)}
    env[_FD_VAR] = str(read)
    # -P: the working directory is not put first on sys.path (a ./hookwise/ there would be
    # imported instead); the operator's PYTHON* variables and user site still apply
    argv = [sys.executable, "-P", "-m", "hookwise.cli.entry", *sys.argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)


def received_secrets() -> dict[str, str]:
    """What ``reexec_without_secrets`` moved out of the environment, read once from its
    pipe; the operator's variables are set again in this process, the service's own
    secrets (:data:`SECRET_VARS`) never are."""
    fd_text = os.environ.pop(_FD_VAR, "")
    if fd_text.isdigit():
        fd = int(fd_text)
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        os.close(fd)
        restore(dict(json.loads(b"".join(chunks))))
    return dict(_held)


def restore(moved: dict[str, str]) -> None:
    """Hold ``moved`` and set its non-secret part in ``os.environ`` (after the start: not in
    ``/proc/<pid>/environ``); make this process undumpable."""
    make_undumpable()
    _held.update(moved)
    for name, value in moved.items():  # (what the parent set for its workers comes first)
        if name not in SECRET_VARS:
            os.environ.setdefault(name, value)


def environment() -> dict[str, str]:
    """Our environment with the secrets back in (for settings, never for a child)."""
    return {**received_secrets(), **os.environ}


def withdraw_for_workers() -> dict[str, str]:
    """Take what was handed over out of ``os.environ`` again before workers are spawned
    (their environment would show it), and return it for ``serve.HandingConfig``."""
    for name in _held:
        os.environ.pop(name, None)
    return dict(_held)


def make_undumpable() -> bool:
    """``/proc/<pid>`` of this process out of reach of our user's other processes; False
    where the system has no prctl."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False
