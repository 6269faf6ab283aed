"""The hooks of every host, read through hookwise's own loaders, with who gates them.

* Claude Code (``config/claude/settings``): managed, user, project, local and plugin hooks
  after ``disableAllHooks``/``allowManagedHooksOnly`` and the settings dedup. Project and
  local hooks wait for the workspace trust dialog in an interactive session, but ``claude
  -p`` and SDK sessions treat every folder as trusted: until the user has trusted the
  folder, they run with no prompt at all. ``http`` handlers (which the runtime leaves out)
  are listed too: they send every payload to a URL.
* Gemini CLI (``config/gemini/settings`` + ``config/gemini/extensions``): every settings
  scope and the active extensions; project hooks register only in a trusted folder (or
  with folder trust switched off, which is no prompt at all).
* Codex (``config/codex/settings``): managed, user and project layers; a project layer
  loads only when the project is trusted and each non-managed hook only when its hash is.
  The project layers are read as if trusted to list what trust would let in.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from hookwise.config.claude.settings import ClaudeHooks, ClaudePaths, ClaudeScope, load_claude_hooks
from hookwise.config.claude.trust import (
    CLAUDE_TRUST_STORE,
    ClaudeTrustStore,
    claude_global_config,
    claude_workspace_trust,
)
from hookwise.config.codex.settings import CodexHooks, load_codex_hooks
from hookwise.config.gemini.extensions import load_extensions
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import LoadedSettings, load_settings
from hookwise.config.model import HookEntry, Source
from hookwise.config.registry import HooksObject, build_registry
from hookwise.protocol.jsvalue import JSON
from hookwise.protocol.profiles import Profile
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import origin_line, text_line
from hookwise.scan.model import Gate, Runnable

__all__ = [
    "Loaded",
    "claude_hooks",
    "claude_repository_gate",
    "codex_hooks",
    "codex_loads",
    "gemini_hooks",
    "gemini_repository_gate",
    "gemini_settings",
    "load_claude",
]

CLAUDE_HEADLESS = (
    "the folder is not trusted: `claude -p` and SDK sessions run it with no trust prompt "
    "(an interactive session asks first)"
)


class Loaded:
    """What one host's loader gave: the runnables, its warnings and the files it read."""

    def __init__(self) -> None:
        self.runnables: list[Runnable] = []
        self.warnings: list[str] = []
        self.files: list[str] = []


def _env_pairs(config: dict[str, JSON]) -> tuple[tuple[str, str], ...]:
    env = config.get("env")
    if not isinstance(env, dict):
        return ()
    return tuple((str(k), str(v)) for k, v in env.items() if isinstance(v, str))


# --------------------------------------------------------------------------- Claude Code


def claude_trust(ctx: ScanContext) -> tuple[bool, str]:
    """(trusted, why) for the project's Claude Code workspace trust."""
    home = ctx.home_for("CLAUDE_CONFIG_DIR")
    paths = ClaudePaths.from_environment(ctx.project, home=home, env=ctx.env)
    store = ClaudeTrustStore(paths.config_dir / CLAUDE_TRUST_STORE)
    trust = claude_workspace_trust(
        paths.project, global_config=claude_global_config(home, ctx.env), store=store
    )
    return trust.trusted, trust.detail


def claude_repository_gate(ctx: ScanContext) -> tuple[Gate, str]:
    trusted, detail = claude_trust(ctx)
    return (Gate.TRUSTED, detail) if trusted else (Gate.NO_PROMPT, CLAUDE_HEADLESS)


def load_claude(ctx: ScanContext) -> ClaudeHooks:
    return load_claude_hooks(
        ctx.project,
        home=ctx.home_for("CLAUDE_CONFIG_DIR"),
        env=ctx.env,
        managed_dir=ctx.claude_managed_dir,
    )


