"""Registered hooks: what the host runtime plans and runs.

A hook's config is kept as the JSON object the user wrote (plus ``source``), because the
engine's behaviour depends on the raw values (a string timeout, a plugin-typed entry);
typed views are computed where they are used.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hookwise.config.hookwise_command import is_hookwise_command
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_json_stringify, js_string, truthy


class Source(Enum):
    """Where a hook came from; the value is what the engine calls it."""

    RUNTIME = "runtime"
    PROJECT = "project"
    USER = "user"
    SYSTEM = "system"
    EXTENSIONS = "extensions"

    @property
    def priority(self) -> int:
        """Execution order between sources (hookRegistry.getSourcePriority)."""
        return _PRIORITY[self]


_PRIORITY = {
    Source.RUNTIME: 0,
    Source.PROJECT: 1,
    Source.USER: 2,
    Source.SYSTEM: 3,
    Source.EXTENSIONS: 4,
}


@dataclass
class HookEntry:
    """One hook registered for one event (hookRegistry's HookRegistryEntry)."""

    config: dict[str, JSON]
    event: str
    source: Source
    matcher: JSON = None
    sequential: JSON = None
    enabled: bool = True
    origin: str = ""
    """Where it was defined, for messages: ``path#/hooks/BeforeTool/0/hooks/1``."""
    scope: str = ""
    """The settings scope or extension it came from (user, project, extension:NAME, ...)."""
    action: Any = field(default=None, repr=False)
    """For runtime hooks registered from Python: an (async) callable taking the input."""

    @property
    def name(self) -> str:
        """Display name, also the key of ``hooksConfig.disabled`` (name || command)."""
        return hook_display_name(self.config)

    @property
    def label(self) -> str:
        """What a person is shown (hook_label); ``name`` stays the engine's key."""
        return hook_label(self.config)

    @property
    def command(self) -> str | None:
        value = self.config.get("command")
        return value if isinstance(value, str) else None


# Longer display names are cut: a registered script can run to hundreds of characters.
LABEL_LIMIT = 60


def hook_label(config: dict[str, JSON]) -> str:
    """A hook as a person reads it in lists and messages: hookwise's own command (whatever
    form install wrote) as ``hookwise``, any other name or command on one line, cut."""
    if not config.get("name") and is_hookwise_command(config.get("command")):
        return "hookwise"
    named = config.get("name") or config.get("type") == "command"
    shown = None if named else _handler_text(config)
    text = " ".join((shown or hook_display_name(config)).split())
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


# What names a handler that is not a command, per type: ``http https://…``,
# ``mcp_tool fs/read_file``, ``prompt: Is this…`` (a listing says what each hook is).
_SHOWN_FIELDS: dict[str, tuple[str, str, str]] = {
    "http": ("url", "", " "),
    "mcp_tool": ("server", "tool", " "),
    "prompt": ("prompt", "", ": "),
    "agent": ("prompt", "", ": "),
}


def _handler_text(config: dict[str, JSON]) -> str | None:
    shown = _SHOWN_FIELDS.get(js_string(config.get("type", "")))
    if shown is None:
        return None
    first, second, joint = shown
    parts = [config.get(first), config.get(second)] if second else [config.get(first)]
    text = "/".join(str(p) for p in parts if isinstance(p, str) and p)
    return f"{config['type']}{joint}{text}" if text else str(config["type"])


def hook_display_name(config: dict[str, JSON]) -> str:
    name = config.get("name")
    if config.get("type") == "command":
        command = config.get("command")
        for candidate in (name, command):
            if candidate:
                return candidate if isinstance(candidate, str) else str(candidate)
        return "unknown-command"
    if name:
        return name if isinstance(name, str) else str(name)
    return "unknown-hook"


def hook_key(config: dict[str, JSON]) -> str:
    """Identity used for dedup and trust: ``name:command`` (types.ts getHookKey)."""
    name = config.get("name")
    name_text = js_string(name) if truthy(name) else ""
    command = js_string(config.get("command", UNDEFINED)) if config.get("type") == "command" else ""
    return f"{name_text}:{command}"


def _canonical(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def hook_fingerprint(entry: HookEntry) -> str:
    """A digest of what the hook does: event, matcher, type, name, command, env, timeout.

    hookwise's approval stores (Gemini and Claude Code projects) key on it, so a hook whose
    matcher or env changed counts as a new one."""
    material: dict[str, JSON] = {"event": entry.event}
    if entry.matcher is not None and entry.matcher is not UNDEFINED:
        material["matcher"] = entry.matcher
    for key in ("type", "name", "command", "env", "timeout"):
        if key in entry.config:
            material[key] = entry.config[key]
    text = js_json_stringify(_canonical(material))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
