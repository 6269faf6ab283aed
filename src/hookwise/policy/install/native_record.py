"""What ``install --native`` wrote, kept beside the file it wrote, so that uninstall can give
back the exact bytes and doctor can tell a hand edit from a stale policy.

A settings file cannot say which of its ``permissions.deny`` strings hookwise added (the
user may have written the same one), so the record names them; it also keeps the file's
text from before (``before``: None when there was no file) and a hash of the text hookwise
left (``written``). Uninstall restores ``before`` only when the file still hashes to
``written``; otherwise it removes the recorded entries alone. The record is read like any
file from outside: a regular file of modest size, every field checked, errors naming the
file and the field.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.config.files import read_file_bytes
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.plan import FileChange

FORMAT = 1
DECISIONS = ("deny", "ask")
MAX_NATIVE_BYTES = 1024 * 1024
"""Largest settings or native file install --native edits: every entry added re-parses the
file (jsonc.JsonDocument), so far larger files would make it slow; real ones are a few KB."""
MAX_RECORD_BYTES = 2 * MAX_NATIVE_BYTES + 65536  # ``before`` as JSON text, and the entries


@dataclass
class Record:
    host: str
    file: str
    written: str
    """sha256 (hex) of the file's text as install --native left it."""
    before: str | None
    entries: dict[str, list[str]] = field(default_factory=dict)
    """decision -> the entries hookwise added (Claude; whole files: empty)."""
    made: list[str] = field(default_factory=list)
    """What install --native created and uninstall removes when empty: directories, or
    ``permissions`` / ``permissions.deny`` / ``permissions.ask`` in a settings file."""

    def to_text(self) -> str:
        return (
            json.dumps(
                {
                    "hookwise_native": FORMAT,
                    "host": self.host,
                    "file": self.file,
                    "written": self.written,
                    "before": self.before,
                    "entries": {d: self.entries.get(d, []) for d in DECISIONS},
                    "made": self.made,
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def record_path(target: Path) -> Path:
    """The record of ``target``: a hidden file beside it (no host loads it: the hosts read
    ``settings.json``, ``*.toml`` and ``*.rules`` there)."""
    return target.with_name(f".{target.name}.hookwise-native.json")


def _strings(value: Any, origin: str, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InstallError(f"{origin}: field {name!r}: expected an array of strings; {_FIX}")
    return list(value)


_FIX = "fix or remove this record (its entries then count as the user's); nothing written"


def parse_record(text: str, origin: str, host: str, file: Path) -> Record:
    """A record's text -> Record, or InstallError naming ``origin`` and the field."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InstallError(f"{origin}: not JSON ({exc}); {_FIX}") from None
    if not isinstance(data, dict):
        raise InstallError(f"{origin}: expected a JSON object; {_FIX}")
    if data.get("hookwise_native") != FORMAT:
        raise InstallError(f"{origin}: field 'hookwise_native': expected {FORMAT}; {_FIX}")
    if data.get("host") != host:
        raise InstallError(f"{origin}: field 'host': expected {host!r}; {_FIX}")
    if data.get("file") != str(file):
        raise InstallError(f"{origin}: field 'file': expected {str(file)!r}; {_FIX}")
    written = data.get("written")
    if not isinstance(written, str) or len(written) != 64 or set(written) - set("0123456789abcdef"):
        raise InstallError(f"{origin}: field 'written': expected a sha256 in hex; {_FIX}")
    before = data.get("before")
    if before is not None and not isinstance(before, str):
        raise InstallError(f"{origin}: field 'before': expected a string or null; {_FIX}")
    entries = data.get("entries", {})
    if not isinstance(entries, dict) or set(entries) - set(DECISIONS):
        raise InstallError(f"{origin}: field 'entries': expected {{deny, ask}}; {_FIX}")
    found = {d: _strings(entries.get(d, []), origin, f"entries.{d}") for d in DECISIONS}
    made = _strings(data.get("made", []), origin, "made")
    return Record(host, str(file), written, before, found, made)


def regular_text(path: Path, max_bytes: int, what: str) -> str | None:
    """A file install --native edits or reads: None when absent; a symlink, a non-regular
    file, a huge one or one that is not UTF-8 is an InstallError (nothing written)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise InstallError(
            f"{path}: is a symbolic link (to {os.readlink(path)}); hookwise writes {what} only "
            "into a regular file it can see whole: replace the link with the file, or edit "
            "what it points to yourself (nothing written)"
        )
    try:
        data = read_file_bytes(path, max_bytes)
    except IsADirectoryError:
        raise InstallError(f"{path}: is a directory, not {what} (nothing written)") from None
    except OSError as exc:
        raise InstallError(
            f"{path}: cannot read: {exc.strerror or exc} (nothing written)"
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InstallError(f"{path}: not UTF-8 text (byte {exc.start}); nothing written") from None


def read_record(target: Path, host: str) -> Record | None:
    """The record of ``target``, or None when there is none."""
    path = record_path(target)
    text = regular_text(path, MAX_RECORD_BYTES, "hookwise's record")
    return None if text is None else parse_record(text, str(path), host, target)


__all__ = [
    "DECISIONS",
    "MAX_NATIVE_BYTES",
    "Record",
    "digest",
    "parse_record",
    "read_record",
    "record_path",
    "regular_text",
]


def record_change(
    target: Path, record: Record | None, new: Record | None, root: Path | None = None
) -> FileChange:
    """The record made ``new``; None: removed, then the directories install made (below
    ``root``) when that leaves them empty."""
    path = record_path(target)
    before = None if record is None else record.to_text()
    if new is None:
        after = "" if before is not None else None
        return FileChange(path, before, after, deleted=True, root=root or path.parent)
    return FileChange(path, before, new.to_text())
