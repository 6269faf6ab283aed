"""OpenCode's protocol as data (``opencode-ai`` 1.18.33): plugin hooks only (js_plugin.py).

Every fact here was observed on the real CLI offline or read in its bundled code (noted
where); the event table is the plugin's (js_plugin.spec).
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol import js_plugin

OPENCODE: Final = js_plugin.spec("opencode")
EVENT_NAMES: Final = tuple(OPENCODE.events)

# Its tool names, plugin directories and install files are its registry row (hosts.py).

# Where OpenCode looks for plugins (its bundled code: ``{plugin,plugins}/*.{ts,js}`` in
# every config directory): the user's config directory ($XDG_CONFIG_HOME/opencode) and
# every ``.opencode`` directory from the working directory up to the worktree root. Those
# directories are the registry row's project and user files; install writes ``plugins``.
# Its settings files (`plugin`: npm names or file:// URLs; `mcp`: servers) are the row's
# ``code_files``.

# Before it loads any plugin, OpenCode installs this package with its built-in npm client
# into every config directory whose node_modules lacks it, and waits for that install:
# offline it waits until npm gives up (observed: > 60 s in a namespace without network;
# `offline=true` in ~/.npmrc makes it fail at once, and the plugin still loads).
PLUGIN_SDK: Final = "@opencode-ai/plugin"

# Variables that switch plugins off: OPENCODE_PURE (its bundled code: no external plugin
# loads), OPENCODE_DISABLE_PROJECT_CONFIG (no project .opencode directory is read).
PURE_SWITCH: Final = "OPENCODE_PURE"  # no external plugin loads
PROJECT_CONFIG_SWITCH: Final = (
    "OPENCODE_DISABLE_PROJECT_CONFIG"  # no project config directory or file is read
)
SWITCHES: Final = (PURE_SWITCH, PROJECT_CONFIG_SWITCH)

# Session records: one SQLite database ($XDG_DATA_HOME/opencode/opencode.db; observed).
SESSION_DB: Final = "opencode/opencode.db"

# What a slow plugin meets: no host timeout (observed: a plugin that blocked 25 s was
# waited for, then the tool ran).
HOST_TIMEOUT: Final = None
