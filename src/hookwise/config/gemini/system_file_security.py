"""Whether a system settings file may be trusted: root-owned and not writable by others.

Gemini CLI skips a system settings file (and its system defaults) that any local user could
have written, since its hooks would run as whoever starts the CLI.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def system_file_insecurity(path: Path) -> str | None:
    """Why the CLI refuses a system settings file (isFileAndDirectorySecureSync), if it does.

    The file and every directory above it must be owned by root and not writable by group
    or others; otherwise any local user could inject hooks that run as you.
    """
    if sys.platform == "win32":
        return None
    normalized = os.path.abspath(path)
    if not os.path.exists(normalized):
        return None
    canonical = os.path.realpath(normalized)

    def ancestors(directory: str) -> list[str]:
        found = []
        current = directory
        while True:
            found.append(current)
            parent = os.path.dirname(current)
            if parent == current or not parent:
                return found
            current = parent

    def secure(target: str, want_dir: bool) -> str | None:
        try:
            info = os.stat(target)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"Failed to access path: {exc}"
        kind = "Directory" if stat.S_ISDIR(info.st_mode) else "File"
        if want_dir and not stat.S_ISDIR(info.st_mode):
            return "Not a directory"
        if not want_dir and not stat.S_ISREG(info.st_mode):
            return "Not a file"
        try:
            link = os.lstat(target)
            if stat.S_ISLNK(link.st_mode) and link.st_uid != 0:
                return f"Symlink '{target}' is not owned by root (uid 0)"
        except OSError:
            pass
        if info.st_uid != 0:
            return f"{kind} '{target}' is not owned by root (uid 0). Current uid: {info.st_uid}"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return (
                f"{kind} '{target}' is writable by group or others "
                f'(mode: {info.st_mode:o}). To fix this, run: sudo chmod g-w,o-w "{target}"'
            )
        return None

    for ancestor in ancestors(os.path.dirname(normalized)):
        reason = secure(ancestor, True)
        if reason:
            return f"Parent directory '{ancestor}' is insecure: {reason}"
    reason = secure(normalized, False)
    if reason:
        return f"File is insecure: {reason}"
    if canonical != normalized:
        reason = secure(canonical, False)
        if reason:
            return f"Resolved target file is insecure: {reason}"
        for ancestor in ancestors(os.path.dirname(canonical)):
            reason = secure(ancestor, True)
            if reason:
                return f"Resolved target parent directory '{ancestor}' is insecure: {reason}"
    return None


__all__ = ["system_file_insecurity"]
