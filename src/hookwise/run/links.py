"""Hard links made before the session: a second name for a guarded file, outside the
read-only binds, would let the agent write the same inode.

No new one can be made inside (``link(2)`` across mounts fails with EXDEV, and into a
read-only mount with EROFS), so only those already there matter. hookwise's own state and
the hosts' settings with more than one link are replaced by an identical copy (the guarded
name gets an inode of its own; the other name keeps the old one). Installed code is not
rewritten behind the installer's back: ``hookwise run`` refuses and says how to reinstall.

Files directly inside a guarded directory are checked (hookwise keeps its state flat); a
guarded Python package (hookwise's own code) is walked whole. Deeper trees (a virtualenv, the
standard library: thousands of files, a start may not wait for them) are not.
"""

from __future__ import annotations

import os
import stat

from hookwise.run.guarded_paths import CODE, HOST, STATE, Guarded


def _files(entry: Guarded) -> list[tuple[str, os.stat_result]]:
    try:
        info = os.lstat(entry.path)
    except OSError:
        return []
    if stat.S_ISREG(info.st_mode):
        return [(entry.path, info)]
    if not stat.S_ISDIR(info.st_mode):
        return []
    out: list[tuple[str, os.stat_result]] = []
    walk = entry.role == CODE and os.path.exists(os.path.join(entry.path, "__init__.py"))
    pending = [entry.path]
    package = os.path.join(entry.path, "hookwise")  # (a package root guarded whole: src/)
    if entry.role == CODE and not walk and os.path.exists(os.path.join(package, "__init__.py")):
        out += _files(Guarded(package, CODE, entry.why))
    while pending:
        directory = pending.pop()
        try:
            children = list(os.scandir(directory))
        except OSError:
            continue
        for child in children:
            if child.is_dir(follow_symlinks=False):
                if walk:
                    pending.append(child.path)
            elif child.is_file(follow_symlinks=False):
                out.append((child.path, child.stat(follow_symlinks=False)))
    return out


def _copy(path: str, info: os.stat_result) -> None:
    """Replace ``path`` by a copy of itself (atomic; mode and owner kept)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    temp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.hookwise-run.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, stat.S_IMODE(info.st_mode))
    try:
        try:
            for chunk in chunks:
                os.write(fd, chunk)
            os.fsync(fd)
            if os.geteuid() == 0:
                os.fchown(fd, info.st_uid, info.st_gid)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def unlink_hard_links(entries: list[Guarded]) -> list[str]:
    """Give every hard-linked guarded state or settings file its own inode (before the
    mounts: a file replaced after would lift its bind); the notes to print."""
    notes: list[str] = []
    for entry in entries:
        if entry.role not in (STATE, HOST):
            continue
        for path, info in _files(entry):
            if info.st_nlink <= 1:
                continue
            try:
                _copy(path, info)
            except OSError as exc:
                raise OSError(
                    exc.errno,
                    f"{path} has {info.st_nlink} hard links and cannot be copied: {exc.strerror}",
                ) from None
            notes.append(
                f"{path} had {info.st_nlink} hard links; it is now a copy of its own "
                "(the other names keep the old file)"
            )
    return notes


def linked_code(entries: list[Guarded]) -> str | None:
    """Why a guarded code file with more than one link refuses the session, or None. Reads
    only: the supervisor runs it while the namespaces are being built."""
    for entry in entries:
        if entry.role != CODE:
            continue
        for path, info in _files(entry):
            if info.st_nlink > 1:
                return (
                    f"{path} ({entry.why}) has {info.st_nlink} hard links; another name for it "
                    "could change the code the hook runs. Reinstall with copies, not links "
                    "(uv: UV_LINK_MODE=copy, then reinstall hookwise)"
                )
    return None
