"""Codex's trust of the hooks install writes, in ``$CODEX_HOME/config.toml``.

Codex runs a non-managed hook only when its definition's hash is trusted
(``[hooks.state."<key>"] trusted_hash``, what Codex's ``/hooks`` writes; see
``config/codex/settings.py``). Installing is the user's approval of exactly those hooks, so
install writes their trust too, and uninstall removes the trust entries it matches.
:func:`edit_codex_trust` is pure (text in, text out) and checks its result by parsing it back.
Project trust (``[projects."<dir>"]``) is a decision about the whole project: install only
reads it (:func:`codex_project_trust`); :func:`edit_codex_project_trust` writes it for
``hookwise hooks trust --host codex --folder``, a person's explicit decision.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from hookwise.config.codex.settings import (
    CodexPaths,
    codex_hook_hash,
    event_label,
    parse_codex_config_text,
    project_trust_level,
)
from hookwise.config.host_homes import codex_home
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import FoundHook


def codex_trust_entries(hooks_json: Path, found: list[FoundHook]) -> dict[str, str]:
    """``[hooks.state]`` key -> trusted hash, for hookwise's handlers in a hooks.json."""
    return {
        f"{hooks_json}:{event_label(h.event)}:{h.group}:{h.handler}": codex_hook_hash(
            h.event, h.matcher, h.config
        )
        for h in found
    }


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: JSON's escapes except that control characters
    (DEL included, which JSON leaves raw) are ``\\uXXXX`` and other characters stay as
    they are (JSON's surrogate pairs for astral characters are not TOML)."""
    out = ['"']
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


# A ``[table]`` header line; quoted keys may hold ``]`` and ``#`` (``[projects."a]#b"]``).
_HEADER: Final = re.compile(
    r"""^[ \t]*\[(?!\[)(?P<key>(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\]"'\n])*)\]"""
    r"[ \t]*(#[^\n]*)?$",
    re.MULTILINE,
)


def _toml_error(text: str, origin: str) -> str | None:
    parsed, problems = parse_codex_config_text(text, origin)
    if parsed is None:
        return problems[0].replace("; the file is ignored", "")
    return None


def _header_path(inner: str) -> list[str] | None:
    """The key path of a ``[table]`` header (``hooks.state."k"`` -> [hooks, state, k])."""
    try:
        parsed: Any = tomllib.loads(f"{inner} = 0")
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        path.append(key)
    return path if parsed == 0 else None


@dataclass(frozen=True)
class _Section:
    start: int  # the header line's start
    body: int  # just after the header line
    end: int  # the next header's line start, or the end of the text


def _sections(text: str) -> Iterator[tuple[list[str] | None, _Section]]:
    headers = list(_HEADER.finditer(text))
    for index, match in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        newline = text.find("\n", match.end())
        body = len(text) if newline < 0 else newline + 1
        yield _header_path(match.group("key").strip()), _Section(match.start(), body, end)


_HASH_LINE: Final = re.compile(r"^[ \t]*trusted_hash[ \t]*=[^\n]*(\n|$)", re.MULTILINE)
_BLANK_OR_COMMENT: Final = re.compile(r"^[ \t]*(#[^\n]*)?$")


def _set_line(text: str, table: list[str], pattern: re.Pattern[str], line: str) -> str:
    """``text`` with ``line`` in the ``[table]`` section: replacing what ``pattern``
    finds there, else first in it; a new section at the end when there is none."""
    for path, section in _sections(text):
        if path != table:
            continue
        body = text[section.body : section.end]
        match = pattern.search(body)
        body = body[: match.start()] + line + body[match.end() :] if match else line + body
        return text[: section.body] + body + text[section.end :]
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text else "") + _table_header(table) + line


def _table_header(table: list[str]) -> str:
    """``[hooks.state."<key>"]``: bare words stay bare, the last part is always quoted."""
    parts = [*table[:-1], toml_string(table[-1])]
    return f"[{'.'.join(parts)}]\n"


