"""doctor: PATH directories before the real shells that this user, and so an agent, can write.

Gemini CLI and Codex run every hook with ``bash -c`` looked up on PATH, the portable command
falls back to ``hookwise`` from PATH, the hosts start with ``#!/usr/bin/env node``: a file
put under one of those names in a directory PATH searches first runs in their place. One
allowed tool call wrote ``~/.local/bin/bash`` (before ``/usr/bin`` on most PATHs) and the
real Gemini CLI ran a denied command (red team s32 #2). Self-protection refuses the spelled
writes of ``bash``, ``sh`` and ``hookwise`` there; a program that computes the name is past
any reading of a command. Only moving the directory, or ``hookwise run`` (which makes the
names placeholders), closes it.
"""

from __future__ import annotations

import os

from hookwise.policy.trust.hook_code import PATH_PROGRAMS, path_directories


def _program_in(directory: str, name: str) -> bool:
    path = os.path.join(directory, name)
    return os.access(path, os.X_OK) and not os.path.isdir(path)


def _writable(directory: str) -> bool:
    """This user can put a file there: the directory is writable, or it does not exist and
    its nearest existing parent is (``~/.local/bin`` made on the first write)."""
    current = directory
    while not os.path.lexists(current):
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent
    return os.path.isdir(current) and os.access(current, os.W_OK)


def path_shadows(env: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Per writable PATH directory, each program it comes before: (name, where PATH finds
    it). A program PATH does not find is not counted (nothing runs it by that name)."""
    directories = path_directories(env)
    out: dict[str, list[tuple[str, str]]] = {}
    for name in PATH_PROGRAMS:
        found = next((d for d in directories if _program_in(d, name)), None)
        if found is None:
            continue
        for directory in dict.fromkeys(directories[: directories.index(found)]):  # (once each)
            if directory != found and _writable(directory):
                out.setdefault(directory, []).append((name, found))
    return out


def path_checks(env: dict[str, str]) -> list[tuple[str, str]]:
    """(status, detail): a warning per writable PATH directory before a real program."""
    out: list[tuple[str, str]] = []
    order = path_directories(env)
    for directory, shadowed in path_shadows(env).items():
        names = ", ".join(f"{name} (found in {found})" for name, found in shadowed)
        last = max((found for _name, found in shadowed), key=order.index)
        exists = "" if os.path.isdir(directory) else " (absent: it can be created)"
        out.append((
            "warn",
            f"{directory}{exists} is on PATH before the real {names}, and this user, so an "
            "agent's tool call, can write it: a program put there under one of those names "
            "runs in its place, a host's hooks' shell included (red team s32 #2: the real "
            "Gemini CLI ran a denied command through a planted ~/.local/bin/bash). Move it "
            f"after {last} in PATH, or run the agent under `hookwise run`",
        ))  # fmt: skip
    return out


__all__ = ["path_checks", "path_shadows"]
