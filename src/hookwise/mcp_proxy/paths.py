"""The paths of a call made absolute before it is decided, and passed on so.

A server resolves a relative path against a base of its own: the reference filesystem server
against its allowed directories (the first under which it lands), others against a root
option or their cwd. The policy resolves against the proxy's working directory, so with
``server-filesystem ~/notes .`` a rule on ``.config/autostart.sh`` in the project was
checked while ``~/notes/.config/autostart.sh`` was written. The proxy cannot know every
server's base; it removes the ambiguity instead: each path argument the rules read is made
absolute (``~`` with the policy's home) and the server gets that very spelling. A server
that takes only relative paths answers with its own error: a failed call, never a call
decided on another file.

A path that is a symbolic link is decided as named and as it resolves (the server follows
it): :func:`resolved` gives the second spelling to decide on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from hookwise.policy.arg_readings import anchor, anchored, trimmed_paths
from hookwise.policy.arg_readings import path_keys as _path_keys


def _absolute(value: Any, cwd: str, home: str, real: bool) -> Any:
    found = anchor(value, cwd, home)  # (arg_readings: what the hook decides on too)
    if not real:
        return found
    if isinstance(found, list):
        return [os.path.realpath(v) if isinstance(v, str) and v else v for v in found]
    return os.path.realpath(found) if isinstance(found, str) and found else found


def absolute(
    tool: str, args: Mapping[str, Any], cwd: str, home: str, *, moves: bool = False
) -> dict[str, Any]:
    """``args`` with every path argument of canonical ``tool`` absolute (others kept)."""
    return anchored(tool, args, cwd, home, moves=moves)


def resolved(
    tool: str, args: Mapping[str, Any], cwd: str, home: str, *, moves: bool = False
) -> dict[str, Any] | None:
    """``args`` with symbolic links in the path arguments resolved, or None when no path
    argument goes through one (the call is then decided once)."""
    out = dict(args)
    changed = False
    for key in _path_keys(tool, args, moves):
        real = _absolute(args[key], cwd, home, True)
        if real != _absolute(args[key], cwd, home, False):
            out[key] = real
            changed = True
    return out if changed else None


def trimmed(
    tool: str, args: Mapping[str, Any], cwd: str, home: str, *, moves: bool = False
) -> dict[str, Any] | None:
    """``args`` with blanks around the path arguments dropped as a server forgiving them
    does (``arg_readings.trimmed_paths``), made absolute, or None when none has any."""
    cut = trimmed_paths(tool, args, moves)
    if cut is None:
        return None
    out = dict(args)
    for key in _path_keys(tool, args, moves):
        if cut[key] != args[key]:
            out[key] = _absolute(cut[key], cwd, home, False)
    return out


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def other_files(
    tool: str, args: Mapping[str, Any], cwd: str, home: str, *, moves: bool = False
) -> list[str]:
    """The files the path arguments name besides as written (through a link, trimmed): the
    call is decided on them too (:func:`resolved`, :func:`trimmed`), so an ask names them
    (red team s28 F10: ``tests/fixtures/ssh`` was shown, ``~/.ssh`` was written)."""
    written = absolute(tool, args, cwd, home, moves=moves)
    out: list[str] = []
    for other in (
        resolved(tool, args, cwd, home, moves=moves),
        trimmed(tool, args, cwd, home, moves=moves),
    ):
        if other is None:
            continue
        for key in _path_keys(tool, args, moves):
            shown = _items(written.get(key))
            for value in _items(other.get(key)):
                if isinstance(value, str) and value not in shown and value not in out:
                    out.append(value)
    return out
