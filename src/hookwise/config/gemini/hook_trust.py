"""Hook trust: has the user seen these project hooks? Fingerprints, stores and approvals.

This follows Gemini CLI's ``trustedHooks.ts``: the engine keeps ``name:command`` keys per
project in ``~/.gemini/trusted_hooks.json``, warns once about new ones and trusts them all.
hookwise adds its own store of fingerprints of the whole definition (command, matcher, env,
timeout), so a hook whose matcher or env changed is noticed too, and an opt-in ``enforce``
mode (``hook_trust_mode``) that refuses unapproved project hooks until ``hookwise hooks
trust`` approves them. Whether the folder itself is trusted is ``folder_trust``'s question.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.files import read_file_text
from hookwise.config.gemini.paths import SettingsScope
from hookwise.config.gemini.settings import LoadedSettings
from hookwise.config.hook_trust_mode import HookTrustMode
from hookwise.config.model import HookEntry, Source, hook_fingerprint, hook_key
from hookwise.config.registry import Registry, build_registry
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    get,
    js_json_parse,
    js_string,
    truthy,
)
from hookwise.protocol.profiles import Profile

PROJECT_SCOPE: Final = "project"


# --------------------------------------------------------------------------- engine keys


def _js_keys(value: JSON) -> list[str]:
    """``Object.keys``."""
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, list):
        return [str(i) for i in range(len(value))]
    if isinstance(value, str):
        return [str(i) for i in range(len(value.encode("utf-16-le", "surrogatepass")) // 2)]
    return []


def _engine_project_hook_configs(project_hooks: JSON) -> Iterable[JSON]:
    """The hooks trustedHooks.ts walks; raises JSTypeError where the engine throws."""
    for event in _js_keys(project_hooks):
        definitions = get(project_hooks, event)
        if not isinstance(definitions, list):
            continue
        for definition in definitions:
            if not truthy(definition) or not isinstance(get(definition, "hooks"), list):
                continue
            for hook in get(definition, "hooks"):
                if get(hook, "type") == "runtime":  # reading .type of null throws
                    continue
                yield hook


def _engine_key(hook: JSON) -> str:
    return hook_key(hook) if isinstance(hook, dict) else ":"


def engine_hook_keys(project_hooks: JSON) -> list[str]:
    """Every key ``trustHooks`` would store for this ``hooks`` object."""
    return list(dict.fromkeys(_engine_key(h) for h in _engine_project_hook_configs(project_hooks)))


def engine_untrusted_hooks(trusted_keys: Iterable[str], project_hooks: JSON) -> list[str]:
    """``getUntrustedHooks``: display names (``name || command``) of unknown keys, deduplicated."""
    known = set(trusted_keys)
    names: dict[tuple[str, str], str] = {}
    for hook in _engine_project_hook_configs(project_hooks):
        if _engine_key(hook) in known:
            continue
        label: JSON = "unknown-hook"
        if isinstance(hook, dict):
            for candidate in (hook.get("name", UNDEFINED), hook.get("command", UNDEFINED)):
                if truthy(candidate):
                    label = candidate
                    break
        names.setdefault((type(label).__name__, js_string(label)), js_string(label))
    return list(names.values())


def engine_warning(untrusted: list[str]) -> str:
    """The engine's exact warning text (hookRegistry.checkProjectHooksTrust)."""
    listed = "\n".join(f"  - {name}" for name in untrusted)
    return (
        "WARNING: The following project-level hooks have been detected in this workspace:\n"
        f"{listed}\n\n"
        "These hooks will be executed. If you did not configure these hooks or do not trust "
        "this project,\nplease review the project settings (.gemini/settings.json) and remove them."
    )


# --------------------------------------------------------------------------- stores


