"""The hosts hookwise reaches through its JavaScript plugin (OpenCode, Kilo): their rows.

They have no command hooks, so they are not rows of the command-hook registry (hosts.py,
whose commands read hooks settings); each row names its protocol module, which holds the
host's facts (tools, directories, settings files, session records, switches).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final


class PluginHost:
    """One plugin host's row."""

    __slots__ = ("module", "name", "table_name", "title")

    def __init__(self, name: str, title: str, module: str, table_name: str) -> None:
        self.name = name
        self.title = title
        self.module = module  # protocol module: TOOLS, PLUGIN_DIRS, SESSION_DB...
        self.table_name = table_name  # its DialectSpec (js_plugin.spec)

    def facts(self) -> ModuleType:
        import importlib

        return importlib.import_module(self.module)


PLUGIN_HOSTS: Final[dict[str, PluginHost]] = {
    "opencode": PluginHost("opencode", "OpenCode", "hookwise.protocol.opencode", "OPENCODE"),
    "kilo": PluginHost("kilo", "Kilo Code", "hookwise.protocol.kilo", "KILO"),
}
PLUGIN_HOST_NAMES: Final = tuple(PLUGIN_HOSTS)


def plugin_host(name: str) -> PluginHost:
    try:
        return PLUGIN_HOSTS[name]
    except KeyError:
        raise ValueError(
            f"unknown plugin host {name!r}; expected one of: {', '.join(PLUGIN_HOSTS)}"
        ) from None
