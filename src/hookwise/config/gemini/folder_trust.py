"""Folder trust: is this workspace trusted at all? Gemini CLI's ``checkPathTrust``.

``GEMINI_RESTRICTED_MODE`` and ``GEMINI_CLI_TRUST_WORKSPACE`` decide first, then
``security.folderTrust.enabled``, then the rules of ``trustedFolders.json`` (the longest
matching path wins). An unreadable or invalid rules file means untrusted: fail closed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from hookwise.config.atomic import write_text_atomic
from hookwise.config.files import read_file_text
from hookwise.config.jsonc import parse_jsonc
from hookwise.config.workspace_trust import FolderTrust
from hookwise.protocol.jsvalue import JSON, js_string


class TrustLevel(Enum):
    TRUST_FOLDER = "TRUST_FOLDER"
    TRUST_PARENT = "TRUST_PARENT"
    DO_NOT_TRUST = "DO_NOT_TRUST"


def normalize_rule_path(path: str) -> str:
    """The engine's ``normalizePath``: absolute, forward slashes, lower-case on macOS/Windows."""
    absolute = os.path.abspath(path).replace("\\", "/")
    return absolute.lower() if sys.platform in ("darwin", "win32") else absolute


def _real(path: str) -> str:
    try:
        return os.path.realpath(path) if os.path.exists(path) else path
    except OSError:
        return path


def _is_subpath(parent: str, child: str) -> bool:
    relative = os.path.relpath(child, parent) if parent != child else ""
    outside = relative.startswith(".." + os.sep) or relative == ".."
    return not outside and not os.path.isabs(relative)


@dataclass
class TrustedFolders:
    """``trustedFolders.json``: ``{path: TRUST_FOLDER | TRUST_PARENT | DO_NOT_TRUST}``."""

    path: Path
    rules: dict[str, TrustLevel] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> TrustedFolders:
        folders = cls(path)
        if not os.path.exists(path):
            return folders
        try:
            text = read_file_text(path)
        except OSError as exc:
            folders.errors.append(f"{path}: cannot read: {exc.strerror or exc}")
            return folders
        value, problem = parse_jsonc(text)
        if problem is not None:
            folders.errors.append(problem.describe(str(path)))
            return folders
        if not isinstance(value, dict):
            folders.errors.append(f"{path}: Trusted folders file is not a valid JSON object.")
            return folders
        levels = {level.value: level for level in TrustLevel}
        for raw_path, level in value.items():
            if isinstance(level, str) and level in levels:
                folders.rules[normalize_rule_path(raw_path)] = levels[level]
            else:
                folders.errors.append(
                    f'{path}: Invalid trust level "{js_string(level)}" for path "{raw_path}". '
                    f"Possible values are: {', '.join(levels)}."
                )
        return folders

    def is_path_trusted(self, location: str | os.PathLike[str]) -> bool | None:
        """The longest matching rule decides; None when no rule matches."""
        target = normalize_rule_path(_real(os.fspath(location)))
        best_len = -1
        best: TrustLevel | None = None
        for rule_path, level in self.rules.items():
            parent = level is TrustLevel.TRUST_PARENT
            effective = normalize_rule_path(
                _real(os.path.dirname(rule_path) if parent else rule_path)
            )
            if _is_subpath(effective, target) and len(rule_path) > best_len:
                best_len = len(rule_path)
                best = level
        if best is TrustLevel.DO_NOT_TRUST:
            return False
        if best is not None:
            return True
        return None

    def set_level(self, folder: str | os.PathLike[str], level: TrustLevel) -> None:
        """Add or change one rule and save, keeping the other rules as they are."""
        if self.errors:
            problems = "; ".join(self.errors)
            raise ValueError(
                f"cannot update trusted folders because the file is invalid: {problems}"
            )
        current: dict[str, JSON] = {}
        if os.path.exists(self.path):
            value, _ = parse_jsonc(read_file_text(self.path))
            if isinstance(value, dict):
                current = value
        key = normalize_rule_path(os.fspath(folder))
        current[key] = level.value
        self.rules[key] = level
        text = json.dumps(current, indent=2, ensure_ascii=False)
        write_text_atomic(self.path, text, mode=0o600)


def folder_trust(
    workspace: str | os.PathLike[str],
    *,
    enabled: bool,
    trusted_folders_path: Path,
    env: Mapping[str, str],
) -> tuple[FolderTrust, list[str]]:
    """``checkPathTrust``; an unreadable trustedFolders.json means untrusted (fail closed)."""
    if env.get("GEMINI_RESTRICTED_MODE") == "true":
        return FolderTrust(False, "env", "GEMINI_RESTRICTED_MODE=true"), []
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return FolderTrust(False, "env", "GEMINI_CLI_TRUST_WORKSPACE=false"), []
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return FolderTrust(True, "env", "GEMINI_CLI_TRUST_WORKSPACE=true"), []
    if not enabled:
        return FolderTrust(True, "disabled", "security.folderTrust.enabled is false"), []
    folders = TrustedFolders.load(trusted_folders_path)
    if folders.errors:
        warnings = [
            f"{error}; the workspace is treated as untrusted until the file is fixed"
            for error in folders.errors
        ]
        return FolderTrust(False, "error", f"{trusted_folders_path} is invalid"), warnings
    verdict = folders.is_path_trusted(workspace)
    if verdict is True:
        return FolderTrust(True, "file", f"trusted by a rule in {trusted_folders_path}"), []
    if verdict is False:
        return FolderTrust(False, "file", f"DO_NOT_TRUST rule in {trusted_folders_path}"), []
    return (
        FolderTrust(
            False,
            "default",
            f"no rule in {trusted_folders_path} trusts {os.fspath(workspace)}; trust it with "
            "`hookwise hooks trust --folder` or GEMINI_CLI_TRUST_WORKSPACE=true",
        ),
        [],
    )


__all__ = ["TrustLevel", "TrustedFolders", "folder_trust", "normalize_rule_path"]
