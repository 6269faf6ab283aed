"""How the hosts read the dotenv files of their rows' ``env_files``: which names a file sets,
and which project file a host loads.

Shared by ``hookwise run``, ``doctor`` (config/env_files.py) and the hook, which must not
take a ``HOOKWISE_*`` variable a host exported from a project's file (policy/env_origin.py).
Standard library only; :mod:`re` is imported when a file is read.
"""

from __future__ import annotations

import os

# Where a line starts for any parser we model: dotenv (Gemini CLI's; 16.x first turns
# "\r\n" and a lone "\r" into "\n", and JavaScript's multiline "^" also follows U+2028 and
# U+2029) and dotenvy, widened to every break Python's str.splitlines knows (\v, \f, \x1c-\x1e,
# \x85): more lines, never fewer. Before a key, dotenv's "\s*" skips any Unicode space, the
# BOM (U+FEFF) and the line breaks themselves; between the key and "=" too ("KEY\n=1" sets
# KEY). Python's "\s" lacks U+FEFF and U+180E (older JavaScript's space): added.
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_SPACE = "[\\s\ufeff\u180e]"
# (compiled when a file is read)
KEY = f"(?:^|(?<=[{_BREAKS}])){_SPACE}*(?:export{_SPACE}+)?([\\w.-]+){_SPACE}*[=:]"


def keys(text: str) -> list[str]:
    """Every name a dotenv parser could set from ``text`` (dotenv's and dotenvy's keys:
    ``[export ]NAME=`` or ``NAME:`` after any line break or space either could read as one;
    a line inside a quoted value counts too: more names, never fewer, since a name missed
    here is a variable a host exports unseen: red team s27 #8)."""
    import re

    found = re.finditer(KEY, text)
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
