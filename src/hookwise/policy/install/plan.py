"""``hookwise install`` / ``uninstall``: plan the edits of a host's settings files, then write them.

A plan is computed first and nothing is written until it is complete: the registrations the
policy needs (``registrations.py``), hookwise's entries in the settings file made exactly
those (``hooks_edit.py``), for Codex the hook trust in ``config.toml``
(``codex_hook_trust.py``), and the fast launcher the portable command runs (``launcher.py``).
A file that does not parse is refused, naming the file, line and column, and nothing is
written. :func:`write_plan` writes the changed files atomically, in order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.config.atomic import write_text_atomic
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import load_settings
from hookwise.config.hookwise_command import is_portable_command
from hookwise.config.host_homes import codex_home, gemini_home
from hookwise.config.jsonc import JsonDocument
from hookwise.policy.install.codex_hook_trust import (
    codex_project_trust,
    codex_trust_entries,
    edit_codex_trust,
    toml_string,
)
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hook_script import edit_script
from hookwise.policy.install.hooks_edit import HooksEdit, edit_hooks, find_hookwise
from hookwise.policy.install.launcher import hook_command, launcher_text
from hookwise.policy.install.own_file import edit_own_file
from hookwise.policy.install.plugin_files import edit_plugin_file, loading_notes
from hookwise.policy.install.registrations import policy_events, registrations, timeout_seconds
from hookwise.policy.install.sh_script import edit_sh, script_path
from hookwise.policy.install.targets import settings_path
from hookwise.policy.trust.scopes import launcher_path
from hookwise.protocol.hosts import HOST_TITLES, project_settings_at_start
from hookwise.protocol.hosts import host as host_info
from hookwise.protocol.profiles import Profile


@dataclass
class FileChange:
    path: Path
    before: str | None
    after: str | None
    mode: int | None = None  # set on the written file (the launcher is executable)
    deleted: bool = False
    """Uninstall left the file empty: it is removed rather than left as ``{}`` debris."""
    root: Path | None = None
    """Of a deleted file: the directories between it and ``root`` that this leaves empty
    go too (what install made); ``root`` itself stays. None: only the file's own."""

    @property
    def changed(self) -> bool:
        return self.before != self.after or (self.deleted and self.before is not None)

    def diff(self) -> str:
        from hookwise.config.diff import unified_diff

        fromfile = str(self.path) if self.before is not None else "/dev/null"
        return unified_diff(self.before, self.after, fromfile, str(self.path))


@dataclass
class InstallPlan:
    """What install or uninstall will write, and what to tell the user."""

    host: str
    scope: str
    settings: Path
    command: str | None
    edit: HooksEdit
    changes: list[FileChange] = field(default_factory=list)
    """In writing order (Codex: the trust before the hooks it trusts)."""
    notes: list[str] = field(default_factory=list)
    trusted: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(change.changed for change in self.changes)


