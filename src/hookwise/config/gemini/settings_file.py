"""One Gemini settings file, read as the CLI reads it: never raising, every problem a warning.

Comments are stripped like strip-json-comments, ``$VAR`` references are expanded and the
schema's coercions apply. A malformed file becomes a warning naming the file, the
line:column and the JSON path, and the other scopes are kept.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hookwise.config.env_expansion import resolve_env_vars
from hookwise.config.files import read_file_bytes
from hookwise.config.gemini.paths import SettingsScope
from hookwise.config.gemini.schema import validate_settings
from hookwise.config.gemini.system_file_security import system_file_insecurity
from hookwise.config.jsonc import parse_jsonc
from hookwise.protocol.jsvalue import JSON, UNDEFINED


@dataclass
class SettingsFile:
    """One scope's settings.json, as read."""

    scope: SettingsScope
    path: Path
    exists: bool = False
    settings: dict[str, JSON] = field(default_factory=dict)
    """What the merge uses: env-expanded and, when valid, coerced by the schema."""
    raw: dict[str, JSON] = field(default_factory=dict)
    """The object as written (comments stripped), before env expansion."""
    text: str | None = None
    error: str | None = None
    """Why the file was not used (malformed JSON, insecure system file, unreadable...)."""

    @property
    def loaded(self) -> bool:
        return self.exists and self.error is None

    @property
    def hooks(self) -> JSON:
        return self.settings.get("hooks", UNDEFINED)


def read_settings_file(
    scope: SettingsScope,
    path: Path,
    env: Mapping[str, str],
    warnings: list[str],
    *,
    check_security: bool = False,
) -> SettingsFile:
    """Read, strip comments, parse, expand env vars and validate one file.

    Never raises: every problem becomes a warning naming the file (and where in it).
    """
    file = SettingsFile(scope, path)
    if not os.path.exists(path):
        return file
    file.exists = True
    if check_security:
        problem = system_file_insecurity(path)
        if problem is not None:
            file.error = (
                f"Security Warning: Skipping {scope.value} settings file '{path}': {problem}"
            )
            warnings.append(file.error)
            return file
    try:
        data = read_file_bytes(path)
    except OSError as exc:
        file.error = f"{path}: cannot read settings: {exc.strerror or exc}"
        warnings.append(file.error)
        return file
    text = data.decode("utf-8", errors="replace")
    file.text = text
    value, problem_at = parse_jsonc(text)
    if problem_at is not None:
        file.error = problem_at.describe(str(path)) + f"; {scope.value} settings ignored"
        warnings.append(file.error)
        return file
    if not isinstance(value, dict):
        file.error = (
            f"{path}: Settings file is not a valid JSON object; {scope.value} settings ignored"
        )
        warnings.append(file.error)
        return file
    file.raw = value
    expanded = resolve_env_vars(value, env)
    assert isinstance(expanded, dict)
    validated, issues = validate_settings(expanded)
    if issues:
        more = f"; ...and {len(issues) - 5} more" if len(issues) > 5 else ""
        shown = "; ".join(issues[:5]) + more
        warnings.append(f"{path}: invalid configuration ({shown}); the file is used as written")
    file.settings = validated
    return file


__all__ = ["SettingsFile", "read_settings_file"]
