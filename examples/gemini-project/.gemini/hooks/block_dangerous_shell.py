"""BeforeTool: refuse shell commands that delete recursively or force-push."""

import json
import re
import sys

event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if re.search(
    r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f|\brm\s+-[a-zA-Z]*f[a-zA-Z]*r|push\s+.*--force", command
):
    # exit 2 with the reason on stderr: blocks in both profiles
    print(f"Refusing a destructive command: {command}", file=sys.stderr)
    sys.exit(2)
print(json.dumps({"decision": "allow"}))
