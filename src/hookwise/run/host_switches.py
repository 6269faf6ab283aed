"""Host settings that switch hooks off, found at the start of a session (a warning each).

The session guards every host's settings as they are when it starts: a switch written
before (by the user, or by an agent in an earlier session that could write another
project's ``.claude/settings.local.json``) is then kept for the whole session, and the host
runs no hook. ``hookwise run`` cannot tell who wrote it, so it says so on stderr, naming the
file: Claude Code's ``disableAllHooks``, Gemini CLI's ``hooksConfig.enabled: false`` or a
hookwise hook in ``hooksConfig.disabled`` (``hooks.disabled`` in older versions), Codex's
``[features] hooks = false`` (or its old name ``codex_hooks``).

Reading is cheap: a file is parsed only when its text names one of the switches (the
JSON-with-comments and TOML readers cost tens of milliseconds to import).
"""

from __future__ import annotations

import os

from hookwise.run.guarded_paths import HOST, Guarded

SETTINGS_NAMES = (
    "settings.json",
    "settings.local.json",
    "managed-settings.json",
    "system-defaults.json",
    "config.toml",
)
JSON_SWITCHES = ("disableAllHooks", "hooksConfig", '"disabled"')
MAX_SIZE = 1 << 20


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SIZE + 1)
    except OSError:
        return None
    if len(data) > MAX_SIZE:
        return None
    return data.decode("utf-8", "replace")


def _json_switches(text: str) -> list[str]:
    from hookwise.config.jsonc import parse_jsonc

    value, _error = parse_jsonc(text)
    if not isinstance(value, dict):
        return []
    out: list[str] = []
    if value.get("disableAllHooks") is True:
        out.append("disableAllHooks is true (Claude Code runs no hook)")
    for section in ("hooksConfig", "hooks"):
        found = value.get(section)
        if not isinstance(found, dict):
            continue
        if section == "hooksConfig" and found.get("enabled") is False:
            out.append("hooksConfig.enabled is false (Gemini CLI runs no hook)")
        disabled = found.get("disabled")
        if isinstance(disabled, list):
            named = [str(d) for d in disabled if "hookwise" in str(d)]
            if named:
                out.append(f"{section}.disabled names hookwise's hook ({', '.join(named)})")
    return out


def _toml_switches(text: str) -> list[str]:
    import tomllib

    try:
        value = tomllib.loads(text)
    except ValueError:
        return []
    features = value.get("features")
    if not isinstance(features, dict):
        return []
    return [
        f"[features] {key} = false (Codex runs no hook)"
        for key in ("hooks", "codex_hooks")
        if features.get(key) is False
    ]


def _candidates(entries: list[Guarded]) -> list[str]:
    out: list[str] = []
    for entry in entries:
        if entry.role != HOST:
            continue
        if os.path.basename(entry.path) in SETTINGS_NAMES:
            out.append(entry.path)
        elif entry.directory or os.path.isdir(entry.path):
            out += [os.path.join(entry.path, name) for name in SETTINGS_NAMES]
    return list(dict.fromkeys(out))


def hooks_switched_off(entries: list[Guarded]) -> list[str]:
    """One warning per host settings file among ``entries`` that turns hooks off."""
    warnings: list[str] = []
    for path in _candidates(entries):
        text = _read(path)
        if text is None:
            continue
        if path.endswith(".toml"):
            found = _toml_switches(text) if "hooks" in text and "false" in text else []
        elif any(word in text for word in JSON_SWITCHES):
            found = _json_switches(text)
        else:
            continue
        warnings += [
            f"{path}: {why}; the session keeps it as it is (read-only): if you did not set "
            "it, an agent may have (remove it outside a session)"
            for why in found
        ]
    return warnings
