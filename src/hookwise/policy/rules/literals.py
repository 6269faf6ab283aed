"""Required literals of a regular expression, found when the policy is compiled.

``git\\s+push.*--force`` cannot match a text that lacks ``--force``, so the hook checks
``"--force" in text`` first and only compiles and runs the regex when the literal is there.
Most regexes of a policy are then never compiled in a ``hookwise hook`` process, and
:mod:`re` is not even imported. The literal is a run of characters every match contains:
a top-level sequence of literal characters, also inside groups and repetitions that occur
at least once. Anything uncertain (alternatives, classes, local flags) yields no literal,
which only means "always run the regex".

Cold path only (uses ``re._parser``); the hot path reads the result from the cache.
"""

from __future__ import annotations

import re
from typing import Any


def required_literal(pattern: str, flags: int = 0) -> str:
    """The longest literal every match of ``pattern`` contains ('' when none is known).

    With IGNORECASE (the flag or an inline ``(?i)``) the literal is lower-cased and ASCII
    only; the caller must then pass IGNORECASE in ``flags`` (the loader does) and compare it
    with the lower-cased text, only for ASCII texts (Unicode case folding is wider).
    """
    try:
        import importlib

        constants: Any = importlib.import_module("re._constants")
        parser: Any = importlib.import_module("re._parser")

        tree = parser.parse(pattern, flags)
        ignore = bool(tree.state.flags & re.IGNORECASE)
        runs: list[str] = []
        _collect(tree, constants, runs)
    except Exception:  # a private API: any surprise means "no literal"
        return ""
    if ignore:
        runs = [r.lower() for r in runs if r.isascii()]
    return max(runs, key=len, default="")


def _collect(subpattern: Any, c: Any, runs: list[str]) -> None:
    current: list[str] = []

    def flush() -> None:
        if current:
            runs.append("".join(current))
            current.clear()

    for op, av in subpattern.data:
        if op is c.LITERAL:
            current.append(chr(av))
            continue
        flush()
        if op is c.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            if not add_flags and not del_flags:
                _collect(sub, c, runs)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = av
            if low >= 1:
                _collect(sub, c, runs)
        elif op is getattr(c, "ATOMIC_GROUP", None):
            _collect(av, c, runs)
    flush()
