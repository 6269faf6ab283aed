"""What ``hookwise doctor`` adds for a host reached through hookwise's plugin (OpenCode,
Kilo): whether each plugin file is the one this hookwise writes, what the host waits for
before it loads plugins and the switches that stop it, that an ``ask`` is ask_fallback, and
how the plugin reads an answer (the self-test's judge).

The rest (registered, timeout, portability, the self-test itself) is the doctor's common
path: the plugin file is the registration (plugin_files.plugin_handlers).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from hookwise.policy.install.plugin_files import loading_notes, no_host_timeout, plugin_text
from hookwise.protocol import js_plugin
from hookwise.protocol.hosts import host as host_info


class _Entry(Protocol):
    scope: str
    origin: str
    command: str
    timeout: Any


def plugin_checks(
    host: str,
    project: Path,
    env: Mapping[str, str],
    compiled: Mapping[str, Any],
    registered: Sequence[_Entry],
) -> list[tuple[str, str, str]]:
    """(status, name, detail) of the plugin-only checks."""
    title = host_info(host).title
    out: list[tuple[str, str, str]] = []
    for entry in registered:
        path = Path(entry.origin.partition("#")[0])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            out.append(("fail", "plugin", f"{path}: cannot read: {exc}"))
            continue
        if isinstance(entry.timeout, int) and text == plugin_text(
            host, entry.command, entry.timeout
        ):
            out.append(("ok", "plugin", f"{path} ({entry.scope}): this hookwise's plugin"))
        else:
            out.append(
                (
                    "warn",
                    "plugin",
                    f"{path} ({entry.scope}): another version of hookwise's plugin; run "
                    f"`hookwise install {host} --scope {entry.scope}`",
                )
            )
    scopes = {entry.scope for entry in registered}
    scope = "project" if "project" in scopes else "user"
    out.extend(("warn", "loading", note) for note in loading_notes(host, scope, project, env))
    if no_host_timeout(host):
        out.append(
            (
                "info",
                "timeout",
                f"{title} waits for a plugin with no timeout of its own: hookwise's plugin "
                "kills its hook at the timeout install wrote and blocks the tool",
            )
        )
    fallback = compiled["settings"].get("ask_fallback", "deny")
    out.append(
        (
            "info",
            "ask",
            f"{title}'s plugin API cannot ask (permission.ask is never triggered): an `ask` "
            f"is ask_fallback ({fallback}) in the TUI and in `{host} "
            f"{js_plugin.HEADLESS_SUBCOMMAND}` alike",
        )
    )
    return out


def plugin_reading(event: str, stdout: str, exit_code: int | None) -> str | None:
    """Why hookwise's plugin would block on this answer (it fails closed); None when it
    would apply it. The rules of ``plugin/hookwise.js``'s ``verdict``."""
    if exit_code != 0:
        return f"exit {exit_code}: the plugin blocks every tool"
    try:
        answer = json.loads(stdout)
    except ValueError:
        return "not JSON: the plugin blocks every tool"
    specific = answer.get("hookSpecificOutput") if isinstance(answer, dict) else None
    if not isinstance(specific, dict) or specific.get("hookEventName") != event:
        return f"not an answer for {event}: the plugin blocks every tool"
    decision = specific.get("permissionDecision")
    if decision is not None and decision not in js_plugin.DECISIONS:
        return f"permissionDecision {decision!r}: the plugin blocks every tool"
    updated = specific.get("updatedInput")
    if updated is not None and not isinstance(updated, dict):
        return "updatedInput is not an object: the plugin blocks every tool"
    return None


__all__ = ["plugin_checks", "plugin_reading"]
