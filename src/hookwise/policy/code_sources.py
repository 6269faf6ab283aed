"""The source files the compiled policy depends on: every module of hookwise loaded in the
process when the compiler has run (what the compiler imports, transitively, lazy imports
and modules imported by a name from a table included: code that ran while compiling is
loaded; what was loaded before it too, a superset that costs a stat, never an answer), and
the rule packs' directory. Found when the cache is written and kept in it with their stamp
(cache.code_stamp), so that an edit to any of them, in an editable install, recompiles. A
module that gains an import is itself edited, so the list it was found with is stale with
it. Standard library only."""

from __future__ import annotations

import sys

from hookwise.policy import os_lite as os

# the packs count by their directory (cache.code_stamp)
PACKS = ("policy/rules/packs", "policy/rules/packs/__init__.py")


def compiler_sources(package: str) -> tuple[str, ...]:
    """The files under ``package`` (hookwise's directory) of the modules of hookwise loaded
    now, relative to it, sorted; call it after compiling."""
    prefix = os.path.realpath(package) + "/"
    found = set(PACKS)
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) if name.startswith("hookwise") else None
        if isinstance(path, str) and path.endswith(".py"):
            real = os.path.realpath(path)
            if real.startswith(prefix):
                found.add(real[len(prefix) :])
    return tuple(sorted(found))
