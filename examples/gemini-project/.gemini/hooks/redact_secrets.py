"""AfterTool: hide file contents that look like credentials from the model."""

import json
import re
import sys

event = json.load(sys.stdin)
content = str(event.get("tool_response", {}).get("llmContent", ""))
if re.search(r"(AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----)", content):
    print(json.dumps({"decision": "deny", "reason": "[file withheld: it contains credentials]"}))
else:
    print(json.dumps({"hookSpecificOutput": {"additionalContext": "read via redact-secrets"}}))
