"""Quoting an argv into a command line that the shell parser (and bash) reads back as
that argv.

Cold: needed only to write a command line (an explanation, an alias expanded with its
arguments, a canonical event shown to a person), never to read one.
"""

from __future__ import annotations


def join(argv: list[object]) -> str:
    """A command line that :mod:`hookwise.shell.parser` (and bash) reads back as ``argv``."""
    parts = []
    for arg in argv:
        text = arg if isinstance(arg, str) else str(arg)
        if text and all(ch.isalnum() or ch in "@%+=:,./-_" for ch in text):
            parts.append(text)
        else:
            parts.append("'" + text.replace("'", "'\"'\"'") + "'")
    return " ".join(parts)
