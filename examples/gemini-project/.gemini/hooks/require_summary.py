"""AfterAgent: ask for one retry when the final answer has no summary line."""

import json
import sys

event = json.load(sys.stdin)
if event.get("stop_hook_active") or "Summary:" in event.get("prompt_response", ""):
    print(json.dumps({}))
else:
    print(json.dumps({"decision": "deny", "reason": "End your answer with a 'Summary:' line."}))
