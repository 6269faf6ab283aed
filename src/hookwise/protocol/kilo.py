"""Kilo Code CLI's protocol as data (``@kilocode/cli`` 7.7.9): OpenCode's plugin API.

Kilo is a fork of OpenCode and kept its plugin hooks (js_plugin.py); its names, directories
and tools are its own. Observed on the real CLI offline or read in its bundled code (noted).
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol import js_plugin

KILO: Final = js_plugin.spec("kilo")
EVENT_NAMES: Final = tuple(KILO.events)

# Its tool names, plugin directories and install files are its registry row (hosts.py).

# Config directories (its bundled code): $XDG_CONFIG_HOME/kilo, and every `.kilo` (or the
# legacy `.kilocode`) directory from the working directory up to the project root; plugins
# are `{plugin,plugins}/*.{ts,js}` in each (the registry row's project and user files);
# its settings files (the ``plugin`` key names more code) are the row's ``code_files``.

# Installed with its npm client into a config directory that holds a file:// plugin, and
# waited for before plugins load (its bundled code; offline as for OpenCode).
PLUGIN_SDK: Final = "@kilocode/plugin"

PURE_SWITCH: Final = "KILO_PURE"  # no external plugin loads
PROJECT_CONFIG_SWITCH: Final = (
    "KILO_DISABLE_PROJECT_CONFIG"  # no project config directory or file is read
)
SWITCHES: Final = (PURE_SWITCH, PROJECT_CONFIG_SWITCH)

# Session records: $XDG_DATA_HOME/kilo/kilo.db (observed).
SESSION_DB: Final = "kilo/kilo.db"

HOST_TIMEOUT: Final = None
