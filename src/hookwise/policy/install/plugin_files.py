"""``hookwise install|uninstall opencode|kilo``: hookwise's plugin file in the host's plugin
directory.

OpenCode and Kilo have no hooks settings; they load every ``*.js`` of a ``plugins``
directory of their config directories (protocol/opencode.py, kilo.py). Install writes one
file there, ``hookwise.js`` (from ``plugin/hookwise.js``, with the portable hook command and
its timeout filled in), and the fast launcher; it edits no file of the user's. A file of
that name that hookwise did not write is refused. Uninstall deletes the file (and the
``plugins`` directory, then the config directory, when that leaves them empty, in a
project; the user's config directories stay).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hookwise.policy.install.errors import InstallError
from hookwise.protocol.plugin_hosts import plugin_host

PLUGIN_FILE: Final = "hookwise.js"
# the first line of every plugin hookwise writes (how install and doctor recognise it)
HEADER_PREFIX: Final = "// hookwise policy plugin for "
_TEMPLATE: Final = Path(__file__).resolve().parent / "plugin" / PLUGIN_FILE


def config_home(env: Mapping[str, str]) -> Path:
    """$XDG_CONFIG_HOME, else ~/.config (where both hosts keep their user config)."""
    explicit = env.get("XDG_CONFIG_HOME")
    if explicit and os.path.isabs(explicit):
        return Path(explicit)
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".config"


def config_dir(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    """The host's config directory of ``scope``: ``<project>/.opencode`` or
    ``$XDG_CONFIG_HOME/opencode`` (Kilo: ``.kilo``, ``kilo``)."""
    facts = plugin_host(host).facts()
    if scope == "project":
        return Path(os.path.abspath(project)) / str(facts.PROJECT_DIR)
    if scope == "user":
        return config_home(env) / str(facts.CONFIG_DIR_NAME)
    raise ValueError(f"unknown scope {scope!r}; expected one of: project, user")


def plugin_path(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    facts = plugin_host(host).facts()
    return config_dir(host, scope, project, env) / str(facts.PLUGIN_DIRS[0]) / PLUGIN_FILE


def plugin_text(host: str, command: str, timeout_ms: int) -> str:
    """The plugin for ``host`` running ``command``, bounded to ``timeout_ms``."""
    text = _TEMPLATE.read_text(encoding="utf-8")
    title = plugin_host(host).title
    for key, value in (
        ("__HOST_TITLE__", title),
        ("__HOST__", host),
        ("__COMMAND__", json.dumps(command)),
        ("__TIMEOUT_MS__", str(int(timeout_ms))),
    ):
        text = text.replace(key, value)
    return text


def plugin_event(host: str) -> str:
    """The one plugin event hookwise's plugin answers (js_plugin.EVENT)."""
    return str(plugin_host(host).facts().EVENT_NAMES[0])


def is_hookwise_plugin(text: str | None) -> bool:
    return text is not None and text.startswith(HEADER_PREFIX)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read: {exc}") from None


def install_change(
    host: str, scope: str, project: Path, env: Mapping[str, str], *, command: str, seconds: int
) -> tuple[Path, str | None, str]:
    """(plugin path, its text now, the text install writes); a foreign file is refused."""
    path = plugin_path(host, scope, project, env)
    before = _read(path)
    if before is not None and not is_hookwise_plugin(before):
        raise InstallError(
            f"{path}: a file hookwise did not write is there; move it away first (nothing written)"
        )
    return path, before, plugin_text(host, command, seconds * 1000)


def uninstall_change(
    host: str, scope: str, project: Path, env: Mapping[str, str]
) -> tuple[Path, str | None, bool]:
    """(plugin path, its text now, whether it is hookwise's and so goes)."""
    path = plugin_path(host, scope, project, env)
    before = _read(path)
    return path, before, is_hookwise_plugin(before)


def remove_empty_dirs(path: Path, scope: str) -> None:
    """After the plugin file went, in a project: its ``plugins`` directory, then the config
    directory, when empty (what install made there). The user's config directory stays:
    the host keeps its own files there."""
    if scope != "project":
        return
    for directory in (path.parent, path.parent.parent):
        try:
            directory.rmdir()
        except OSError:
            return


def dependency_notes(host: str, scope: str, project: Path, env: Mapping[str, str]) -> list[str]:
    """What the host does before it loads any plugin, said where it will matter."""
    row = plugin_host(host)
    facts = row.facts()
    notes: list[str] = []
    waiting = [d for d in sdk_dirs(host, scope, project, env) if not sdk_installed(host, d)]
    if waiting:
        where = ", ".join(str(d) for d in waiting)
        notes.append(
            f"{row.title} installs {facts.PLUGIN_SDK} with npm into {where} when it starts and "
            "waits for that before it loads any plugin (hookwise's included); offline that "
            "wait lasts until npm gives up: give the host's npm `offline=true` (in ~/.npmrc) "
            "there, or let it install once online. hookwise's plugin needs no package"
        )
    switched = [name for name in facts.SWITCHES if env.get(name) not in (None, "", "0", "false")]
    if switched:
        notes.append(
            f"{', '.join(switched)} is set here: {row.title} then loads no plugin from "
            "there, so hookwise does not run"
        )
    return notes


def sdk_dirs(host: str, scope: str, project: Path, env: Mapping[str, str]) -> list[Path]:
    """The config directories the host installs its plugin package into (user always)."""
    dirs = [config_dir(host, "user", project, env)]
    if scope == "project":
        dirs.append(config_dir(host, "project", project, env))
    return dirs


def sdk_installed(host: str, directory: Path) -> bool:
    package = str(plugin_host(host).facts().PLUGIN_SDK)
    return (directory / "node_modules" / package / "package.json").is_file()
