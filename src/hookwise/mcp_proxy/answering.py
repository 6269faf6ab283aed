"""Hooks of the client that answer an MCP server's elicitation in the user's stead.

Claude Code runs ``Elicitation`` hooks before it shows a server's question, and a hook's
``accept`` is the answer (``ElicitationResult`` hooks can change the user's): a project's
``.claude/settings.json`` could answer every ``ask`` of the proxy. Where such a hook is
registered for the directory the proxy runs in, the proxy does not ask through the client:
the ask goes to the approval relay or ``ask_fallback`` (deny unless the policy says allow).
``doctor`` and ``scan`` report the same hooks.
"""

from __future__ import annotations

from collections.abc import Mapping


def answering_hooks(cwd: str, env: Mapping[str, str]) -> list[str]:
    """Where each hook that would answer an elicitation for a client in ``cwd`` is
    registered (its origin), hookwise's own hook excepted; a settings file that cannot be
    read counts as one (it could hold such a hook). Hookwise's own is told by the strict
    test scan uses (``runs_only_hookwise``): ``hookwise hook; echo accept``, ``hookwise hook
    --bogus || echo ...`` and ``./hookwise hook`` only look like it (red team s26 F5)."""
    from hookwise.config.claude.settings import load_claude_hooks
    from hookwise.config.hookwise_command import runs_only_hookwise
    from hookwise.config.host_homes import claude_config_dir
    from hookwise.protocol.hosts import elicitation_events

    answering = elicitation_events("claude")  # the events whose hooks answer (its table)

    home = None if env.get("CLAUDE_CONFIG_DIR") else str(claude_config_dir(env).parent)
    try:
        claude = load_claude_hooks(cwd, home=home, env=dict(env))
    except (OSError, ValueError) as exc:
        return [f"Claude Code's settings ({exc})"]
    return [
        entry.origin
        for entry in claude.registry.entries
        if entry.event in answering and entry.enabled and not runs_only_hookwise(entry.command)
    ]
