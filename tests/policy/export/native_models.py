"""How each host matches the entries hookwise exports, as its documentation and its code
say (the exporter modules' docstrings): the tests' model of the host side, so every
command a host would refuse can be put to the policy engine."""

from __future__ import annotations

import json
import re
import shlex
from functools import cache

from hookwise.policy.export.model import Native, Prefix


def claude_matches(native: Native, command: str) -> bool:
    """``Bash(p:*)``: the command ``p`` or ``p <anything>`` (a word boundary)."""
    prefix = " ".join(native.intent.words) if isinstance(native.intent, Prefix) else None
    return prefix is not None and (command == prefix or command.startswith(prefix + " "))


def gemini_args(command: str) -> str:
    """Gemini's stableStringify of ``{"command": ...}``: each top-level pair between NULs."""
    return "{\x00" + '"command":' + json.dumps(command) + "\x00}"


@cache
def _gemini_pattern(entry: str) -> re.Pattern[str] | None:
    found = re.search(r'commandRegex = ("(?:[^"\\]|\\.)*")', entry)
    return None if found is None else re.compile('"command":"' + json.loads(found.group(1)))


def gemini_matches(native: Native, command: str) -> bool:
    pattern = _gemini_pattern(native.entry)
    return pattern is not None and pattern.search(gemini_args(command)) is not None


def codex_matches(native: Native, command: str) -> bool:
    """``prefix_rule``: the pattern is a prefix of the argv, token by token."""
    if not isinstance(native.intent, Prefix):
        return False
    argv = _argv(command)
    words = tuple(native.intent.words)
    return argv is not None and argv[: len(words)] == words


@cache
def _argv(command: str) -> tuple[str, ...] | None:
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return None


_OPERATORS = ("&&", "||", ";;", "|&", "|", ";", "&", "\n")
_OPERATOR_STARTS = frozenset(o[0] for o in _OPERATORS)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+")


@cache  # (the soundness tests put every command to every entry)
def split_compound(command: str) -> tuple[str, ...]:
    """Qwen Code's splitCompoundCommand (rule-parser.ts), broadened: every operator outside
    quotes splits (Qwen keeps ``&`` of a redirection ``>&``: splitting more refuses more,
    so the model asks the engine about more commands, never fewer)."""
    parts: list[str] = []
    single = double = escaped = False
    start = i = 0
    while i < len(command):
        ch = command[i]
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
        elif not single and not double and ch in _OPERATOR_STARTS:
            op = next((o for o in _OPERATORS if command.startswith(o, i)), None)
            if op is not None:
                parts.append(command[start:i].strip(" \t\n"))
                start = i + len(op)
                i = start
                continue
        i += 1
    parts.append(command[start:].strip(" \t\n"))
    return tuple(p for p in parts if p) or (command,)


_HEREDOC = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z0-9_]+)\1")


@cache
def without_heredoc_bodies(command: str) -> str:
    """The command with the lines of its here-documents left out (bash reads them as data)."""
    out: list[str] = []
    ends: list[tuple[str, bool]] = []
    for line in command.split("\n"):
        if ends:
            word, dash = ends[0]
            if (line.lstrip("\t") if dash else line) == word:
                ends.pop(0)
            continue
        out.append(line)
        ends = [
            (m.group(2), line[m.start() + 2 : m.start() + 3] == "-")
            for m in _HEREDOC.finditer(line)
        ]
    return "\n".join(out)


def qwen_matches(native: Native, command: str, *, heredocs: bool = False) -> bool:
    """``Bash(p:*)`` -> ``p *``: each command of the line, leading assignments dropped, is
    ``p`` or ``p <anything>``. Qwen splits at every newline, here-document lines included
    (``heredocs``: as it does; else as bash reads them: the soundness tests ask the engine
    about those, and test_qwen_here_documents about the rest)."""
    if not isinstance(native.intent, Prefix):
        return False
    prefix = " ".join(native.intent.words)
    for part in split_compound(command if heredocs else without_heredoc_bodies(command)):
        rest = part
        while (found := _ASSIGNMENT.match(rest)) is not None:
            rest = rest[found.end() :]
        if rest == prefix or rest.startswith(prefix + " "):
            return True
    return False


def copilot_matches(native: Native, command: str) -> bool:
    """``shell(p:*)``: documented as the command's name and first-level subcommand, by
    prefix on its stem (``git:*`` is not ``gitea``); modelled as Qwen's, which refuses at
    least as much (each command of the line, leading assignments dropped)."""
    return qwen_matches(native, command)


MODELS = {
    "claude": claude_matches,
    "gemini": gemini_matches,
    "codex": codex_matches,
    "qwen": qwen_matches,
    "copilot": copilot_matches,
}
