"""Kilo Code: payload -> canonical events, decision -> the answer hookwise's plugin obeys.

Kilo Code has no command hooks; hookwise's plugin (policy/install/plugin/hookwise.js) runs
``hookwise hook --platform kilo`` on ``tool.execute.before`` and throws on a deny. The
answer rules are the plugin's, shared with the other plugin host (plugin_host.py).
"""

from __future__ import annotations

from hookwise.policy.adapters.plugin_host import PluginAdapter

HOST = "kilo"
_ADAPTER = PluginAdapter(HOST)
decode = _ADAPTER.decode
encode = _ADAPTER.encode
