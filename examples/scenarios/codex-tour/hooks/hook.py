"""One hook script for the Codex tour scenario (`python3 hooks/hook.py`).

Codex fails open on answers it does not support, so every JSON answer names its
hookEventName; exit 2 blocks only with a reason on stderr; Stop needs JSON.
"""

import json
import sys

event = json.load(sys.stdin)
name = event["hook_event_name"]


def specific(**fields):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": name, **fields}}))
    sys.exit(0)


if name == "SessionStart":
    specific(additionalContext="Run `cargo test` before you finish.")
if name == "UserPromptSubmit":
    specific(additionalContext=f"(turn {event['turn_id']})")
if name == "PreToolUse":
    command = event["tool_input"].get("command", "")
    if command.startswith("git push --force"):
        print("force pushes are not allowed", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
if name == "PostToolUse":
    specific(additionalContext="The build took 12 s.")
if name == "PreCompact":
    print(json.dumps({"systemMessage": f"compacting ({event['trigger']})"}))
    sys.exit(0)
if name == "Stop":
    if event["stop_hook_active"] or "tested" in event["last_assistant_message"]:
        print("{}")
    else:
        print(json.dumps({"decision": "block", "reason": "Run cargo test first."}))
    sys.exit(0)
sys.exit(0)
