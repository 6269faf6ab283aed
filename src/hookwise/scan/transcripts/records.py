"""The hosts' own records of the tool calls they ran: where they are, and who reads each.

Each host keeps a record of every session: Claude Code a transcript per session (and per
subagent), Codex a rollout, Gemini CLI a chat log, Qwen Code a chat record, OpenCode and
Kilo one SQLite database (their protocol module's ``SESSION_DB``, under
``$XDG_DATA_HOME``) (GitHub Copilot CLI keeps ``~/.copilot/session-state/<id>/events.jsonl``,
not read yet: its hook gets ``Bash`` where the record says ``bash``, and the other tools'
PascalCase names are unknown). One module per format reads it (``claude``, ``codex``,
``gemini``, ``qwen``, ``session_db``) into one model (``model``: :class:`SessionRecord`,
:class:`ToolCall`, :class:`HookTrouble`), with a reader that never trusts a file
(``files``). This module finds each
host's records and hands each file to its host's reader; ``hookwise coverage`` reads them
through it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from hookwise.scan.transcripts.claude import read_transcript
from hookwise.scan.transcripts.codex import read_rollout
from hookwise.scan.transcripts.files import Warnings
from hookwise.scan.transcripts.gemini import read_chat
from hookwise.scan.transcripts.model import SessionRecord
from hookwise.scan.transcripts.qwen import read_chat as read_qwen_chat
from hookwise.scan.transcripts.session_db import read_session_db

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


def record_roots(host: str, env: Mapping[str, str]) -> list[Path]:
    """Where ``host`` keeps its session records, for this user (``env``'s HOME and overrides)."""
    from hookwise.config.host_homes import claude_config_dir, codex_home, gemini_home

    database = session_db(host)
    if database is not None:
        return [(data_home(env) / database).parent]
    if host == "claude":
        return [claude_config_dir(env) / "projects"]
    if host == "codex":
        home = codex_home(env)
        return [home / "sessions", home / "archived_sessions"]
    if host == "gemini":
        return [gemini_home(env) / ".gemini" / "tmp"]
    if host == "qwen":
        from hookwise.config.host_homes import config_dir

        return [config_dir(host, env) / "projects"]
    raise ValueError(f"unknown host {host!r}")


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
    name = path.name
    database = session_db(host)
    if database is not None:
        return parts == (Path(database).name,)
    if host == "claude":
        # projects/<slug>/<session>.jsonl and projects/<slug>/<session>/subagents/**/agent-*.jsonl
        if len(parts) == 2:
            return name.endswith(".jsonl")
        return (
            len(parts) >= 4
            and parts[2] == "subagents"
            and name.startswith("agent-")
            and name.endswith(".jsonl")
        )
    if host == "codex":
        return name.startswith("rollout-") and name.endswith(".jsonl")
    if host == "qwen":  # projects/<cwd slug>/chats/<session>.jsonl
        return len(parts) == 3 and parts[1] == "chats" and name.endswith(".jsonl")
    # gemini: tmp/<project>/chats/session-*.json[l] and tmp/<project>/chats/<parent>/<id>.jsonl
    if len(parts) == 3 and parts[1] == "chats":
        return name.startswith("session-") and name.endswith((".json", ".jsonl"))
    return len(parts) == 4 and parts[1] == "chats" and name.endswith(".jsonl")


def read_records(host: str, path: Path, warnings: list[str]) -> list[SessionRecord]:
    """The sessions in one record file of ``host`` (usually one)."""
    warn = Warnings(str(path), warnings)
    try:
        if session_db(host) is not None:
            from hookwise.protocol.hosts import host as host_info

            return read_session_db(host, host_info(host).shell_tool, path, warn)
        if host == "claude":
            return read_transcript(path, warn)
        if host == "codex":
            return read_rollout(path, warn)
        if host == "qwen":
            return read_qwen_chat(path, warn)
        return read_chat(path, warn)
    finally:
        warn.close()
