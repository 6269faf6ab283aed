"""The policy hook's decisions in the console: the audit log `hookwise hook` writes, read
from its end.

The hook never talks to the service (it stays standard-library only and fast); it appends
one JSON line per decision to the audit log of the user it runs as
(``$XDG_STATE_HOME/hookwise/audit.jsonl``, ``HOOKWISE_AUDIT_LOG`` or the user policy's
``audit.path``). A service started by that user reads the same file: its identity (inode,
size, modification time) is one more fingerprint of the console's change stream, and the
newest records are the "Guard decisions" the page shows, approvals through the relay
included. Every line is untrusted text (commands and reasons come from the agent): read
with the one sanitising reader, cut to bounded lengths, shown by the page as text.
"""

from __future__ import annotations

import os
import stat
from functools import cache
from typing import Any

from hookwise.api.processing.hook_json import loads_stored
from hookwise.protocol.hosts import HOST_TITLES

TAIL_BYTES = 512 * 1024  # the newest records only: enough for MAX_DECISIONS of any size
MAX_DECISIONS = 200
TEXT_LIMIT = 300


@cache
def audit_log_path() -> str:
    """Where the hook of this user writes (the user and managed policies may move it)."""
    from hookwise.policy.audit import audit_path
    from hookwise.policy.cache import load_policy

    env = dict(os.environ)
    try:
        settings = load_policy(os.path.expanduser("~"), env).policy["settings"]
    except OSError:
        settings = {}
    return audit_path(settings, env)


def fingerprint(path: str | None = None) -> str:
    """Changes whenever a record is added, the log rotates or it appears."""
    try:
        info = os.stat(path or audit_log_path())
    except OSError:
        return "absent"
    return f"{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"


def _tail(path: str) -> list[str]:
    """The complete lines of the last TAIL_BYTES of a regular file (no FIFO, no link)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return []
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return []
        start = max(0, info.st_size - TAIL_BYTES)
        handle.seek(start)
        data = handle.read(TAIL_BYTES)
    lines = data.decode("utf-8", errors="replace").split("\n")
    return lines[1:] if start else lines  # the first line of a tail may be cut


def _text(value: Any, limit: int = TEXT_LIMIT) -> str | None:
    if value is None or value == "":
        return None
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _approval(value: Any) -> str | None:
    """What became of an ask sent to a person: ``allowed by NAME``, ``expired``..."""
    if not isinstance(value, dict):
        return None
    status = _text(value.get("outcome"), 40) or "sent"
    who = _text(value.get("approver"), 80)
    return f"{status} by {who}" if who else status


def recent_decisions(limit: int, path: str | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` decisions, newest first, as the console shows them."""
    out: list[dict[str, Any]] = []
    for line in reversed(_tail(path or audit_log_path())):
        if len(out) >= limit:
            break
        if not line.strip():
            continue
        try:
            record = loads_stored(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("source") not in (
            "hook",
            "fire",
            "simulate",
        ):
            continue
        host = record.get("host") if isinstance(record.get("host"), str) else None
        out.append(
            {
                "time": _text(record.get("time"), 40) or "",
                "source": record["source"],
                "host": host,
                "hostTitle": HOST_TITLES.get(host) if host else None,
                "session": _text(record.get("session"), 80),
                "event": _text(record.get("event"), 80),
                "tool": _text(record.get("host_tool"), 80),
                "command": _text(record.get("command")),
                "decision": _text(record.get("decision"), 20) or "none",
                "rule": _text(record.get("rule"), 120),
                "reason": _text(record.get("reason")),
                "approval": _approval(record.get("approval")),
                "untrusted": bool(record.get("untrusted")),
            }
        )
    return out
