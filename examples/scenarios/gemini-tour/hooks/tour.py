"""One hook script for every Gemini CLI event of the tour scenario.

Gemini CLI runs it as `python3 hooks/tour.py` with the event's JSON on stdin; it answers
on stdout (JSON) and exits 0, or writes a reason on stderr and exits 2.
"""

import json
import sys

event = json.load(sys.stdin)
name = event["hook_event_name"]


def answer(obj):
    print(json.dumps(obj))
    sys.exit(0)


def specific(**fields):
    answer({"hookSpecificOutput": {"hookEventName": name, **fields}})


def last_user_text(request):
    texts = [m["content"] for m in request.get("messages", []) if m.get("role") == "user"]
    return texts[-1] if texts else ""


if name == "SessionStart":
    specific(additionalContext="This project uses pytest; run it before claiming success.")
if name == "BeforeAgent":
    specific(additionalContext="Answer in English.")
if name == "BeforeModel":
    if "cached" in last_user_text(event["llm_request"]):
        answer(
            {
                "decision": "deny",
                "reason": "answered from the cache",
                "hookSpecificOutput": {
                    "hookEventName": name,
                    "llm_response": {
                        "candidates": [
                            {"content": {"role": "model", "parts": ["(cached) 42"]}}
                        ]
                    },
                },
            }
        )
    answer({})
if name == "BeforeToolSelection":
    specific(
        toolConfig={
            "mode": "ANY",
            "allowedFunctionNames": ["read_file", "run_shell_command"],
        }
    )
if name == "AfterModel":
    response = event["llm_response"]
    parts = response["candidates"][0]["content"]["parts"] if response.get("candidates") else []
    if any(isinstance(p, str) and "SECRET" in p for p in parts):
        response["candidates"][0]["content"]["parts"] = [
            p.replace("SECRET", "[REDACTED]") if isinstance(p, str) else p for p in parts
        ]
        specific(llm_response=response)
    answer({})
if name == "BeforeTool":
    command = event["tool_input"].get("command", "")
    if "rm -rf" in command:
        print("rm -rf is not allowed here", file=sys.stderr)
        sys.exit(2)
    if command == "ls":
        specific(tool_input={"command": "ls -la"})
    if command.startswith("git push"):
        answer({"decision": "ask", "systemMessage": "Pushing needs your approval."})
    answer({})
if name == "AfterTool":
    if event["tool_name"] == "read_file":
        specific(additionalContext="This file is generated; edit the template instead.")
    answer({})
if name == "AfterAgent":
    if "Summary:" not in event["prompt_response"] and not event["stop_hook_active"]:
        answer({"decision": "deny", "reason": "End your answer with a line 'Summary: ...'."})
    answer({})
if name in ("PreCompress", "Notification", "SessionEnd"):
    detail = event.get("trigger") or event.get("message") or event.get("reason")
    answer({"systemMessage": f"{name}: {detail}"})
answer({})
