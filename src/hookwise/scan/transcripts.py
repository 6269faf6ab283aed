"""The hosts' own records of the tool calls they ran, as one model for ``hookwise coverage``.

Each host keeps a record of every session: Claude Code a transcript per session (and per
subagent), Codex a rollout, Gemini CLI a chat log. One module per host reads its format
(``transcripts_claude``, ``transcripts_codex``, ``transcripts_gemini``); this module holds
what they share: the model (:class:`SessionRecord`, :class:`ToolCall`, :class:`HookTrouble`),
where each host keeps its records, and a reader that never trusts a file.

The files are input from outside hookwise (another program wrote them, an agent may have
edited them): a file that is not a regular file, too large, not UTF-8, not JSON, or JSON of
the wrong shape gives a warning naming the file and line, never an exception, and the rest
of the file still counts.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A record bigger than this is not read (a transcript of a long session is tens of MB).
MAX_FILE_BYTES = 512 * 1024 * 1024
# One JSON line bigger than this is skipped with a warning (a pasted image can be MBs).
MAX_LINE_BYTES = 64 * 1024 * 1024
# How many warnings one file may add before the rest are summed up in one line.
MAX_WARNINGS_PER_FILE = 20


@dataclass
class ToolCall:
    """One tool call the host recorded, with the name a pre-tool hook would get."""

    host: str
    session: str
    """The session id a hook of this call receives (a Claude subagent's is its parent's)."""
    tool: str
    """The tool name as the host's pre-tool hook gets it (``Bash``, ``run_shell_command``)."""
    recorded_tool: str
    """The tool name as the record writes it (Codex ``exec_command``)."""
    call_id: str | None
    input: Any
    command: str | None
    """A shell tool's command line, as the hook's ``tool_input.command``."""
    time: str | None
    """When the model asked for the call: UTC ``YYYY-MM-DDTHH:MM:SS.mmmZ``, like the audit log."""
    cwd: str | None
    file: str
    line: int
    agent: str | None = None
    """The subagent that made the call, when one did."""
    parent_session: str | None = None
    hookable: bool = True
    """False: the host fires no pre-tool hook for this tool (a Codex ``update_plan``)."""


@dataclass
class HookTrouble:
    """The host's own record that a hook failed or timed out on a call."""

    call_id: str | None
    event: str
    command: str
    kind: str  # "failed" | "timeout"
    detail: str
    time: str | None
    line: int


@dataclass
class SessionRecord:
    """One record file: a session, or one subagent of a session."""

    host: str
    session: str
    file: str
    cwd: str | None = None
    started: str | None = None
    parent_session: str | None = None
    agent: str | None = None
    cli_version: str | None = None
    calls: list[ToolCall] = field(default_factory=list)
    troubles: list[HookTrouble] = field(default_factory=list)

    @property
    def subagent(self) -> bool:
        return self.agent is not None or self.parent_session is not None


class Warnings:
    """Warnings of one file, capped so a hostile file cannot flood the report."""

    def __init__(self, path: str, sink: list[str]) -> None:
        self.path = path
        self.sink = sink
        self.count = 0

    def add(self, message: str, line: int | None = None) -> None:
        self.count += 1
        if self.count <= MAX_WARNINGS_PER_FILE:
            where = f"{self.path}:{line}" if line is not None else self.path
            self.sink.append(f"{where}: {message}")

    def close(self) -> None:
        extra = self.count - MAX_WARNINGS_PER_FILE
        if extra > 0:
            self.sink.append(f"{self.path}: {extra} more problem(s) not shown")


# --------------------------------------------------------------------------- values