def claude_hooks(ctx: ScanContext, hooks: ClaudeHooks) -> Loaded:
    out = Loaded()
    out.warnings.extend(f"claude: {w}" for w in hooks.warnings)
    out.files.extend(str(p) for p in hooks.files)
    repo_gate, repo_detail = claude_repository_gate(ctx)

    def gate_of(scope: str) -> tuple[Gate, str]:
        if scope in (ClaudeScope.PROJECT.value, ClaudeScope.LOCAL.value):
            return repo_gate, repo_detail
        return Gate.USER, f"{scope} settings"

    for entry in hooks.registry.entries:
        gate, detail = gate_of(entry.scope)
        out.runnables.append(entry_runnable("claude", entry, gate, detail, ctx))
    for obj in hooks.skipped:
        why = (
            f"disableAllHooks ({hooks.disabled_by})"
            if hooks.disable_all_hooks
            else "allowManagedHooksOnly"
        )
        out.runnables.extend(_object_runnables("claude", obj, Gate.OFF, why, ctx))
    for file in hooks.settings_files:
        if file.settings is None:
            continue
        gate, detail = gate_of(file.scope.value)
        if hooks.disable_all_hooks or (
            hooks.managed_only and file.scope is not ClaudeScope.MANAGED
        ):
            gate, detail = Gate.OFF, "hooks are switched off"
        out.runnables.extend(
            _http_hooks(file.origin, file.scope.value, file.settings, gate, detail)
        )
    return out


def _http_hooks(
    origin: str, scope: str, settings: dict[str, JSON], gate: Gate, detail: str
) -> Iterable[Runnable]:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            for h, handler in enumerate(handlers):
                if not isinstance(handler, dict) or handler.get("type") != "http":
                    continue
                url = handler.get("url")
                url_text = url if isinstance(url, str) else ""
                file, line = origin_line(f"{origin}#/hooks/{event}/{g}/hooks/{h}")
                yield Runnable(
                    host="claude",
                    kind="http-hook",
                    name=str(event),
                    scope=scope,
                    command="",
                    file=file,
                    line=line,
                    gate=gate,
                    gate_detail=detail,
                    url=url_text,
                )


def entry_runnable(
    host: str, entry: HookEntry, gate: Gate, detail: str, ctx: ScanContext
) -> Runnable:
    file, line = origin_line(entry.origin, "command") if entry.origin else ("", 1)
    if file.endswith(".toml"):
        line = text_line(file, entry.command or "")
    if not entry.enabled:
        gate, detail = Gate.OFF, f"disabled by name ({entry.name})"
    return Runnable(
        host=host,
        kind="hook",
        name=entry.event,
        scope=entry.scope,
        command=entry.command or "",
        file=file,
        line=line,
        gate=gate,
        gate_detail=detail,
        env=_env_pairs(entry.config),
        cwd=str(ctx.project),
    )


def _object_runnables(
    host: str, obj: HooksObject, gate: Gate, detail: str, ctx: ScanContext
) -> Iterable[Runnable]:
    if not isinstance(obj.hooks, dict):
        return
    for event, groups in obj.hooks.items():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if not isinstance(handler, dict) or handler.get("type") != "command":
                    continue
                command = handler.get("command")
                if not isinstance(command, str):
                    continue
                yield Runnable(
                    host=host,
                    kind="hook",
                    name=str(event),
                    scope=obj.scope or obj.source.value,
                    command=command,
                    file=obj.origin,
                    line=text_line(obj.origin, command),
                    gate=gate,
                    gate_detail=detail,
                    env=_env_pairs(handler),
                    cwd=str(ctx.project),
                )


# --------------------------------------------------------------------------- Gemini CLI


def gemini_settings(ctx: ScanContext) -> LoadedSettings:
    paths = SettingsPaths.from_environment(
        ctx.project,
        env=ctx.env,
        home=ctx.home_for("GEMINI_CLI_HOME"),
        system_settings=ctx.gemini_system_settings,
    )
    return load_settings(paths, profile=Profile.DOCUMENTED, env=ctx.env)


def gemini_repository_gate(settings: LoadedSettings) -> tuple[Gate, str]:
    trust = settings.trust
    if trust.trusted and trust.source in ("env", "disabled"):
        return Gate.NO_PROMPT, f"folder trust does not apply: {trust.detail}"
    if trust.trusted:
        return Gate.TRUSTED, trust.detail
    return Gate.AFTER_TRUST, trust.detail


