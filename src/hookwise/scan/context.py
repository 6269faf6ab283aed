"""Where a scan looks: the project, the user's home and environment, the machine's files.

Every location the hosts read can be overridden, so a test (or a CI job scanning a checkout
for a user it is not) never reads the machine's own ``/etc`` or home.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ScanContext:
    project: Path
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    home: Path | None = None
    """The user's home; None: ``$HOME`` of ``env`` (and each host's own variables)."""
    claude_managed_dir: Path | None = None
    codex_managed_dir: Path | None = None
    gemini_system_settings: Path | None = None
    hookwise_managed_policy: Path | None = None

    @classmethod
    def create(
        cls,
        project: str | os.PathLike[str],
        *,
        env: Mapping[str, str] | None = None,
        home: str | os.PathLike[str] | None = None,
        claude_managed_dir: str | os.PathLike[str] | None = None,
        codex_managed_dir: str | os.PathLike[str] | None = None,
        gemini_system_settings: str | os.PathLike[str] | None = None,
        hookwise_managed_policy: str | os.PathLike[str] | None = None,
    ) -> ScanContext:
        def path(value: str | os.PathLike[str] | None) -> Path | None:
            return None if value is None else Path(os.path.abspath(value))

        return cls(
            project=Path(os.path.realpath(os.path.abspath(project))),
            env=dict(os.environ if env is None else env),
            home=path(home),
            claude_managed_dir=path(claude_managed_dir),
            codex_managed_dir=path(codex_managed_dir),
            gemini_system_settings=path(gemini_system_settings),
            hookwise_managed_policy=path(hookwise_managed_policy),
        )

    @property
    def user_home(self) -> Path:
        if self.home is not None:
            return self.home
        return Path(self.env.get("HOME") or os.path.expanduser("~"))

    def home_for(self, variable: str) -> Path | None:
        """``home`` for a loader, unless the host's own variable (``CLAUDE_CONFIG_DIR``...)
        is set and no explicit home was given: then the loader reads the variable."""
        if self.home is None and self.env.get(variable):
            return None
        return self.user_home

    def inside(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` is in the project (symlinks resolved)."""
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            return False
        root = str(self.project)
        return real == root or real.startswith(root.rstrip(os.sep) + os.sep)