def _hooks_state(text: str) -> dict[str, Any]:
    parsed = tomllib.loads(text)
    hooks = parsed.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def edit_codex_trust(
    text: str | None, origin: str, add: Mapping[str, str], remove: Mapping[str, str]
) -> str | None:
    """``config.toml`` with ``add``'s trusted hashes set and ``remove``'s entries dropped.

    An entry is removed only while it still holds the hash given (hookwise's hook). The
    result is parsed back and checked; a layout this cannot edit safely (inline tables,
    dotted keys) raises InstallError with the lines to add by hand.
    """
    original = text or ""
    if original:
        problem = _toml_error(original, origin)
        if problem is not None:
            raise InstallError(f"{problem}; fix it first (nothing written)")
    state = _hooks_state(original) if original else {}
    updated = original
    for key, digest in remove.items():
        entry = state.get(key)
        if not isinstance(entry, dict) or entry.get("trusted_hash") != digest or key in add:
            continue
        for path, section in _sections(updated):
            if path != ["hooks", "state", key]:
                continue
            body = updated[section.body : section.end]
            rest = _HASH_LINE.sub("", body, count=1)
            if all(_BLANK_OR_COMMENT.match(line) for line in rest.splitlines()):
                start = section.start
                if updated[:start].endswith("\n\n"):
                    start -= 1
                updated = updated[:start] + updated[section.end :]
            else:
                updated = updated[: section.body] + rest + updated[section.end :]
            break
    for key, digest in add.items():
        entry = state.get(key)
        if isinstance(entry, dict) and entry.get("trusted_hash") == digest:
            continue
        line = f"trusted_hash = {json.dumps(digest)}\n"
        updated = _set_line(updated, ["hooks", "state", key], _HASH_LINE, line)
    expected = {
        key: value
        for key, value in _state_hashes(state).items()
        if key in add or remove.get(key) != value
    }
    expected |= dict(add)
    problem = _toml_error(updated, origin)
    if problem is not None or _state_hashes(_hooks_state(updated)) != expected:
        lines = "\n".join(
            f"[hooks.state.{toml_string(k)}]\ntrusted_hash = {json.dumps(v)}"
            for k, v in add.items()
        )
        raise InstallError(
            f"{origin}: cannot record the Codex hook trust safely in this file's layout; add "
            f"this by hand (or approve the hooks in Codex's /hooks):\n{lines}"
        )
    return updated if updated or text is not None else None


_LEVEL_LINE: Final = re.compile(r"^[ \t]*trust_level[ \t]*=[^\n]*(\n|$)", re.MULTILINE)


def edit_codex_project_trust(text: str | None, origin: str, directory: Path) -> str:
    """``config.toml`` with ``[projects."<directory>"] trust_level = "trusted"``, the rest
    of the file kept as it is; what Codex's own trust prompt records.

    The result is parsed back and checked; a layout this cannot edit safely (inline
    tables, dotted keys) raises InstallError with the lines to add by hand.
    """
    original = text or ""
    if original:
        problem = _toml_error(original, origin)
        if problem is not None:
            raise InstallError(f"{problem}; fix it first (nothing written)")
    key = str(directory)
    updated = _set_line(original, ["projects", key], _LEVEL_LINE, 'trust_level = "trusted"\n')
    problem = _toml_error(updated, origin)
    projects = tomllib.loads(updated).get("projects") if problem is None else None
    entry = projects.get(key) if isinstance(projects, dict) else None
    if not isinstance(entry, dict) or entry.get("trust_level") != "trusted":
        raise InstallError(
            f"{origin}: cannot record the project trust safely in this file's layout; add "
            f"this by hand (or answer Codex's trust prompt):\n[projects.{toml_string(key)}]\n"
            'trust_level = "trusted"'
        )
    return updated


def _state_hashes(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: entry.get("trusted_hash")
        for key, entry in state.items()
        if isinstance(entry, dict) and "trusted_hash" in entry
    }


def codex_project_trust(
    project: Path, config_text: str | None, env: Mapping[str, str]
) -> tuple[str | None, Path]:
    """The ``trust_level`` Codex applies to ``project``'s layer, and the directory to trust.

    As Codex 0.169 decides (codex_settings.py): the project directory's own entry, else the
    project root's (the nearest ancestor holding ``.git``).
    """
    root = CodexPaths.from_environment(project, codex_home=codex_home(env), env=env).project_root()
    try:
        parsed = tomllib.loads(config_text or "")
    except tomllib.TOMLDecodeError:
        parsed = {}
    return project_trust_level(parsed.get("projects"), project, root), root


__all__ = [
    "codex_project_trust",
    "codex_trust_entries",
    "edit_codex_project_trust",
    "edit_codex_trust",
    "toml_string",
]