def _read(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise InstallError(f"{path}: is a directory, not a settings file") from None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InstallError(f"{path}: not UTF-8 text (byte {exc.start}); nothing written") from None


def _confined(path: Path, scope: str, project: Path) -> Path:
    """``path``, refused when it is a project's file whose symbolic links lead out of the
    project: a repository's link must not make install edit (or uninstall empty) a file
    elsewhere, such as another program's JSON settings in the home directory."""
    if scope != "project":
        return path
    real, root = os.path.realpath(path), os.path.realpath(project)
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        raise InstallError(
            f"{path}: a symbolic link leads out of the project (to {real}); install edits "
            "only files inside it: replace the link with a file (nothing written)"
        )
    return path


def compile_policy(project: Path, env: Mapping[str, str]) -> dict[str, Any]:
    """The merged policy as the hook will see it from ``project``."""
    from hookwise.policy.cache import load_policy

    try:
        return load_policy(str(project), dict(env), use_cache=False).policy
    except OSError as exc:
        raise InstallError(f"cannot read the policy: {exc}") from None


def plan_install(
    host: str,
    scope: str,
    project: Path,
    env: Mapping[str, str],
    *,
    compiled: Mapping[str, Any] | None = None,
    command: str | None = None,
    timeout: int | None = None,
    trust: bool = True,
) -> InstallPlan:
    """The edits that register hookwise for ``host`` in ``scope`` (nothing is written)."""
    project = Path(os.path.abspath(project))
    policy = compiled if compiled is not None else compile_policy(project, env)
    events = policy_events(policy, host)
    seconds = timeout if timeout is not None else timeout_seconds(policy)
    command = command or hook_command(host)
    path = _confined(settings_path(host, scope, project, env), scope, project)
    steps = host_info(host).install_steps
    script = _confined(script_path(path), scope, project) if "sh_script" in steps else None
    # (a host whose command must be a script file registers the script's path)
    desired = registrations(host, events, str(script) if script else command, seconds)
    edit = _edit(host, path, desired, script)
    plan = InstallPlan(host, scope, path, command, edit)
    if script is not None:  # the script before the settings that name it
        before = _read(script)
        after = edit_sh(before, str(script), command, host)
        plan.changes.append(FileChange(script, before, after, mode=0o755))
    errors = policy.get("errors") or []
    if errors:
        first = errors[0]
        plan.notes.append(
            f"the policy has {len(errors)} error(s) (first: {first['file']}:{first['line']}:"
            f"{first['column']}: {first['message']}); until they are fixed hookwise denies "
            "tool calls"
        )
    if not policy.get("files"):
        plan.notes.append(
            f"no policy applies in {project} yet: the hook lets every call through until "
            "`hookwise policy init` writes a starter (.hookwise/policy.yaml); then run "
            "`hookwise install` again for the events it uses"
        )
    if "hook_trust" in steps:  # the hooks' file and their trusted hashes (Codex)
        _plan_codex(plan, project, env, trust=trust, uninstall=False)
    else:
        # (a row whose hooks_layout is "script" names an executable hook file: Cline)
        executable = host_info(host).hooks_layout == "script"
        plan.changes.append(
            FileChange(path, edit.before, edit.after, mode=0o755 if executable else None)
        )
    if scope != "user" and project_settings_at_start(host):
        plan.notes.append(
            f"{HOST_TITLES[host]} reads {scope} settings in the directory it is started in "
            f"only: this registration guards sessions started in {project}, not in its "
            f"subdirectories (a session started in one runs no hookwise hook); "
            f"`hookwise install {host} --scope user` guards every directory"
        )
    if "trust_note" in steps:
        plan.notes.append(trust_story(host))
    if "failure_note" in steps:
        plan.notes.append(failure_story(host))
    if host_info(host).verified == "reference":  # built from the host's published reference
        plan.notes.append(reference_story(host))
    if "plugin_loading_note" in steps:  # what the host waits for before loading plugins
        plan.notes.extend(loading_notes(host, scope, project, env))
    if "folder_trust_note" in steps:
        _note_gemini_trust(plan, project, env)
    if "ask_note" in steps:
        plan.notes.append(gemini_ask_story(policy.get("settings") or {})[1])
    if is_portable_command(command):
        launcher = Path(launcher_path(dict(env)))
        plan.changes.append(
            FileChange(launcher, _read(launcher), launcher_text(str(launcher)), mode=0o755)
        )
    return plan


def owns_file(host: str) -> bool:
    """Whether the file install writes is hookwise's own (uninstall removes it), not a
    shared file hookwise's entries are edited in (``install_steps`` "in_place": a flat
    layout inside the host's own config, Crush's crush.json, Kiro's agent file)."""
    info = host_info(host)
    return info.hooks_layout in ("flat", "script", "plugin") and (
        "in_place" not in info.install_steps
    )


def _edit(host: str, path: Path, desired: list[Any], script: Path | None = None) -> HooksEdit:
    """hookwise's entries in the host's file made ``desired``: a ``hooks`` object edited in
    place, a hook file of hookwise's own, or hookwise's plugin (the registry's
    ``hooks_layout``)."""
    info = host_info(host)
    if info.hooks_layout == "flat" and owns_file(host):
        return edit_own_file(_read(path), str(path), desired, info.handler[0])
    if info.hooks_layout == "script":
        return edit_script(_read(path), str(path), desired, host, path.name)
    if info.hooks_layout == "plugin":
        return edit_plugin_file(_read(path), str(path), desired, host)
    return edit_hooks(
        _read(path),
        str(path),
        desired,
        jsonc=info.jsonc,
        top=info.hooks_layout == "top",
        flat=info.hooks_layout == "flat",
        script=None if script is None else str(script),
    )


def trust_story(host: str) -> str:
    """When the host runs the hooks install writes, as install and doctor both say it."""
    return f"{host_info(host).title}: {host_info(host).trust}"


def reference_story(host: str) -> str:
    """For a host known from its published reference only (install and doctor say it)."""
    return (
        f"{host_info(host).title} is supported from its published reference only: no "
        "real CLI of it was run to check what it does with hookwise's answers (docs/hosts.md)"
    )


def failure_story(host: str) -> str:
    """What the host does with a tool call when the hook fails or is slow (the registry's
    observed ``failure``), and what hookwise does about it."""
    info = host_info(host)
    crash, timeout = info.failure["crash"], info.failure["timeout"]
    slow = {"blocked": "blocks it", "waits": "waits for it (there is no hook timeout)"}
    text = (
        f"when its hook crashes {info.title} {'blocks' if crash == 'blocked' else 'runs'} the "
        f"tool; when the hook is slow it {slow.get(timeout, 'runs it when it times out')}"
    )
    if "runs" in (crash, timeout):
        text += (
            " (fails open): hookwise answers every failure of its own with an explicit deny "
            "in the host's JSON, and its waits (validators, the approval relay) are bounded "
            "below the timeout install writes"
        )
    if "note" in info.failure:
        text += f"; {info.failure['note']}"
    return text


def gemini_ask_story(settings: Mapping[str, Any]) -> tuple[str, str]:
    """What an ``ask`` (a rule's, or ``unverifiable``) does in Gemini CLI, as install and
    doctor both say it: ``(status, text)``, ``warn`` when a headless run would hang."""
    mode = settings.get("gemini_ask", "auto")
    fallback = settings.get("ask_fallback", "deny")
    if mode == "native":
        return (
            "warn",
            "an `ask` is always Gemini CLI's own confirmation (settings.gemini_ask: native): "
            "a headless run (`gemini -p`, no terminal) waits on it forever; `auto` answers "
            f"there with ask_fallback ({fallback})",
        )
    if mode == "fallback":
        return (
            "info",
            f"an `ask` is answered with ask_fallback ({fallback}) in every Gemini CLI session "
            "(settings.gemini_ask: fallback)",
        )
    return (
        "info",
        "an `ask` is Gemini CLI's own confirmation in an interactive session; in a headless "
        f"run (`gemini -p`, no terminal) ask_fallback ({fallback}) answers, so it never "
        "waits (settings.gemini_ask: auto)",
    )


def _note_gemini_trust(plan: InstallPlan, project: Path, env: Mapping[str, str]) -> None:
    """Gemini CLI registers no settings hook in an untrusted folder (user hooks included):
    say so now, as for Codex, rather than let `doctor` find it later."""
    try:
        paths = SettingsPaths.from_environment(project, env=dict(env), home=gemini_home(env))
        trust = load_settings(paths, profile=Profile.GEMINI_CLI, env=dict(env)).trust
    except Exception:  # the settings are checked (and reported) by the edit itself
        return
    if not trust.trusted:
        plan.notes.append(
            f"Gemini CLI runs no settings hook in {project}: the folder is not trusted "
            f"({trust.detail}); until then these hooks do not run"
        )


def plan_uninstall(
    host: str,
    scope: str,
    project: Path,
    env: Mapping[str, str],
) -> InstallPlan:
    """The edits that remove hookwise's entries for ``host`` in ``scope``."""
    project = Path(os.path.abspath(project))
    path = _confined(settings_path(host, scope, project, env), scope, project)
    steps = host_info(host).install_steps
    script = _confined(script_path(path), scope, project) if "sh_script" in steps else None
    edit = _edit(host, path, [], script)
    plan = InstallPlan(host, scope, path, None, edit)
    if "hook_trust" in steps:
        _plan_codex(plan, project, env, trust=True, uninstall=True)
    else:
        plan.changes.append(FileChange(path, edit.before, edit.after))
    if script is not None:  # after the settings that name it: never a dangling command
        before = _read(script)
        gone = FileChange(script, before, edit_sh(before, str(script), None, host))
        gone.deleted = True
        gone.root = project if scope == "project" else path.parent
        plan.changes.append(gone)
    layout = host_info(host).hooks_layout
    if owns_file(host):  # a file of hookwise's own
        if edit.after == "" and edit.before:  # removing it is the undo
            plan.changes[-1].deleted = True
            if scope == "project":  # the directories install made there, when left empty
                plan.changes[-1].root = project
            elif layout == "plugin":  # the host's own directory stays
                plan.changes[-1].root = path.parent
        return plan
    if edit.removed:
        for change in plan.changes:
            if _is_empty(change.path, change.after):
                change.deleted = True
                change.after = ""
                if scope == "project":  # the directories install made there, when left empty
                    change.root = project
    return plan


def _is_empty(path: Path, text: str | None) -> bool:
    """Whether an uninstalled file holds nothing: ``{}`` (JSON) or only blanks (TOML)."""
    if text is None:
        return False
    if path.suffix == ".toml":
        return not text.strip()
    try:
        return bool(json.loads(text) == {})
    except ValueError:
        return False


def _plan_codex(
    plan: InstallPlan,
    project: Path,
    env: Mapping[str, str],
    *,
    trust: bool,
    uninstall: bool,
) -> None:
    edit = plan.edit
    config = codex_home(env) / "config.toml"
    before = _read(config)
    old = {}
    if edit.before is not None and edit.before.strip():
        old = codex_trust_entries(
            plan.settings, find_hookwise(JsonDocument(edit.before, str(plan.settings), jsonc=False))
        )
    new = codex_trust_entries(plan.settings, edit.hookwise) if trust and not uninstall else {}
    after = edit_codex_trust(before, str(config), new, old)
    plan.trusted = sorted(new)
    plan.changes.append(FileChange(config, before, after))
    plan.changes.append(FileChange(plan.settings, edit.before, edit.after))
    if uninstall:
        return
    if not trust:
        plan.notes.append(
            "Codex runs these hooks only once they are trusted: approve them in Codex's /hooks"
        )
    if plan.scope == "project":
        level, directory = codex_project_trust(project, after, env)
        if level != "trusted":
            plan.notes.append(
                f"Codex loads {project}/.codex only in a trusted project: run `hookwise hooks "
                "trust --host codex --folder`, answer Codex's trust prompt, or add "
                f'[projects.{toml_string(str(directory))}] trust_level = "trusted" to {config}; '
                "until then these hooks do not run"
            )


# --------------------------------------------------------------------------- writing


def _prune(directory: Path, root: Path | None) -> None:
    """Remove ``directory`` and its parents below ``root`` while they are empty (the
    ``.gemini/`` or ``.opencode/plugins/`` install made); without a root, ``directory``."""
    while root is None or (directory != root and directory.is_relative_to(root)):
        try:
            directory.rmdir()
        except OSError:  # not empty (or not ours to remove): the rest stays
            return
        if root is None:
            return
        directory = directory.parent


def write_plan(plan: InstallPlan) -> list[Path]:
    """Write the plan's changed files in order; the paths written."""
    return write_changes(plan.changes)


def write_changes(changes: list[FileChange]) -> list[Path]:
    """Write the changed files in order (install --native's plans too); the paths written."""
    written: list[Path] = []
    for change in changes:
        if not change.changed or change.after is None:
            continue
        try:
            if change.deleted:
                change.path.unlink(missing_ok=True)
                _prune(change.path.parent, change.root)
                written.append(change.path)
                continue
            write_text_atomic(change.path, change.after, follow_symlinks=True)
            if change.mode is not None:
                os.chmod(change.path, change.mode)
        except OSError as exc:
            raise InstallError(f"{change.path}: cannot write: {exc.strerror or exc}") from None
        written.append(change.path)
    return written


__all__ = [
    "FileChange",
    "InstallPlan",
    "compile_policy",
    "owns_file",
    "plan_install",
    "plan_uninstall",
    "write_changes",
    "write_plan",
]
