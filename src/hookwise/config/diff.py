"""A file's change as a unified diff that ``patch`` and ``git apply`` accept.

``difflib.unified_diff`` leaves a last line without its newline as it is, so the next
header runs into it and the patch is broken; a file without a final newline is common
(editors that do not add one, JSON written by tools). Such a line gets the newline and
the ``\\ No newline at end of file`` marker, as diff(1) writes it.
"""

from __future__ import annotations

import difflib

__all__ = ["unified_diff"]

NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(before: str | None, after: str | None, fromfile: str, tofile: str) -> str:
    """The diff from ``before`` to ``after`` (None: the file does not exist)."""
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        (after or "").splitlines(keepends=True),
        fromfile=fromfile,
        tofile=tofile,
    )
    return "".join(line if line.endswith("\n") else line + "\n" + NO_NEWLINE for line in lines)
