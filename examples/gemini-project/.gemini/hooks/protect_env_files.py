"""BeforeTool: edits to .env files are denied with a reason the model can act on."""

import json
import os
import sys

event = json.load(sys.stdin)
path = event.get("tool_input", {}).get("file_path", "")
if os.path.basename(path).startswith(".env"):
    print(
        json.dumps(
            {
                "decision": "deny",
                "reason": f"{path} holds secrets; ask the user to change it by hand.",
                "systemMessage": f"blocked an edit to {path}",
            }
        )
    )
else:
    print(json.dumps({"decision": "allow"}))
