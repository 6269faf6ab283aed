"""The JavaScript plugin API of OpenCode and Kilo, and hookwise's wire through its plugin.

Neither host has command hooks. Both load JavaScript plugins (Kilo is a fork of OpenCode and
kept its plugin API), and hookwise ships one (``policy/install/plugin/hookwise.js``) that
runs ``hookwise hook --platform HOST`` on ``tool.execute.before``. What the host does, as
observed with OpenCode 1.18.33 and Kilo 7.7.9 (the real CLIs offline, and their bundled
code):

- ``tool.execute.before(input {tool, sessionID, callID}, output {args})`` fires before every
  tool (MCP tools included: the host wraps them alike); a throw blocks the tool and the
  Error's message is the tool result the model reads; mutating ``output.args`` in place
  changes what runs (the host passes the same object to the tool);
- the host waits for the plugin with no timeout of its own (a plugin that blocked 25 s was
  waited for), so the plugin bounds the hook itself;
- ``permission.ask`` is in the plugin API's documentation but neither binary triggers it,
  so a plugin cannot make the host ask; an ``ask`` is ``ask_fallback`` on both;
- ``config(cfg)`` is called once with the merged configuration: the plugin reads the MCP
  server names there, so ``server_tool`` tool names become ``mcp__server__tool``.

The payload the plugin sends is Claude-shaped (``hook_event_name``, ``session_id``,
``tool_use_id``, ``cwd``, ``tool_name``, ``tool_input``, plus ``host_tool_name`` when the
plugin renamed an MCP tool); the answer is JSON on stdout with exit 0, always:
``hookSpecificOutput`` {``hookEventName``, ``permissionDecision`` allow|deny,
``permissionDecisionReason``, ``updatedInput``}. The plugin fails closed: anything else
(another exit code, a signal, its timeout, no JSON, another event name or decision)
throws, so the tool does not run and the model reads why.
"""

from __future__ import annotations

from typing import Final

from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind

EVENT: Final = "tool.execute.before"

COMMON_INPUT: Final = ("session_id", "cwd", "hook_event_name")

# the answer keys the plugin reads, all inside hookSpecificOutput
ANSWER_FIELDS: Final = (
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
)
# the permissionDecision values the plugin accepts (anything else is a failure: blocked)
DECISIONS: Final = ("allow", "deny")

_EVENTS: Final = (
    DialectEvent(
        EVENT,
        Kind.TOOL_BEFORE,
        ("tool_name", "tool_input", "tool_use_id", "host_tool_name"),
        "tool_name",
        Decision.PERMISSION,
        Exit2.BLOCK,  # the plugin throws on every exit code but 0
        specific_fields=ANSWER_FIELDS,
        common_fields=(),
        json_required=True,  # an empty answer is a failure to the plugin
        stop_supported=False,
        decision_values=(),
        default_timeout_s=10.0,
    ),
)


def spec(host: str) -> DialectSpec:
    """The event table of a plugin host (the same events for both: the plugin is ours)."""
    return DialectSpec(host, {e.name: e for e in _EVENTS}, COMMON_INPUT)


# The plugin's own bound on one hook run when install is given none (milliseconds; the
# hosts have no timeout for a plugin at all).
DEFAULT_TIMEOUT_MS: Final = 10_000

# MCP tools: the host names them sanitize(server) + "_" + sanitize(tool), where sanitize
# replaces every character outside [A-Za-z0-9_-] with "_" (OpenCode's and Kilo's MCP client).
MCP_NAME_UNSAFE: Final = r"[^a-zA-Z0-9_-]"

# How a host tells a person from a script: ``opencode run`` / ``kilo run`` is headless (it
# auto-rejects its own permission prompts: "permission requested: ...; auto-rejecting"), the
# TUI is attended. The plugin API has no ``ask`` either way, so this only explains ask.
HEADLESS_SUBCOMMAND: Final = "run"
