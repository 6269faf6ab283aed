"""hookwise's JavaScript plugin file, for hosts with no command hooks (the registry's
``hooks_layout`` "plugin": OpenCode, Kilo).

Such a host loads every ``*.js`` of a ``plugins`` directory of its config directories.
Install writes one file there (the row's ``install_files``): ``plugin/hookwise.js`` with
the portable hook command and its timeout filled in; it edits no file of the user's. A file
at that path that hookwise did not write is refused on install and left alone on uninstall.
Uninstall deletes the file (``plan.write_plan`` then removes the directories it leaves
empty, up to the scope's root).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from hookwise.config.host_homes import config_dir
from hookwise.policy.install.errors import InstallError
from hookwise.policy.install.hooks_edit import FoundHook, HooksEdit
from hookwise.policy.install.registrations import Registration
from hookwise.protocol.hosts import host as host_info

PLUGIN_FILE: Final = "hookwise.js"
# the first line of every plugin hookwise writes (how install and doctor recognise it)
HEADER_PREFIX: Final = "// hookwise policy plugin for "
_TEMPLATE: Final = Path(__file__).resolve().parent / "plugin" / PLUGIN_FILE
_COMMAND: Final = re.compile(r"^const COMMAND = (.*);$", re.MULTILINE)
_TIMEOUT: Final = re.compile(r"^const TIMEOUT_MS = (\d+);$", re.MULTILINE)
_EVENT: Final = re.compile(r'^const EVENT = "([^"]*)";$', re.MULTILINE)


def plugin_text(host: str, command: str, timeout_ms: int) -> str:
    """The plugin for ``host`` running ``command``, bounded to ``timeout_ms``."""
    text = _TEMPLATE.read_text(encoding="utf-8")
    for key, value in (
        ("__HOST_TITLE__", host_info(host).title),
        ("__HOST__", host),
        ("__COMMAND__", json.dumps(command)),
        ("__TIMEOUT_MS__", str(int(timeout_ms))),
    ):
        text = text.replace(key, value)
    return text


def is_hookwise_plugin(text: str | None) -> bool:
    return text is not None and text.startswith(HEADER_PREFIX)


def edit_plugin_file(
    text: str | None, origin: str, desired: list[Registration], host: str
) -> HooksEdit:
    """The plugin file's text running ``desired``'s one handler (uninstall: ``[]``: the
    file goes). A file hookwise did not write is refused on install, kept on uninstall."""
    if text is not None and not is_hookwise_plugin(text):
        if not desired:
            return HooksEdit(text, text)
        raise InstallError(
            f"{origin}: a file hookwise did not write is there; move it away first "
            "(nothing written)"
        )
    if not desired:
        if text is None:
            return HooksEdit(None, None)
        removed = [
            FoundHook(event, 0, index, None, handler, True, {})
            for event, index, handler in plugin_handlers(text, host)
        ]
        return HooksEdit(text, "", removed=removed)
    command_key, timeout_key, _ = host_info(host).handler
    handler = desired[0].handler
    after = plugin_text(host, str(handler[command_key]), int(handler[timeout_key]))
    edit = HooksEdit(text, after)
    (edit.kept if text == after else edit.added).extend(desired)
    return edit


def plugin_handlers(text: str, host: str) -> list[tuple[str, int, dict[str, Any]]]:
    """The handler a hookwise plugin file runs, as (event, 0, handler with the row's
    command and timeout keys); none for a file hookwise did not write or cannot read."""
    if not is_hookwise_plugin(text):
        return []
    command, timeout, event = _COMMAND.search(text), _TIMEOUT.search(text), _EVENT.search(text)
    if command is None or timeout is None or event is None:
        return []
    try:
        value = json.loads(command.group(1))
    except ValueError:
        return []
    command_key, timeout_key, _ = host_info(host).handler
    return [(event.group(1), 0, {command_key: value, timeout_key: int(timeout.group(1))})]


def _config_dirs(host: str, scope: str, project: Path, env: Mapping[str, str]) -> list[Path]:
    """The config directories the host installs its plugin package into: the user's
    always, and in a project the one holding the project's plugin file."""
    dirs = [config_dir(host, env)]
    if scope == "project":
        first = Path(host_info(host).install_files["project"]).parts[0]
        dirs.append(Path(os.path.abspath(project)) / first)
    return dirs


def loading_notes(host: str, scope: str, project: Path, env: Mapping[str, str]) -> list[str]:
    """What the host does before it loads any plugin, and the switches that stop it
    loading them, said where they will matter (install and doctor)."""
    import importlib

    title = host_info(host).title
    facts = importlib.import_module(host_info(host).module)
    notes: list[str] = []
    package = str(facts.PLUGIN_SDK)
    waiting = [
        d
        for d in _config_dirs(host, scope, project, env)
        if not (d / "node_modules" / package / "package.json").is_file()
    ]
    if waiting:
        where = ", ".join(str(d) for d in waiting)
        notes.append(
            f"{title} installs {package} with npm into {where} when it starts and waits for "
            "that before it loads any plugin (hookwise's included); offline that wait lasts "
            "until npm gives up: give the host's npm `offline=true` (in ~/.npmrc) there, or "
            "let it install once online. hookwise's plugin needs no package"
        )
    switched = [name for name in facts.SWITCHES if env.get(name) not in (None, "", "0", "false")]
    if switched:
        notes.append(
            f"{', '.join(switched)} is set here: {title} then loads no plugin from there, so "
            "hookwise does not run"
        )
    return notes


def no_host_timeout(host: str) -> bool:
    """Whether the host waits for a plugin with no bound of its own (observed)."""
    import importlib

    return importlib.import_module(host_info(host).module).HOST_TIMEOUT is None


__all__ = [
    "HEADER_PREFIX",
    "PLUGIN_FILE",
    "edit_plugin_file",
    "is_hookwise_plugin",
    "loading_notes",
    "no_host_timeout",
    "plugin_handlers",
    "plugin_text",
]
