"""Commands and variables in settings that are not hooks: status lines, helpers, ``env``.

Claude Code runs ``statusLine``, ``subagentStatusLine`` and ``fileSuggestion`` commands
and the credential helpers (``apiKeyHelper``, ``awsAuthRefresh``, ``awsCredentialExport``,
``otelHeadersHelper``) on its own; each is a scalar setting, so the file of highest
precedence (managed > flag > local > project > user) is the one that runs.
``allowManagedHooksOnly`` narrows the status lines and ``fileSuggestion`` to managed
settings, and ``disableAllHooks`` turns the status lines off. Every settings file's ``env``
block is listed (the agent and every hook inherit it), as are Codex's
``[shell_environment_policy] set`` and model provider URLs, and Gemini CLI's ``.env`` files.
"""

from __future__ import annotations

from collections.abc import Iterable

from hookwise.config.claude.settings import (
    PRECEDENCE,
    ClaudeHooks,
    ClaudeScope,
    ClaudeSettingsFile,
)
from hookwise.config.codex.settings import CodexHooks
from hookwise.config.gemini.extensions import parse_dotenv
from hookwise.config.gemini.settings import LoadedSettings
from hookwise.protocol.jsvalue import JSON
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, json_line, line_of_offset, text_line
from hookwise.scan.model import EnvSetting, Gate, Runnable
from hookwise.scan.sources.hooks import codex_layers

__all__ = ["claude_env", "claude_helpers", "codex_env", "gemini_env"]

# setting -> (kind, narrowed to managed by allowManagedHooksOnly, off with disableAllHooks)
CLAUDE_COMMAND_SETTINGS = {
    "statusLine": ("status-line", True, True),
    "subagentStatusLine": ("status-line", True, True),
    "fileSuggestion": ("helper", True, False),
    "apiKeyHelper": ("helper", False, False),
    "awsAuthRefresh": ("helper", False, False),
    "awsCredentialExport": ("helper", False, False),
    "otelHeadersHelper": ("helper", False, False),
}
REPOSITORY_SCOPES = (ClaudeScope.PROJECT, ClaudeScope.LOCAL)


def _command_of(value: JSON) -> tuple[str | None, list[str | int]]:
    if isinstance(value, str):
        return value, []
    if isinstance(value, dict) and isinstance(value.get("command"), str):
        return str(value["command"]), ["command"]
    return None, []


def _line(origin: str, pointer: list[str | int]) -> int:
    text = file_text(origin)
    return (json_line(text, pointer) if text is not None else None) or 1


def claude_helpers(
    ctx: ScanContext, hooks: ClaudeHooks, repo_gate: tuple[Gate, str]
) -> list[Runnable]:
    ranked = {scope: index for index, scope in enumerate(PRECEDENCE)}
    files = sorted(
        (f for f in hooks.settings_files if f.settings is not None),
        key=lambda f: ranked[f.scope],
    )
    out: list[Runnable] = []
    for setting, (kind, managed_only, hook_switch) in CLAUDE_COMMAND_SETTINGS.items():
        effective: ClaudeSettingsFile | None = None
        for file in files:
            if not file.has(setting):
                continue
            command, pointer = _command_of(file.get(setting))
            if command is None or not command.strip():
                continue
            gate, detail = (
                repo_gate if file.scope in REPOSITORY_SCOPES else (Gate.USER, file.scope.value)
            )
            if (gate is Gate.NO_PROMPT and kind != "helper") or (
                setting == "fileSuggestion" and gate is Gate.NO_PROMPT
            ):
                gate, detail = Gate.AFTER_TRUST, "interactive sessions only, after the trust dialog"
            if effective is not None:
                gate, detail = Gate.OFF, f"overridden by {effective.origin}"
            elif managed_only and hooks.managed_only and file.scope is not ClaudeScope.MANAGED:
                gate, detail = Gate.OFF, "allowManagedHooksOnly narrows it to managed settings"
            elif hook_switch and hooks.disable_all_hooks:
                gate, detail = Gate.OFF, f"disableAllHooks ({hooks.disabled_by})"
            else:
                effective = file
            out.append(
                Runnable(
                    host="claude",
                    kind=kind,
                    name=setting,
                    scope=file.scope.value,
                    command=command,
                    file=file.origin,
                    line=_line(file.origin, [setting, *pointer]),
                    gate=gate,
                    gate_detail=detail,
                    cwd=str(ctx.project),
                )
            )
    return out