def gemini_hooks(ctx: ScanContext, settings: LoadedSettings) -> Loaded:
    out = Loaded()
    extensions = load_extensions(settings)
    out.warnings.extend(f"gemini: {w}" for w in [*settings.warnings, *extensions.warnings])
    out.files.extend(str(f.path) for f in settings.files.values() if f.exists)
    objects = [*settings.hooks_objects, *settings.skipped_hooks_objects, *extensions.objects]
    registry = build_registry(objects, settings.hooks_config.disabled)
    repo_gate, repo_detail = gemini_repository_gate(settings)
    for entry in registry.entries:
        if entry.source is Source.PROJECT:
            gate, detail = repo_gate, repo_detail
        else:
            gate, detail = Gate.USER, f"{entry.scope} settings"
            if not settings.trusted and entry.source is not Source.EXTENSIONS:
                detail += " (Gemini CLI runs no settings hook until the folder is trusted)"
        if not settings.hooks_config.enabled:
            gate, detail = Gate.OFF, "hooksConfig.enabled is false"
        out.runnables.append(entry_runnable("gemini", entry, gate, detail, ctx))
    return out


# --------------------------------------------------------------------------- Codex


def _load_codex(ctx: ScanContext, *, as_trusted: bool) -> CodexHooks:
    return load_codex_hooks(
        ctx.project,
        home=ctx.home_for("CODEX_HOME"),
        env=ctx.env,
        managed_dir=ctx.codex_managed_dir,
        trust_project=True if as_trusted else None,
        bypass_hook_trust=as_trusted,
    )


def codex_loads(ctx: ScanContext) -> tuple[CodexHooks, CodexHooks]:
    """(as configured, as if the project and every hook were trusted)."""
    return _load_codex(ctx, as_trusted=False), _load_codex(ctx, as_trusted=True)


def codex_layers(
    real: CodexHooks, everything: CodexHooks
) -> Iterator[tuple[str, str, dict[str, Any], Gate, str]]:
    """Every Codex config layer that loaded: (name, file, config, gate, why). A project
    layer is trusted when the real load (not the as-if-trusted one) trusted it."""
    trusted_now = {str(layer.config_path) for layer in real.layers if layer.trusted}
    for layer in everything.layers:
        if layer.config is None or layer.config_path is None:
            continue
        origin = str(layer.config_path)
        if layer.name != "project":
            yield layer.name, origin, layer.config, Gate.USER, layer.name
        elif origin in trusted_now:
            yield layer.name, origin, layer.config, Gate.TRUSTED, "trusted project"
        else:
            why = "runs once the project is trusted"
            yield layer.name, origin, layer.config, Gate.AFTER_TRUST, why


def codex_hooks(ctx: ScanContext, real: CodexHooks, everything: CodexHooks) -> Loaded:
    out = Loaded()
    out.warnings.extend(f"codex: {w}" for w in real.warnings)
    out.files.extend(str(p) for p in everything.files)
    runs_now = {hook.key for hook in real.hooks if hook.runs}
    for hook in everything.hooks:
        file = str(hook.source_path)
        line = (
            origin_line(hook.origin, "command")[1]
            if file.endswith(".json")
            else text_line(file, hook.command)
        )
        if hook.managed:
            gate, detail = Gate.USER, "managed requirements"
        elif hook.scope != "project":
            gate, detail = Gate.USER, f"user config ({hook.trust} in Codex's hook trust)"
        elif hook.key in runs_now:
            gate, detail = Gate.TRUSTED, "project trusted and hook hash trusted"
        else:
            gate, detail = Gate.AFTER_TRUST, "runs once the project and this hook are trusted"
        if not hook.enabled or not real.enabled:
            gate, detail = Gate.OFF, "turned off"
        out.runnables.append(
            Runnable(
                host="codex",
                kind="hook",
                name=hook.event,
                scope=hook.scope,
                command=hook.command,
                file=file,
                line=line,
                gate=gate,
                gate_detail=detail,
                cwd=str(ctx.project),
            )
        )
    if everything.notify and everything.notify_origin:
        file = everything.notify_origin.partition("#")[0]
        repository = _inside(ctx, file)
        if repository:
            trusted = real.notify == everything.notify and real.notify_origin == file + "#/notify"
            gate = Gate.TRUSTED if trusted else Gate.AFTER_TRUST
        else:
            gate = Gate.USER
        out.runnables.append(
            Runnable(
                host="codex",
                kind="notify",
                name="notify",
                scope="project" if repository else "user",
                command=" ".join(everything.notify),
                file=file,
                line=text_line(file, "notify"),
                gate=gate,
                gate_detail="the program Codex runs when a turn completes",
                argv=everything.notify,
                cwd=str(ctx.project),
            )
        )
    return out


def _inside(ctx: ScanContext, path: str | os.PathLike[str]) -> bool:
    return ctx.inside(Path(path))
