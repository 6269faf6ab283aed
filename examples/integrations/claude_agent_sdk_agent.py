"""A Claude Agent SDK agent whose tool calls obey the project's hookwise policy.

    pip install "hookwise[claude-agent-sdk]"
    python examples/integrations/claude_agent_sdk_agent.py "clean up the build directory"

Run it in a project with a ``.hookwise/policy.yaml`` (``hookwise policy init``). Every tool
call Claude makes goes through the policy before it runs: a denied call never runs and
Claude is told why, a rewrite changes what runs, an ``ask`` comes to :func:`approve` below
(this app's own approval step), and the project's existing Claude Code hooks in
``.claude/settings.json`` guard the agent too (``hooks_from="claude"``). Every decision is
in the audit log: ``hookwise logs --framework claude-agent-sdk --agent repo-helper``.

Environment: ``CLAUDE_CLI_PATH`` picks a Claude Code binary (default: the one bundled with
the SDK); ``APPROVE=yes|no`` answers approvals without asking (for CI); otherwise they are
asked on the terminal.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    TextBlock,
    ToolPermissionContext,
    ToolUseBlock,
)

from hookwise.integrations.claude_agent_sdk import ClaudeAgentGuard


async def approve(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
) -> PermissionResultAllow | PermissionResultDeny:
    """This application's approval step for ``ask`` rules (and calls no rule decided)."""
    why = context.decision_reason or "this call needs your approval"
    print(f"approval needed for {tool_name} {tool_input}: {why}", flush=True)
    answer = os.environ.get("APPROVE")
    if answer is None and sys.stdin.isatty():
        answer = await asyncio.to_thread(input, "allow? [y/N] ")
    if (answer or "").strip().lower() in ("y", "yes"):
        print("approved", flush=True)
        return PermissionResultAllow()
    print("refused", flush=True)
    return PermissionResultDeny(message="the user refused this call")


async def main(prompt: str) -> int:
    guard = ClaudeAgentGuard(
        agent="repo-helper", cwd=os.getcwd(), hooks_from="claude", can_use_tool=approve
    )
    options = guard.options(
        ClaudeAgentOptions(
            cli_path=os.environ.get("CLAUDE_CLI_PATH") or None,
            allowed_tools=["Read", "Grep", "Glob"],
            max_turns=8,
        )
    )
    async with ClaudeSDKClient(options=options) as client:
        await client.query(prompt)
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                for block in message.content:
                    if isinstance(block, TextBlock):
                        print(f"claude: {block.text}", flush=True)
                    elif isinstance(block, ToolUseBlock):
                        print(f"tool call: {block.name} {block.input}", flush=True)
            elif isinstance(message, ResultMessage):
                print(f"done: {message.subtype}", flush=True)
                return 1 if message.is_error else 0
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(" ".join(sys.argv[1:]) or "clean up the build directory")))
