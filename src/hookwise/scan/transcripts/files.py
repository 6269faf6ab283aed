"""Reading the hosts' record files, which hookwise never trusts: files, JSON lines, values.

The files are input from outside hookwise (another program wrote them, an agent may have
edited them): a file that is not a regular file, too large, not UTF-8, not JSON, or JSON of
the wrong shape gives a warning naming the file and line, never an exception, and the rest
of the file still counts. Shared by the per-host readers (``claude``, ``codex``,
``gemini``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# A record bigger than this is not read (a transcript of a long session is tens of MB).
MAX_FILE_BYTES = 512 * 1024 * 1024
# One JSON line bigger than this is skipped with a warning (a pasted image can be MBs).
MAX_LINE_BYTES = 64 * 1024 * 1024
# How many warnings one file may add before the rest are summed up in one line.
MAX_WARNINGS_PER_FILE = 20


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


def json_objects(path: Path, warn: Warnings, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON line that is an object; any other is a warning
    naming ``what`` the line should have been."""
    for number, line in json_lines(path, warn):
        if isinstance(line, dict):
            yield number, line
        else:
            warn.add(f"{what} must be a JSON object; skipped", number)


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
