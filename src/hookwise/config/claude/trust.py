"""Claude Code's workspace trust, and hookwise's approvals of a Claude project's hooks.

Claude Code asks once per folder whether to trust it and records the answer in its global
config, ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json`` when that is set):
``projects["<dir>"].hasTrustDialogAccepted``; an accepted ancestor counts, as in Claude
Code's own walk up the parents. Until then a project's own settings files
(``.claude/settings.json``, ``settings.local.json``) must not run anything: they come with
the repository. hookwise never writes that file; ``hookwise hooks trust --host claude``
records its own answer (and, in ``enforce`` mode, the fingerprints of the approved hooks)
in ``<config dir>/hookwise_trusted_hooks.json``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.claude.settings import ClaudeHooks, ClaudePaths, ClaudeScope
from hookwise.config.files import read_file_text
from hookwise.config.hook_trust_mode import HookTrustMode, resolve_trust_mode
from hookwise.config.jsonc import parse_json_text
from hookwise.config.model import HookEntry, Source, hook_fingerprint, hook_key
from hookwise.config.workspace_trust import FolderTrust
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "CLAUDE_TRUST_STORE",
    "ClaudeTrustOptions",
    "ClaudeTrustStore",
    "claude_global_config",
    "claude_workspace_trust",
    "gate_claude_project_hooks",
    "trust_story",
]

CLAUDE_TRUST_STORE: Final = "hookwise_trusted_hooks.json"


def claude_global_config(home: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path:
    """Where Claude Code keeps its per-project records; an explicit ``home`` wins."""
    if home is not None:
        return Path(os.path.abspath(home)) / ".claude.json"
    if env.get("CLAUDE_CONFIG_DIR"):
        return Path(os.path.abspath(env["CLAUDE_CONFIG_DIR"])) / ".claude.json"
    return Path(os.path.expanduser("~")) / ".claude.json"


def _read_object(path: Path) -> dict[str, JSON]:
    try:
        text = read_file_text(path)
    except OSError:
        return {}
    value, problem = parse_json_text(text)
    return value if problem is None and isinstance(value, dict) else {}


def _self_and_parents(directory: Path) -> Iterable[str]:
    current = directory
    while True:
        yield str(current)
        if current.parent == current:
            return
        current = current.parent


@dataclass
class ClaudeTrustStore:
    """hookwise's own record: trusted workspaces and approved hook fingerprints."""

    path: Path

    def _document(self) -> dict[str, JSON]:
        return _read_object(self.path)

    def _section(self, name: str) -> dict[str, JSON]:
        section = self._document().get(name)
        return section if isinstance(section, dict) else {}

    def trusts(self, directory: Path) -> str | None:
        """The trusted workspace that covers ``directory`` (itself or an ancestor), if any."""
        workspaces = self._section("workspaces")
        return next((d for d in _self_and_parents(directory) if d in workspaces), None)

    def approved(self, project: str) -> frozenset[str]:
        records = self._section("projects").get(project)
        return frozenset(records) if isinstance(records, dict) else frozenset()

    def trust(self, project: str, entries: Iterable[HookEntry]) -> None:
        """Trust the workspace and approve exactly these hooks (replacing older approvals)."""
        now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        document = self._document()
        workspaces = self._section("workspaces")
        projects = self._section("projects")
        workspaces[project] = {"trustedAt": now}
        projects[project] = {
            hook_fingerprint(e): {"event": e.event, "name": e.name, "key": hook_key(e.config)}
            for e in entries
        }
        document.update({"version": 1, "workspaces": workspaces, "projects": projects})
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, json.dumps(document, indent=2, ensure_ascii=False))


def claude_workspace_trust(
    project: Path, *, global_config: Path, store: ClaudeTrustStore
) -> FolderTrust:
    """Trusted when hookwise or Claude Code's own record says so; untrusted otherwise."""
    by_hookwise = store.trusts(project)
    if by_hookwise is not None:
        return FolderTrust(True, "hookwise", f"{by_hookwise} trusted in {store.path}")
    projects = _read_object(global_config).get("projects")
    if isinstance(projects, dict):
        for directory in _self_and_parents(project):
            record = projects.get(directory)
            if isinstance(record, dict) and record.get("hasTrustDialogAccepted") is True:
                return FolderTrust(
                    True, "file", f"{directory}: hasTrustDialogAccepted in {global_config}"
                )
    return FolderTrust(
        False,
        "default",
        f"{project} is not a trusted Claude Code workspace (no hasTrustDialogAccepted in "
        f"{global_config}); trust it with `hookwise hooks trust --host claude` or open it "
        "in Claude Code once",
    )