def _write_json(path: Path, value: JSON, *, mode: int | None = None) -> None:
    """Write atomically (temp file + rename) so a crash never leaves half a store."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(value, indent=2, ensure_ascii=False), mode=mode)


def _read_json(path: Path, warnings: list[str], what: str) -> JSON:
    if not os.path.exists(path):
        return UNDEFINED
    try:
        return js_json_parse(read_file_text(path))
    except (OSError, ValueError) as exc:
        warnings.append(f"{path}: cannot read the {what} ({exc}); starting from an empty one")
        return UNDEFINED


class HookTrustStore:
    """Both stores: the engine's ``trusted_hooks.json`` and hookwise's fingerprints."""

    def __init__(self, engine_path: Path, hookwise_path: Path) -> None:
        self.engine_path = engine_path
        self.hookwise_path = hookwise_path
        self.warnings: list[str] = []
        engine = _read_json(engine_path, self.warnings, "trusted hooks store")
        if engine is not UNDEFINED and not isinstance(engine, dict):
            self.warnings.append(f"{engine_path}: not a JSON object; starting from an empty one")
        self.engine: dict[str, JSON] = engine if isinstance(engine, dict) else {}
        own = _read_json(hookwise_path, self.warnings, "hookwise hook approvals")
        projects = own.get("projects") if isinstance(own, dict) else None
        if own is not UNDEFINED and not isinstance(projects, dict):
            self.warnings.append(
                f"{hookwise_path}: unexpected content; starting from an empty store"
            )
        self.projects: dict[str, JSON] = projects if isinstance(projects, dict) else {}

    @classmethod
    def for_settings(cls, settings: LoadedSettings) -> HookTrustStore:
        return cls(settings.paths.trusted_hooks, settings.paths.hookwise_trusted_hooks)

    def engine_keys(self, project: str) -> list[str]:
        keys = self.engine.get(project)
        return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []

    def approved(self, project: str) -> dict[str, JSON]:
        records = self.projects.get(project)
        return records if isinstance(records, dict) else {}

    def trust_engine_keys(self, project: str, keys: Iterable[str]) -> None:
        """``trustHooks``: add keys to the project's list, keeping the old ones."""
        self.engine[project] = list(dict.fromkeys([*self.engine_keys(project), *keys]))
        _write_json(self.engine_path, self.engine)

    def approve(self, project: str, entries: Iterable[HookEntry], *, replace: bool) -> None:
        """Record fingerprints; ``replace`` forgets approvals of hooks no longer defined."""
        now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        records: dict[str, JSON] = {} if replace else dict(self.approved(project))
        for entry in entries:
            records[hook_fingerprint(entry)] = {
                "event": entry.event,
                "name": entry.name,
                "key": hook_key(entry.config),
                "approvedAt": now,
            }
        self.projects[project] = records
        _write_json(self.hookwise_path, {"version": 1, "projects": self.projects})


# --------------------------------------------------------------------------- project hooks


@dataclass(frozen=True)
class HookTrustStatus:
    """One project hook and what the stores know about it."""

    entry: HookEntry
    fingerprint: str
    key: str
    state: str
    """``approved``, ``new`` (never approved) or ``changed`` (same hook, new definition)."""
    engine_known: bool
    """Its ``name:command`` key is in the engine's store (Gemini CLI will not warn)."""


@dataclass
class HookTrustReport:
    """The trust state of a project's hooks; ``refuse`` plugs into the host's executor."""

    mode: HookTrustMode
    project_root: str
    folder_trusted: bool
    statuses: list[HookTrustStatus] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    approved: frozenset[str] = frozenset()
    recorded: bool = False

    @property
    def pending(self) -> list[HookTrustStatus]:
        return [s for s in self.statuses if s.state != "approved"]

    def status_of(self, entry: HookEntry) -> HookTrustStatus | None:
        if entry.scope != PROJECT_SCOPE:
            return None
        fingerprint = hook_fingerprint(entry)
        for status in self.statuses:
            if status.fingerprint == fingerprint and status.entry.event == entry.event:
                return status
        return None

    def refuse(self, entry: HookEntry) -> str | None:
        """Why this hook must not run (enforce mode, unapproved project hook), or None."""
        if self.mode is not HookTrustMode.ENFORCE or entry.scope != PROJECT_SCOPE:
            return None
        if entry.source in (Source.RUNTIME, Source.EXTENSIONS):
            return None
        if hook_fingerprint(entry) in self.approved:
            return None
        return (
            f"project hook {entry.label!r} ({entry.event}) is not approved: hookwise hook trust "
            f"is in enforce mode; review .gemini/settings.json and run `hookwise hooks trust` "
            f"in {self.project_root}"
        )


def project_registry(settings: LoadedSettings) -> Registry:
    """The project file's hooks as they are (or would be, if trusted) registered.

    Built from the same objects the host registers, so what is fingerprinted is exactly
    what runs (in the gemini-cli profile that includes a non-array event value, which the
    merge turns into a one-element list).
    """
    objects = [*settings.hooks_objects, *settings.skipped_hooks_objects]
    return build_registry([o for o in objects if o.scope == PROJECT_SCOPE])


