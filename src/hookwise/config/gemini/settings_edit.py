"""Changing ``hooksConfig.disabled`` in one Gemini settings file, keeping every other byte.

``hookwise hooks disable``/``enable`` write through here: comments, formatting and the other
keys stay as written; a file that does not parse is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

from hookwise.config.atomic import write_text_atomic
from hookwise.config.files import read_file_text
from hookwise.config.jsonc import (
    insert_member,
    object_members,
    parse_json_text,
    parse_jsonc,
    scan_ws,
    strip_json_comments,
)


class SettingsEditError(ValueError):
    """A settings file could not be changed safely (it was left untouched)."""


def update_disabled_hooks(path: Path, disabled: list[str]) -> None:
    """Set ``hooksConfig.disabled`` in one settings file, keeping everything else as written.

    Comments, formatting and the other keys stay byte for byte; only the array (or the
    member holding it) is rewritten. A missing file is created. A file that does not parse
    is refused: hookwise never rewrites what it cannot read.
    """
    value_text = json.dumps(disabled, ensure_ascii=False)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        content = json.dumps({"hooksConfig": {"disabled": disabled}}, indent=2, ensure_ascii=False)
        write_text_atomic(path, content)
        return
    original = read_file_text(path)
    stripped = strip_json_comments(original)
    root, problem = parse_json_text(stripped)
    if problem is not None:
        raise SettingsEditError(problem.describe(str(path)) + "; fix it before changing it")
    if not isinstance(root, dict):
        raise SettingsEditError(f"{path}: Settings file is not a valid JSON object")
    root_brace = scan_ws(stripped, 0)
    members, _ = object_members(stripped, root_brace)
    section = [m for m in members if m.key == "hooksConfig"]
    if not section:
        updated = insert_member(
            original, stripped, root_brace, "hooksConfig", f'{{"disabled": {value_text}}}'
        )
    elif stripped[section[-1].value_start] != "{":
        m = section[-1]
        updated = (
            original[: m.value_start] + f'{{"disabled": {value_text}}}' + original[m.value_end :]
        )
    else:
        inner, _ = object_members(stripped, section[-1].value_start)
        current = [m for m in inner if m.key == "disabled"]
        if current:
            m = current[-1]
            updated = original[: m.value_start] + value_text + original[m.value_end :]
        else:
            updated = insert_member(
                original, stripped, section[-1].value_start, "disabled", value_text
            )
    check, problem = parse_jsonc(updated)
    now = check.get("hooksConfig") if isinstance(check, dict) else None
    written = now.get("disabled") if isinstance(now, dict) else None
    if problem is not None or written != disabled:
        raise SettingsEditError(f"{path}: could not update hooksConfig.disabled safely")
    write_text_atomic(path, updated)


__all__ = ["SettingsEditError", "update_disabled_hooks"]