def trust_story(project: Path, trust: FolderTrust) -> str:
    """What a workspace's trust means for each way its project hooks can run: the one text
    ``doctor``, ``fire`` and ``hooks trust`` give (they once told three stories)."""
    interactive = (
        "Claude Code keeps its own record (~/.claude.json): interactive Claude Code asks "
        "once when it opens the folder; `claude -p` and SDK sessions run the project's "
        "hooks without asking"
    )
    if trust.trusted and trust.source == "file":
        return (
            f"workspace trusted ({trust.detail}): Claude Code, `fire` and `simulate` run the "
            "project's hooks"
        )
    if trust.trusted:
        return (
            f"workspace trusted by hookwise ({trust.detail}): `fire` and `simulate` run the "
            f"project's hooks; {interactive}"
        )
    return (
        f"{project} is not a trusted Claude Code workspace: `fire` and `simulate` skip the "
        "project's hooks until `hookwise hooks trust --host claude` (or `--trust-project` "
        f"for one run); {interactive}"
    )


@dataclass(frozen=True)
class ClaudeTrustOptions:
    """How the gate is applied: the host's rules, or a test's bypass."""

    home: str | os.PathLike[str] | None
    env: Mapping[str, str]
    trust_workspace: bool = False
    """Treat the workspace as trusted for this load (tests, CI); nothing is written."""
    bypass_hook_trust: bool = False
    """Run project hooks ``enforce`` mode has not approved."""


def gate_claude_project_hooks(hooks: ClaudeHooks, options: ClaudeTrustOptions) -> None:
    """Leave out the project's own hooks the user has not trusted, saying which and why.

    Project hooks (``.claude/settings.json``, ``settings.local.json``) run only in a trusted
    workspace; in ``enforce`` mode (``HOOKWISE_HOOK_TRUST`` or ``hookwise.hookTrust`` in the
    user or managed settings) each must also be approved by ``hookwise hooks trust``.
    """
    paths = ClaudePaths.from_environment(
        hooks.env["CLAUDE_PROJECT_DIR"], home=options.home, env=options.env
    )
    store = ClaudeTrustStore(paths.config_dir / CLAUDE_TRUST_STORE)
    section: JSON = None
    for file in hooks.settings_files:
        if file.scope in (ClaudeScope.USER, ClaudeScope.MANAGED) and file.has("hookwise"):
            section = file.get("hookwise")
    mode, problems = resolve_trust_mode(options.env, section)
    hooks.warnings.extend(problems)
    if options.trust_workspace:
        trust = FolderTrust(True, "flag", "--trust-project")
    else:
        global_config = claude_global_config(options.home, options.env)
        trust = claude_workspace_trust(paths.project, global_config=global_config, store=store)
    enforce = mode is HookTrustMode.ENFORCE and not options.bypass_hook_trust
    approved = store.approved(str(paths.project)) if enforce else frozenset()
    kept: list[HookEntry] = []
    for entry in hooks.registry.entries:
        if entry.source is not Source.PROJECT:
            kept.append(entry)
        elif not trust.trusted:
            hooks.untrusted.append(f"{entry.label} ({entry.event}, {entry.origin}): {trust.detail}")
        elif enforce and hook_fingerprint(entry) not in approved:
            hooks.untrusted.append(
                f"{entry.label} ({entry.event}, {entry.origin}): not approved (hookwise hook "
                "trust: enforce); review it, then run `hookwise hooks trust --host claude`"
            )
        else:
            kept.append(entry)
    if len(kept) != len(hooks.registry.entries):
        hooks.registry.entries = kept
        hooks.warnings.append(
            "project hooks not run (untrusted):\n"
            + "\n".join(f"  - {line}" for line in hooks.untrusted)
        )