def assess_project_hooks(
    settings: LoadedSettings, store: HookTrustStore | None = None
) -> HookTrustReport:
    """What the stores say about each project hook. Reads only; never writes."""
    store = store or HookTrustStore.for_settings(settings)
    root = str(settings.paths.workspace)
    approved = store.approved(root)
    engine_keys = set(store.engine_keys(root))
    report = HookTrustReport(
        mode=settings.hook_trust_mode,
        project_root=root,
        folder_trusted=settings.trusted,
        approved=frozenset(approved),
        warnings=list(store.warnings),
    )
    approved_names = {
        (js_string(r.get("event")), js_string(r.get("name")))
        for r in approved.values()
        if isinstance(r, dict)
    }
    for entry in project_registry(settings).entries:
        if entry.config.get("type") == "runtime":
            continue
        fingerprint = hook_fingerprint(entry)
        if fingerprint in approved:
            state = "approved"
        elif (entry.event, entry.name) in approved_names:
            state = "changed"
        else:
            state = "new"
        key = hook_key(entry.config)
        report.statuses.append(HookTrustStatus(entry, fingerprint, key, state, key in engine_keys))
    return report


def check_project_hooks(settings: LoadedSettings, *, record: bool = True) -> HookTrustReport:
    """The startup check: what Gemini CLI does when it loads a project's hooks.

    ``warn`` mode: list the new (and, in the documented profile, changed) project hooks in
    one warning, then trust them all, so the warning comes once. ``enforce`` mode: warn
    about the unapproved ones and record nothing; ``report.refuse`` keeps them from running.
    Only in a trusted folder: in an untrusted one, project hooks do not run at all.
    ``record=False`` warns the same but writes nothing: a dry run such as ``hookwise fire``
    must not make the real Gemini CLI skip its own warning.
    """
    store = HookTrustStore.for_settings(settings)
    report = assess_project_hooks(settings, store)
    if not settings.trusted:
        return report
    pending = report.pending
    if report.mode is HookTrustMode.ENFORCE:
        if pending:
            listed = "\n".join(f"  - {_describe(s)}" for s in pending)
            report.warnings.append(
                "WARNING: these project hooks are not approved and will not run (hookwise "
                f"hook trust: enforce):\n{listed}\n\nReview the project settings "
                "(.gemini/settings.json), then run `hookwise hooks trust` to approve them."
            )
        return report
    root = report.project_root
    if settings.profile is Profile.GEMINI_CLI:
        try:
            untrusted = engine_untrusted_hooks(store.engine_keys(root), settings.project_hooks)
        except JSTypeError:
            return report  # the engine logs this at debug level and moves on
        if untrusted:
            report.warnings.append(engine_warning(untrusted))
            if record:
                _record(store, report, settings)
        elif pending and record:
            store.approve(root, [s.entry for s in report.statuses], replace=False)
            report.recorded = True
        return report
    if pending:
        listed = "\n".join(f"  - {_describe(s)}" for s in pending)
        report.warnings.append(
            "WARNING: The following project-level hooks have been detected in this workspace "
            f"(new or changed since last seen):\n{listed}\n\nThese hooks will be executed. If "
            "you did not configure these hooks or do not trust this project,\nplease review "
            "the project settings (.gemini/settings.json) and remove them."
        )
        if record:
            _record(store, report, settings)
    return report


def approve_project_hooks(settings: LoadedSettings) -> HookTrustReport:
    """``hookwise hooks trust``: approve exactly the project's current hooks (both stores)."""
    store = HookTrustStore.for_settings(settings)
    report = assess_project_hooks(settings, store)
    _record(store, report, settings, replace=True)
    return assess_project_hooks(settings, store) if report.recorded else report


def _record(
    store: HookTrustStore,
    report: HookTrustReport,
    settings: LoadedSettings,
    *,
    replace: bool = False,
) -> None:
    root = report.project_root
    project_hooks = settings.file(SettingsScope.PROJECT).settings.get("hooks", UNDEFINED)
    try:
        keys = engine_hook_keys(project_hooks if truthy(project_hooks) else {})
    except JSTypeError:
        keys = [s.key for s in report.statuses]
    try:
        store.trust_engine_keys(root, keys)
        store.approve(root, [s.entry for s in report.statuses], replace=replace)
    except OSError as exc:
        report.warnings.append(f"cannot save hook approvals: {exc}")
        return
    report.recorded = True
    report.approved = frozenset(store.approved(root))


def _describe(status: HookTrustStatus) -> str:
    label = status.entry.label
    if status.state == "changed":
        return f"{label} ({status.entry.event}; changed since it was approved)"
    return f"{label} ({status.entry.event}; new)"
