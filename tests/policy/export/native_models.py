"""How each host matches the entries hookwise exports, as its documentation and its code
say (the exporter modules' docstrings): the tests' model of the host side, so every
command a host would refuse can be put to the policy engine."""

from __future__ import annotations

import json
import re
import shlex

from hookwise.policy.export.model import Native, Prefix


def claude_matches(native: Native, command: str) -> bool:
    """``Bash(p:*)``: the command ``p`` or ``p <anything>`` (a word boundary)."""
    prefix = " ".join(native.intent.words) if isinstance(native.intent, Prefix) else None
    return prefix is not None and (command == prefix or command.startswith(prefix + " "))


def gemini_args(command: str) -> str:
    """Gemini's stableStringify of ``{"command": ...}``: each top-level pair between NULs."""
    return "{\x00" + '"command":' + json.dumps(command) + "\x00}"


def gemini_matches(native: Native, command: str) -> bool:
    found = re.search(r'commandRegex = ("(?:[^"\\]|\\.)*")', native.entry)
    if found is None:
        return False
    return re.search('"command":"' + json.loads(found.group(1)), gemini_args(command)) is not None


def codex_matches(native: Native, command: str) -> bool:
    """``prefix_rule``: the pattern is a prefix of the argv, token by token."""
    if not isinstance(native.intent, Prefix):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    words = list(native.intent.words)
    return argv[: len(words)] == words


MODELS = {"claude": claude_matches, "gemini": gemini_matches, "codex": codex_matches}
