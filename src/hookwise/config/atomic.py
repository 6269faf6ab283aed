"""One way to replace a file: write a temporary sibling, sync it, keep the mode, rename over.

A reader (or a crash) never sees half a file; the old file's permissions survive. With
``follow_symlinks`` a symlinked file (a settings file kept in a dotfiles repository) is
replaced where it points, so the link stays a link; without it the link itself is replaced.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["write_atomic", "write_text_atomic"]


def write_atomic(
    path: Path, data: bytes, *, mode: int | None = None, follow_symlinks: bool = False
) -> None:
    """Replace ``path`` with ``data``, with ``mode`` (None: the existing file's mode);
    missing parent directories are made."""
    if follow_symlinks and path.is_symlink():
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = mode if mode is not None or not path.exists() else stat.S_IMODE(os.stat(path).st_mode)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if kept is not None:
            os.chmod(tmp, kept)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(
    path: Path, text: str, *, mode: int | None = None, follow_symlinks: bool = False
) -> None:
    """``write_atomic`` of UTF-8 text (lone surrogates from a lenient read kept as bytes)."""
    data = text.encode("utf-8", "surrogateescape")
    write_atomic(path, data, mode=mode, follow_symlinks=follow_symlinks)
