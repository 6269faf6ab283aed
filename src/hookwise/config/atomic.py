"""One way to replace a file: write a temporary sibling, keep the mode, rename over.

A reader (or a crash) never sees half a file; the old file's permissions survive.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["write_atomic", "write_text_atomic"]


def write_atomic(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data``, with ``mode`` (None: the existing file's mode)."""
    kept = mode if mode is not None or not path.exists() else stat.S_IMODE(os.stat(path).st_mode)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        if kept is not None:
            os.chmod(tmp, kept)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str, *, mode: int | None = None) -> None:
    """``write_atomic`` of UTF-8 text (lone surrogates from a lenient read kept as bytes)."""
    write_atomic(path, text.encode("utf-8", "surrogateescape"), mode=mode)
