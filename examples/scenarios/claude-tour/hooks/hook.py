"""One hook script for the Claude Code tour scenario (`python3 hooks/hook.py`).

Claude Code reads exit 2 + stderr as a block on blockable events, plain stdout as
context on SessionStart/UserPromptSubmit, and JSON whose first character is `{`.
"""

import json
import sys

event = json.load(sys.stdin)
name = event["hook_event_name"]


def answer(obj):
    print(json.dumps(obj))
    sys.exit(0)


def block(reason):
    print(reason, file=sys.stderr)
    sys.exit(2)


if name == "SessionStart":
    print("This project uses pytest.")  # plain stdout: context
    sys.exit(0)
if name == "UserPromptSubmit":
    if "password" in event["prompt"]:
        block("Do not paste passwords into prompts.")
    print("Today is a release day.")
    sys.exit(0)
if name == "PreToolUse":
    command = event["tool_input"].get("command", "")
    if "rm -rf" in command:
        block("rm -rf is not allowed here")
    if command == "ls":
        answer(
            {
                "hookSpecificOutput": {
                    "hookEventName": name,
                    "permissionDecision": "allow",
                    "updatedInput": {"command": "ls -la"},
                }
            }
        )
    sys.exit(0)
if name == "PermissionRequest":
    if event["tool_input"].get("file_path", "").endswith(".env"):
        answer(
            {
                "hookSpecificOutput": {
                    "hookEventName": name,
                    "decision": {"behavior": "deny", "message": "never write .env files"},
                }
            }
        )
    sys.exit(0)
if name == "PostToolUse" and event["tool_name"] == "Read":
    answer(
        {
            "hookSpecificOutput": {
                "hookEventName": name,
                "additionalContext": "This file is generated; edit the template.",
            }
        }
    )
if name == "Stop" and not event["stop_hook_active"]:
    if "tests pass" not in event["last_assistant_message"]:
        answer({"decision": "block", "reason": "Run the tests before you stop."})
sys.exit(0)
