"""Line numbers of what a loader found: a JSON pointer in a (JSONC) file, a value in TOML.

The loaders keep where a hook came from as ``file#/hooks/Event/0/hooks/1``; a finding needs
the line. JSON files are walked with the span helpers of ``config/jsonc`` (comments blanked,
so offsets stay). ``tomllib`` keeps no positions, so a TOML value is found by its text.
"""

from __future__ import annotations

import json
import stat
from functools import lru_cache
from pathlib import Path

from hookwise.config.jsonc import object_members, scan_value_end, scan_ws, strip_json_comments

__all__ = ["file_text", "json_line", "line_of_offset", "origin_line", "text_line"]

MAX_CONFIG_BYTES = 4 * 1024 * 1024


@lru_cache(maxsize=256)
def _read(path: str, mtime_ns: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_CONFIG_BYTES:
        return None
    return data.decode("utf-8", errors="replace")


def file_text(path: str | Path) -> str | None:
    """A configuration file's text (cached per modification time); None if unreadable."""
    try:
        info = Path(path).stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None  # a FIFO or a device would block or never end
    return _read(str(path), info.st_mtime_ns)


def line_of_offset(text: str, offset: int) -> int:
    return text.count("\n", 0, max(0, offset)) + 1


def _array_items(text: str, open_bracket: int) -> list[int]:
    starts: list[int] = []
    i = scan_ws(text, open_bracket + 1)
    if text[i] == "]":
        return starts
    while True:
        starts.append(i)
        i = scan_ws(text, scan_value_end(text, i))
        if text[i] == ",":
            i = scan_ws(text, i + 1)
            continue
        return starts


def json_line(text: str, pointer: list[str | int]) -> int | None:
    """The line of the value at ``pointer`` (keys and indexes); None when it is not there."""
    stripped = strip_json_comments(text)
    try:
        at = scan_ws(stripped, 0)
        for step in pointer:
            if at >= len(stripped):
                return None
            if stripped[at] == "{":
                members, _ = object_members(stripped, at)
                found = [m for m in members if m.key == str(step)]
                if not found:
                    return None
                at = found[-1].value_start  # JSON.parse keeps the last duplicate
            elif stripped[at] == "[" and isinstance(step, int):
                items = _array_items(stripped, at)
                if step >= len(items):
                    return None
                at = items[step]
            else:
                return None
    except (IndexError, ValueError, TypeError):
        return None
    return line_of_offset(stripped, at)


def _pointer(fragment: str) -> list[str | int]:
    out: list[str | int] = []
    for raw in fragment.strip("/").split("/"):
        if not raw:
            continue
        part = raw.replace("~1", "/").replace("~0", "~")
        out.append(int(part) if part.isdigit() else part)
    return out


def origin_line(origin: str, *extra: str | int) -> tuple[str, int]:
    """(file, line) of a loader origin ``file#/hooks/Event/0/hooks/1`` (+ ``extra`` keys)."""
    path, _, fragment = origin.partition("#")
    text = file_text(path)
    if text is None:
        return path, 1
    pointer = [*_pointer(fragment), *extra]
    if path.endswith(".toml"):
        return path, 1
    for depth in range(len(pointer), -1, -1):
        line = json_line(text, pointer[:depth])
        if line is not None:
            return path, line
    return path, 1


def text_line(path: str, *needles: str) -> int:
    """The first line of ``path`` holding one of ``needles`` (TOML values, as written or as a
    JSON/TOML basic string); 1 when none is found."""
    text = file_text(path)
    if not text:
        return 1
    for needle in needles:
        if not needle:
            continue
        for form in (needle, json.dumps(needle, ensure_ascii=False)[1:-1]):
            offset = text.find(form)
            if offset >= 0:
                return line_of_offset(text, offset)
    return 1