def _env_entries(
    host: str,
    scope: str,
    origin: str,
    table: JSON,
    *,
    pointer: list[str | int],
    gate: Gate,
    where: str,
) -> Iterable[EnvSetting]:
    if not isinstance(table, dict):
        return
    for name, raw in table.items():
        value = str(raw) if isinstance(raw, bool | int | float) else raw
        if not isinstance(value, str):
            continue
        line = (
            text_line(origin, f"{name}")
            if origin.endswith(".toml")
            else _line(origin, [*pointer, name])
        )
        yield EnvSetting(host, scope, str(name), value, origin, line, gate, where)


def claude_env(hooks: ClaudeHooks, repo_gate: tuple[Gate, str]) -> list[EnvSetting]:
    out: list[EnvSetting] = []
    for file in hooks.settings_files:
        if file.settings is None or file.origin == "--settings":
            continue
        gate = repo_gate[0] if file.scope in REPOSITORY_SCOPES else Gate.USER
        out.extend(
            _env_entries(
                "claude",
                file.scope.value,
                file.origin,
                file.get("env"),
                pointer=["env"],
                gate=gate,
                where="settings env",
            )
        )
    return out


def codex_env(ctx: ScanContext, real: CodexHooks, everything: CodexHooks) -> list[EnvSetting]:
    """``[shell_environment_policy] set`` and model provider URLs of every layer."""
    out: list[EnvSetting] = []
    for layer_name, origin, config, gate, _why in codex_layers(real, everything):
        policy = config.get("shell_environment_policy")
        if isinstance(policy, dict):
            out.extend(
                _env_entries(
                    "codex",
                    layer_name,
                    origin,
                    policy.get("set"),
                    pointer=[],
                    gate=gate,
                    where="shell_environment_policy",
                )
            )
        for key, value in config.items():
            if key.endswith("base_url") and isinstance(value, str):
                out.append(
                    EnvSetting(
                        "codex",
                        layer_name,
                        key,
                        value,
                        origin,
                        text_line(origin, key),
                        gate,
                        "config",
                    )
                )
        providers = config.get("model_providers")
        for name, provider in providers.items() if isinstance(providers, dict) else []:
            url = provider.get("base_url") if isinstance(provider, dict) else None
            if isinstance(url, str):
                out.append(
                    EnvSetting(
                        "codex",
                        layer_name,
                        f"model_providers.{name}.base_url",
                        url,
                        origin,
                        text_line(origin, url),
                        gate,
                        "model provider",
                    )
                )
    return out


def gemini_env(ctx: ScanContext, settings: LoadedSettings, repo_gate: Gate) -> list[EnvSetting]:
    """Variables of the ``.env`` files Gemini CLI reads: the project's, then the user's."""
    out: list[EnvSetting] = []
    candidates = [
        (ctx.project / ".gemini" / ".env", "project", repo_gate),
        (ctx.project / ".env", "project", repo_gate),
        (settings.paths.gemini_dir / ".env", "user", Gate.USER),
    ]
    for path, scope, gate in candidates:
        text = file_text(path)
        if text is None:
            continue
        for name, value in parse_dotenv(text).items():
            offset = text.find(name)
            line = line_of_offset(text, offset) if offset >= 0 else 1
            out.append(EnvSetting("gemini", scope, name, value, str(path), line, gate, ".env"))
    return out
