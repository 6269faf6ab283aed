"""Hooks of a host whose settings are plain JSON files, read from its registry row.

GitHub Copilot CLI (every ``*.json`` of ``.github/hooks`` and ``~/.copilot/hooks``, each
``{"version": 1, "hooks": {EVENT: [handler]}}``, the command under ``bash``) and Qwen Code
(``.qwen/settings.json`` of the project and the user, Claude Code's groups) differ only in
facts of their row: the files (``hook_globs`` or the settings files), the layout (``flat``
or ``groups``), the handler's command and timeout keys. Every problem is a warning naming
the file and the JSON path, and the rest still loads.

Project hooks are gated by the host's trust fact (``HostInfo.project_trust``): a host that
runs repository hooks only in a trusted folder gets them only when the caller says the
folder is trusted (``--trust-project``) or one of the host's switches is in the environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from hookwise.config.dialect_hooks import (
    CleanHooks,
    DialectHooks,
    HandlerCheck,
    clean_hooks,
    json_type,
    read_json_file,
    register,
    same_path,
)
from hookwise.config.host_homes import config_dir
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.hosts import HostInfo, host
from hookwise.protocol.jsvalue import JSON


def hook_files(info: HostInfo, workspace: str, env: Mapping[str, str]) -> list[tuple[str, Path]]:
    """(scope, file) of every file that may hold the host's hooks, user scope first (the
    hosts run user hooks before project ones)."""
    found: list[tuple[str, Path]] = []
    bases = {"user": config_dir(info.name, env), "project": Path(workspace)}
    listed = {"user": info.user_files, "project": info.project_files}
    for scope in ("user", "project"):
        pattern = info.hook_globs.get(scope)
        if pattern is not None:
            found += [(scope, p) for p in sorted(bases[scope].glob(pattern)) if p.is_file()]
            continue
        for name in listed[scope]:
            # user files are named relative to HOME in the row; the config dir is under it
            base = Path(env.get("HOME") or Path.home()) if scope == "user" else bases[scope]
            found.append((scope, base / name))
    return found


def _handler_check(info: HostInfo) -> HandlerCheck:
    command_key, timeout_key, _ = info.handler

    def check(
        event: str, handler: dict[str, JSON], path: str, warnings: list[str]
    ) -> dict[str, JSON] | None:
        if handler.get("type", "command") != "command":
            warnings.append(f"{path}: hook type {handler.get('type')!r} is not run; skipped")
            return None
        command = handler.get(command_key)
        if not isinstance(command, str) or not command.strip():
            warnings.append(f"{path}: '{command_key}' must be a non-empty string; skipped")
            return None
        timeout = handler.get(timeout_key)
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float)
        ):
            warnings.append(
                f"{path}: '{timeout_key}' must be a number, got {json_type(timeout)}; the "
                "event's default applies"
            )
            timeout = None
        # the executor reads "command" and "timeout" (in the host's unit)
        out = {**handler, "type": "command", "command": command}
        if timeout is None:
            out.pop("timeout", None)
        else:
            out["timeout"] = timeout
        return out

    return check


def _keep_matcher(event: str, matcher: JSON, path: str, warnings: list[str]) -> tuple[bool, JSON]:
    if matcher is not None and not isinstance(matcher, str):
        warnings.append(f"{path}: 'matcher' must be a string, got {json_type(matcher)}; skipped")
        return False, None
    return True, matcher


def _as_groups(info: HostInfo, hooks: JSON) -> JSON:
    """A flat ``event -> [handler]`` object as one match-all group per event."""
    if info.hooks_layout != "flat" or not isinstance(hooks, dict):
        return hooks
    return {
        event: [{"hooks": handlers}] if isinstance(handlers, list) else handlers
        for event, handlers in hooks.items()
    }


def load_host_hooks(
    name: str,
    spec: DialectSpec,
    workspace: str,
    env: Mapping[str, str],
    *,
    trusted: bool,
) -> DialectHooks:
    """Every hook file of the host ``name``, cleaned against its event table ``spec``."""
    info = host(name)
    warnings: list[str] = []
    loaded = DialectHooks(name, register([], spec)[0])
    objects: list[tuple[HooksObject, CleanHooks]] = []
    switches = info.project_trust or ()
    project_runs = trusted or any(env.get(k) == v for k, v in switches)
    seen: list[Path] = []
    for scope, path in hook_files(info, workspace, env):
        if any(same_path(path, other) for other in seen):
            continue  # the project is the home directory: one file, read once
        seen.append(path)
        exists, document = read_json_file(path, f"{info.title} hooks", warnings)
        if not exists or document is None:
            continue
        loaded.files.append(path)
        # "top": the event keys are the file's own (Droid); else under "hooks"
        hooks = _as_groups(info, document if info.hooks_layout == "top" else document.get("hooks"))
        clean = clean_hooks(
            hooks,
            str(path),
            spec,
            check_handler=_handler_check(info),
            check_matcher=_keep_matcher,
            warnings=warnings,
        )
        source = Source.USER if scope == "user" else Source.PROJECT
        obj = HooksObject(clean.hooks, source, str(path), scope)
        gated = info.project_trust is not None and not project_runs
        if scope == "project" and gated and clean.count:
            loaded.untrusted.append(f"{path}: {info.trust}")
            loaded.skipped.append(obj)
            continue
        objects.append((obj, clean))
    registry, _ = register(objects, spec)
    loaded.registry = registry
    loaded.warnings = warnings + registry.warnings
    return loaded
