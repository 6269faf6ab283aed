"""How the hosts read the dotenv files of their rows' ``env_files``: which names a file sets,
and which project file a host loads.

Shared by ``hookwise run``, ``doctor`` (config/env_files.py) and the hook, which must not
take a ``HOOKWISE_*`` variable a host exported from a project's file (policy/env_origin.py).
Standard library only; :mod:`re` is imported when a file is read.
"""

from __future__ import annotations

import os

KEY = r"^[ \t]*(?:export[ \t]+)?([\w.-]+)[ \t]*(?:=|:)"  # (compiled when a file is read)


def keys(text: str) -> list[str]:
    """Every name a dotenv parser could set from ``text`` (dotenv's and dotenvy's keys:
    ``[export ]NAME=`` or ``NAME:`` at a line's start; a line inside a quoted value counts
    too: more names, never fewer)."""
    import re

    found = re.finditer(KEY, text, re.MULTILINE)
    return list(dict.fromkeys(match.group(1) for match in found))


def project_env_file(names: tuple[str, ...], cwd: str) -> str | None:
    """The project env file a host loads (the first of ``names`` found from ``cwd`` up)."""
    current = os.path.abspath(cwd)
    while True:
        for name in names:
            path = os.path.join(current, name)
            if os.path.isfile(path):
                return path
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
