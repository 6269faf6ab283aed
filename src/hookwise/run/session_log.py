"""When each session ran, recorded outside where nothing inside can write it.

A policy file the agent writes during a session in a tree that ``settings.trust.projects``
trusts would be trusted as soon as the session ends. So the supervisor appends one line when
a session starts (before the agent does) and one when it ends, to
``~/.local/state/hookwise-run/sessions.jsonl`` (``policy/trust/scopes.sessions_path``,
read-only inside), and the trust check refuses tree trust to a policy file
whose change time falls inside a session (``policy/trust/store.py``): the user trusts it
again by its hash, outside, after reading it. A change time cannot be set back by the file's owner.
"""

from __future__ import annotations

import os
import stat
import time


def prepare(path: str) -> str | None:
    """Make the record's directory before the paths to guard are computed (it is guarded
    whole, as it is: never a placeholder); an error message when it cannot be."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    except OSError as exc:
        return f"cannot make {os.path.dirname(path)}: {exc.strerror}"
    return None


def record(path: str, session: str, key: str) -> str | None:
    """Append ``{"session": ..., key: now}``; an error message when it could not be."""
    # (by hand: json costs the start its import; the id is hex, the key a word)
    return _append(path, f'{{"session": "{session}", "{key}": {time.time()!r}}}\n')


def record_policies(path: str, session: str, files: list[str]) -> str | None:
    """Append ``{"session": ..., "policies_written": [...]}`` (run/policy_changes.py):
    read by the user, ignored by the trust check, which knows the session's span."""
    from hookwise.policy import fastjson

    line = fastjson.dumps({"session": session, "policies_written": files})
    return _append(path, line + "\n")


def _append(path: str, line: str) -> str | None:
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags | os.O_NONBLOCK, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return f"{path} is not a regular file; remove it"
            os.write(fd, line.encode())
        finally:
            os.close(fd)
    except OSError as exc:
        return f"cannot record the session in {path}: {exc.strerror}"
    return None