def normal_time(value: Any) -> str | None:
    """An ISO 8601 time (``Z`` or an offset; none means UTC) as the audit log writes times."""
    if not isinstance(value, str) or not value or len(value) > 64:
        return None
    try:
        moment = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    try:
        moment = moment.astimezone(dt.UTC)
    except (OverflowError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"


def text(value: Any) -> str | None:
    """A non-empty string, else None (record fields can hold anything)."""
    return value if isinstance(value, str) and value else None


def loads(raw: str) -> tuple[Any, str | None]:
    """(value, None) or (None, why): JSON that cannot crash the reader (deep nesting)."""
    try:
        return json.loads(raw), None
    except RecursionError:
        return None, "JSON nested too deeply"
    except ValueError as exc:
        return None, f"not JSON ({exc.args[0] if exc.args else exc})"


# --------------------------------------------------------------------------- files


def open_regular(path: Path, warn: Warnings) -> Any | None:
    """A binary handle on ``path`` when it is a regular file of a sane size, else None.

    Opened without blocking and checked after opening, so a FIFO, a device or a file
    swapped for one after listing is refused instead of hanging or reading forever.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        warn.add(f"cannot open: {exc.strerror or exc}")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            warn.add("not a regular file; skipped")
            os.close(fd)
            return None
        if info.st_size > MAX_FILE_BYTES:
            warn.add(f"{info.st_size} bytes, more than {MAX_FILE_BYTES}; skipped")
            os.close(fd)
            return None
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        warn.add(f"cannot read: {exc.strerror or exc}")
        return None


def json_lines(path: Path, warn: Warnings) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each JSON line; bad lines become warnings.

    A last line without its newline that does not parse is a write in progress (the host
    is still running) or a truncated file: it is reported as such.
    """
    handle = open_regular(path, warn)
    if handle is None:
        return
    with handle:
        number = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                warn.add(f"line longer than {MAX_LINE_BYTES} bytes; skipped", number)
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(MAX_LINE_BYTES + 1)
                continue
            if not raw.strip():
                continue
            try:
                decoded = raw.decode("utf-8")
            except UnicodeDecodeError:
                warn.add("not UTF-8; line skipped", number)
                continue
            value, problem = loads(decoded)
            if problem is not None:
                last = not raw.endswith(b"\n")
                warn.add(
                    "truncated last line (the session may still be running)"
                    if last
                    else f"{problem}; line skipped",
                    number,
                )
                continue
            yield number, value


def json_document(path: Path, warn: Warnings) -> Any:
    """A whole-file JSON document (Gemini CLI's older ``session-*.json``), or None."""
    handle = open_regular(path, warn)
    if handle is None:
        return None
    with handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        warn.add("not UTF-8; skipped")
        return None
    value, problem = loads(decoded)
    if problem is not None:
        warn.add(f"{problem}; skipped")
    return value


def small_text(path: Path, limit: int = 65536) -> str | None:
    """The text of a small regular file (a marker file the host wrote), else None."""
    sink: list[str] = []
    handle = open_regular(path, Warnings(str(path), sink))
    if handle is None:
        return None
    with handle:
        data = handle.read(limit)
    return data.decode("utf-8", "replace").strip() or None


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


def record_roots(host: str, env: Mapping[str, str]) -> list[Path]:
    """Where ``host`` keeps its session records, for this user (``env``'s HOME and overrides)."""
    from hookwise.config.host_homes import claude_config_dir, codex_home, gemini_home

    if host == "claude":
        return [claude_config_dir(env) / "projects"]
    if host == "codex":
        home = codex_home(env)
        return [home / "sessions", home / "archived_sessions"]
    if host == "gemini":
        return [gemini_home(env) / ".gemini" / "tmp"]
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
    # gemini: tmp/<project>/chats/session-*.json[l] and tmp/<project>/chats/<parent>/<id>.jsonl
    if len(parts) == 3 and parts[1] == "chats":
        return name.startswith("session-") and name.endswith((".json", ".jsonl"))
    return len(parts) == 4 and parts[1] == "chats" and name.endswith(".jsonl")


def read_records(host: str, path: Path, warnings: list[str]) -> list[SessionRecord]:
    """The sessions in one record file of ``host`` (usually one)."""
    warn = Warnings(str(path), warnings)
    try:
        if host == "claude":
            from hookwise.scan.transcripts_claude import read_transcript

            return read_transcript(path, warn)
        if host == "codex":
            from hookwise.scan.transcripts_codex import read_rollout

            return read_rollout(path, warn)
        from hookwise.scan.transcripts_gemini import read_chat

        return read_chat(path, warn)
    finally:
        warn.close()
