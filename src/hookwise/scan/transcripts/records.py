"""The hosts' own records of the tool calls they ran: where they are, and who reads each.

Each host keeps a record of every session: Claude Code a transcript per session (and per
subagent), Codex a rollout, Gemini CLI a chat log, Qwen Code a chat record, GitHub Copilot
CLI an event log, Factory Droid a session log, Cline a messages file, OpenCode and Kilo one
SQLite database. Where they are is a fact of each
host's protocol module: ``SESSION_RECORDS`` (a format and the directories under the host's
config directory, its registry row's ``config_dir``) or ``SESSION_DB`` (a database under
``$XDG_DATA_HOME``). One module per format reads it (``claude``, ``codex``, ``gemini``,
``qwen``, ``copilot``, ``droid``, ``cline``, ``session_db``) into one model (``model``:
:class:`SessionRecord`, :class:`ToolCall`, :class:`HookTrouble`), with a reader that never
trusts a file
(``files``). This module finds each host's records and hands each file to its format's
reader, never asking which host it is; ``hookwise coverage`` reads them through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from hookwise.scan.transcripts.claude import read_transcript
from hookwise.scan.transcripts.cline import SUFFIX as CLINE_SUFFIX
from hookwise.scan.transcripts.cline import read_messages as read_cline_messages
from hookwise.scan.transcripts.codex import read_rollout
from hookwise.scan.transcripts.copilot import read_events
from hookwise.scan.transcripts.droid import read_session as read_droid_session
from hookwise.scan.transcripts.files import Warnings
from hookwise.scan.transcripts.gemini import read_chat
from hookwise.scan.transcripts.model import SessionRecord
from hookwise.scan.transcripts.qwen import read_chat as read_qwen_chat
from hookwise.scan.transcripts.session_db import read_session_db

Reader = Callable[[Path, Warnings], list[SessionRecord]]


def _claude_file(parts: tuple[str, ...], name: str) -> bool:
    """projects/<slug>/<session>.jsonl and projects/<slug>/<session>/subagents/**/agent-*.jsonl"""
    if len(parts) == 2:
        return name.endswith(".jsonl")
    return (
        len(parts) >= 4
        and parts[2] == "subagents"
        and name.startswith("agent-")
        and name.endswith(".jsonl")
    )


def _gemini_file(parts: tuple[str, ...], name: str) -> bool:
    """tmp/<project>/chats/session-*.json[l] and tmp/<project>/chats/<parent>/<id>.jsonl"""
    if len(parts) == 3 and parts[1] == "chats":
        return name.startswith("session-") and name.endswith((".json", ".jsonl"))
    return len(parts) == 4 and parts[1] == "chats" and name.endswith(".jsonl")


# format (a protocol module's SESSION_RECORDS) -> (is a record: path parts under its
# directory and file name, the reader)
FORMATS: dict[str, tuple[Callable[[tuple[str, ...], str], bool], Reader]] = {
    "claude-transcript": (_claude_file, read_transcript),
    "codex-rollout": (
        lambda _parts, name: name.startswith("rollout-") and name.endswith(".jsonl"),
        read_rollout,
    ),
    "gemini-chat": (_gemini_file, read_chat),
    # projects/<cwd slug>/chats/<session>.jsonl
    "qwen-chat": (
        lambda parts, name: len(parts) == 3 and parts[1] == "chats" and name.endswith(".jsonl"),
        read_qwen_chat,
    ),
    # session-state/<session>/events.jsonl
    "copilot-events": (lambda parts, name: len(parts) == 2 and name == "events.jsonl", read_events),
    # sessions/<cwd slug>/<session>.jsonl
    "droid-session": (
        lambda parts, name: len(parts) == 2 and name.endswith(".jsonl"),
        read_droid_session,
    ),
    # data/sessions/<id>/<id>.messages.json
    "cline-session": (
        lambda parts, name: len(parts) == 2 and name == parts[0] + CLINE_SUFFIX,
        read_cline_messages,
    ),
}


# --------------------------------------------------------------------------- where


def _walk_files(root: Path, depth: int) -> Iterator[Path]:
    """Files under ``root`` down to ``depth`` levels, never following a directory link."""
    if depth < 0:
        return
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                yield from _walk_files(Path(entry.path), depth - 1)
            elif entry.is_file(follow_symlinks=True):
                yield Path(entry.path)
        except OSError:
            continue


def session_db(host: str) -> str | None:
    """The host's session database under $XDG_DATA_HOME (its protocol module's
    ``SESSION_DB``), for the hosts that keep one."""
    import importlib

    from hookwise.protocol.hosts import host as host_info

    value = getattr(importlib.import_module(host_info(host).module), "SESSION_DB", None)
    return value if isinstance(value, str) else None


def data_home(env: Mapping[str, str]) -> Path:
    """$XDG_DATA_HOME (an absolute one), else ~/.local/share."""
    explicit = env.get("XDG_DATA_HOME")
    if explicit and os.path.isabs(explicit):
        return Path(explicit)
    return Path(env.get("HOME") or os.path.expanduser("~")) / ".local" / "share"


def session_records(host: str) -> tuple[str, tuple[str, ...]] | None:
    """(format, directories under the host's config directory) of the host's session
    records (its protocol module's ``SESSION_RECORDS``), for the hosts that keep files."""
    import importlib

    from hookwise.protocol.hosts import host as host_info

    value = getattr(importlib.import_module(host_info(host).module), "SESSION_RECORDS", None)
    return value if isinstance(value, tuple) else None


def record_roots(host: str, env: Mapping[str, str]) -> list[Path]:
    """Where ``host`` keeps its session records, for this user (``env``'s HOME and overrides)."""
    from hookwise.config.host_homes import config_file

    database = session_db(host)
    if database is not None:
        return [(data_home(env) / database).parent]
    records = session_records(host)
    if records is None:
        raise ValueError(f"hookwise reads no session records of {host!r}")
    return [config_file(host, directory, env) for directory in records[1]]


def record_files(host: str, env: Mapping[str, str], since_epoch: float | None = None) -> list[Path]:
    """Every session record of ``host`` (modified at or after ``since_epoch``, when given)."""
    found: list[Path] = []
    for root in record_roots(host, env):
        for path in _walk_files(root, 6):
            if not _is_record(host, root, path):
                continue
            if since_epoch is not None:
                try:
                    if path.stat().st_mtime < since_epoch:
                        continue
                except OSError:
                    continue
            found.append(path)
    return found


def _is_record(host: str, root: Path, path: Path) -> bool:
    parts = path.relative_to(root).parts
    database = session_db(host)
    if database is not None:
        return parts == (Path(database).name,)
    records = session_records(host)
    return records is not None and FORMATS[records[0]][0](parts, path.name)


def read_records(host: str, path: Path, warnings: list[str]) -> list[SessionRecord]:
    """The sessions in one record file of ``host`` (usually one)."""
    from hookwise.protocol.hosts import host as host_info

    warn = Warnings(str(path), warnings)
    try:
        if session_db(host) is not None:
            return read_session_db(host, host_info(host).shell_tool, path, warn)
        records = session_records(host)
        if records is None:
            raise ValueError(f"hookwise reads no session records of {host!r}")
        return FORMATS[records[0]][1](path, warn)
    finally:
        warn.close()
