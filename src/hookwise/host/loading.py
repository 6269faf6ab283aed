"""Building a HookSystem for a project from everything its host would read.

Which files, scopes and trust checks apply is the host runtime's business (its ``load``);
this module only picks the host and wires what it read into a HookSystem. A project's own
hooks that are left out for trust are never silent: they are listed in
``system.untrusted`` and reported with a :class:`HookTrustWarning` (shown on stderr by
Python's default warning filter).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping

from hookwise.config.detect import detect_dialect
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.host.gemini_runtime import default_plans_dir
from hookwise.host.handlers.model import ModelCallback
from hookwise.host.runtime import LoadOptions
from hookwise.host.runtimes import runtime_for
from hookwise.host.system import HookSystem
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile

__all__ = ["HookTrustWarning", "default_plans_dir", "load_hook_system"]


class HookTrustWarning(UserWarning):
    """Project hooks were left out because the user has not trusted the project (or them)."""


def load_hook_system(
    project_dir: str | os.PathLike[str] = ".",
    *,
    profile: Profile = DEFAULT_PROFILE,
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    session_id: str | None = None,
    paths: SettingsPaths | None = None,
    dialect: str | None = None,
    bypass_hook_trust: bool = False,
    trust_workspace: bool = False,
    record_trust: bool = False,
    model: ModelCallback | None = None,
) -> HookSystem:
    """A HookSystem for ``project_dir`` with its merged settings and extension hooks.

    ``dialect`` None detects Gemini CLI, Claude Code or Codex from the project's settings
    files. Loading never raises on bad settings: every problem becomes a warning on the
    returned system (``system.warnings``) and the valid parts still load.

    Each host's project trust applies (Gemini's trusted folders, Claude Code's workspace
    trust, Codex's trusted projects and hook hashes, ``HOOKWISE_HOOK_TRUST=enforce``).
    ``trust_workspace`` treats the folder as trusted and ``bypass_hook_trust`` runs hooks
    nobody approved (tests, CI); ``record_trust`` lets loading write the host's warn-once
    trust stores, as the host itself would (off: loading only reads).

    ``model`` answers Claude Code's prompt and agent hooks (``host/handlers/model.py``);
    without it such hooks fail with an error saying so.
    """
    environ = os.environ if env is None else env
    runtime = runtime_for(dialect or detect_dialect(project_dir, home=home), profile)
    options = LoadOptions(
        home=home,
        env=environ,
        paths=paths,
        bypass_hook_trust=bypass_hook_trust,
        trust_workspace=trust_workspace,
        record_trust=record_trust,
    )
    loaded = runtime.load(project_dir, options)
    loaded.execution.model = model
    if loaded.untrusted:
        listed = "\n".join(f"  - {line}" for line in loaded.untrusted)
        warnings.warn(
            f"{len(loaded.untrusted)} project hook(s) of {loaded.workspace} will not run until "
            f"the project is trusted:\n{listed}",
            HookTrustWarning,
            stacklevel=2,
        )
    return HookSystem(
        loaded.registry,
        profile=profile,
        cwd=loaded.workspace,
        session_id=session_id,
        execution=loaded.execution,
        warnings=loaded.warnings,
        runtime=runtime,
        untrusted=loaded.untrusted,
    )
